"""A patience game's log on the server keeps no entries (its history is in the store): it
counts them, and plays, undoes and redoes as a log that keeps them."""

from __future__ import annotations

from spielcenter.games.base import get_game
from spielcenter.games.log import MOVE, REDO, UNDO, GameLog


def test_a_log_that_keeps_no_entries_numbers_them_as_one_that_does() -> None:
    cruel = get_game("cruel")
    stored = [(MOVE, 0, cruel.format_move(cruel.legal_moves(cruel.start(1))[0])), (UNDO, 0, None)]
    stored.append((REDO, 0, None))
    kept = GameLog.replay(cruel, 1, stored)
    lean = GameLog.replay(cruel, 1, stored, keep=False)
    assert lean.entries == [] and len(kept.entries) == 3
    assert lean.seq == kept.seq == 3
    assert lean.state == kept.state
    assert lean.undo() == kept.undo()
    assert lean.seq == 4 and lean.entries == []
