"""Tables with several people: setups, seat clocks, the taler ledger, chat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _table_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["table_id"], ["tables.id"], name=f"fk_{table}_table_id_tables", ondelete="CASCADE"
    )


def upgrade() -> None:
    """Create table_setups, table_seat_clocks, ledger_transactions, ledger_entries, chat_lines."""
    op.create_table(
        "table_setups",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("think_seconds", sa.Integer(), nullable=True),
        sa.Column("giving_seconds", sa.Integer(), nullable=True),
        sa.Column("stake", sa.BigInteger(), nullable=False),
        sa.Column("stand_in", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite", sa.String(32), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("table_id", name="pk_table_setups"),
        sa.UniqueConstraint("invite", name="uq_table_setups_invite"),
        _table_fk("table_setups"),
    )
    op.create_table(
        "table_seat_clocks",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("away", sa.String(16), nullable=True),
        sa.Column("disconnected_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_table_seat_clocks"),
        _table_fk("table_seat_clocks"),
    )
    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_transactions"),
        sa.UniqueConstraint("key", name="uq_ledger_transactions_key"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("transaction_id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(48), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
            name="fk_ledger_entries_transaction_id_ledger_transactions",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_ledger_entries_transaction_id", "ledger_entries", ["transaction_id"])
    op.create_index("ix_ledger_entries_account", "ledger_entries", ["account"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chat_lines"),
        _table_fk("chat_lines"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_chat_lines_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_chat_lines_table_id", "chat_lines", ["table_id"])


def downgrade() -> None:
    """Drop what upgrade created."""
    op.drop_index("ix_chat_lines_table_id", table_name="chat_lines")
    op.drop_table("chat_lines")
    op.drop_index("ix_ledger_entries_account", table_name="ledger_entries")
    op.drop_index("ix_ledger_entries_transaction_id", table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_table("ledger_transactions")
    op.drop_table("table_seat_clocks")
    op.drop_table("table_setups")
