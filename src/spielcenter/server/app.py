"""The app factory: settings → engine and migrations → services → routes.

``create_app`` builds everything for one server process; the database is migrated when the app
starts (the lifespan), so ``spielcenter serve`` on an empty data folder just works.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import timedelta

from argon2 import PasswordHasher
from fastapi import FastAPI
from starlette.types import ASGIApp

from spielcenter.bots.thinking import ThinkingProcesses, think_in_thread
from spielcenter.games.base import JSON, get_game
from spielcenter.services.accounts import AccountService
from spielcenter.services.common import Clock, utcnow
from spielcenter.services.games import GameResolver, GameService
from spielcenter.services.progress import ProgressServices, progress_resolver
from spielcenter.services.sessions import SessionService
from spielcenter.services.stats import StatsService
from spielcenter.services.table_play import TableServices, Thinker
from spielcenter.services.tables import TableService
from spielcenter.settings import Settings
from spielcenter.store.db import make_engine, make_sessionmaker, migrate
from spielcenter.web.assets import load_assets

from .cluster import ClusteredRegistry
from .deps import Platform
from .errors import install_error_handlers
from .hub import Hub, Watcher
from .latency import LatencyTrace
from .logging import AccessLog, configure_logging, log
from .memwatch import MemoryWatch
from .nul import RefuseNul
from .ratelimits import RateLimits
from .registry import TableRegistry
from .routes import account, games, ledger, lobby, pages, progress, stats, tables
from .security_headers import SecurityHeaders
from .static import CompressAnswers
from .tables import TEMPO_SECONDS, speedquilt_engine
from .websocket import router as websocket_router

REDIS_CONNECTIONS = 64
"""Connections to Redis per process (one of them listens; the others publish)."""
REDIS_WAIT_S = 10.0
"""How long a publish waits for a free connection before it fails."""


def _registry(
    settings: Settings,
    service: TableService,
    hub: Hub,
    delays: Mapping[str, float] | None,
    think: Thinker,
) -> TableRegistry:
    """The live tables: this process's alone, or shared with others through Redis."""
    if delays is None and settings.COMPUTER_PAUSE_SCALE != 1:
        scale = settings.COMPUTER_PAUSE_SCALE
        delays = {tempo: pause * scale for tempo, pause in TEMPO_SECONDS.items()}
    services = TableServices.build(service, settings.CLOCK_SCALE, think)
    if settings.REDIS_URL is None:
        return TableRegistry(services, hub, delays)
    from redis.asyncio import BlockingConnectionPool, Redis

    # Every publish borrows a connection: under load they wait for one instead of failing.
    # RESP2: redis-py's RESP3 parser writes every pub/sub message into a debug line (``str`` of
    # its bytes, whether the line is logged or not), 2.5 % of a process's instructions when
    # each patience entry went through Redis (docs/performance.md, "Two processes: a patience
    # entry without Redis"); nothing here needs RESP3.
    pool = BlockingConnectionPool.from_url(
        settings.REDIS_URL, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT_S, protocol=2
    )
    redis = Redis.from_pool(pool)
    return ClusteredRegistry(services, hub, redis, settings.REDIS_LEASE_MS, delays=delays)


def _share_games(games: GameService, hub: Hub, cluster: ClusteredRegistry) -> None:
    """Several processes serve the same patience games: a cached position may be behind the
    database (services/games.py, "One writer"), and events go to the other processes too."""
    games.shared = True

    async def publish(event: JSON, origin: object) -> None:
        await hub.publish(event, origin)
        await cluster.publish_game(event)

    async def written_elsewhere(event: JSON) -> None:
        games.forget(event["game_id"])
        await hub.publish(event, None)

    async def resync(game_id: str) -> None:
        # Each socket on the game is shown its stored position (cluster.py, ``_resync``).
        games.forget(game_id)
        for watcher in list(hub.watchers.get(game_id, ())):

            async def deliver(messages: list[JSON], watcher: Watcher = watcher) -> None:
                for message in messages:
                    await watcher.send(message)

            await games.catch_up(watcher.login.account_id, game_id, None, deliver)

    games.publish = publish
    cluster.on_game_event = written_elsewhere
    cluster.on_game_resync = resync


def _latency_trace(
    settings: Settings, platform: Platform, tables: TableService
) -> LatencyTrace | None:
    """Stage timings, loop lag and collector pauses when ``LATENCY_TRACE`` asks for them."""
    if not settings.LATENCY_TRACE:
        return None
    trace = LatencyTrace(settings.DATA_DIR)
    trace.install()
    platform.timing = trace.record
    platform.games.time_stages(trace.record)
    tables.timing = trace.record
    log.warning("latency_trace_on", report=str(settings.DATA_DIR))
    return trace


def _memory_watch(settings: Settings) -> MemoryWatch | None:
    """Allocation snapshots on SIGUSR1 when ``TRACEMALLOC`` asks for them (development only)."""
    if not settings.TRACEMALLOC:
        return None
    watch = MemoryWatch(settings.DATA_DIR, settings.TRACEMALLOC)
    watch.install()
    log.warning("tracemalloc_on", frames=settings.TRACEMALLOC, reports=str(settings.DATA_DIR))
    return watch


class SpielcenterApp(FastAPI):
    """The FastAPI app with the security headers outermost, outside Starlette's own handler of
    unexpected errors, so that a 500 carries them too."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


OLDEST_AFTER = 100
"""Collections of the middle generation before the oldest is collected again, at least
(CPython's default is 10; it also waits until what was promoted since the last full collection
is a quarter of what it holds). At 1 000 players an entry still promotes its position, which
dies at the game's next entry, and a full collection that walks every live game and socket
stopped every socket for 100–400 ms every 15–20 s; with 100 it comes about once a minute at that
load (docs/performance.md, "The stalls at 1 000 players"). What a full collection finds is
cyclic garbage only (the rest goes when its last reference does): it waits a minute longer."""


def create_app(
    settings: Settings | None = None,
    resolve: GameResolver = get_game,
    clock: Clock = utcnow,
    password_hasher: PasswordHasher | None = None,
    table_delays: Mapping[str, float] | None = None,
    freeze_startup_heap: bool = False,
) -> FastAPI:
    """A Spielcenter server.

    ``resolve`` finds game engines, ``clock`` tells the time, ``password_hasher`` hashes
    passwords (argon2 with its recommended cost by default), ``table_delays`` are the pauses
    before computer moves by tempo (docs/tables.md; by default `TEMPO_SECONDS` times the setting
    ``COMPUTER_PAUSE_SCALE``); tests pass their own. ``freeze_startup_heap`` (``spielcenter
    serve``) hands every object alive once the app has started to ``gc.freeze``: modules,
    mappers, schemas and tables live as long as the process, and a full collection that walks
    them stops every socket for a long moment (docs/performance.md, "Where a slow entry waits");
    and the oldest generation is collected after :data:`OLDEST_AFTER` collections of the middle
    one instead of 10.
    """
    settings = settings or Settings()
    settings.check()
    configure_logging(settings.is_development)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        await migrate(engine)
        sessionmaker = make_sessionmaker(engine)
        sessions = SessionService(
            sessionmaker,
            settings.secret_key,
            clock,
            idle=timedelta(days=settings.SESSION_IDLE_DAYS),
            lifetime=timedelta(days=settings.SESSION_LIFETIME_DAYS),
        )
        hub = Hub()
        platform = Platform(
            settings=settings,
            sessions=sessions,
            accounts=AccountService(
                sessionmaker, sessions, clock, password_hasher, settings.PASSWORD_HASH_WORKERS
            ),
            games=GameService(
                sessionmaker, progress_resolver(resolve, settings.daily_secret), clock
            ),
            stats=StatsService(sessionmaker),
            limits=RateLimits(
                settings.LOGIN_LIMIT,
                settings.SOCKET_MESSAGE_LIMIT,
                settings.REDIS_URL,
                claim=settings.CLAIM_LIMIT,
                guests=settings.GUEST_LIMIT,
                reviews=settings.REVIEW_LIMIT,
            ),
            hub=hub,
        )
        platform.games.publish = hub.publish
        platform.games.watched = hub.watches
        app.state.platform = platform
        app.state.progress = ProgressServices.build(sessionmaker, platform.games, settings, clock)
        # The tables' decisions share the patience games' group commit: one writer.
        table_service = TableService(sessionmaker, speedquilt_engine, clock, platform.games.writer)
        # The computers think on another core (bots/thinking.py), unless told to use a thread.
        thinking = ThinkingProcesses(settings.computer_processes)
        think = thinking.think if settings.computer_processes else think_in_thread
        app.state.tables = _registry(settings, table_service, hub, table_delays, think)
        if isinstance(app.state.tables, ClusteredRegistry):
            _share_games(platform.games, hub, app.state.tables)
        await app.state.tables.start()
        watch = _memory_watch(settings)
        trace = _latency_trace(settings, platform, table_service)
        if freeze_startup_heap:
            gc.collect()
            gc.freeze()
            young, middle, _ = gc.get_threshold()
            gc.set_threshold(young, middle, OLDEST_AFTER)
        log.info("started", env=settings.ENV, database=engine.url.render_as_string())
        try:
            yield
        finally:
            await app.state.tables.close()
            thinking.close()
            await hub.close_all()
            await platform.games.close()
            platform.accounts.close()
            await engine.dispose()
            if watch is not None:
                watch.uninstall()
            if trace is not None:
                await trace.uninstall()
            log.info("stopped")

    app = SpielcenterApp(title="Spielcenter", lifespan=lifespan, docs_url=None, redoc_url=None)
    install_error_handlers(app)
    for module in (pages, account, games, stats, tables, progress, lobby, ledger):
        app.include_router(module.router)
    app.include_router(websocket_router)
    # The client's files, named by content and gzipped once, now (web/assets.py).
    app.state.assets = load_assets()
    app.add_middleware(CompressAnswers)
    app.add_middleware(RefuseNul)
    app.add_middleware(AccessLog)
    return app
