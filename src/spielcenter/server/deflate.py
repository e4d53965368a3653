"""permessage-deflate that compresses a message only when it is large enough to gain.

uvicorn negotiates permessage-deflate (RFC 7692) with every browser and compresses every
message it sends: websockets' ``PerMessageDeflate.encode`` calls zlib twice per message
(``compress`` and ``flush``), and CPython's zlib lets go of the interpreter's lock around each
call, whatever the size. Each time, another thread of the process that waits for the lock (the
group commit's SQLite thread, the computers' pool threads) may take it, and the event loop then
waits until that thread lets go and the machine gives the loop a core again: with 500 patience
players up to a thousand such moments a second, for events whose compression saves about 300
bytes each (a few microseconds of CPU: the hand-over, not the compression, is the cost). In
traced runs of ``bench/load.py`` the loop's stalls (the loop off the CPU) and the group
commit's waits fell with these compressions gone (docs/performance.md, "Small events sent as
they are").

RFC 7692 lets a sender leave any message uncompressed once the extension is agreed: its first
frame goes out with RSV1 clear, and a receiver takes it as it is (section 6: only a message
whose first frame has RSV1 set is decompressed). Neither side's compression context sees such
a message, so both stay in step. :class:`ThresholdDeflate` sends a message of fewer than
``min_bytes`` bytes that way and compresses every larger one as websockets does, with context
takeover (a table's event with its view: ~2.9 kB of JSON, ~200 bytes on the wire).

:class:`SocketProtocol` is uvicorn's own WebSocket protocol (``websockets``' sans-I/O one, as
``ws="auto"`` picks) offering this extension with uvicorn's settings (a 4 kB window and
``memLevel`` 5: about 32 kB of compressor per socket); ``spielcenter serve`` runs with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

__all__ = ["DEFAULT_MIN_BYTES", "SocketProtocol", "ThresholdDeflate", "ThresholdDeflateFactory"]

DEFAULT_MIN_BYTES = 512
"""Messages shorter than this go uncompressed: a patience event with what changed (~320 bytes
of JSON), a refusal, a chat line, a clock's tick; a table's event or state and a patience
game's opening state (~600 bytes and more) are compressed."""

WINDOW_BITS = 12
MEM_LEVEL = 5
"""uvicorn's own settings for its compressors (``websockets_sansio_impl``): 4 kB of window,
about 32 kB of zlib state per socket in all."""


class ThresholdDeflate(PerMessageDeflate):
    """websockets' permessage-deflate, but a message of one frame shorter than ``min_bytes``
    is sent as it is (RSV1 clear). Receiving is unchanged."""

    def __init__(self, *args: Any, min_bytes: int = DEFAULT_MIN_BYTES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.min_bytes = min_bytes

    def encode(self, frame: Frame) -> Frame:
        """``frame`` as it goes on the wire: a whole small message as it is, else compressed."""
        # Only a whole message (its one frame) may be left as it is: the continuation frames of
        # a message whose first frame was compressed must be compressed too.
        whole = frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
        if whole and len(frame.data) < self.min_bytes:
            return frame
        return super().encode(frame)


class ThresholdDeflateFactory(ServerPerMessageDeflateFactory):
    """The server's offer of permessage-deflate, answered with a :class:`ThresholdDeflate`."""

    def __init__(self, min_bytes: int = DEFAULT_MIN_BYTES, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.min_bytes = min_bytes

    def process_request_params(
        self,
        params: Sequence[ExtensionParameter],
        accepted_extensions: Sequence[Any],
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, ThresholdDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
            min_bytes=self.min_bytes,
        )


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with :class:`ThresholdDeflateFactory` instead of its own
    permessage-deflate (when uvicorn's ``ws_per_message_deflate`` is on, its default).

    ``min_bytes`` is set on the class by :func:`protocol` (uvicorn makes one instance per
    connection and passes it nothing of ours)."""

    min_bytes = DEFAULT_MIN_BYTES

    def __init__(self, config: Config, server_state: ServerState, *args: Any, **kw: Any) -> None:
        super().__init__(config, server_state, *args, **kw)
        if config.ws_per_message_deflate:
            self.conn.available_extensions = [
                ThresholdDeflateFactory(
                    self.min_bytes,
                    server_max_window_bits=WINDOW_BITS,
                    client_max_window_bits=WINDOW_BITS,
                    compress_settings={"memLevel": MEM_LEVEL},
                )
            ]


def protocol(min_bytes: int) -> type[SocketProtocol]:
    """The protocol class for uvicorn's ``ws`` option, leaving messages shorter than
    ``min_bytes`` uncompressed (0: every message compressed, as uvicorn does)."""
    return type("SocketProtocol", (SocketProtocol,), {"min_bytes": min_bytes})
