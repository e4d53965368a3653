"""Where the computer players think: in a thread of the server's process, or in a process of
their own (``COMPUTER_PROCESSES``, docs/server.md).

A thread shares the interpreter's lock with the event loop that runs every socket: while a
computer reckons (a few milliseconds, at times a few hundred), the loop waits for the lock at
each of its turns, up to the switch interval each time, and the computers' reckoning is CPU of
the server's one core (docs/performance.md, "The tables at 100 tables and 500 players"). A
process of its own thinks on another core and leaves the lock to the loop.

Either way a computer gets what it gets in the thread: the engine's rules, its own seat's view
(never the state), its seat and its memory of kit uses; in the process the memory goes there
and back, and the engine is built again there from the table's variant and options (a table
with computers holds no secret in its engine: the daily quilt has one seat).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

from spielcenter.games.base import JSON, Seat, get_game
from spielcenter.games.speedquilt.rules import Speedquilt

from . import Bot, get_bot
from .player import Memory

__all__ = ["Table", "ThinkingProcesses", "think_in_thread"]


class Table(NamedTuple):
    """What the thinking process builds the table's engine from."""

    variant: str
    options: dict[str, Any]


async def think_in_thread(
    bot: Bot, engine: Speedquilt, table: Table, view: JSON, seat: Seat, memory: Memory
) -> str:
    """``bot`` decides in a thread of this process (the loop goes on meanwhile)."""
    return await asyncio.to_thread(bot.decide, engine, view, seat, memory)


class ThinkingProcesses:
    """A pool of ``size`` processes the computers think in, started at the first decision."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pool: ProcessPoolExecutor | None = None

    async def think(
        self, bot: Bot, engine: Speedquilt, table: Table, view: JSON, seat: Seat, memory: Memory
    ) -> str:
        """``bot``'s level decides in a thinking process; ``memory`` is updated as in a thread.
        If the process died, this decision is thought in a thread and the next starts a new
        one (a computer never stalls its table)."""
        options = json.dumps(table.options, sort_keys=True)
        arguments = (bot.level, table.variant, options, view, seat, dict(memory))
        loop = asyncio.get_running_loop()
        try:
            text, kept = await loop.run_in_executor(self._started(), _decide, *arguments)
        except BrokenProcessPool:
            self.close()
            return await think_in_thread(bot, engine, table, view, seat, memory)
        memory.clear()
        memory.update(kept)
        return str(text)

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A clean interpreter (not a fork of the server with its threads and sockets).
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.size, mp_context=context, initializer=_follow, initargs=(os.getpid(),)
            )
        return self._pool

    def close(self) -> None:
        """Stop the processes and wait for them to end (at shutdown: the decisions waiting are
        dropped, one in progress is finished; a process must not outlive its server)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


PARENT_POLL_S = 1.0
"""How often a thinking process looks whether its server still runs."""


def _follow(server: int) -> None:
    """In a thinking process: end when the server is gone, even killed without a word (the
    pool's own goodbye never comes then, and the process would wait for work for ever)."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_POLL_S)
        os._exit(0)

    threading.Thread(target=watch, name="spielcenter-follow-server", daemon=True).start()


_BOTS: dict[str, Bot] = {}
_ENGINES: dict[tuple[str, str], Speedquilt] = {}


def _decide(
    level: str, variant: str, options: str, view: JSON, seat: Seat, memory: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """In the thinking process: the decision of a computer of ``level`` and its memory after it.

    One player per level serves every table here: its own caches are keyed by what it sees
    (quilt, shop, round), so they give every table the answer it would have reckoned alone."""
    engine = _ENGINES.get((variant, options))
    if engine is None:
        made = get_game("speedquilt", variant, **json.loads(options))
        assert isinstance(made, Speedquilt)
        engine = _ENGINES[(variant, options)] = made
    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = get_bot(level)
    text = bot.decide(engine, view, seat, memory)
    return text, memory
