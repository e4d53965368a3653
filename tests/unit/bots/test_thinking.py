"""Where the computers think (bots/thinking.py): a process of their own decides as the thread
does — the same move and the same memory from the same view — and a dead process never stalls
a table."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import signal
import sys
from pathlib import Path

from spielcenter.bots import get_bot
from spielcenter.bots.thinking import Table, ThinkingProcesses, think_in_thread
from spielcenter.games.base import Status, get_game
from spielcenter.games.speedquilt.history import table_log
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.settings import Settings

TABLE = Table("table", {"players": 4})


def engine() -> Speedquilt:
    made = get_game("speedquilt", TABLE.variant, **TABLE.options)
    assert isinstance(made, Speedquilt)
    return made


async def test_a_computer_in_its_own_process_decides_as_in_a_thread() -> None:
    game, processes = engine(), ThinkingProcesses(1)
    log = table_log(game, 77, [])
    bots = {seat: get_bot(level) for seat, level in enumerate(["easy", "normal", "easy", "easy"])}
    memories: dict[int, dict[str, object]] = {seat: {} for seat in bots}
    try:
        for _ in range(80):
            if game.status(log.state) is not Status.PLAYING:
                break
            acting, active = game.to_act(log.state), log.state.active
            seat = min(acting - {active}, default=active)
            assert seat is not None
            view = game.view_for(log.state, seat)  # its own seat's view, nothing more
            in_thread = copy.deepcopy(memories[seat])
            expected = await think_in_thread(bots[seat], game, TABLE, view, seat, in_thread)
            text = await processes.think(bots[seat], game, TABLE, view, seat, memories[seat])
            assert (text, memories[seat]) == (expected, in_thread)
            entry, after = log.step(seat, game.parse_move(text))
            log.accept(entry, after)
    finally:
        processes.close()
    assert log.seq == 80


async def test_when_the_thinking_process_dies_the_computer_thinks_in_a_thread() -> None:
    game, processes = engine(), ThinkingProcesses(1)
    log = table_log(game, 77, [])
    view, bot = game.view_for(log.state, 1), get_bot("easy")
    try:
        await processes.think(bot, game, TABLE, view, 1, {})
        pool = processes._pool
        assert pool is not None
        for pid in list(pool._processes):  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)
        text = await processes.think(bot, game, TABLE, view, 1, {})
        game.check(log.state, game.parse_move(text), 1)  # a legal decision all the same
        again = await processes.think(bot, game, TABLE, view, 1, {})  # a new process
        assert again == text
    finally:
        processes.close()


def test_computers_think_in_a_process_of_their_own_unless_in_development() -> None:
    production = Settings(ENV="production", SECRET_KEY="k", DAILY_SECRET="d")
    assert production.computer_processes == 1
    assert Settings(ENV="development").computer_processes == 0
    assert Settings(ENV="production", COMPUTER_PROCESSES=0).computer_processes == 0


async def test_the_thinking_process_ends_with_its_server() -> None:
    # A server killed without a word (SIGKILL) never says goodbye to its pool: its thinking
    # process must notice and end, not wait for work for ever.
    script = (
        "import asyncio, sys\n"
        "from spielcenter.bots import get_bot\n"
        "from spielcenter.bots.thinking import Table, ThinkingProcesses\n"
        "from spielcenter.games.base import get_game\n"
        "async def main():\n"
        "    game = get_game('speedquilt', 'table', players=4)\n"
        "    processes = ThinkingProcesses(1)\n"
        "    view = game.view_for(game.start(77), 1)\n"
        "    await processes.think(get_bot('easy'), game, "
        "Table('table', {'players': 4}), view, 1, {})\n"
        "    print(*processes._pool._processes, flush=True)\n"
        "    await asyncio.sleep(600)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, stdout=asyncio.subprocess.PIPE
    )
    assert server.stdout is not None
    [thinker] = [int(pid) for pid in (await server.stdout.readline()).split()]
    server.kill()
    await server.wait()
    for _ in range(100):  # it looks once a second
        if not Path(f"/proc/{thinker}").exists() or _zombie(thinker):
            break
        await asyncio.sleep(0.1)
    assert not Path(f"/proc/{thinker}").exists() or _zombie(thinker)


def _zombie(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    return True
