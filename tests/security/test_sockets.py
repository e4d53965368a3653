"""Attacks on the WebSocket (issue 37): deeply nested JSON, sockets without end, one account's
messages spread over many sockets, refused handshakes, and pages of other origins."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from limits import parse
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from spielcenter.cli.serve import proxy_options
from spielcenter.server.ratelimits import MessageBudget
from spielcenter.server.websocket import (
    CLOSE_NO_SESSION,
    CLOSE_POLICY,
    CLOSE_TOO_MANY_SOCKETS,
    MAX_JSON_DEPTH,
    too_deep,
)
from spielcenter.settings import Settings

from ..server.conftest import me, new_game
from .live import served

NESTING = 4_000
"""How deep the attack nested its arrays (Python's parser gives up near 1 000 levels)."""
OBJECT_NESTING = 1_600
"""As deep as objects go within the 8 KiB a message may have."""


def _nested(depth: int) -> str:
    return '{"type": "ping", "id": 1, "x": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("shape", ["array", "object", "table message"])
def test_json_nested_four_thousand_levels_deep_is_a_bad_message_and_changes_nothing(
    client: TestClient, capsys: pytest.CaptureFixture[str], shape: str
) -> None:
    game = new_game(client, deal=3)
    arrays = "[" * NESTING + "]" * NESTING
    text = {
        "array": arrays,
        "object": '{"":' * OBJECT_NESTING + "1" + "}" * OBJECT_NESTING,
        "table message": '{"type": "table.open", "table_id": ' + arrays + "}",
    }[shape]
    with client.websocket_connect("/ws") as ws:
        ws.send_text(text)
        answer = ws.receive_json()
        ws.send_json({"type": "open", "game_id": game["id"]})
        state = ws.receive_json()
    assert answer["type"] == "error" and answer["code"] == "bad_message", answer
    assert "deep" in answer["message"]
    assert state["seq"] == 0
    logged = capsys.readouterr().out
    assert "RecursionError" not in logged and "ws_failed" not in logged


def test_json_just_within_the_depth_limit_is_still_read(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(_nested(MAX_JSON_DEPTH - 1))
        answer = ws.receive_json()
        ws.send_text(_nested(MAX_JSON_DEPTH))
        refused = ws.receive_json()
    assert answer == {"type": "pong", "ref": 1}
    assert refused["code"] == "bad_message"
    assert json.loads(_nested(MAX_JSON_DEPTH))  # valid JSON, refused only for its depth


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    many = "[" * (MAX_JSON_DEPTH * 4)
    assert not too_deep(json.dumps({"type": "table.chat", "text": many}))
    assert not too_deep(json.dumps({"text": '\\"' + many}))
    assert too_deep("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))


# -- refused handshakes and the Origin -----------------------------------------------------------


def _close_code_of_handshake(client: TestClient, **headers: str) -> int | None:
    """Open ``/ws``: the close code the server sends after accepting it, ``None`` if it stays
    open. A handshake closed before it is accepted fails here (a real server answers it with
    HTTP 403, and the browser never sees a code)."""
    with client.websocket_connect("/ws", headers=headers) as ws:
        ws.send_json({"type": "ping"})
        try:
            ws.receive_json()
        except WebSocketDisconnect as closed:
            return closed.code
    return None


@pytest.mark.parametrize(
    "origin",
    [
        "https://testserver",  # same host, another scheme
        "http://testserver:8080",  # same host, another port
        "http://testserver.evil.example",
        "null",
    ],
)
def test_a_page_of_another_origin_cannot_open_the_websocket(
    client: TestClient, origin: str
) -> None:
    assert _close_code_of_handshake(client, origin=origin) == CLOSE_POLICY


@pytest.mark.parametrize("origin", ["http://testserver", "http://TestServer:80"])
def test_a_page_of_the_servers_own_origin_opens_the_websocket(
    client: TestClient, origin: str
) -> None:
    assert _close_code_of_handshake(client, origin=origin) is None


def test_an_allowed_origin_is_compared_by_scheme_host_and_port(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    client = make_client(make_app(ALLOWED_ORIGINS=["https://spiel.example.org"]))
    me(client)
    assert _close_code_of_handshake(client, origin="https://spiel.example.org:443") is None
    assert _close_code_of_handshake(client, origin="http://spiel.example.org") == CLOSE_POLICY
    assert _close_code_of_handshake(client, origin="https://spiel.example.org:8443") == 1008


def test_a_socket_without_a_session_is_closed_with_4401_after_the_handshake(
    make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    stranger = make_client(app)
    assert _close_code_of_handshake(stranger) == CLOSE_NO_SESSION


@pytest.mark.parametrize(
    ("headers", "code"),
    [({}, CLOSE_NO_SESSION), ({"Origin": "https://evil.example"}, CLOSE_POLICY)],
)
def test_a_real_client_refused_at_the_handshake_hears_the_documented_close_code_not_http_403(
    make_app: Callable[..., FastAPI], headers: dict[str, str], code: int
) -> None:
    with (
        served(make_app()) as address,
        connect(f"ws://{address}/ws", additional_headers=headers) as ws,
        pytest.raises(ConnectionClosed) as closed,
    ):
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code


# -- sockets without end, and messages spread over them ------------------------------------------


def _open_sockets(stack: ExitStack, client: TestClient, count: int) -> list[WebSocketTestSession]:
    return [stack.enter_context(client.websocket_connect("/ws")) for _ in range(count)]


def _answers_ping(ws: WebSocketTestSession) -> bool:
    ws.send_json({"type": "ping"})
    try:
        return bool(ws.receive_json() == {"type": "pong"})
    except WebSocketDisconnect:
        return False


def _close_code(ws: WebSocketTestSession) -> int | None:
    ws.send_json({"type": "ping"})
    try:
        ws.receive_json()
    except WebSocketDisconnect as closed:
        return closed.code
    return None


def test_one_session_cannot_open_sockets_without_end(client: TestClient) -> None:
    per_session = Settings.model_fields["SOCKETS_PER_SESSION"].default
    with ExitStack() as stack:
        sockets = _open_sockets(stack, client, per_session)
        one_more = stack.enter_context(client.websocket_connect("/ws"))
        refused = _close_code(one_more)
        assert all(_answers_ping(ws) for ws in sockets)
        sockets[0].close()
        until_closed(client, per_session - 1)
        again = stack.enter_context(client.websocket_connect("/ws"))
        assert _answers_ping(again)
    assert per_session == 8
    assert refused == CLOSE_TOO_MANY_SOCKETS


def test_one_address_cannot_open_sockets_without_end_with_many_guests(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    app = make_app(SOCKETS_PER_ADDRESS=5)
    guests = [make_client(app) for _ in range(6)]
    elsewhere = make_client(app, address="198.51.100.7")
    for guest in [*guests, elsewhere]:
        me(guest)
    with ExitStack() as stack:
        first = [stack.enter_context(guest.websocket_connect("/ws")) for guest in guests[:5]]
        sixth = stack.enter_context(guests[5].websocket_connect("/ws"))
        assert _close_code(sixth) == CLOSE_TOO_MANY_SOCKETS
        assert all(_answers_ping(ws) for ws in first)
        assert _answers_ping(stack.enter_context(elsewhere.websocket_connect("/ws")))


def test_an_accounts_messages_share_one_budget_across_all_its_sockets(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    # The attack: 40 sockets of one account, each within its own 20 a second, sent 200 hints.
    app = make_app(SOCKET_MESSAGE_LIMIT="10/minute")
    client, other = make_client(app), make_client(app)
    me(client)
    me(other)
    with ExitStack() as stack:
        sockets = _open_sockets(stack, client, 4)
        answers = [send(ws, type="ping") for _ in range(5) for ws in sockets]
        bystander = stack.enter_context(other.websocket_connect("/ws"))
        assert _answers_ping(bystander)
    assert answers.count({"type": "pong"}) == 10
    assert [a.get("code") for a in answers if a != {"type": "pong"}] == ["rate_limited"] * 10


def test_a_real_client_with_too_many_sockets_hears_close_code_4429(
    make_app: Callable[..., FastAPI],
) -> None:
    with served(make_app(SOCKETS_PER_SESSION=2)) as address:
        cookie = httpx.get(f"http://{address}/api/me").headers["set-cookie"].split(";")[0]
        headers = {"Cookie": cookie}
        with (
            connect(f"ws://{address}/ws", additional_headers=headers),
            connect(f"ws://{address}/ws", additional_headers=headers),
            connect(f"ws://{address}/ws", additional_headers=headers) as third,
            pytest.raises(ConnectionClosed) as closed,
        ):
            third.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_MANY_SOCKETS


def send(ws: WebSocketTestSession, **message: Any) -> dict[str, Any]:
    """Send one message; its answer."""
    ws.send_json(message)
    answer: dict[str, Any] = ws.receive_json()
    return answer


def until_closed(client: TestClient, open_sockets: int) -> None:
    """Wait until the server has noticed a socket closed (it holds ``open_sockets`` then)."""
    hub = client.app.state.platform.hub  # type: ignore[attr-defined]
    for _ in range(500):
        if len(hub.connections) == open_sockets:
            return
        time.sleep(0.01)
    raise AssertionError("the socket did not close")


def test_the_message_budget_refills_evenly_and_forgets_only_what_it_would_have_refilled() -> None:
    now = [0.0]
    budget = MessageBudget(parse("4/second"), clock=lambda: now[0])
    assert [budget.allow("anna") for _ in range(5)] == [True] * 4 + [False]
    now[0] += 0.5  # two messages' worth
    assert [budget.allow("anna") for _ in range(3)] == [True, True, False]
    budget._sweep(now[0])
    assert "anna" in budget.buckets  # still empty: forgetting it would hand her a new budget
    now[0] += 1.0
    budget._sweep(now[0])
    assert "anna" not in budget.buckets


def test_behind_a_trusted_balancer_a_page_on_https_opens_the_websocket(
    make_app: Callable[..., FastAPI], settings: Settings
) -> None:
    # The balancer ends TLS: the server hears ws://, the page is https://. Only the balancer's
    # X-Forwarded-Proto tells the server its own origin (docs/deploy.md).
    behind = settings.model_copy(update={"TRUSTED_PROXIES": ["127.0.0.1"]})
    with served(make_app(), **proxy_options(behind)) as address:
        cookie = httpx.get(f"http://{address}/api/me").headers["set-cookie"].split(";")[0]
        headers = {"Cookie": cookie, "X-Forwarded-Proto": "https"}
        page = Origin(f"https://{address}")
        with connect(f"ws://{address}/ws", origin=page, additional_headers=headers) as ws:
            ws.send(json.dumps({"type": "ping"}))
            answer = json.loads(ws.recv(timeout=10))
    assert answer == {"type": "pong"}
