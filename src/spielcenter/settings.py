"""The one settings class of the server, read from ``SPIELCENTER_*`` environment variables.

Secrets never have working defaults outside development: with ``ENV`` other than
``development`` a missing ``SECRET_KEY`` stops the start with a clear message.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT = "development"
# Only ever used with ENV=development, so a checkout runs without any configuration.
DEVELOPMENT_SECRET_KEY = "spielcenter-development-only-secret"
DEVELOPMENT_DAILY_SECRET = "spielcenter-development-only-daily-secret"


class ConfigurationError(RuntimeError):
    """The settings do not allow the server to start."""


class Settings(BaseSettings):
    """Server configuration; every field can be set as ``SPIELCENTER_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="SPIELCENTER_", extra="ignore")

    ENV: str = DEVELOPMENT
    DATA_DIR: Path = Path("data")
    DATABASE_URL: str | None = Field(
        default=None, description="SQLAlchemy async URL; default: a SQLite file in DATA_DIR"
    )
    SECRET_KEY: str | None = None
    REDIS_URL: str | None = Field(
        default=None,
        description="Several processes on one database: tables owned through leases in Redis",
    )
    REDIS_LEASE_MS: int = Field(
        default=10_000,
        ge=300,
        description="How long a table's lease lasts unrenewed: a dead owner's tables wait this"
        " long before another process takes them over",
    )
    DAY_TIMEZONE: str = "Europe/Berlin"
    DAILY_SECRET: str | None = Field(
        default=None,
        description="Keys the daily quilt's deal and dice; required outside development",
    )
    SOCKET_MESSAGE_LIMIT: str = Field(
        default="20/second",
        description="Messages one account may send over all its WebSockets together (a `limits`"
        " rate: so many at once, refilled evenly over the period); the name is from when it"
        " counted per socket",
    )
    SOCKETS_PER_SESSION: int = Field(
        default=8, ge=1, description="WebSockets one session (one device) may hold open at once"
    )
    SOCKETS_PER_ADDRESS: int = Field(
        default=100,
        ge=1,
        description="WebSockets one client address (an IPv6 /64) may hold open at once: a"
        " household or a school behind one NAT plays, one machine cannot open thousands",
    )
    DEFLATE_MIN_BYTES: int = Field(
        default=512,
        ge=0,
        description="WebSocket messages shorter than this go uncompressed even where the browser"
        " agreed to permessage-deflate; larger ones are compressed (server/deflate.py); 0:"
        " every message compressed",
    )
    LOGIN_LIMIT: str = Field(
        default="5/minute", description="Login attempts per name and per address"
    )
    GUEST_LIMIT: str = Field(
        default="60/hour",
        description="New guest accounts per client address (an IPv6 /64): a household, a"
        " school class or a café behind one address gets its guests; a script gets no more",
    )
    CLAIM_LIMIT: str = Field(
        default="5/minute",
        description="Claims of a name per name and per address (each may hash a password)",
    )
    REVIEW_LIMIT: str = Field(
        default="10/minute",
        description="Game reviews one account may start (each about a second of CPU); a review"
        " already stored is served without counting",
    )
    REVIEWS_PER_ACCOUNT: int = Field(
        default=2,
        ge=1,
        description="Game reviews of one account queued or running at once in one process: more"
        " are refused (429 too_many_reviews), so nobody fills the queue the others wait in",
    )
    PASSWORD_HASH_WORKERS: int = Field(
        default=2,
        ge=1,
        description="Threads hashing passwords (argon2, ~125 ms and 64 MiB each): at most this"
        " many hashes at once, never on the threads the hints and computer players use",
    )
    TRUSTED_PROXIES: list[str] = Field(
        default_factory=list,
        description='Addresses of the balancers in front (JSON list, e.g. ["127.0.0.1"]):'
        " their X-Forwarded-For and X-Forwarded-Proto are believed, so limits per address count"
        " the players' addresses and the Origin check knows the page's scheme",
    )
    SESSION_IDLE_DAYS: float = Field(
        default=30, gt=0, description="A session unused this long ends on the server"
    )
    SESSION_LIFETIME_DAYS: float = Field(
        default=400,
        gt=0,
        description="A session ends on the server this long after the login, however much it"
        " is used (400 days: the longest a browser keeps the cookie)",
    )
    ALLOWED_ORIGINS: list[str] = Field(
        default_factory=list,
        description="Origins allowed on the WebSocket besides the server's own host",
    )
    CLOCK_SCALE: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description=(
            "Shortens every clock of a table with people (think time, giving, grace,"
            " auto-continue) by this factor; only for tests and demonstrations (docs/tables.md)"
        ),
    )

    COMPUTER_PROCESSES: int | None = Field(
        default=None,
        ge=0,
        le=8,
        description=(
            "Processes the computer players think in, started at their first decision; 0: a"
            " thread of the server's own process; unset: 1, in development 0 (bots/thinking.py)"
        ),
    )

    COMPUTER_PAUSE_SCALE: float = Field(
        default=1.0,
        ge=0,
        le=1,
        description=(
            "Shortens the computers' pause before each move (every tempo: slow, normal, fast) by"
            " this factor, 0 for none; only for tests and demonstrations (docs/tables.md)"
        ),
    )

    TRACEMALLOC: int = Field(
        default=0,
        ge=0,
        description="Development only: trace allocations with this many frames and write a"
        " snapshot report to DATA_DIR on SIGUSR1 (server/memwatch.py); 0 is off",
    )

    LATENCY_TRACE: bool = Field(
        default=False,
        description="Development only: time the stages of every entry, the event loop's lag and"
        " the garbage collector's pauses, written to DATA_DIR/latency-<pid>.json at shutdown"
        " (server/latency.py)",
    )

    @property
    def is_development(self) -> bool:
        """True while running as a developer's checkout."""
        return self.ENV == DEVELOPMENT

    @property
    def computer_processes(self) -> int:
        """``COMPUTER_PROCESSES``, or its default: a process of their own for the computers
        (another core: docs/performance.md), but a thread in development, where every test's app
        would start one."""
        if self.COMPUTER_PROCESSES is not None:
            return self.COMPUTER_PROCESSES
        return 0 if self.is_development else 1

    @property
    def database_url(self) -> str:
        """The database to use: ``DATABASE_URL`` or ``DATA_DIR/spielcenter.sqlite3``."""
        if self.DATABASE_URL:
            return self.DATABASE_URL
        return f"sqlite+aiosqlite:///{(self.DATA_DIR / 'spielcenter.sqlite3').resolve()}"

    @property
    def secret_key(self) -> str:
        """The key for hashing session tokens; refuses to invent one outside development."""
        if self.SECRET_KEY:
            return self.SECRET_KEY
        if self.is_development:
            return DEVELOPMENT_SECRET_KEY
        raise ConfigurationError(
            f"SPIELCENTER_SECRET_KEY is not set; it is required when SPIELCENTER_ENV={self.ENV!r}"
            " (set it to a long random string, e.g. python -c"
            " 'import secrets; print(secrets.token_urlsafe(48))')"
        )

    @property
    def daily_secret(self) -> bytes:
        """The key of the daily quilt (32 bytes derived from ``DAILY_SECRET``); like
        :attr:`secret_key`, invented only in development."""
        text = self.DAILY_SECRET or (DEVELOPMENT_DAILY_SECRET if self.is_development else None)
        if text is None:
            raise ConfigurationError(
                f"SPIELCENTER_DAILY_SECRET is not set; it is required when SPIELCENTER_ENV="
                f"{self.ENV!r} (it keys the daily quilt's dice: a long random string)"
            )
        return hashlib.blake2b(text.encode(), digest_size=32).digest()

    def check(self) -> None:
        """Raise :class:`ConfigurationError` if the server cannot start with these settings."""
        _ = self.secret_key
        _ = self.daily_secret
