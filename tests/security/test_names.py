"""Look-alike names (issue 37): a name is unique in its NFKC case-folded form, and a name may
not mix alphabets, so nobody takes a name that reads like another's ("\\u0410nna" with a
Cyrillic А, a fullwidth "Ａnna" beside "Anna"). Names from before the rule keep working."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.services.names import name_key, normalise_name
from spielcenter.settings import Settings
from spielcenter.store.db import alembic_config, make_engine, migrate

from ..backends import run_async
from ..server.conftest import CHEAP, claim, database_rows, login, me

CYRILLIC_A, GREEK_ALPHA = "\u0410", "\u0391"


@pytest.mark.parametrize(
    "look_alike",
    [
        "\uff21nna",  # fullwidth Ａ
        "\uff21\uff2e\uff2e\uff21",  # ＡＮＮＡ
        "\U0001d400nna",  # mathematical bold 𝐀
        "\u1d2cnna",  # modifier letter capital ᴬ
        "Anna",
        "aNNA",
    ],
)
def test_a_name_that_folds_to_a_taken_one_is_taken(
    make_client: Callable[..., TestClient], app: FastAPI, look_alike: str
) -> None:
    anna, other = make_client(app), make_client(app)
    assert claim(anna, "Anna").status_code == 200
    refused = claim(other, look_alike)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_taken"
    assert me(other)["guest"] is True


@pytest.mark.parametrize(
    "mixed",
    [
        f"{CYRILLIC_A}nna",  # the attack: a Cyrillic А before Latin letters
        f"{GREEK_ALPHA}nna",
        f"Ann{CYRILLIC_A}",
        f"Anna {CYRILLIC_A}",
        f"{CYRILLIC_A}nna Lena",
    ],
)
def test_a_name_mixing_latin_with_cyrillic_or_greek_is_refused(
    client: TestClient, mixed: str
) -> None:
    refused = claim(client, mixed)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "mixed_scripts"
    assert "Latin" in error["message"] and (
        "Cyrillic" in error["message"] or "Greek" in error["message"]
    )
    assert me(client)["guest"] is True


@pytest.mark.parametrize(
    "name", ["Анна", "Άννα", "渡辺さん", "山田 Taro", "김민준", "Jürgen", "Zoë 2000", "x_y-z 9"]
)
def test_a_name_in_one_script_or_a_usual_mix_of_east_asian_ones_is_accepted(name: str) -> None:
    assert normalise_name(name) == name


def test_a_name_is_found_at_login_however_it_is_folded(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    claim(client, "Anna")
    device = make_client(app)
    assert login(device, "\uff21\uff2e\uff2e\uff21").status_code == 200
    assert me(device)["name"] == "Anna"


def test_names_whose_folded_form_is_too_long_are_refused(client: TestClient) -> None:
    # One character can fold to 18 (U+FDFA, an Arabic ligature): the key would not fit.
    refused = claim(client, "\ufdfa" * 3)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_name"


# -- names from before the rule --------------------------------------------------------------


OLD_ACCOUNTS = [
    # id, name, created: the fullwidth one came first, the plain one later, and a mixed one
    ("a1", "\uff21nna", "2025-01-01 10:00:00"),
    ("a2", "Anna", "2025-02-01 10:00:00"),
    ("a3", f"{CYRILLIC_A}nna", "2025-03-01 10:00:00"),
    ("a4", "Bea", "2025-04-01 10:00:00"),
]


def _revision_before_the_rule() -> str:
    """The revision migration ``…_doors.py`` follows (whatever its number becomes)."""
    scripts = ScriptDirectory.from_config(alembic_config())
    (doors,) = [r for r in scripts.walk_revisions() if str(r.path).endswith("_doors.py")]
    assert isinstance(doors.down_revision, str)
    return doors.down_revision


def _database_before_the_rule_with_old_accounts(settings: Settings) -> None:
    before = _revision_before_the_rule()

    async def build() -> None:
        engine = make_engine(settings.database_url)
        try:
            await migrate(engine)
            async with engine.begin() as connection:
                await connection.run_sync(
                    lambda sync: command.downgrade(alembic_config(sync), before)
                )
        finally:
            await engine.dispose()

    run_async(build())
    password_hash = CHEAP.hash("geheim-1234")
    for account_id, name, created in OLD_ACCOUNTS:
        # The key as it was: case-folded NFC, nothing more.
        old_key = name.casefold().replace("'", "''")
        database_rows(
            settings,
            "INSERT INTO accounts (id, name, name_key, password_hash, settings, created_at)"
            f" VALUES ('{account_id}', '{name}', '{old_key}', '{password_hash}', '{{}}',"
            f" '{created}+00:00')",
        )


def test_names_from_before_the_rule_keep_logging_in_each_to_its_own_account(
    settings: Settings, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    _database_before_the_rule_with_old_accounts(settings)
    devices = {name: make_client(app) for _, name, _ in OLD_ACCOUNTS}
    for (account_id, name, _), device in zip(OLD_ACCOUNTS, devices.values(), strict=True):
        assert login(device, name).status_code == 200, name
        assert me(device)["id"] == account_id, name
    keys = dict(database_rows(settings, "SELECT id, name_key FROM accounts WHERE name IS NOT NULL"))
    # The oldest of the look-alikes holds the folded key; the later one keeps its own.
    assert keys["a1"] == name_key("Anna") == "anna"
    assert keys["a2"] != "anna" and keys["a4"] == "bea"
    refused = claim(make_client(app), "ANNA")
    assert refused.status_code == 409
