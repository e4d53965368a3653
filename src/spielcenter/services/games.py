"""Games on the server: each one an event log, its position the replay of that log.

The log holds the deal (game, variant, deal number) and the accepted entries ``move``, ``undo``
and ``redo``, numbered by ``seq`` 1, 2, 3 … Live positions are cached in memory per game; after a
restart the first access replays the log. Every accepted entry is committed before the caller
gets its event, so what a player saw was saved.

One writer: with several server processes on one database (``shared``), a player's two windows
may reach two processes. The database refuses a second writer: an entry is keyed by its game
and ``seq``, so a process whose cached position is behind cannot write the next entry — it drops
the cache and answers ``stale`` (the browser opens the game again and plays on). Opening a game
there compares the cache with the stored ``seq`` first, so nobody is shown an old position.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import (
    JSON,
    Deal,
    Game,
    GameError,
    IllegalMoveError,
    MoveSyntaxError,
    Record,
    Status,
    game_names,
)
from spielcenter.games.log import MOVE, Entry, GameLog
from spielcenter.solvers.registry import hint, solver_of
from spielcenter.solvers.winnable import NoWinnableListError, WinnableListError, winnable_deals
from spielcenter.store.models import GameRecord
from spielcenter.store.repositories import GameRepository, NewEntry

from .common import (
    Clock,
    ServiceError,
    StageTimer,
    as_utc,
    compact_json,
    json_items,
    new_id,
    no_timing,
    string_json,
)
from .deals import client_deal, random_deal
from .fairness import dealt_from, fairness_of
from .logwriter import LogWriter
from .results import FinishedGame, record_finished

GameResolver = Callable[[str, str | None], Game[Any, Any]]
"""Finds the engine for a game name and variant (``None``: the default variant)."""

Publisher = Callable[[JSON, object], Awaitable[None]]
"""Sends a committed event to whoever watches the game; ``origin`` says who asked for it."""
Deliver = Callable[[list[JSON]], Awaitable[None]]
"""Sends the catch-up messages of a reconnect to one client."""

RECENT_EVENTS = 32
"""Events kept per live game for reconnects; a larger gap gets the full state."""
LIVE_GAMES = 2000
"""Live positions kept in memory at most; the least recently used are dropped (and replayed
later)."""
UNWATCHED_GAMES = 100
"""Live positions no socket watches kept at most (the least recently used beyond are dropped):
a Cruel game with its last events (each with its view) holds about 140 KB, and every game
ever opened would otherwise stay until there are ``LIVE_GAMES`` of them (docs/performance.md,
"Soak")."""
SECRET_DEALS = frozenset({"speedquilt"})
"""Games whose deal number keys hidden things (Speedquilt: the dice stream, the deck orders)."""
CLIENT_VARIANTS = {"speedquilt": frozenset({"solo"})}
"""Games of which a client may deal only some variants here: Speedquilt tables start at
``/api/tables`` or the lobby, and the daily quilt (``daily-<day>``) and the campaign stages
(``stage-N``) only through their own services, which store those variants themselves."""
AbandonHook = Callable[[AsyncSession, datetime], Awaitable[None]]
"""Runs in the transaction that gives a game up (the campaign counts the stage as missed)."""


def public_deal(game: str, deal: Deal | None) -> int | None:
    """The deal number as players may see it: ``None`` where it would reveal hidden things (and
    for a game dealt from a secret seed, which has none)."""
    return None if game in SECRET_DEALS or not isinstance(deal, int) else deal


@dataclass
class LiveGame:
    """A game's log replayed into a position, with what the protocol needs around it."""

    id: str
    account_id: str
    name: str
    variant: str
    deal: Deal
    engine: Game[Any, Any]
    log: GameLog[Any, Any]
    """The game's log replayed (a one-seat table of the shape every game keeps)."""
    seq: int = 0
    moves: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    recent: deque[tuple[int, str, FrozenView]] = field(
        default_factory=lambda: deque(maxlen=RECENT_EVENTS)
    )
    """The last events by ``seq``: each as the JSON text of all but its view, and the view
    frozen (:data:`FrozenView`, which the next changes are counted from anyway). Strings are
    objects the garbage collector never walks, where an event's view is dozens
    (docs/performance.md, "Where a slow entry waits"); a reconnect decodes the few it sends."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    abandoned: bool = False
    """Given up before its end (a campaign stage left early): lost, and takes no more entries."""
    last_view: FrozenView | None = None
    """The view of the last event, which the next event's ``changes`` are counted from (frozen:
    see :data:`FrozenView`)."""

    @property
    def record(self) -> Record[Any, Any]:
        """The moves standing and those taken back, and the position they replay to."""
        return self.log.record

    _status_of: object = field(default=None, init=False, repr=False)
    _status: Status = field(default=Status.PLAYING, init=False, repr=False)
    """The engine's status of the position ``_status_of`` (an entry asks four times, and
    Cruel's answer looks for a card that can move; two fields, not a pair: a tuple would be an
    object more for the garbage collector with every entry)."""

    @property
    def status(self) -> Status:
        """Where the game stands, as the engine says (a game given up is lost)."""
        if self.abandoned:
            return Status.LOST
        state = self.record.state
        if self._status_of is not state:
            self._status, self._status_of = self.engine.status(state), state
        return self._status

    def view_of_engine(self) -> JSON:
        """The engine's view of the position now; one that says its status (the engine's, as
        tests/conformance checks) spares :attr:`status` asking the engine (Cruel's and Crazy
        Quilt's look for a move that is left, as their views have just done)."""
        state = self.record.state
        view = self.engine.view_for(state, 0)
        status = _STATUS_OF_TEXT.get(view.get("status"))  # type: ignore[arg-type]
        if status is not None:
            self._status, self._status_of = status, state
        return view


@dataclass(frozen=True)
class Hint:
    """A suggested move (or none), the catalogue key of its explanation, and what the solver
    knows: ``verdict`` (``winnable`` / ``lost`` / ``unknown``) and, for a lost game, how many
    moves to keep when undoing (``undo_to``)."""

    move: str | None
    text_key: str
    verdict: str | None = None
    undo_to: int | None = None


class GameService:
    """Creating, listing, replaying and playing games."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        resolve: GameResolver,
        clock: Clock,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.resolve = resolve
        self.clock = clock
        self.writer = LogWriter(sessionmaker)
        self.publish: Publisher = _nobody_listens
        """Called with each committed event while the game is still locked, so that every
        watcher gets the events of a game in ``seq`` order."""
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self.watched: Callable[[str], bool] = _nobody_watches
        """Whether a socket of this process watches a game (the server connects its hub)."""
        self.shared = False
        """Other server processes write to the same database (docs/deploy.md)."""
        self.timing: StageTimer = no_timing

    def time_stages(self, timer: StageTimer) -> None:
        """Count the stages of every entry with ``timer`` (the server's latency trace)."""
        self.timing = self.writer.timing = timer

    async def close(self) -> None:
        """Stop the log writer (the server is shutting down)."""
        await self.writer.close()

    # -- records --------------------------------------------------------------------------

    async def create(
        self,
        account_id: str,
        game: str | None = None,
        variant: str | None = None,
        deal: int | None = None,
        restart_of: str | None = None,
        winnable_only: bool = False,
    ) -> JSON:
        """A new game record; ``restart_of`` deals the same game, variant and deal again;
        ``winnable_only`` draws the deal from the ones the solver has proven winnable."""
        if winnable_only and (deal is not None or restart_of is not None):
            raise ServiceError(
                "bad_request", "winnable_only picks the deal itself: send no deal and no restart"
            )
        if restart_of is not None:
            old = await self.summary(account_id, restart_of)
            game, variant, deal = old["game"], old["variant"], old["deal"]
        if game is None:
            raise ServiceError("bad_request", "say which game to deal, e.g. 'cruel'")
        _check_client_variant(game, variant)  # before resolving: "daily" alone does not resolve
        engine = self._engine(game, variant)
        if winnable_only:
            deal = _winnable_deal(engine)
        else:
            deal = random_deal() if deal is None else client_deal(deal)
        now = self.clock()
        row = GameRecord(
            id=new_id(),
            account_id=account_id,
            game=engine.name,
            variant=engine.variant,
            deal=deal,
            status=Status.PLAYING.value,
            last_seq=0,
            moves=0,
            restart_of=restart_of,
            created_at=now,
        )
        async with self.sessionmaker.begin() as db:
            GameRepository(db).add(row)
        return self._summary(row)

    def _engine(self, game: str, variant: str | None) -> Game[Any, Any]:
        try:
            return self.resolve(game, variant)
        except (GameError, LookupError, ValueError) as exc:
            raise ServiceError("bad_request", str(exc)) from exc

    async def of_account(
        self,
        account_id: str,
        state: str | None = None,
        game: str | None = None,
        limit: int | None = None,
    ) -> list[JSON]:
        """The account's games, newest first: ``open`` (playing), ``finished`` or all; only of
        ``game`` and at most ``limit`` if given (the start page's "restart last deal")."""
        filters = {"open": Status.PLAYING.value, "won": "won", "lost": "lost", None: None}
        if state not in filters and state != "finished":
            raise ServiceError("bad_request", "state is one of open, finished, won, lost")
        if limit is not None and state == "finished":
            raise ServiceError("bad_request", "limit goes with state open, won, lost or none")
        async with self.sessionmaker() as db:
            rows = await GameRepository(db).of_account(account_id, filters.get(state), game, limit)
        if state == "finished":
            rows = [row for row in rows if row.status != Status.PLAYING.value]
        return [self._summary(row) for row in rows]

    async def summary(self, account_id: str, game_id: str) -> JSON:
        """One game of the account; another account's game is simply not found."""
        async with self.sessionmaker() as db:
            row = await GameRepository(db).get(game_id)
        if row is None or row.account_id != account_id:
            raise ServiceError("not_found", f"no game {game_id!r} for this account")
        return self._summary(row)

    def _summary(self, row: GameRecord) -> JSON:
        return {
            "id": row.id,
            "game": row.game,
            "variant": row.variant,
            "deal": public_deal(row.game, row.deal),
            "status": row.status,
            "seq": row.last_seq,
            "moves": row.moves,
            "restart_of": row.restart_of,
            "created_at": as_utc(row.created_at).isoformat(),
            "started_at": as_utc(row.started_at).isoformat() if row.started_at else None,
            "finished_at": as_utc(row.finished_at).isoformat() if row.finished_at else None,
            # A campaign stage is dealt from a secret seed: its commitment, the seed once over.
            "fairness": fairness_of(row, over=row.status != Status.PLAYING.value),
        }

    # -- the live position -------------------------------------------------------------------

    async def open(self, account_id: str, game_id: str) -> LiveGame:
        """The live game (replaying its log if it is not in memory); only for its owner."""
        live = self._live.get(game_id)
        if live is None:
            live = await self._load(game_id)
        if live is None or live.account_id != account_id:
            raise ServiceError("not_found", f"no game {game_id!r} for this account")
        self._live.move_to_end(game_id)
        return live

    async def _load(self, game_id: str) -> LiveGame | None:
        async with self.sessionmaker() as db:
            repo = GameRepository(db)
            row = await repo.get(game_id)
            if row is None:
                return None
            entries = await repo.entries(game_id)
        engine = self._engine(row.game, row.variant)
        stored = [(entry.kind, 0, entry.move) for entry in entries]
        log: GameLog[Any, Any] = GameLog.replay(engine, dealt_from(row), stored, keep=False)
        live = LiveGame(
            id=row.id,
            account_id=row.account_id,
            name=row.game,
            variant=row.variant,
            deal=dealt_from(row),
            engine=engine,
            log=log,
            seq=row.last_seq,
            moves=row.moves,
            started_at=as_utc(row.started_at) if row.started_at else None,
            finished_at=as_utc(row.finished_at) if row.finished_at else None,
        )
        # Stored as lost while its log still plays on: it was given up.
        live.abandoned = row.status == Status.LOST.value and live.status is Status.PLAYING
        # Two sockets may load the same game at once; the first one cached wins.
        live = self._live.setdefault(game_id, live)
        self._trim()
        return live

    def _trim(self) -> None:
        """Keep at most ``UNWATCHED_GAMES`` positions nobody watches and ``LIVE_GAMES`` in all,
        dropping the least recently used (a position is the replay of its log: nothing is lost)."""
        unwatched = [
            game_id
            for game_id, live in self._live.items()
            if not self.watched(game_id) and not live.lock.locked()  # not one in mid-entry
        ]
        for game_id in unwatched[: max(0, len(unwatched) - UNWATCHED_GAMES)]:
            del self._live[game_id]
        while len(self._live) > LIVE_GAMES:
            self._live.popitem(last=False)

    def view(self, live: LiveGame) -> JSON:
        """What the player sees: the engine's view plus the server's fields (docs/protocol.md)."""
        return self._view(live, live.view_of_engine(), self.clock())

    def _view(self, live: LiveGame, seen: JSON, now: datetime) -> JSON:
        """The engine's view ``seen`` of the position now, with the server's fields at ``now``."""
        status = live.status
        playing = status is Status.PLAYING
        if not playing:
            legal = []
        elif "legal" in seen:  # the engine's view lists them already (Game.view_for)
            legal = seen["legal"]
        else:
            engine = live.engine
            legal = [engine.format_move(m) for m in engine.legal_moves(live.record.state, 0)]
        record = live.record
        return {
            **seen,
            "game": live.name,
            "variant": live.variant,
            "deal": public_deal(live.name, live.deal),
            "status": status.value,
            "legal": legal,
            "moves_made": len(record.moves),
            "can_undo": playing and bool(record.moves),
            "can_redo": playing and bool(record.undone),
            "elapsed_ms": self._elapsed_ms(live, now),
        }

    def _elapsed_ms(self, live: LiveGame, now: datetime) -> int:
        if live.started_at is None:
            return 0
        end = live.finished_at or now
        return max(0, int((end - live.started_at).total_seconds() * 1000))

    def state_message(self, live: LiveGame) -> JSON:
        """The full ``state`` message of a game."""
        return {"type": "state", "game_id": live.id, "seq": live.seq, "view": self.view(live)}

    async def catch_up(
        self, account_id: str, game_id: str, last_seq: int | None, deliver: Deliver
    ) -> None:
        """Deliver what a client of ``last_seq`` missed: the events, or the full state.

        Runs under the game's lock, so no new event can slip in between.
        """
        live = await self.open(account_id, game_id)
        if self.shared and not await self._current(live):
            self._live.pop(game_id, None)
            live = await self.open(account_id, game_id)
        async with live.lock:
            # Another process's event dropped the cache since it was read (``forget``), and
            # went to the watchers, ``deliver``'s socket not yet among them: read it again.
            dropped = self.shared and self._live.get(game_id) is not live
            if not dropped:
                missed = None if last_seq is None else self.missed(live, last_seq)
                await deliver([self.state_message(live)] if missed is None else missed)
        if dropped:
            await self.catch_up(account_id, game_id, last_seq, deliver)

    def forget(self, game_id: str) -> None:
        """Drop the cached position (another process wrote the game): the next access replays."""
        self._live.pop(game_id, None)

    async def _written_elsewhere(self, game_id: str, seq: int) -> bool:
        """Whether another process wrote entry ``seq`` first (one writer: this one was behind)."""
        async with self.sessionmaker() as db:
            row = await GameRepository(db).get(game_id)
        return row is not None and row.last_seq >= seq

    async def _current(self, live: LiveGame) -> bool:
        """Whether the cached position is the stored one (no other process wrote since)."""
        async with self.sessionmaker() as db:
            row = await GameRepository(db).get(live.id)
        return row is not None and row.last_seq == live.seq and row.status == live.status.value

    def missed(self, live: LiveGame, last_seq: int) -> list[JSON] | None:
        """The events after ``last_seq``, or ``None`` when the gap is too large to replay."""
        if last_seq == live.seq:
            return []
        if last_seq > live.seq or last_seq < 0:
            return None
        events = [(text, view) for seq, text, view in live.recent if seq > last_seq]
        if len(events) != live.seq - last_seq:
            return None
        return [{**json.loads(text), "view": thawed_view(view)} for text, view in events]

    # -- entries of the log -------------------------------------------------------------------

    async def move(
        self,
        account_id: str,
        game_id: str,
        text: str,
        client_seq: int | None = None,
        origin: object = None,
    ) -> JSON:
        """Play a move; the committed ``event`` message."""
        live = await self.open(account_id, game_id)
        async with self._entry_lock(live):
            self._check_playable(live, client_seq)
            try:
                entry = live.log.play(text)
            except MoveSyntaxError as exc:
                raise ServiceError("bad_move", str(exc)) from exc
            except IllegalMoveError as exc:
                raise ServiceError("illegal_move", str(exc)) from exc
            return await self._commit(live, entry, origin)

    async def undo(
        self, account_id: str, game_id: str, client_seq: int | None = None, origin: object = None
    ) -> JSON:
        """Take back the last move; the committed ``event`` message."""
        live = await self.open(account_id, game_id)
        async with self._entry_lock(live):
            self._check_playable(live, client_seq)
            entry = live.log.undo()
            if entry is None:
                raise ServiceError("nothing_to_undo", "there is no move to take back")
            return await self._commit(live, entry, origin)

    async def redo(
        self, account_id: str, game_id: str, client_seq: int | None = None, origin: object = None
    ) -> JSON:
        """Play again the move last taken back; the committed ``event`` message."""
        live = await self.open(account_id, game_id)
        async with self._entry_lock(live):
            self._check_playable(live, client_seq)
            entry = live.log.redo()
            if entry is None:
                raise ServiceError("nothing_to_redo", "there is no move to play again")
            return await self._commit(live, entry, origin)

    def _entry_lock(self, live: LiveGame) -> _EntryLock:
        """The game's lock for one entry (how long it waited is a stage of the trace)."""
        return _EntryLock(live.lock, self.timing)

    def _check_playable(self, live: LiveGame, client_seq: int | None) -> None:
        if live.status is not Status.PLAYING:
            raise ServiceError("game_over", f"this game is over ({live.status.value})")
        if client_seq is not None and client_seq != live.seq:
            raise ServiceError(
                "stale", f"the game is at seq {live.seq}, not {client_seq}: open it again"
            )

    async def _commit(self, live: LiveGame, played: Entry, origin: object) -> JSON:
        """Write the entry and the game's summary in one transaction, then publish the event."""
        now = self.clock()
        seq, kind, move = live.seq + 1, played.kind, played.move
        seen = live.view_of_engine()  # before the status: it may say it
        status = live.status
        started_at = live.started_at or now
        finished_at = now if status is not Status.PLAYING else None
        moves = live.moves + (kind == MOVE)
        entry = NewEntry(live.id, seq, kind, move, now)
        summary = {
            "last_seq": seq,
            "moves": moves,
            "status": status.value,
            "started_at": started_at,
            "finished_at": finished_at,
        }
        achievements: list[JSON] = []
        began = time.perf_counter()
        try:
            if status is Status.PLAYING:
                await self.writer.write(entry, summary)
            else:
                achievements = await self._write_end(live, entry, summary, status, now)
        except IntegrityError:
            self._live.pop(live.id, None)
            if await self._written_elsewhere(live.id, seq):
                raise ServiceError(
                    "stale", "the game moved on in another window: open it again"
                ) from None
            raise
        except Exception:
            # The record already changed in memory; drop it so the next access replays the log.
            self._live.pop(live.id, None)
            raise
        committed = time.perf_counter()
        self.timing("commit_wait", (committed - began) * 1000)
        live.seq, live.moves = seq, moves
        live.started_at, live.finished_at = started_at, finished_at
        view = self._view(live, seen, now)
        event = Event(
            type="event", game_id=live.id, seq=seq, event={"kind": kind, "move": move}, view=view
        )
        event.compact = None
        if achievements:
            event["achievements"] = achievements
            head = compact_json({key: value for key, value in event.items() if key != "view"})
        else:
            head = event_head_text(live.id, seq, kind, move)
        # The sockets that asked for changes get them instead of the view (server/hub.py).
        changes, written, live.last_view = view_changes(live.last_view or {}, view)
        live.recent.append((seq, head, live.last_view))
        if changes is not None:
            event[CHANGES] = changes
            event.compact = f'{head[:-1]},"changes":{written}}}'
        viewed = time.perf_counter()
        self.timing("view", (viewed - committed) * 1000)
        await self.publish(event, origin)
        self.timing("publish", (time.perf_counter() - viewed) * 1000)
        return event

    async def _write_end(
        self, live: LiveGame, entry: NewEntry, summary: JSON, status: Status, now: datetime
    ) -> list[JSON]:
        """The last entry and the results it brings (campaign, daily, achievements): one
        transaction, so a result is never counted without its game or twice."""
        finished = FinishedGame.of_solo_game(
            live.id,
            live.account_id,
            live.name,
            live.variant,
            live.engine,
            live.record.state,
            live.record.moves,
            status,
            now,
        )
        async with self.sessionmaker.begin() as db:
            await GameRepository(db).append([(entry, summary)])
            new = await record_finished(db, finished)
        return new.get(live.account_id, [])

    async def abandon(self, account_id: str, game_id: str, hook: AbandonHook) -> None:
        """Give up a game before its end: it is lost and takes no more entries; ``hook`` runs
        in the same transaction."""
        live = await self.open(account_id, game_id)
        async with live.lock:
            self._check_playable(live, None)
            now = self.clock()
            async with self.sessionmaker.begin() as db:
                row = await GameRepository(db).get(game_id)
                assert row is not None
                row.status, row.finished_at = Status.LOST.value, now
                await hook(db, now)
            live.abandoned, live.finished_at = True, now

    # -- hints --------------------------------------------------------------------------------

    async def hint(self, account_id: str, game_id: str) -> Hint:
        """A good next move from the player's point of view."""
        live = await self.open(account_id, game_id)
        if live.status is not Status.PLAYING:
            return Hint(None, "hint.game_over")
        if solver_of(live.engine.name) is None:
            return _hint_without_solver(live)
        history = list(live.record.moves)
        try:
            # Solvers may search for a while: keep the event loop free meanwhile.
            found = await asyncio.to_thread(hint, live.engine, live.record.state, history)
        except ValueError:  # a history the hint cannot follow
            return _foundation_hint(live)
        return Hint(found.move, found.text_key, found.verdict, found.undo_to)


_STATUS_OF_TEXT = {status.value: status for status in Status}


class Event(dict[str, Any]):
    """An ``event`` message as the game service publishes it, with ``compact``: its text with
    ``changes`` instead of ``view`` (``None`` when it has no changes), written from the text kept
    for reconnects (:func:`event_head_text`) rather than encoded again (server/hub.py)."""

    __slots__ = ("compact",)
    compact: str | None


def event_head_text(game_id: str, seq: int, kind: str, move: str) -> str:
    """The text of an event without its view, as :func:`compact_json` writes it: by hand, in a
    fraction of the C encoder's instructions for the dict (tests/unit/test_view_changes.py)."""
    return (
        f'{{"type":"event","game_id":{string_json(game_id)},"seq":{seq},'
        f'"event":{{"kind":{string_json(kind)},"move":{string_json(move)}}}}}'
    )


CHANGES = "changes"
"""The key of an event's changes (docs/protocol.md, "What changed"): the hub sends an event
either with its ``view`` or with these, never both."""
VOLATILE = frozenset({"elapsed_ms"})
"""View fields that follow the clock: always among the changes (the view a client holds may
have been built at another moment)."""


FrozenView = dict[str, str]
"""A view kept to count the next changes from: each field as its JSON text, a list of more than
one item as its items' texts each after a newline (compact JSON never holds one). A dict of
strings is one object the garbage collector never tracks; the view itself (a dozen lists and
dicts) lived the second until the game's next entry, long enough to reach the oldest
generation, and a thousand of them a second brought a full collection every second or two at
1 000 players (docs/performance.md, "The stalls at 1 000 players")."""


def frozen_view(view: JSON) -> FrozenView:
    """A view as :data:`FrozenView` (equal texts: equal values)."""
    # Each field by the writer of its type (the C encoders of strings and integers for most):
    # one call per field, where a pass of json_items over the single fields cost as much again.
    freeze = _FREEZE.get
    return {key: freeze(type(value), compact_json)(value) for key, value in view.items()}


def _list_text(value: list[Any]) -> str:
    """A list as :data:`FrozenView` keeps it: of more than one item, each item's text after a
    newline."""
    if len(value) < 2:
        return compact_json(value)
    if type(value[0]) is str:
        with contextlib.suppress(TypeError):  # a later item is no string: item by item below
            return "\n" + "\n".join(map(string_json, value))
    elif set(map(type, value)) == _ONLY_LISTS:
        # Lists only (a layout's piles, a quilt's rows): each list of strings written once
        # and looked up by its items after (a move changes two of Cruel's twelve piles).
        try:
            kept = list(map(_STRINGS_TEXT.get, map(tuple, value)))
        except TypeError:  # an item holds a list or a dict (no key): one call of the encoder
            text = compact_json(value)
            # Their texts are joined by "],[": if it occurs once per join, no item holds it.
            if text.count("],[") == len(value) - 1:
                return "\n" + text[1:-1].replace("],[", "]\n[")
        else:
            texts = (
                [
                    text if text is not None else _strings_text(item)
                    for text, item in zip(kept, value, strict=True)
                ]
                if None in kept
                else kept
            )
            return "\n" + "\n".join(texts)  # type: ignore[arg-type]
    return "\n" + "\n".join(json_items(value))


def _strings_text(value: list[Any]) -> str:
    """The compact JSON of a list (a view's list of lists' item), kept by its items when they
    are all strings."""
    text = compact_json(value)
    if set(map(type, value)) <= _ONLY_STRINGS:
        _keep(_STRINGS_TEXT, tuple(value), text)
    return text


def _dict_text(value: dict[str, Any]) -> str:
    """The compact JSON of a dict (a layout's foundations), kept by its items when its keys and
    values are all strings."""
    try:
        key = tuple(value.items())
        text = _STRINGS_DICT_TEXT.get(key)
    except TypeError:  # a value is a list or a dict
        return compact_json(value)
    if text is None:
        text = compact_json(value)
        if set(map(type, value)) <= _ONLY_STRINGS >= set(map(type, value.values())):
            _keep(_STRINGS_DICT_TEXT, key, text)
    return text


def _keep(texts: dict[Any, str], key: Any, text: str) -> None:
    """Keep ``text`` by ``key``, at most :data:`TEXTS_KEPT` of them (then they start afresh)."""
    if len(texts) >= TEXTS_KEPT:
        texts.clear()
    texts[key] = text


TEXTS_KEPT = 50_000
"""Texts of lists and dicts of strings kept by their items at most (at 1 000 Cruel games, the
12 000 piles on show and the few an entry makes: under 10 MB)."""
_STRINGS_TEXT: dict[tuple[str, ...], str] = {}
"""The compact JSON of lists of strings, by their items. Only strings: equal keys are equal
strings item by item, and so the same JSON (``(1,) == (True,)``, whose texts differ, is never
a key). The keys are tuples of strings, which the garbage collector stops tracking at their
first young collection; the dict is one object."""
_STRINGS_DICT_TEXT: dict[tuple[tuple[str, str], ...], str] = {}
"""The compact JSON of dicts of strings, by their items in order (as :data:`_STRINGS_TEXT`)."""
_ONLY_LISTS = {list}
_ONLY_STRINGS = {str}
_FREEZE: dict[type, Callable[[Any], str]] = {
    str: string_json,
    int: int.__repr__,
    bool: {True: "true", False: "false"}.__getitem__,
    type(None): {None: "null"}.__getitem__,
    list: _list_text,
    dict: _dict_text,
}
"""The writer of a view's field by its type (:func:`compact_json` for any other)."""


def thawed_view(frozen: FrozenView) -> JSON:
    """The view that :func:`frozen_view` froze."""
    return {
        key: json.loads(f"[{text[1:].replace(chr(10), ',')}]" if text[:1] == "\n" else text)
        for key, text in frozen.items()
    }


def changes_between(before: JSON, after: JSON) -> JSON | None:
    """What turns the view ``before`` into ``after`` (docs/protocol.md, "What changed"), or
    ``None`` when it would not be smaller than ``after`` itself (see :func:`view_changes`)."""
    return view_changes(frozen_view(before), after)[0]


def view_changes(before: FrozenView, after: JSON) -> tuple[JSON | None, str | None, FrozenView]:
    """What turns the view ``before`` (frozen) into ``after``, or ``None`` when it would not be
    smaller than ``after`` itself; those changes as compact JSON; and ``after`` frozen, to count
    the next changes from.

    ``{"fields": {...}}`` holds each top-level field that changed, with its new value; a list
    that kept its length and changed in fewer than half of its items goes into
    ``{"items": {field: {index: item}}}`` instead (a Cruel move changes two of twelve piles).
    The text is written from the frozen view's texts of those values, which are their compact
    JSON already (a list's items each after a newline, which compact JSON never holds), instead
    of encoding them again (tests/unit/test_view_changes.py compares it with
    :func:`compact_json`).
    """
    now = frozen_view(after)
    if before.keys() != now.keys():
        return None, None, now
    fields: JSON = {}
    items: JSON = {}
    field_texts: list[str] = []
    item_texts: list[str] = []
    for key, text in now.items():
        had = before[key]
        if key not in VOLATILE and had == text:
            continue
        value = after[key]
        listed = text[:1] == "\n"
        if listed and had[:1] == "\n":
            old = had.split("\n")
            if len(old) == len(value) + 1:
                new = text.split("\n")
                at = [i for i in range(1, len(new)) if old[i] != new[i]]
                if len(at) * 2 < len(value):
                    items[key] = {str(i - 1): value[i - 1] for i in at}
                    written = ",".join([f'"{i - 1}":{new[i]}' for i in at])
                    item_texts.append(f"{_key_text(key)}:{{{written}}}")
                    continue
        fields[key] = value
        written = f"[{text[1:].replace(chr(10), ',')}]" if listed else text
        field_texts.append(f"{_key_text(key)}:{written}")
    if len(fields) == len(after):
        return None, None, now
    text = '{"fields":{' + ",".join(field_texts) + "}"
    if items:
        return (
            {"fields": fields, "items": items},
            f'{text},"items":{{{",".join(item_texts)}}}}}',
            now,
        )
    return {"fields": fields}, text + "}", now


def _key_text(key: str) -> str:
    """A view's key as compact JSON writes it in a dict (a view's keys are strings; any other
    as the encoder turns it into one)."""
    return string_json(key) if type(key) is str else compact_json({key: 0})[:-3][1:]


class _EntryLock:
    """A game's lock held for one entry, timing the wait: an async context manager of its own
    (a generator-based one cost more than the lock on every entry)."""

    __slots__ = ("lock", "timing")

    def __init__(self, lock: asyncio.Lock, timing: StageTimer) -> None:
        self.lock, self.timing = lock, timing

    async def __aenter__(self) -> None:
        asked = time.perf_counter()
        await self.lock.acquire()
        self.timing("lock_wait", (time.perf_counter() - asked) * 1000)

    async def __aexit__(self, *_exc: object) -> None:
        self.lock.release()


async def _nobody_listens(_event: JSON, _origin: object) -> None:
    """The publisher until a server connects one."""


def _nobody_watches(_game_id: str) -> bool:
    """Who watches what, until a server connects its hub."""
    return False


def _winnable_deal(engine: Game[Any, Any]) -> int:
    """A random deal from the stored list of proven winnable deals of the game and variant.

    A malformed list is the server's fault, not the request's: its error is not caught here.
    """
    try:
        deals = winnable_deals(engine.name, engine.variant)
    except WinnableListError:
        raise
    except (NoWinnableListError, ValueError):
        raise ServiceError(
            "bad_request",
            f"there are no proven winnable deals of {engine.name} {engine.variant} (yet): "
            "deal a random number or a deal number instead",
        ) from None
    return secrets.choice(deals)


def _hint_without_solver(live: LiveGame) -> Hint:
    """The hint of a game the solvers do not cover: a clear refusal for a game of the registry
    (Speedquilt has no hint button: its screens never ask), and for an engine from outside it
    (the server tests' Ladder) the first legal move to a foundation."""
    name = live.engine.name
    if name in game_names():
        raise ServiceError("bad_request", f"{name} has no hints (only Cruel and Crazy Quilt)")
    return _foundation_hint(live)


def _foundation_hint(live: LiveGame) -> Hint:
    """The first legal move to a foundation.

    In the notations of docs/notation.md a foundation move ends in ``f`` (Cruel) or in ``u`` /
    ``d`` after a source (Crazy Quilt's up and down foundations).
    """
    engine = live.engine
    for move in engine.legal_moves(live.record.state, 0):
        text = engine.format_move(move)
        if len(text) >= 2 and text[-1] in "fud":
            return Hint(text, "hint.to_foundation")
    return Hint(None, "hint.none")


def _check_client_variant(game: str, variant: str | None) -> None:
    """Refuse with ``bad_variant`` a variant that only the server deals (see
    :data:`CLIENT_VARIANTS`): such a game would be stored as something else, or fail to open."""
    allowed = CLIENT_VARIANTS.get(game)
    if allowed is not None and variant not in allowed:
        raise ServiceError(
            "bad_variant",
            f"{variant!r} cannot be dealt here: {game} deals {', '.join(sorted(allowed))} here;"
            " tables start in the lobby, the daily quilt and the campaign from their own pages",
        )
