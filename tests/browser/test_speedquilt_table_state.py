"""The table screen's reducer (speedquilt-table-state.js) and solo's protocol adapter
(speedquilt-solo-protocol.js): pure functions of the client, run in the page as the screen runs
them, with messages shaped as docs/protocol.md says the server sends them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from .ui import PageFactory

pytestmark = pytest.mark.browser

REDUCE = """async (messages) => {
  const { NO_TABLE, tableState } = await import("/static/js/speedquilt-table-state.js");
  const states = [];
  let state = NO_TABLE;
  for (const message of messages) {
    state = tableState(state, message);
    states.push(JSON.parse(JSON.stringify(state)));
  }
  return states;
}"""

TABLE = {"id": "t1", "seats": [{"seat": 0, "away": None}, {"seat": 1, "away": None}]}
VIEW = {"phase": "turn", "status": "playing", "round": 1, "shop": {"pattern": ["P01"], "kit": []}}


def reduce(page: Page, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The state after each of ``messages``, from the empty one."""
    states: list[dict[str, Any]] = page.evaluate(REDUCE, messages)
    return states


def opened(seq: int = 3) -> dict[str, Any]:
    return {
        "type": "table.state",
        "seq": seq,
        "seat": 1,
        "view": VIEW,
        "legal": ["roll"],
        "to_act": [1],
        "history": [{"key": "history.start", "seat": 0}],
        "table": TABLE,
        "chat": [],
    }


def event(seq: int, seat: int, view: dict[str, Any] = VIEW) -> dict[str, Any]:
    line = {"key": "history.roll", "seat": seat}
    entry = {"seq": seq, "seat": seat, "move": "roll", "line": line, "also": []}
    return {
        "type": "table.event",
        "seq": seq,
        "view": view,
        "legal": [],
        "to_act": [0],
        "entry": entry,
    }


@pytest.fixture
def page(open_page: PageFactory) -> Page:
    return open_page()


def test_table_state_holds_her_seat_view_legal_moves_and_history(page: Page) -> None:
    (state,) = reduce(page, [opened()])
    assert state["seat"] == 1
    assert state["seq"] == 3
    assert state["view"] == VIEW
    assert state["legal"] == ["roll"]
    assert state["toAct"] == [1]
    assert state["history"] == [{"key": "history.start", "seat": 0}]
    assert state["table"] == TABLE
    assert state["chat"] == []


def test_an_event_adds_its_line_and_only_her_own_entry_is_mine(page: Page) -> None:
    _, theirs, hers = reduce(page, [opened(), event(4, 0), event(5, 1)])
    assert [line["seat"] for line in theirs["history"]] == [0, 0]
    assert theirs["mine"] is None
    assert [line["seat"] for line in hers["history"]] == [0, 0, 1]
    assert hers["mine"] == 5
    assert hers["legal"] == []


def test_a_seat_that_changes_hands_gives_a_new_table_and_leaves_the_old_state_alone(
    page: Page,
) -> None:
    result = page.evaluate(
        """async ([opened, seat]) => {
          const { NO_TABLE, tableState } = await import("/static/js/speedquilt-table-state.js");
          const before = tableState(NO_TABLE, opened);
          const after = tableState(before, seat);
          return { before: before.table.seats[0].away, after: after.table.seats[0].away,
                   clocks: after.clocks };
        }""",
        [
            opened(),
            {"type": "table.seat", "seat": 0, "away": "2026-12-06", "clocks": [{"seat": 1}]},
        ],
    )
    assert result == {"before": None, "after": "2026-12-06", "clocks": [{"seat": 1}]}


def test_a_finished_view_gives_the_result_before_table_end_and_table_end_replaces_it(
    page: Page,
) -> None:
    over = {**VIEW, "phase": "over", "scores": [10, 12], "places": [2, 1], "breakdown": None}
    result = {"scores": [10, 12], "places": [2, 1], "leaderboard_points": [100, 110]}
    _, finished, ended = reduce(
        page, [opened(), event(4, 0, over), {"type": "table.end", "result": result}]
    )
    assert finished["result"]["scores"] == [10, 12]
    assert finished["result"]["places"] == [2, 1]
    assert ended["result"] == result


def test_a_changed_shelf_slides_and_an_unchanged_one_does_not(page: Page) -> None:
    bought = {**VIEW, "shop": {"pattern": ["P02"], "kit": []}}
    first, same, changed = reduce(page, [opened(), event(4, 0), event(5, 0, bought)])
    assert first["slid"] is None
    assert same["slid"] is None
    assert changed["slid"] == {"pattern": True, "kit": False}


def test_solo_messages_reach_the_screen_as_table_messages(page: Page) -> None:
    solo_view = {**VIEW, "game": "speedquilt", "legal": ["roll"], "to_act": [0]}
    translated = page.evaluate(
        """async ([view]) => {
          const { tableMessageOf } = await import("/static/js/speedquilt-solo-protocol.js");
          return [
            tableMessageOf({ type: "state", seq: 2, view }, null, "g1"),
            tableMessageOf({ type: "event", seq: 3, event: { kind: "undo", move: "sew P01" },
                             view, achievements: ["a"] }, view, "g1"),
            tableMessageOf({ type: "state", seq: 1, view: { game: "cruel" } }, null, "g1"),
            tableMessageOf({ type: "error", code: "illegal_move" }, view, "g1"),
          ];
        }""",
        [solo_view],
    )
    state, undo, patience, error = translated
    assert state == {
        "type": "table.state",
        "table_id": "g1",
        "seq": 2,
        "view": solo_view,
        "legal": ["roll"],
        "to_act": [0],
        "seat": 0,
        "history": [],
    }
    assert undo["type"] == "table.event"
    assert undo["entry"] == {"seq": 3, "seat": 0, "move": "sew P01", "line": None, "also": []}
    assert undo["achievements"] == ["a"]
    assert patience == {"type": "solo.other_game"}
    assert error == {"type": "error", "code": "illegal_move"}
