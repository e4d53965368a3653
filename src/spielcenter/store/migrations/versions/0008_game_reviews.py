"""Game reviews kept with the game, and the claim of the process computing one (issue 42).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``game_reviews`` (empty: reviews from before were kept only in memory)."""
    op.create_table(
        "game_reviews",
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("subject_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("failure", sa.String(200), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("kind", "subject_id", "seat", name="pk_game_reviews"),
    )


def downgrade() -> None:
    """Drop ``game_reviews`` (the reviews are computed again when asked for)."""
    op.drop_table("game_reviews")
