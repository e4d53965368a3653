"""The tables of the server, in portable SQLAlchemy types (SQLite now, PostgreSQL later).

A game is stored as its event log: the ``games`` row holds what was dealt (game, variant, deal)
and a summary for listings and statistics; ``game_entries`` holds the accepted entries in order.
The position is never stored: it is the replay of the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Named constraints keep Alembic's batch mode (SQLite) and PostgreSQL migrations identical.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING)


class Account(Base):
    """A player: a guest (no name) until claimed with a name and a password."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(24))
    # The NFKC case-folded name, so "Anna", "ANNA" and a fullwidth "Ａnna" cannot all exist
    # (services/names.py; "~" and the old key for a look-alike from before migration 0005).
    name_key: Mapped[str | None] = mapped_column(String(96), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Session(Base):
    """A login on one device. Only a keyed hash of the cookie's token is stored."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When it was last used, to the hour (it is written at most once an hour): idle expiry.
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRecord(Base):
    """One game of one account: what was dealt, and a summary of its log."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(32))
    # A deal number, or none for a game dealt from a secret seed (migration 0005): the seed as
    # hex, secret until the game is over, and its commitment, shown from the start.
    deal: Mapped[int | None] = mapped_column(BigInteger)
    seed: Mapped[str | None] = mapped_column(String(128))
    commitment: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    # Accepted move entries (undo and redo are not moves): the "fewest moves" statistic.
    moves: Mapped[int] = mapped_column(Integer, default=0)
    restart_of: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_games_account_game_variant", "account_id", "game", "variant"),)


class GameEntry(Base):
    """One accepted entry of a game's log: a move, an undo or a redo."""

    __tablename__ = "game_entries"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(8))
    move: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- progress: campaign, daily quilt, leaderboards, achievements (migration 0003) ---------------


class CampaignRecord(Base):
    """An account's Speedquilt campaign: where it stands and its best run so far.

    ``game_id`` is the stage game being played (an event log like any game), so any device
    continues it exactly where it stands.
    """

    __tablename__ = "campaigns"

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    stage: Mapped[int] = mapped_column(Integer)
    spools: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(String(32))
    # The leaderboard: the highest stage cleared, the campaign points then, and when.
    best_stage: Mapped[int] = mapped_column(Integer, default=0)
    best_points: Mapped[int] = mapped_column(Integer, default=0)
    best_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyAttempt(Base):
    """One daily-quilt game of an account; only the first of the day is ``ranked``."""

    __tablename__ = "daily_attempts"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    day: Mapped[str] = mapped_column(String(10))
    ranked: Mapped[bool] = mapped_column(Boolean)
    points: Mapped[int | None] = mapped_column(Integer)
    empty_patches: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_daily_attempts_day_ranked", "day", "ranked"),)


class TableResult(Base):
    """One account's result at a finished Speedquilt table (for the table leaderboards)."""

    __tablename__ = "table_results"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    points: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    leaderboard_points: Mapped[int] = mapped_column(Integer)
    seats: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # A practice table dealt from a chosen deal number is listed but never on a leaderboard: its
    # deal may have been rehearsed (migration 0005).
    ranked: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class AchievementRecord(Base):
    """An achievement awarded to an account, once, with the date and the game that earned it."""

    __tablename__ = "achievements"

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    game_id: Mapped[str | None] = mapped_column(String(32))
    awarded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- Speedquilt tables (migration 0002) ---------------------------------------------------------


class TableRecord(Base):
    """One table: what was dealt (variant, options, deal), its tempo, and a summary of its log.

    The position is never stored: it is the replay of ``table_entries`` through the engine.
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_by: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(32))
    # The engine's options as JSON (players, target, rounds, ...); secrets are never stored here.
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # A deal number (practice against computers), or none: every lobby, staked and ranked table
    # is dealt from a secret seed (hex; revealed only once the table is finished) whose
    # commitment is shown from the start (migration 0005).
    deal: Mapped[int | None] = mapped_column(BigInteger)
    seed: Mapped[str | None] = mapped_column(String(128))
    commitment: Mapped[str | None] = mapped_column(String(64))
    tempo: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(16), index=True)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    # The end data (scores, places, leaderboard points, breakdowns) once the game is over.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TableSeat(Base):
    """Who sits at one seat of a table: an account, or a computer player of a level."""

    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    level: Mapped[str | None] = mapped_column(String(16))


class TableEntry(Base):
    """One accepted decision of a table's log: which seat made which move (text notation)."""

    __tablename__ = "table_entries"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    by_stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Made for a person's seat by a stand-in computer or her clock, not by her (migration
    0005): a seat with no entry of its own wins nothing (docs/ledger.md)."""


# -- tables with several people: lobby, clocks, absence, taler, chat (migration 0004) -----------


class TableSetup(Base):
    """How a lobby table is played: its clocks, its stake, who stands in, how to invite.

    ``think_seconds`` / ``giving_seconds`` are ``None`` for a table without that clock.
    """

    __tablename__ = "table_setups"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    think_seconds: Mapped[int | None] = mapped_column(Integer)
    giving_seconds: Mapped[int | None] = mapped_column(Integer)
    stake: Mapped[int] = mapped_column(BigInteger, default=0)
    stand_in: Mapped[str] = mapped_column(String(16))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite: Mapped[str] = mapped_column(String(32), unique=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SeatClock(Base):
    """One seat's clock and presence at a started table.

    ``deadline`` is absolute (the grace follows it), so a restarted server re-arms it; ``away``
    says why a computer plays the seat now (``left``, ``timeout``, ``disconnected``) or is
    ``None``; ``disconnected_at`` is when her last socket closed.
    """

    __tablename__ = "table_seat_clocks"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str | None] = mapped_column(String(8))
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    away: Mapped[str | None] = mapped_column(String(16))
    disconnected_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LedgerTransaction(Base):
    """One movement of taler: its entries sum to zero (double entry).

    ``key`` makes a movement happen at most once (``opening:<account>``, ``stake:<table>``,
    ``payout:<table>``).
    """

    __tablename__ = "ledger_transactions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(80), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerEntry(Base):
    """One leg of a movement: ``amount`` taler to (positive) or from (negative) a ledger account
    (``player:<account id>``, ``house``, ``pot:<table id>``)."""

    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    transaction_id: Mapped[int] = mapped_column(
        ForeignKey("ledger_transactions.id", ondelete="CASCADE"), index=True
    )
    account: Mapped[str] = mapped_column(String(48), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class ChatLine(Base):
    """One line of a table's chat, as written (plain text; clients show it as text)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- game reviews (migration 0008) ---------------------------------------------------------------


class GameReview(Base):
    """The review of one seat's decisions in a finished game (issue 42), or the claim of the
    process computing it.

    A finished game never changes, so neither does its review: it is computed once and served
    from here after a restart and by every process. ``state`` is ``running`` while ``owner`` (a
    process) computes it since ``claimed_at``, then ``done`` with ``review``, or ``failed`` with
    ``failure``. ``version`` is the review's rules (:data:`spielcenter.bots.review.VERSION`): a
    review of older rules is computed again.
    """

    __tablename__ = "game_reviews"

    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``table`` (a table she sat at) or ``game`` (her solo game)."""
    subject_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The table's or the game's id (no foreign key: it names one of two tables)."""
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(8))
    owner: Mapped[str] = mapped_column(String(64))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    failure: Mapped[str | None] = mapped_column(String(200))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
