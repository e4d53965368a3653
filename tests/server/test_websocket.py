"""The WebSocket protocol (docs/protocol.md): playing, reconnecting, undo and redo, refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from spielcenter.games.base import Status
from spielcenter.server.websocket import MOVE_TEXT_MAX
from spielcenter.services.games import RECENT_EVENTS
from spielcenter.settings import Settings
from tests.protocol import apply_changes

from .conftest import database_rows, new_game
from .ladder import line_to

DEAL = 7


def opened(ws: WebSocketTestSession, game_id: str, **fields: Any) -> dict[str, Any]:
    """Open a game on the socket; the first answer."""
    ws.send_json({"type": "open", "game_id": game_id, **fields})
    answer: dict[str, Any] = ws.receive_json()
    return answer


def send(ws: WebSocketTestSession, **message: Any) -> dict[str, Any]:
    """Send one message; the answer."""
    ws.send_json(message)
    answer: dict[str, Any] = ws.receive_json()
    return answer


def play(ws: WebSocketTestSession, game_id: str, moves: list[str]) -> list[dict[str, Any]]:
    """Play moves one by one; their events."""
    events = [send(ws, type="move", game_id=game_id, move=move) for move in moves]
    assert all(event["type"] == "event" for event in events), events
    return events


def still_open(ws: WebSocketTestSession) -> None:
    """The socket still answers."""
    assert send(ws, type="ping") == {"type": "pong"}


def test_open_sends_the_full_view_at_seq_0(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        state = opened(ws, game["id"])
    assert state["type"] == "state" and state["seq"] == 0
    view = state["view"]
    assert (view["game"], view["deal"], view["status"]) == ("ladder", DEAL, "playing")
    assert view["legal"] == ["d"] and view["moves_made"] == 0
    assert (view["can_undo"], view["can_redo"], view["elapsed_ms"]) == (False, False, 0)


def test_every_accepted_move_is_an_event_with_the_next_seq(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        events = play(ws, game["id"], ["d", "d"])
    assert [e["seq"] for e in events] == [1, 2]
    assert events[0]["event"] == {"kind": "move", "move": "d"}
    assert events[1]["view"]["moves_made"] == 2


def test_a_full_game_with_a_reconnect_in_the_middle(client: TestClient) -> None:
    game, line = new_game(client, deal=DEAL), line_to(Status.WON, DEAL)
    half = len(line) // 2
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        seen = play(ws, game["id"], line[:half])[-1]["seq"]
    # Another device plays on while this one is away.
    with client.websocket_connect("/ws") as other:
        play(other, game["id"], line[half : half + 2])
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"], "last_seq": seen})
        missed = [ws.receive_json(), ws.receive_json()]
        assert [m["type"] for m in missed] == ["event", "event"]
        assert [m["seq"] for m in missed] == [seen + 1, seen + 2]
        last = play(ws, game["id"], line[half + 2 :])[-1]
    assert last["view"]["status"] == "won" and last["view"]["legal"] == []
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "won"


def test_a_reconnect_with_nothing_missed_gets_nothing_but_later_events(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        play(ws, game["id"], ["d"])
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"], "last_seq": 1})
        assert send(ws, type="ping") == {"type": "pong"}


def test_a_big_gap_gets_the_full_state(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    client = make_client(make_app(SOCKET_MESSAGE_LIMIT="1000/second"))
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        for _ in range(RECENT_EVENTS // 2 + 1):
            play(ws, game["id"], ["d"])
            send(ws, type="undo", game_id=game["id"])
        final_seq = 2 * (RECENT_EVENTS // 2 + 1)
    with client.websocket_connect("/ws") as ws:
        state = opened(ws, game["id"], last_seq=0)
    assert state["type"] == "state" and state["seq"] == final_seq


def test_a_last_seq_ahead_of_the_game_gets_the_full_state(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        state = opened(ws, game["id"], last_seq=5)
    assert state["type"] == "state" and state["seq"] == 0


def test_undo_and_redo_are_entries_of_the_log(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        play(ws, game["id"], ["d", "d"])
        undo = send(ws, type="undo", game_id=game["id"])
        redo = send(ws, type="redo", game_id=game["id"])
        again = send(ws, type="undo", game_id=game["id"])
    assert (undo["seq"], undo["event"]) == (3, {"kind": "undo", "move": "d"})
    assert undo["view"]["moves_made"] == 1 and undo["view"]["can_redo"] is True
    assert (redo["seq"], redo["event"]) == (4, {"kind": "redo", "move": "d"})
    assert redo["view"]["moves_made"] == 2 and redo["view"]["can_redo"] is False
    assert again["view"]["waste"] == undo["view"]["waste"]


def test_undo_and_redo_survive_a_reload(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        play(ws, game["id"], ["d", "d", "d"])
        send(ws, type="undo", game_id=game["id"])
        before = send(ws, type="undo", game_id=game["id"])["view"]
    with client.websocket_connect("/ws") as ws:
        after = opened(ws, game["id"])
        redone = send(ws, type="redo", game_id=game["id"])
    assert after["view"] == before and after["seq"] == 5
    assert redone["view"]["moves_made"] == 2


def test_a_restart_of_the_server_continues_the_game(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    first = make_client(make_app())
    game = new_game(first, deal=DEAL)
    with first.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        play(ws, game["id"], ["d", "d"])
        before = send(ws, type="undo", game_id=game["id"])
    first.__exit__(None, None, None)
    second = make_client(make_app())
    second.cookies = first.cookies
    with second.websocket_connect("/ws") as ws:
        state = opened(ws, game["id"])
        redone = send(ws, type="redo", game_id=game["id"])
    assert (state["seq"], state["view"]) == (3, before["view"])
    assert redone["seq"] == 4 and redone["view"]["moves_made"] == 2


def test_every_socket_watching_a_game_gets_its_events(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as watcher, client.websocket_connect("/ws") as player:
        opened(watcher, game["id"])
        opened(player, game["id"])
        mine = send(player, type="move", game_id=game["id"], move="d", id="m1")
        theirs = watcher.receive_json()
    assert mine["ref"] == "m1" and "ref" not in theirs
    assert {**theirs, "ref": "m1"} == mine


def test_a_stale_seq_is_refused(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        play(ws, game["id"], ["d"])
        error = send(ws, type="move", game_id=game["id"], move="d", seq=0)
        current = send(ws, type="move", game_id=game["id"], move="d", seq=1)
    assert error["type"] == "error" and error["code"] == "stale"
    assert current["seq"] == 2


def test_an_illegal_move_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        error = send(ws, type="move", game_id=game["id"], move="r")
        state = opened(ws, game["id"])
    assert error["code"] == "illegal_move" and "r" in error["message"]
    assert state["seq"] == 0


def test_a_move_that_cannot_be_read_is_a_bad_move(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        error = send(ws, type="move", game_id=game["id"], move="zz")
        still_open(ws)
    assert error["code"] == "bad_move" and "zz" in error["message"]


def test_a_move_as_long_as_a_five_dice_sewing_is_read_and_a_longer_one_is_not(
    client: TestClient,
) -> None:
    """docs/protocol.md: a move's text may have up to MOVE_TEXT_MAX characters (Speedquilt's
    sewings of five dice are 46), and the message is read, so the engine decides on it."""
    game = new_game(client, deal=DEAL)
    sewing = "sew P13 purple:8 yellow:7 green:6 blue:5 red:4"
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        read = send(ws, type="move", game_id=game["id"], move=sewing)
        too_long = send(ws, type="move", game_id=game["id"], move="x" * (MOVE_TEXT_MAX + 1))
        state = opened(ws, game["id"])
    assert read["code"] == "bad_move"  # no Cruel move, but read: the engine said so
    assert too_long["code"] == "bad_message"
    assert state["seq"] == 0


def test_nothing_to_undo_and_nothing_to_redo(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        undo = send(ws, type="undo", game_id=game["id"])
        redo = send(ws, type="redo", game_id=game["id"])
    assert (undo["code"], redo["code"]) == ("nothing_to_undo", "nothing_to_redo")


def test_a_finished_game_takes_no_more_entries(client: TestClient) -> None:
    game, line = new_game(client, deal=DEAL), line_to(Status.WON, DEAL)
    with client.websocket_connect("/ws") as ws:
        play(ws, game["id"], line)
        error = send(ws, type="undo", game_id=game["id"])
    assert error["code"] == "game_over"


def test_the_hint_is_a_foundation_move_when_there_is_one(client: TestClient) -> None:
    game, line = new_game(client, deal=DEAL), line_to(Status.WON, DEAL)
    before_foundation = line[: line.index("wf")]
    with client.websocket_connect("/ws") as ws:
        play(ws, game["id"], before_foundation)
        hint = send(ws, type="hint", game_id=game["id"], id=9)
    assert hint == {
        "type": "hint",
        "game_id": game["id"],
        "move": "wf",
        "text": "hint.to_foundation",
        "ref": 9,
    }


def test_ping_is_answered_with_pong_carrying_the_ref(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        assert send(ws, type="ping", id="p") == {"type": "pong", "ref": "p"}


BAD_MESSAGES = [
    "not json",
    "[1, 2]",
    json.dumps({"type": "dance"}),
    json.dumps({"no": "type"}),
    json.dumps({"type": "move", "move": "d"}),
    json.dumps({"type": "move", "game_id": 5, "move": "d"}),
    json.dumps({"type": "open", "game_id": "x", "last_seq": "3"}),
    json.dumps({"type": "ping", "padding": "x" * 9000}),
]


def test_bad_messages_get_an_error_change_nothing_and_keep_the_socket(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        for raw in BAD_MESSAGES:
            ws.send_text(raw)
            answer = ws.receive_json()
            assert (answer["type"], answer["code"]) == ("error", "bad_message"), raw
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json()["code"] == "bad_message"
        state = opened(ws, game["id"])
    assert state["seq"] == 0


def test_a_refusal_carries_the_ref_of_the_message(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        error = send(ws, type="move", id="x1", move="d")
    assert error["code"] == "bad_message" and error["ref"] == "x1"


def test_someone_elses_game_is_not_found(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    game = new_game(client, deal=DEAL)
    stranger = make_client(app)
    stranger.get("/api/me")
    with stranger.websocket_connect("/ws") as ws:
        answers = [
            opened(ws, game["id"]),
            send(ws, type="move", game_id=game["id"], move="d"),
            send(ws, type="undo", game_id=game["id"]),
            send(ws, type="hint", game_id=game["id"]),
        ]
        still_open(ws)
    assert {answer["code"] for answer in answers} == {"not_found"}
    with client.websocket_connect("/ws") as ws:
        assert opened(ws, game["id"])["seq"] == 0


def test_too_many_messages_on_one_socket_are_refused(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    client = make_client(make_app(SOCKET_MESSAGE_LIMIT="5/minute"))
    client.get("/api/me")
    with client.websocket_connect("/ws") as ws:
        answers = [send(ws, type="ping") for _ in range(8)]
    assert answers[:5] == [{"type": "pong"}] * 5
    assert [answer.get("code") for answer in answers[5:]] == ["rate_limited"] * 3


def test_a_socket_without_a_session_is_refused(app: FastAPI) -> None:
    # Accepted, then closed with its code: a browser sees 4401, not a failed handshake.
    with TestClient(app) as stranger, stranger.websocket_connect("/ws") as ws:
        try:
            ws.receive_json()
            raise AssertionError("the socket stayed open")
        except WebSocketDisconnect as closed:
            assert closed.code == 4401


def test_a_socket_from_another_site_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws", headers={"Origin": "https://evil.example"}) as ws:
        try:
            ws.receive_json()
            raise AssertionError("the socket stayed open")
        except WebSocketDisconnect as closed:
            assert closed.code == 1008


def test_a_socket_from_the_servers_own_page_is_accepted(client: TestClient) -> None:
    with client.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
        still_open(ws)


def test_a_fault_of_the_server_is_an_error_and_the_socket_stays(
    client: TestClient, settings: Settings
) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        play(ws, game["id"], ["d"])
        database_rows(settings, f"DELETE FROM games WHERE id = '{game['id']}'")
        error = send(ws, type="move", game_id=game["id"], move="d")
        still_open(ws)
    assert error["type"] == "error" and error["code"] == "server_error"


def test_a_socket_that_asks_for_changes_gets_what_changed_and_it_makes_the_whole_view(
    make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    # docs/protocol.md, "What changed": an event to a socket that opened with `changes` carries
    # what changed since the event before instead of the view; applied to the view before, it
    # gives the view every other socket gets whole.
    client = make_client(app)
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as compact, client.websocket_connect("/ws") as whole:
        view = opened(compact, game["id"], changes=True)["view"]
        opened(whole, game["id"])
        for number, move in enumerate(["d", "d", "d"], start=1):
            full = send(whole, type="move", game_id=game["id"], move=move, id=number)
            event = compact.receive_json()
            assert event["seq"] == full["seq"] == number
            assert event["event"] == full["event"]
            if number == 1:  # nothing to count from yet: the whole view
                assert "changes" not in event and event["view"] == full["view"]
                view = event["view"]
                continue
            assert "view" not in event and "changes" in event
            assert len(json.dumps(event)) < len(json.dumps(full))
            view = apply_changes(view, event["changes"])
            assert view == full["view"]
            assert "changes" not in full


def test_a_socket_that_did_not_ask_for_changes_gets_whole_views(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"])
        events = play(ws, game["id"], ["d", "d", "d"])
    assert all("view" in e and "changes" not in e for e in events)


def test_a_reconnect_of_a_socket_that_asks_for_changes_gets_whole_views(
    client: TestClient,
) -> None:
    # The missed events are sent as they were kept: each with its whole view, so a client
    # whose last view is older than the first missed event still ends with the right one.
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        opened(ws, game["id"], changes=True)
        last = play(ws, game["id"], ["d", "d", "d"])[-1]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"], "last_seq": 1, "changes": True})
        missed = [ws.receive_json(), ws.receive_json()]
    assert [m["seq"] for m in missed] == [2, 3]
    assert all("changes" not in m for m in missed)
    assert missed[-1]["view"]["moves_made"] == last["seq"]
