"""Table entries say whether a stand-in made them (no winnings for a seat a person never played).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``table_entries.by_stand_in``; entries written before count as the seat's own."""
    with op.batch_alter_table("table_entries") as batch:
        batch.add_column(
            sa.Column("by_stand_in", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop ``table_entries.by_stand_in``."""
    with op.batch_alter_table("table_entries") as batch:
        batch.drop_column("by_stand_in")
