"""A client message read in one call of the validator's own JSON parser is the message the
standard library's parser and the validator of Python objects read in turn, and a message either
refuses is refused the long way, with the words it always had (server/websocket.py,
``read_message``; docs/performance.md, "A patience entry's answer, cut again")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from spielcenter.server.websocket import BadMessage, _client_message, read_message

MESSAGES = [
    '{"type":"move","game_id":"g","move":"1f","seq":3,"id":7}',
    '{"type":"undo","game_id":"g","id":"a"}',
    '{"type":"open","game_id":"g","last_seq":0,"changes":true}',
    '  {"type":"ping"}\n',
    '{"type":"ping","id":"\\u00e9\\ud83d\\ude00","extra":{"a":[1,2,{"b":null}]}}',
    '{"type":"move","type":"undo","game_id":"g","id":1}',  # a key twice: the last one counts
    '{"type":"move","game_id":"g","move":"1f","move":"2f"}',
    '{"type":"move","game_id":"g","move":"1f","seq":-0}',
    '{"type":"move","game_id":"g","move":"1f","id":100000000000000000000000000}',
    '{"type":"table.move","table_id":"t","move":"roll","seq":2}',
    # refused
    '{"type":"move","game_id":"g","move":"\\ud800"}',  # half a surrogate pair
    '{"type":"move","game_id":"g","move":"1f","seq":NaN}',
    '{"type":"move","game_id":"g","move":"1f","seq":1e2}',
    '{"type":"move","game_id":"g","move":"1f","seq":1.0}',
    '{"type":"move","game_id":"g","move":"1f","seq":-1}',
    '{"type":"move","game_id":"g","move":"1f","seq":00}',
    '{"type":"move","game_id":"g","move":"1f","id":true}',
    '{"type":"open","game_id":"g","changes":1}',
    '{"type":"open","game_id":"g","last_seq":Infinity}',
    '{"type":"ping"} x',
    '[{"type":"ping"}]',
    '"ping"',
    '{"type":"ping","id":1.5}',
    '{"type":"fly","id":2}',
    '{"game_id":"g"}',
    '{"type":"move","game_id":"","move":"1f"}',
    '{"type":"move","game_id":"g","move":"' + "x" * 81 + '"}',
    "",
]


def the_long_way(raw: str) -> tuple[Any, Any]:
    """The message and its ``ref`` as the standard library's parser and the validator of Python
    objects read them, or the refusal's words and ``ref``."""
    try:
        data = json.loads(raw)
    except ValueError:
        return "not JSON", None
    if not isinstance(data, dict):
        return "a message is a JSON object with a 'type'", None
    ref = data.get("id") if isinstance(data.get("id"), str | int) else None
    try:
        return _client_message.validate_python(data), ref
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return (f"{where}: {first.get('msg', 'invalid')}" if where else first["msg"]), ref


@pytest.mark.parametrize("raw", MESSAGES)
def test_a_message_reads_as_the_parser_and_the_validator_read_it_in_turn(raw: str) -> None:
    expected, expected_ref = the_long_way(raw)
    try:
        message, ref = read_message(raw)
    except BadMessage as refused:
        assert (str(refused), getattr(refused, "ref", None)) == (expected, expected_ref)
        return
    assert (message, ref) == (expected, expected_ref)
    assert type(message) is type(expected)


def test_both_kinds_of_message_are_among_the_cases() -> None:
    read = [raw for raw in MESSAGES if not isinstance(the_long_way(raw)[0], str)]
    assert 0 < len(read) < len(MESSAGES)
