"""Doors: when a session was last used (server-side expiry), and names unique in NFKC case-folded
form (look-alikes).

Sessions get ``last_seen_at``, set to the time of the upgrade for the sessions there are, so
that the upgrade ends none of them (their longest lifetime still counts from ``created_at``).

Every name's key becomes its NFKC case-folded form. Where names from before fold to one key,
the oldest account holds it and each younger one keeps its old key behind "~", under which a
login still finds it (services/names.py). The key functions are copied here as they are today,
so that later changes of the service do not change what this migration did.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEGACY_MARK = "~"
Rows = list[tuple[str, str, str]]
"""Named accounts, oldest first: id, name, key."""
sessions = sa.table("sessions", sa.column("last_seen_at", sa.DateTime(timezone=True)))
accounts = sa.table(
    "accounts",
    sa.column("id", sa.String(32)),
    sa.column("name", sa.String(24)),
    sa.column("name_key", sa.String(96)),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def _folded_key(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _old_key(name: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def upgrade() -> None:
    """Add sessions.last_seen_at; fold every name's key."""
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(sessions.update().values(last_seen_at=datetime.now(UTC)))
    with op.batch_alter_table("sessions") as batch:
        batch.alter_column("last_seen_at", existing_type=sa.DateTime(timezone=True), nullable=False)
    _rekey(_folded_keys)


def downgrade() -> None:
    """Drop sessions.last_seen_at; give every name its old key again."""
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("last_seen_at")
    _rekey(lambda rows: {account_id: _old_key(name) for account_id, name, _ in rows})


def _folded_keys(rows: Rows) -> dict[str, str]:
    """The new key of every named account: its folded key, unless an older account has it."""
    keys: dict[str, str] = {}
    held: set[str] = set()
    for account_id, name, old_key in rows:  # oldest first
        key = _folded_key(name)
        # A younger look-alike keeps its old key (unique before, and at most 73 characters:
        # 24 that fold to 3 each, so "~" and it fit the column's 96).
        keys[account_id] = LEGACY_MARK + old_key if key in held else key
        held.add(key)
    return keys


def _rekey(new_keys: Callable[[Rows], dict[str, str]]) -> None:
    connection = op.get_bind()
    query = (
        sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)
        .where(accounts.c.name.is_not(None))
        .order_by(accounts.c.created_at, accounts.c.id)
    )
    rows: Rows = [(row.id, row.name, row.name_key) for row in connection.execute(query)]
    keys = new_keys(rows)
    changed = {account_id: key for account_id, _, key in rows if keys[account_id] != key}
    # Through NULL first (the unique constraint allows any number of NULLs): no key is ever
    # held twice between two of the updates, whatever their order.
    for account_id in changed:
        op.execute(accounts.update().where(accounts.c.id == account_id).values(name_key=None))
    for account_id in changed:
        op.execute(
            accounts.update().where(accounts.c.id == account_id).values(name_key=keys[account_id])
        )
