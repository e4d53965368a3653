"""Her part of a Speedquilt table played over the socket protocol (docs/protocol.md, "WebSocket
messages"), with the session of her browser page, while the page shows the table.

For tests whose subject is what the page shows of a finished table (the end table, the review),
not the play: the same player as speedquilt_ui's, who taps through a whole game in the browser
in some ten seconds, decides here in some tens of milliseconds. The tests that play whole games
in the browser are in test_speedquilt.py and test_solo.py.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page
from websockets.sync.client import connect

MAX_MESSAGES = 5_000
"""A whole game against a computer brings far fewer messages than this."""

MESSAGE_TIMEOUT_S = 30.0
"""How long one message may be awaited: the machine the tests run on may be busy."""

PLEASE_WAIT_S = 0.2
"""After a refusal for too many messages (``rate_limited``), before she decides again."""


def decide(view: dict[str, Any], seat: int, legal: list[str], sewn: bool) -> str:
    """What the browser tests' player does (speedquilt_ui): the start row as dealt with the last
    block put back; in a giving window the first die she may take, else pass; in her turn roll,
    sew the first block that fits once, and end."""
    if any(move.startswith("choose ") for move in legal):
        hand = view["seats"][seat]["hand"]
        return f"choose {' '.join(hand[:3])} return {hand[3]}"
    gives = [move for move in legal if move.startswith("give ")]
    if gives:
        return gives[0]
    for simple in ("pass", "roll"):
        if simple in legal:
            return simple
    sewing = [move for move in legal if move.startswith("sew ")]
    if sewing and not sewn:
        return sewing[0]
    return "end" if "end" in legal else legal[0]


def play_table_by_socket(page: Page, table_id: str) -> None:
    """Play her seat of table ``table_id`` to the end over a socket of her own session."""
    address = urlsplit(page.url)
    origin = f"{address.scheme}://{address.netloc}"
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies(origin))
    with connect(
        f"ws://{address.netloc}/ws",
        additional_headers={"Cookie": cookies, "Origin": origin},
        open_timeout=MESSAGE_TIMEOUT_S,
    ) as socket:
        socket.send(json.dumps({"type": "table.open", "table_id": table_id, "id": 0}))
        _play(socket, table_id)


def _play(socket: Any, table_id: str) -> None:
    seat: int | None = None
    latest: dict[str, Any] = {}
    asked = 0  # the id of her move in flight (0: none)
    behind = -1  # a move sent on this seq was stale: decide again on a later one
    sewn = False  # whether she has sewn in this turn
    for _ in range(MAX_MESSAGES):
        message = json.loads(socket.recv(timeout=MESSAGE_TIMEOUT_S))
        kind = message.get("type")
        if kind == "table.end":
            return
        if kind == "error":
            assert message.get("code") in ("stale", "rate_limited"), message
            if message["code"] == "stale":  # the table went on: its entry is on the way
                behind = latest["seq"]
            else:
                time.sleep(PLEASE_WAIT_S)
            asked = 0  # refused, nothing changed
        elif kind == "table.state":
            seat = message["seat"]
            latest = message
        elif kind == "table.event":
            latest = message
            entry = message["entry"]
            if entry["seat"] == seat and asked:
                asked = 0
                if entry["move"] == "roll" or entry["move"] == "end":
                    sewn = False
                elif entry["move"].startswith("sew "):
                    sewn = True
        if asked or seat is None or latest["seq"] <= behind or not latest.get("legal"):
            continue
        move = decide(latest["view"], seat, latest["legal"], sewn)
        asked = latest["seq"] + 1
        socket.send(
            json.dumps(
                {
                    "type": "table.move",
                    "table_id": table_id,
                    "move": move,
                    "seq": latest["seq"],
                    "id": asked,
                }
            )
        )
    raise AssertionError("the table did not end")
