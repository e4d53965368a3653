"""Speedquilt tables: the table, who sits where, and the log of every seat's decisions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create tables, table_seats and table_entries."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("created_by", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("deal", sa.BigInteger(), nullable=False),
        sa.Column("tempo", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_tables"),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["accounts.id"],
            name="fk_tables_created_by_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_tables_created_by", "tables", ["created_by"])
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_table_seats"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_table_seats_table_id_tables", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_table_seats_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_table_seats_account_id", "table_seats", ["account_id"])
    op.create_table(
        "table_entries",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_table_entries"),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name="fk_table_entries_table_id_tables",
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    """Drop the tables of revision 0002."""
    op.drop_table("table_entries")
    op.drop_index("ix_table_seats_account_id", table_name="table_seats")
    op.drop_table("table_seats")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_index("ix_tables_created_by", table_name="tables")
    op.drop_table("tables")
