"""Floods at the doors (issue 37): password hashing on demand through claims, and throwaway
guests without end. Every door counts per client address (and claims also per name), in Redis
when the processes share one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server.app import create_app
from spielcenter.settings import Settings

from ..server.conftest import FakeClock, claim, csrf, me
from ..server.ladder import resolve
from .hashing import CountingHasher, at_once


@pytest.fixture
def hasher() -> CountingHasher:
    return CountingHasher()


@pytest.fixture
def hashing_app(
    settings: Settings, clock: FakeClock, hasher: CountingHasher
) -> Callable[..., FastAPI]:
    """Apps (with changed settings) whose password hashing the test watches."""

    def new_app(**changes: Any) -> FastAPI:
        changed = settings.model_copy(update=changes)
        return create_app(changed, resolve=resolve, clock=clock, password_hasher=hasher)

    return new_app


def _guests(make_client: Callable[..., TestClient], app: FastAPI, count: int) -> list[TestClient]:
    guests = [make_client(app) for _ in range(count)]
    for guest in guests:
        me(guest)
    return guests


# -- password hashing on demand -------------------------------------------------------------------


def test_a_flood_of_claims_from_one_address_is_refused_with_429_before_any_hashing(
    make_client: Callable[..., TestClient],
    hashing_app: Callable[..., FastAPI],
    hasher: CountingHasher,
) -> None:
    app = hashing_app()
    guests = _guests(make_client, app, 8)
    answers = [claim(guest, f"Spieler {k}") for k, guest in enumerate(guests)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 3
    assert {a.json()["error"]["code"] for a in answers[5:]} == {"rate_limited"}
    assert hasher.calls == 5
    assert [me(guest)["guest"] for guest in guests] == [False] * 5 + [True] * 3


def test_a_flood_of_claims_of_one_name_from_many_addresses_is_refused_with_429(
    make_client: Callable[..., TestClient], hashing_app: Callable[..., FastAPI]
) -> None:
    app = hashing_app()
    guests = [make_client(app, address=f"198.51.100.{k}") for k in range(1, 8)]
    codes = [claim(guest, "Anna").status_code for guest in guests]
    assert codes == [200] + [409] * 4 + [429] * 2


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ("Anna", "Berta", "already_claimed"),  # the same guest again
        (None, "Anna", "name_taken"),  # another guest, a name someone has
        (None, "ANNA", "name_taken"),
        (None, "<b>", "bad_name"),
    ],
)
def test_a_claim_refused_for_a_cheap_reason_never_hashes(
    make_client: Callable[..., TestClient],
    hashing_app: Callable[..., FastAPI],
    hasher: CountingHasher,
    first: str | None,
    second: str,
    code: str,
) -> None:
    app = hashing_app()
    anna, other = _guests(make_client, app, 2)
    assert claim(anna, "Anna").status_code == 200
    claimant = anna if first else other
    before = hasher.calls
    refused = claim(claimant, second)
    assert refused.json()["error"]["code"] == code
    assert hasher.calls == before


def test_a_flood_of_claims_never_hashes_more_than_two_passwords_at_once(
    make_client: Callable[..., TestClient], settings: Settings, clock: FakeClock
) -> None:
    hasher = CountingHasher(pause_s=0.05)
    app = create_app(
        settings.model_copy(update={"CLAIM_LIMIT": "1000/minute"}),
        resolve=resolve,
        clock=clock,
        password_hasher=hasher,
    )
    guests = _guests(make_client, app, 12)
    answers = at_once([lambda g=g, k=k: claim(g, f"Spieler {k}") for k, g in enumerate(guests)])
    assert [a.status_code for a in answers] == [200] * 12
    assert hasher.calls == 12
    assert hasher.most_at_once <= Settings().PASSWORD_HASH_WORKERS == 2


def test_password_hashing_never_takes_a_thread_of_the_default_executor(
    make_client: Callable[..., TestClient],
    hashing_app: Callable[..., FastAPI],
    hasher: CountingHasher,
) -> None:
    # The default executor runs the hints and the computer players' searches (asyncio.to_thread).
    app = hashing_app()
    anna, device = _guests(make_client, app, 2)
    claim(anna, "Anna")
    device.post(
        "/api/account/login",
        json={"name": "Anna", "password": "geheim-1234"},
        headers=csrf(device),
    )
    device.post(
        "/api/account/login", json={"name": "Niemand", "password": "x" * 8}, headers=csrf(device)
    )
    assert hasher.calls >= 3
    assert hasher.threads and all(t.startswith("spielcenter-password") for t in hasher.threads)
