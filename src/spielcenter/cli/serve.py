"""``spielcenter serve``: the web server (uvicorn) with the database migrated at start."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spielcenter.settings import Settings


def register(subparsers: Any) -> None:
    """Add the ``serve`` sub-command."""
    parser = subparsers.add_parser("serve", help="run the web server")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="folder of the SQLite database (./data)"
    )
    parser.set_defaults(func=serve)


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; uvicorn shuts it down gracefully on SIGINT/SIGTERM."""
    import uvicorn

    from spielcenter.server.app import create_app
    from spielcenter.settings import ConfigurationError, Settings

    overrides = {} if args.data_dir is None else {"DATA_DIR": args.data_dir}
    try:
        settings = Settings(**overrides)
        app = create_app(settings, freeze_startup_heap=True)
    except ConfigurationError as exc:
        print(f"spielcenter serve: {exc}", file=sys.stderr)
        return 2
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="info",
        timeout_graceful_shutdown=5,
        **proxy_options(settings),
        **socket_options(settings),
    )
    return 0


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the balancers in front (``SPIELCENTER_TRUSTED_PROXIES``).

    Forwarded addresses are believed only from the balancers named: from anyone else an
    ``X-Forwarded-For`` would be a new budget at every door with every request.
    """
    trusted = settings.TRUSTED_PROXIES
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": ",".join(trusted) or None}


def socket_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's WebSocket protocol: its own, but a message shorter than ``DEFLATE_MIN_BYTES``
    goes uncompressed (server/deflate.py)."""
    from spielcenter.server.deflate import protocol

    return {"ws": protocol(settings.DEFLATE_MIN_BYTES)}
