"""Progress: the Speedquilt campaign, daily-quilt attempts, table results, achievements.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the progress tables."""
    op.create_table(
        "campaigns",
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("spools", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("best_stage", sa.Integer(), nullable=False),
        sa.Column("best_points", sa.Integer(), nullable=False),
        sa.Column("best_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("account_id", name="pk_campaigns"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_campaigns_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("empty_patches", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("game_id", name="pk_daily_attempts"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_daily_attempts_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_daily_attempts_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_daily_attempts_account_id", "daily_attempts", ["account_id"])
    op.create_index("ix_daily_attempts_day_ranked", "daily_attempts", ["day", "ranked"])
    op.create_table(
        "table_results",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("leaderboard_points", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "account_id", name="pk_table_results"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_table_results_account_id_accounts",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_table_results_finished_at", "table_results", ["finished_at"])
    op.create_table(
        "achievements",
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("awarded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "key", name="pk_achievements"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name="fk_achievements_account_id_accounts",
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    """Drop the progress tables."""
    op.drop_table("achievements")
    op.drop_index("ix_table_results_finished_at", table_name="table_results")
    op.drop_table("table_results")
    op.drop_index("ix_daily_attempts_day_ranked", table_name="daily_attempts")
    op.drop_index("ix_daily_attempts_account_id", table_name="daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("campaigns")
