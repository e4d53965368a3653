"""A computer thinks while its pause runs (server/tables.py, services/table_play.py;
docs/performance.md "Thinking in the pause"): the pause before its move is as long as ever, a
person's move that arrives meanwhile is taken at once, and a thought the position outran is
dropped without a trace."""

from __future__ import annotations

import asyncio
import gc
import time
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from spielcenter.bots import Bot
from spielcenter.bots.player import Memory
from spielcenter.bots.thinking import Table
from spielcenter.games.base import JSON, Seat
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.server.hub import Hub
from spielcenter.server.tables import MoveCommand, TableActor, speedquilt_engine
from spielcenter.services.games import GameService
from spielcenter.services.sessions import Login
from spielcenter.services.table_play import TableServices
from spielcenter.services.tables import TableService

PERSON, COMPUTER = 0, 1


@dataclass(eq=False)
class Socket:
    """Anna's socket as the actor sees it: it keeps what it is sent."""

    login: Login = field(default_factory=lambda: Login(1, "anna", "csrf"))
    id: str = "anna-socket"
    games: set[str] = field(default_factory=set)
    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


@dataclass
class Thinking:
    """A computer's thinking as the test sees it: each thought's seat and memory, and a gate
    the thoughts wait at until the test opens it."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)
    thoughts: list[Memory] = field(default_factory=list)
    dropped: int = 0
    asked: asyncio.Event = field(default_factory=asyncio.Event)

    async def think(
        self, bot: Bot, engine: Speedquilt, table: Table, view: JSON, seat: Seat, memory: Memory
    ) -> str:
        assert seat == COMPUTER
        self.thoughts.append(memory)
        memory[f"thought {len(self.thoughts)}"] = True  # what a computer may note as it thinks
        self.asked.set()
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.dropped += 1
            raise
        return bot.decide(engine, view, seat, memory)


ActorFor = Callable[[float, Thinking], Awaitable[TableActor]]


@pytest.fixture
async def actor_for(services: tuple[GameService, TableService]) -> AsyncIterator[ActorFor]:
    """A table of Anna and one easy computer at normal tempo, its actor pausing ``pause``
    seconds before each computer move and thinking with ``thinking`` (not started)."""
    _, tables = services
    actors: list[TableActor] = []

    async def actor(pause: float, thinking: Thinking) -> TableActor:
        stored = await tables.create("anna", players=2, bots=["easy"], deal=5)
        rules = speedquilt_engine(stored.record.variant, dict(stored.record.options))
        live = TableServices.build(tables, think=thinking.think).live(stored, rules)
        actors.append(TableActor(live, Hub(), {"normal": pause}))
        return actors[-1]

    yield actor
    for made in actors:
        await made.stop()


async def test_the_computer_thinks_in_its_pause_and_her_move_meanwhile_is_taken_at_once(
    actor_for: ActorFor,
) -> None:
    thinking = Thinking()
    actor = await actor_for(60.0, thinking)  # a pause no test waits out
    assert actor.engine.to_act(actor.state) >= {PERSON, COMPUTER}  # both choose their start
    actor.start()
    await asyncio.wait_for(thinking.asked.wait(), 10)  # thinking, with the pause just begun
    assert actor.seq == 0

    # Her choice while the computer thinks: taken without waiting for its thought.
    choice = actor.engine.format_move(actor.engine.legal_moves(actor.state, PERSON)[0])
    socket = Socket()
    await asyncio.wait_for(actor.submit(MoveCommand(socket, 1, move=choice, seq=0)), 10)
    assert [(e.seq, e.seat) for e in actor.entries] == [(1, PERSON)]
    assert socket.sent[-1]["type"] == "table.event" and socket.sent[-1]["ref"] == 1

    # The thought was for the position before her choice: dropped, and the computer thinks
    # again about the position now; neither thought left anything in the computer's memory.
    for _ in range(200):
        if len(thinking.thoughts) == 2:
            break
        await asyncio.sleep(0.01)
    assert len(thinking.thoughts) == 2 and thinking.dropped == 1
    await actor.stop()
    assert thinking.dropped == 2
    assert actor.table.memories[COMPUTER] == {}
    assert actor.seq == 1


async def test_the_pause_before_a_computer_move_is_as_long_as_ever(actor_for: ActorFor) -> None:
    thinking = Thinking()
    thinking.gate.set()  # the computer has its move at once
    pause = 0.3
    actor = await actor_for(pause, thinking)
    began = time.perf_counter()
    actor.start()
    while actor.seq == 0:
        assert time.perf_counter() - began < 20, "the computer never moved"
        await asyncio.sleep(0.01)
    assert time.perf_counter() - began >= pause
    assert [(e.seq, e.seat) for e in actor.entries] == [(1, COMPUTER)]
    # The thought played is the one whose memory the computer keeps.
    assert actor.table.memories[COMPUTER].get("thought 1") is True


async def test_a_thought_dropped_before_it_begins_never_asks_the_computer(
    actor_for: ActorFor,
) -> None:
    """A thought the position outran before its task ran is dropped whole: the computer was
    never asked, so no asked-for thinking is left behind unawaited."""
    thinking = Thinking()
    asked: list[Seat] = []

    def counted(
        bot: Bot, engine: Speedquilt, table: Table, view: JSON, seat: Seat, memory: Memory
    ) -> Awaitable[str]:
        asked.append(seat)  # asking is calling: the thinking it returns runs only when awaited
        return thinking.think(bot, engine, table, view, seat, memory)

    actor = await actor_for(60.0, thinking)
    live = actor.table
    live.think = counted
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        live.think_ahead(COMPUTER)
        live.drop_thought()  # at once: its task has not begun
        for _ in range(3):
            await asyncio.sleep(0)
        gc.collect()
    assert asked == [] and thinking.thoughts == []
    assert not [w for w in seen if "never awaited" in str(w.message)]

    # A thought that does begin asks the computer once.
    live.think_ahead(COMPUTER)
    await asyncio.wait_for(thinking.asked.wait(), 10)
    assert asked == [COMPUTER]
    live.drop_thought()
