"""Floods at the doors (issue 37): password hashing on demand through claims, and throwaway
guests without end. Every door counts per client address (and claims also per name), in Redis
when the processes share one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.cli.serve import proxy_options
from spielcenter.server.addresses import address_key
from spielcenter.server.app import create_app
from spielcenter.settings import Settings

from ..server.conftest import FakeClock, claim, csrf, database_rows, me
from ..server.ladder import resolve
from .hashing import CountingHasher, at_once
from .live import served


@pytest.fixture
def hasher() -> CountingHasher:
    return CountingHasher()


DEFAULT_CLAIM_LIMIT = Settings.model_fields["CLAIM_LIMIT"].default
"""The limit a server has unless configured (the server tests' settings raise it)."""


@pytest.fixture
def hashing_app(
    settings: Settings, clock: FakeClock, hasher: CountingHasher
) -> Callable[..., FastAPI]:
    """Apps with the default claim limit (or changed settings) whose password hashing the test
    watches."""

    def new_app(**changes: Any) -> FastAPI:
        changed = settings.model_copy(update={"CLAIM_LIMIT": DEFAULT_CLAIM_LIMIT, **changes})
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
    assert DEFAULT_CLAIM_LIMIT == "5/minute"
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
    assert hasher.most_at_once <= Settings.model_fields["PASSWORD_HASH_WORKERS"].default == 2


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


# -- throwaway guests ----------------------------------------------------------------------------


def _new_guest(client: TestClient) -> Any:
    """``GET /api/me`` without a cookie: a new guest, if the address may have one."""
    client.cookies.clear()
    return client.get("/api/me")


def test_a_flood_of_guests_from_one_address_is_refused_with_429_and_creates_nothing(
    make_client: Callable[..., TestClient], app: FastAPI, settings: Settings
) -> None:
    # The attack made 100 guests in 5 s; a household or a school class behind one address
    # still gets its guests (docs/security.md).
    per_hour = Settings.model_fields["GUEST_LIMIT"].default
    client = make_client(app)
    made = [_new_guest(client).status_code for _ in range(60)]
    refused = _new_guest(client)
    elsewhere = make_client(app, address="198.51.100.9")
    assert per_hour == "60/hour"
    assert made == [200] * 60
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert database_rows(settings, "SELECT count(*) FROM accounts") == [(60,)]
    assert me(elsewhere)["guest"] is True


def test_a_guest_coming_back_with_its_cookie_is_not_counted_as_new(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    client = make_client(make_app(GUEST_LIMIT="1/hour"))
    first = me(client)
    assert [me(client)["id"] for _ in range(5)] == [first["id"]] * 5
    assert _new_guest(client).status_code == 429


def test_guests_from_one_ipv6_network_count_together() -> None:
    one_home = ["2001:db8:1:2::10", "2001:db8:1:2:ffff:ffff:ffff:ffff"]
    next_door = "2001:db8:1:3::10"
    assert len({address_key(host) for host in one_home}) == 1
    assert address_key(next_door) != address_key(one_home[0])
    assert address_key("::ffff:203.0.113.5") == address_key("203.0.113.5") == "203.0.113.5"


@pytest.mark.parametrize("trusted", [[], ["127.0.0.1"]])
def test_a_forged_forwarded_address_is_no_new_budget_unless_a_trusted_balancer_sent_it(
    make_app: Callable[..., FastAPI], settings: Settings, trusted: list[str]
) -> None:
    behind = settings.model_copy(update={"TRUSTED_PROXIES": trusted})
    with served(make_app(GUEST_LIMIT="2/hour"), **proxy_options(behind)) as address:
        codes = [
            httpx.get(
                f"http://{address}/api/me", headers={"X-Forwarded-For": forwarded}
            ).status_code
            for forwarded in ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2"]
        ]
    # Trusted: two players behind the balancer, two guests each. Not trusted: everybody is
    # the balancer (127.0.0.1), and the header is anybody's invention.
    assert codes == ([200] * 4 if trusted else [200, 200, 429, 429])
