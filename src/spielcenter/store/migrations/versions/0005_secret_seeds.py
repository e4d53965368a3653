"""Secret seeds: ranked and staked games are dealt from a seed, committed at the start.

``tables`` and ``games`` get ``seed`` (the secret bytes as hex, revealed only after the end) and
``commitment`` (SHA-256 of a domain tag and the seed, shown from the start); ``deal`` becomes
optional, because a seeded game has no deal number (docs/shuffle.md, "Secret seeds").
``table_results`` gets ``ranked``: a practice table dealt from a chosen deal number is listed in
Meine Partien but never counted on a leaderboard (earlier results stay ranked).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEEDED = ("tables", "games")


def upgrade() -> None:
    """Add ``seed`` and ``commitment`` to tables and games; ``deal`` may be empty."""
    for name in SEEDED:
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column("seed", sa.String(128), nullable=True))
            batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
            batch.alter_column("deal", existing_type=sa.BigInteger(), nullable=True)
    with op.batch_alter_table("table_results") as batch:
        batch.add_column(
            sa.Column("ranked", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    """Drop the seeds. A seeded game has no deal number: it keeps deal 0, which the earlier
    release refuses to replay (its seed cannot be expressed there)."""
    with op.batch_alter_table("table_results") as batch:
        batch.drop_column("ranked")
    for name in SEEDED:
        op.execute(sa.text(f"UPDATE {name} SET deal = 0 WHERE deal IS NULL"))
        with op.batch_alter_table(name) as batch:
            batch.alter_column("deal", existing_type=sa.BigInteger(), nullable=False)
            batch.drop_column("commitment")
            batch.drop_column("seed")
