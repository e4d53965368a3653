"""Several server processes on one database and one Redis (docs/deploy.md, "Several processes").

With ``SPIELCENTER_REDIS_URL`` set, the app builds a :class:`ClusteredRegistry` instead of the
one-process :class:`~spielcenter.server.registry.TableRegistry`:

- **One owner per table.** A process runs a table's actor only while it holds the table's lease
  in Redis (``scaleout.Leases``); it renews its leases every third of their length and releases
  them when a table ends or the process shuts down.
- **Commands reach the owner.** A socket of this process sending ``table.*`` for a table owned
  elsewhere: the command goes to the owner's channel; the owner's actor handles it with a
  :class:`RemoteSocket` standing for the socket, whose messages (the answer, and from then on
  the table's events in that seat's view) come back on this process's channel and are relayed.
  So events reach exactly the processes that hold a socket for the table, in ``seq`` order.
  An owner that dies before saying "done" is noticed within ``OWNER_CHECK_S``: the socket
  (which takes one message at a time) does not wait ``ROUTE_TIMEOUT_S`` for it.
- **Takeover.** A process that dies stops renewing. Once its lease has run out another process
  takes the table: on demand (a command or a request for it arrives) or in the periodic sweep,
  which takes every open table without an owner, so computers and clocks go on without anybody
  asking. The new owner replays the table from the database (clock deadlines are absolute and
  stored there) and announces itself on the table's channel; the processes holding sockets for
  the table open it again for them (each socket gets a fresh ``table.state``).

- **Patience games** have no owner: any process serves them. Their events also go to the
  processes holding a socket for the game (which drop their cached position), and the database
  refuses a second writer (``services/games.py``, "One writer"). Only to those: a process
  whose socket opens a game says ``hello`` on the game's channel and waits for a ``here`` from
  every other process subscribed to it (each notes it as a follower) before the socket is shown
  the stored position; a process publishes a game's event only while it knows another process
  follows the game, or does not know (it never opened the game, or an answer is missing). An
  entry that was not published was committed before its writer said ``here``, so the newcomer's
  opening reads it from the database. A player with one window costs no Redis message per entry
  (docs/performance.md, "Two processes: a patience entry without Redis"). Where that can fail,
  the windows are shown the stored position again: an answer arriving after ``HELLO_WAIT_S``;
  a second ``hello`` of the same follow (the sweep greets again where more processes listen
  on a game's channel than are known, or an answer is missing); the bus reader having lost
  Redis. A socket counts as following from before its ``hello``; a follow ends when no socket
  of the process has the game, with a ``bye`` naming the follow (a late one does not end the
  next); a follower is forgotten after nobody listened on its channel at two sweeps.

The database is the last guard: a table's entries are keyed by ``(table, seq)``, so even two
processes that both believed they owned a table could not both write its next entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from spielcenter.games.base import JSON
from spielcenter.services.common import ServiceError
from spielcenter.services.sessions import Login
from spielcenter.services.table_play import TableServices
from spielcenter.services.tables import StoredTable

from .hub import Connection, Hub, Watcher
from .logging import log
from .registry import TableRegistry
from .scaleout import Bus, Leases, process_id
from .tables import (
    STARTED,
    ChatCommand,
    Command,
    LeaveCommand,
    MoveCommand,
    OpenCommand,
    ReturnCommand,
    TableActor,
    table_command,
)
from .websocket import parse_table_message

__all__ = ["ClusteredRegistry", "RemoteSocket"]

ROUTE_TIMEOUT_S = 15.0
"""How long a socket waits for the owner's answer to a routed command."""
RETRY_S = 0.2
"""How often a command for a table whose owner died looks whether its lease has run out."""
OWNER_CHECK_S = 0.5
"""How often a socket waiting for the owner's answer looks whether the owner is still there."""
HELLO_WAIT_S = 2.0
"""How long a process opening a patience game waits for the other followers' ``here``; one that
does not answer in time leaves the game's followers unknown: its events are then always
published."""


@dataclass
class Greeting:
    """A ``hello`` of ours, until every process subscribed to the game's channel answered."""

    game_id: str
    answered: asyncio.Future[None]
    heard: set[str] = field(default_factory=set)
    """The processes that answered, and this one once its own ``hello`` came back to it."""
    listening: int | None = None
    """How many processes were subscribed to the channel when it went out (this one too)."""


class RemoteSocket:
    """A socket of another process, as the owner of a table holds it among the watchers."""

    def __init__(self, registry: ClusteredRegistry, process: str, id: str, login: Login) -> None:
        self.registry = registry
        self.process = process
        self.id = id
        self.login = login
        self.games: set[str] = set()

    async def send(self, message: dict[str, Any]) -> None:
        """Relay ``message`` through the socket's process."""
        await self.registry.relay(self, message)


class ClusteredRegistry(TableRegistry):
    """The table registry of one of several processes: leases, routing, fan-out, takeover."""

    def __init__(
        self,
        services: TableServices,
        hub: Hub,
        redis: Redis,
        lease_ms: int,
        **options: Any,
    ) -> None:
        super().__init__(services, hub, **options)
        self.me = process_id()
        self.redis = redis
        self.leases = Leases(redis, self.me, lease_ms)
        self.bus = Bus(redis)
        self.leased: set[str] = set()
        """The tables whose lease this process holds."""
        self.remotes: dict[tuple[str, str], RemoteSocket] = {}
        self.pending: dict[str, asyncio.Future[JSON]] = {}
        self.routed: dict[str, tuple[str, Any]] = {}
        """Per routed command (by ``cid``), its socket's id and its ``ref``, until answered."""
        self.relayed: set[str] = set()
        """The routed commands whose answer (the message with their ``ref``) reached us."""
        self.sockets: dict[str, Watcher] = {}
        """This process's sockets that sent a command to another process, by id."""
        self.following: dict[str, dict[str, Watcher]] = {}
        """Per table owned elsewhere, this process's sockets that watch it."""
        self.channels: set[str] = set()
        self.on_game_event: Callable[[JSON], Awaitable[None]] | None = None
        """Hands a patience event written by another process to this process's sockets."""
        self.on_game_resync: Callable[[str], Awaitable[None]] | None = None
        """Shows this process's sockets on a patience game its stored position again (another
        process may not have published some of its events)."""
        self.follows: dict[str, str] = {}
        """Per patience game this process follows (a socket of its opened it), the id of the
        follow: its ``hello``, ``here`` and ``bye`` carry it."""
        self.followers: dict[str, dict[str, str]] = {}
        """Per followed game, the other processes known to follow it too (with their follow's
        id): its events are published only while there is one."""
        self.unsure: set[str] = set()
        """Followed games whose other followers are not all known (an answer to our ``hello``
        is missing): their events are always published, and the sweep greets again."""
        self.greetings: dict[str, Greeting] = {}
        """Our ``hello``s waiting for answers, by nonce."""
        self.joins: dict[str, asyncio.Future[None]] = {}
        """Per followed game, its subscription and ``hello`` (every socket opening it waits
        until they are done)."""
        self.silent: set[str] = set()
        """Followers on whose process channel nobody listened at the last sweep."""
        self.gaps = 0
        """The bus reader's failures handled so far (``Bus.gaps``)."""
        self.lanes: dict[str, deque[JSON | None]] = {}
        """Per patience game, what its sockets are still to be shown, in order: the events of
        other processes, and the stored position (``None``)."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.sweeper: asyncio.Task[None] | None = None
        self.renewer: asyncio.Task[None] | None = None
        self.ownerless: set[str] = set()
        """Open tables without an owner at the last sweep: taken over if still so at the next
        (a table is committed a moment before its creator takes its lease)."""

    @property
    def sweep_seconds(self) -> float:
        """Leases are renewed (and ownerless tables looked for) three times per lease."""
        return self.leases.lease_ms / 3000

    # -- starting and stopping -------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on this process's channel, take the open tables nobody owns, start sweeping."""
        await self.bus.subscribe(Bus.process_channel(self.me))
        self.bus.start(self._receive)
        await self.sweep(at_start=True)
        log.info("tables_restarted", tables=len(self.actors), process=self.me)
        self.sweeper = asyncio.create_task(self._sweep_forever(), name="spielcenter-sweeper")
        self.renewer = asyncio.create_task(self._renew_forever(), name="spielcenter-renewer")

    async def close(self) -> None:
        """Stop the actors and give their tables up at once (another process takes them)."""
        for task in (self.sweeper, self.renewer):
            if task is not None:
                task.cancel()
        await super().close()
        for table_id in list(self.leased):
            await self.leases.release(table_id)
        await self.bus.close()
        await self.redis.aclose()

    # -- owning tables -----------------------------------------------------------------------------

    async def create(self, account_id: str, **fields: Any) -> TableActor:
        """A new table, owned by this process."""
        stored = await self.service.create(account_id, **fields)
        if not await self.leases.acquire(stored.record.id):  # a new id: nobody else has it
            return self._copy(stored)
        self.leased.add(stored.record.id)
        return self._activate(stored)

    async def get(self, table_id: str) -> TableActor:
        """This process's actor of ``table_id`` if it owns the table (taking it over when nobody
        does) or the table is finished; else a read-only copy replayed from the database."""
        async with self._loading:
            self.forget_finished()
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            # The lease first, then the log: a former owner can have written nothing after it.
            owned = await self.leases.acquire(table_id)
            stored = await self.service.load(table_id)
            status = None if stored is None else stored.record.status
            if owned and status != STARTED:  # only a table in play has an owner
                await self.leases.release(table_id)
            if stored is None:
                raise ServiceError("not_found", f"no table {table_id!r}")
            if status not in (STARTED, "finished"):
                raise ServiceError("not_started", f"the table is {status}")
            if status == STARTED and not owned:
                return self._copy(stored)
            return await self._own(stored)

    async def _own(self, stored: StoredTable) -> TableActor:
        table_id = stored.record.id
        actor = self._activate(stored)
        if stored.record.status == STARTED:
            self.leased.add(table_id)
            log.info("table_owned", table=table_id, process=self.me, seq=actor.seq)
            # The sockets that watched it through its former owner open it again here.
            announce = {"op": "moved", "table": table_id, "owner": self.me}
            await self.bus.publish(Bus.table_channel(table_id), announce)
        return actor

    def _copy(self, stored: StoredTable) -> TableActor:
        """The committed position of a table owned elsewhere, for reading; it never runs."""
        return self._actor(stored, chat=False)

    async def renew(self) -> None:
        """Renew this process's leases (one round trip); stop driving the tables it lost."""
        running = [t for t in self.leased if t in self.actors and self.actors[t].running]
        for table_id in await self.leases.renew_all(running):
            await self._lost(table_id)

    async def _renew_forever(self) -> None:
        # Apart from the sweep: a slow takeover (replaying long logs) must not delay renewals.
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.renew()
            except Exception:  # Redis away for a moment: try again next time
                log.exception("renew_failed", process=self.me)

    async def sweep(self, at_start: bool = False) -> None:
        """Let go of the tables that ended, and take over every open table that has had no
        owner since the last sweep (its owner died): its computers and clocks go on."""
        for table_id in [t for t in self.leased if not self._drives(t)]:
            self.leased.discard(table_id)
            await self.leases.release(table_id)
            actor = self.actors.get(table_id)
            if actor is not None and actor.playing:  # its actor failed: replay it afresh
                del self.actors[table_id]
        waiting = [t for t in await self.service.open_ids() if t not in self.actors]
        owners = await self.leases.owners_of(waiting)
        ownerless = {t for t, owner in zip(waiting, owners, strict=True) if owner is None}
        due = ownerless if at_start else ownerless & self.ownerless
        self.ownerless = ownerless - due
        for table_id in sorted(due):
            try:
                await self.get(table_id)
            except ServiceError as exc:  # it ended or was cancelled meanwhile
                log.info("takeover_skipped", table=table_id, why=exc.code)
        await self._check_followers()

    async def _check_followers(self) -> None:
        """Keep the followers of the patience games this process follows true:

        - a follower that died said no ``bye``: once nobody listened on its process channel at
          two sweeps in a row, its games' events are no longer published for it (a living
          process is away for a moment while its pub/sub connection reconnects);
        - greet again where an answer is missing, or more processes listen on a game's channel
          than are known (a ``hello`` lost, a follower forgotten);
        - after this process's reader lost Redis (``Bus.gaps``), events may have gone by
          unheard: the sockets are shown the stored position of each followed game again.
        """
        if self.bus.gaps != self.gaps:
            self.gaps = self.bus.gaps
            for game_id in self.follows:
                self._hand_on(game_id, None)
        processes = sorted(set[str]().union(*self.followers.values()))
        counts = await self.bus.listeners_of([Bus.process_channel(p) for p in processes])
        silent = {p for p, count in zip(processes, counts, strict=True) if count == 0}
        for known in self.followers.values():
            for process in silent & self.silent:
                known.pop(process, None)
        self.silent = silent
        games = [g for g, joining in self.joins.items() if joining.done() and not self._greeting(g)]
        counts = await self.bus.listeners_of([Bus.game_channel(g) for g in games])
        for game_id, count in zip(games, counts, strict=True):
            followers = self.followers.get(game_id)
            if followers is not None and (game_id in self.unsure or count > len(followers) + 1):
                self.unsure.add(game_id)
                self._spawn(self._greet(game_id))

    def _greeting(self, game_id: str) -> bool:
        return any(greeting.game_id == game_id for greeting in self.greetings.values())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # Redis or the database away for a moment: try again next time
                log.exception("sweep_failed", process=self.me)

    def _drives(self, table_id: str) -> bool:
        actor = self.actors.get(table_id)
        return actor is not None and actor.running

    async def _lost(self, table_id: str) -> None:
        """Another process took the table (this one was too slow to renew): stop driving it."""
        log.warning("table_lost", table=table_id, process=self.me)
        self.leased.discard(table_id)
        actor = self.actors.pop(table_id, None)
        if actor is None:
            return
        await actor.stop()
        watchers = list(self.hub.watchers.get(actor.key, ()))
        for watcher in watchers:
            self.hub.unwatch(watcher, actor.key)
        for watcher in watchers:
            if isinstance(watcher, Connection):  # this process's own: they follow it elsewhere
                self._spawn(self._reopen(table_id, watcher))

    # -- commands ---------------------------------------------------------------------------------

    async def dispatch(self, table_id: str, command: Command) -> None:
        """Handle the command here if this process owns the table (or can take it over), else
        send it to the owner; a dead owner's table is taken over once its lease runs out."""
        try:
            await self._dispatch(table_id, command)
        except RedisError:
            log.exception("redis_failed", table=table_id)
            raise ServiceError("table_unavailable", "the tables' message service is away") from None

    async def _dispatch(self, table_id: str, command: Command) -> None:
        give_up = time.monotonic() + self.leases.lease_ms / 1000 + ROUTE_TIMEOUT_S
        while True:
            actor = self.actors.get(table_id)
            if actor is not None:
                await actor.submit(command)
                return
            owner = await self.leases.owner_of(table_id)
            if owner is None or owner == self.me:
                await self.get(table_id)  # takes it, unless another process was faster
                continue
            if await self._route(owner, table_id, command):
                return
            if time.monotonic() > give_up:
                raise ServiceError("table_unavailable", "the table's server does not answer")
            await asyncio.sleep(RETRY_S)

    async def _route(self, owner: str, table_id: str, command: Command) -> bool:
        """Have the owner handle ``command``; False if it is gone or no longer owns the table."""
        connection = command.connection
        cid = secrets.token_hex(8)
        answer: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self.pending[cid] = answer
        self.sockets[connection.id] = connection
        request = {
            "op": "command",
            "cid": cid,
            "from": self.me,
            "table": table_id,
            "socket": connection.id,
            "login": asdict(connection.login),
            "message": command_message(table_id, command),
            "ref": command.ref,
        }
        if command.ref is not None:
            self.routed[cid] = (connection.id, command.ref)
        try:
            if await self.bus.publish(Bus.process_channel(owner), request) == 0:
                return False  # nobody listens on the owner's channel: it died
            reply = await self._reply(owner, table_id, answer)
        except TimeoutError:
            raise ServiceError("table_unavailable", "the table's server did not answer") from None
        finally:
            self.pending.pop(cid, None)
            self.routed.pop(cid, None)
            answered = cid in self.relayed
            self.relayed.discard(cid)
        if reply.get("gone"):
            # Its owner died (or lost the table) before saying it was done. If its answer came
            # through, it was handled; else the table's next owner handles it.
            log.warning("routed_owner_gone", table=table_id, owner=owner, answered=answered)
            if not answered:
                return False
            reply = {}
        if reply.get("moved"):
            return False
        error = reply.get("error")
        if error is not None:
            raise ServiceError(error["code"], error["message"])
        if isinstance(command, OpenCommand):
            await self._follow(table_id, connection)
        return True

    async def _reply(self, owner: str, table_id: str, answer: asyncio.Future[JSON]) -> JSON:
        """The owner's reply to a routed command; ``{"gone": True}`` as soon as the owner is
        gone (no process listens on its channel) or another process owns the table: such an
        owner never replies, and her socket, which takes one message at a time, must not wait
        the whole ``ROUTE_TIMEOUT_S`` (a kill between the owner's answer and its "done")."""
        give_up = time.monotonic() + ROUTE_TIMEOUT_S
        while True:
            wait = min(OWNER_CHECK_S, give_up - time.monotonic())
            if wait <= 0:
                raise TimeoutError
            try:
                return await asyncio.wait_for(asyncio.shield(answer), wait)
            except TimeoutError:
                pass
            gone = await self.bus.listeners(Bus.process_channel(owner)) == 0
            if gone or await self.leases.owner_of(table_id) not in (owner, None):
                await self._drained()  # what the owner sent before it went has been read
                return {"gone": True}

    async def _drained(self) -> None:
        """Return once the bus reader has handled every message Redis sent this process so
        far: a "done" of our own goes through Redis behind them."""
        cid = secrets.token_hex(8)
        marker: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self.pending[cid] = marker
        try:
            await self.bus.publish(Bus.process_channel(self.me), {"op": "done", "cid": cid})
            await asyncio.wait_for(marker, ROUTE_TIMEOUT_S)
        finally:
            self.pending.pop(cid, None)

    async def _serve(self, request: JSON) -> None:
        """A command from another process's socket for a table this process owns."""
        table_id, process = request["table"], request["from"]
        reply: JSON = {"op": "done", "cid": request["cid"]}
        actor = self.actors.get(table_id)
        if actor is None:
            reply["moved"] = True
        else:
            socket = self._remote(process, request["socket"], Login(**request["login"]))
            try:
                message = parse_table_message(request["message"])
                await actor.submit(table_command(message, socket, request.get("ref")))
            except ServiceError as exc:
                reply["error"] = {"code": exc.code, "message": exc.message}
            except Exception:
                log.exception("routed_command_failed", table=table_id)
                reply["error"] = {"code": "server_error", "message": "the server failed"}
        await self.bus.publish(Bus.process_channel(process), reply)

    def _remote(self, process: str, socket_id: str, login: Login) -> RemoteSocket:
        key = (process, socket_id)
        if key not in self.remotes:
            self.remotes[key] = RemoteSocket(self, process, socket_id, login)
        return self.remotes[key]

    async def relay(self, socket: RemoteSocket, message: JSON) -> None:
        """Send a message to a socket of another process (its process relays it)."""
        envelope = {"op": "deliver", "to": socket.id, "message": message}
        if await self.bus.publish(Bus.process_channel(socket.process), envelope) == 0:
            self._forget_process(socket.process)  # it died: its sockets are gone with it

    def _forget_process(self, process: str) -> None:
        for key in [k for k in self.remotes if k[0] == process]:
            self.hub.remove(self.remotes.pop(key))

    # -- this process's sockets watching tables owned elsewhere -----------------------------------

    async def _follow(self, table_id: str, connection: Watcher) -> None:
        self.following.setdefault(table_id, {})[connection.id] = connection
        channel = Bus.table_channel(table_id)
        if channel not in self.channels:
            self.channels.add(channel)
            await self.bus.subscribe(channel)

    async def _reopen(self, table_id: str, connection: Watcher) -> None:
        """Open the table again for a socket: its new owner sends a fresh ``table.state``."""
        try:
            await self.dispatch(table_id, OpenCommand(connection, None))
        except ServiceError as exc:
            log.warning("reopen_failed", table=table_id, why=exc.code)

    async def closed(self, connection: Watcher) -> None:
        """A socket closed: the owners of the tables it followed forget it."""
        self.sockets.pop(connection.id, None)
        try:
            await self._forget_socket(connection)
        except RedisError:  # the owner goes on relaying to it; those messages are dropped here
            log.warning("unwatch_failed", socket=connection.id)

    async def _forget_socket(self, connection: Watcher) -> None:
        await self._unfollow_games(connection)
        for table_id, followers in list(self.following.items()):
            if followers.pop(connection.id, None) is None:
                continue
            owner = await self.leases.owner_of(table_id)
            if owner is not None and owner != self.me:
                gone = {"op": "unwatch", "from": self.me, "socket": connection.id}
                await self.bus.publish(Bus.process_channel(owner), gone)
            if not followers:
                del self.following[table_id]
                self.channels.discard(Bus.table_channel(table_id))
                await self.bus.unsubscribe(Bus.table_channel(table_id))

    # -- patience games: their events to the sockets of the other processes -----------------------

    def shares(self, game_id: str) -> bool:
        """Whether a patience event of ``game_id`` must go to Redis: another process follows
        the game, or this process does not know (it does not follow the game itself, or an
        answer to its ``hello`` is missing)."""
        followers = self.followers.get(game_id)
        return followers is None or bool(followers) or game_id in self.unsure

    async def publish_game(self, event: JSON) -> None:
        """A committed patience event, for the other processes holding a socket for the game
        (none known: nothing is sent)."""
        if not self.shares(event["game_id"]):
            return
        message = {"op": "game", "from": self.me, "event": event}
        try:
            await self.bus.publish(Bus.game_channel(event["game_id"]), message)
        except RedisError:  # committed and answered already; other windows catch up on opening
            log.warning("game_event_not_shared", game=event["game_id"])

    async def follow_game(self, game_id: str) -> None:
        """A socket of this process opens the game: hear the other processes' events of it, and
        have them publish theirs from now on. Returns once every other follower has said
        ``here`` (or ``HELLO_WAIT_S`` passed): what they did not publish is committed by then,
        so the socket's opening, which reads the database after this, shows it. The socket
        counts as following from before the call (its ``games`` hold the game): a socket of
        the game closing meanwhile does not end the follow."""
        joining = self.joins.get(game_id)
        if joining is None:  # the first socket here: the others of it wait for the same answers
            joining = self.joins[game_id] = asyncio.ensure_future(self._join(game_id))
        try:
            await asyncio.shield(joining)
        except RedisError:  # published (and not heard) until a socket opens it with Redis back
            log.warning("game_not_followed", game=game_id)

    async def _join(self, game_id: str) -> None:
        channel = Bus.game_channel(game_id)
        self.follows[game_id] = secrets.token_hex(8)
        self.channels.add(channel)
        self.followers[game_id] = {}
        self.unsure.add(game_id)  # until every other follower is known
        try:
            await self.bus.subscribe(channel)
            await self._greet(game_id)
        except BaseException:  # not followed: the next socket opening it tries again
            self._end_follow(game_id)
            with contextlib.suppress(RedisError):
                await self.bus.unsubscribe(channel)
            raise

    async def _greet(self, game_id: str) -> None:
        """Say ``hello`` on the game's channel; return once every process subscribed to it
        has answered and our own ``hello`` came back (so our subscription was counted), or
        ``HELLO_WAIT_S`` passed (or Redis failed): then the game stays unsure, its events
        published, and the next sweep greets again."""
        nonce, follow = secrets.token_hex(8), self.follows[game_id]
        greeting = Greeting(game_id, asyncio.get_running_loop().create_future())
        self.greetings[nonce] = greeting
        hello = {"op": "hello", "from": self.me, "game": game_id, "nonce": nonce, "follow": follow}
        try:
            greeting.listening = await self.bus.publish_counted(Bus.game_channel(game_id), hello)
            self._hear(nonce, None)
            await asyncio.wait_for(greeting.answered, HELLO_WAIT_S)
        except (TimeoutError, RedisError):
            listening, heard = greeting.listening, len(greeting.heard)
            log.warning("game_followers_unknown", game=game_id, listening=listening, heard=heard)
            return
        finally:
            self.greetings.pop(nonce, None)
        if self.follows.get(game_id) == follow:  # still this follow (its sockets may be gone)
            self.unsure.discard(game_id)

    def _hear(self, nonce: str, process: str | None) -> bool:
        """Note who answered our ``hello`` ``nonce`` (``None``: nobody new); False if no
        greeting waits for it any more."""
        greeting = self.greetings.get(nonce)
        if greeting is None:
            return False
        if process is not None:
            greeting.heard.add(process)
        listening = greeting.listening
        everybody = listening is not None and len(greeting.heard) >= listening
        if everybody and self.me in greeting.heard and not greeting.answered.done():
            greeting.answered.set_result(None)
        return True

    async def _greeted(self, message: JSON) -> None:
        """A ``hello`` on a game we follow: publish its events from now on, and say so
        (``here``), so that the other process knows we follow it too. A second ``hello`` of
        the same follow: it did not know of us for a while and may not have published every
        event: our sockets on the game are shown its stored position again."""
        game_id, sender, follow = message["game"], message["from"], message["follow"]
        followers = self.followers.get(game_id)
        if sender == self.me:  # our own, back: our subscription was counted
            self._hear(message["nonce"], sender)
            return
        if followers is None:
            return
        if followers.get(sender) == follow:
            self._hand_on(game_id, None)
        followers[sender] = follow  # before the answer: every entry after it is published
        here = {**message, "op": "here", "from": self.me, "follow": self.follows[game_id]}
        self._spawn(self._answer(Bus.process_channel(sender), here))

    def _heard(self, message: JSON) -> None:
        """Another follower answered our ``hello`` (``here``). Too late (``HELLO_WAIT_S``
        passed): our sockets were shown a position that may lack entries it committed before
        it heard us, unpublished; they are shown the stored position again."""
        followers = self.followers.get(message["game"])
        if followers is None:
            return
        followers[message["from"]] = message["follow"]
        if not self._hear(message["nonce"], message["from"]):
            self._hand_on(message["game"], None)

    async def _answer(self, channel: str, message: JSON) -> None:
        try:
            await self.bus.publish(channel, message)
        except RedisError:  # it waits HELLO_WAIT_S, then publishes every event of the game
            log.warning("game_hello_unanswered", channel=channel)

    def _farewell(self, message: JSON) -> None:
        """Another process stopped following a game (``bye``): unless it follows the game
        again already (a ``hello`` of its new follow can arrive before the old ``bye``)."""
        followers = self.followers.get(message["game"], {})
        if followers.get(message["from"]) == message["follow"]:
            del followers[message["from"]]

    async def _unfollow_games(self, connection: Watcher) -> None:
        """A socket closed: stop following each of its games no other socket here has."""
        for game_id in connection.games:
            if game_id not in self.follows:
                continue
            if any(game_id in other.games for other in self.hub.connections):
                continue
            follow = self.follows[game_id]
            self._end_follow(game_id)
            channel = Bus.game_channel(game_id)
            await self.bus.unsubscribe(channel)
            bye = {"op": "bye", "from": self.me, "game": game_id, "follow": follow}
            await self.bus.publish(channel, bye)

    def _end_follow(self, game_id: str) -> None:
        self.follows.pop(game_id, None)
        self.channels.discard(Bus.game_channel(game_id))
        self.followers.pop(game_id, None)
        self.unsure.discard(game_id)
        self.joins.pop(game_id, None)

    # -- the bus ----------------------------------------------------------------------------------

    async def _receive(self, channel: str, message: JSON) -> None:
        """One message from Redis, in the order sent (the bus reader calls this)."""
        match message.get("op"):
            case "command":  # may take a while (the actor's queue): not in the reader
                self._spawn(self._serve(message))
            case "deliver":
                self._note_answer(message["to"], message["message"])
                socket = self.sockets.get(message["to"])
                if socket is not None:
                    await socket.send(message["message"])
            case "done":
                answer = self.pending.get(message["cid"])
                if answer is not None and not answer.done():
                    answer.set_result(message)
            case "unwatch":
                remote = self.remotes.pop((message["from"], message["socket"]), None)
                if remote is not None:
                    self.hub.remove(remote)
            case "game":
                if message["from"] != self.me:
                    self._hand_on(message["event"]["game_id"], message["event"])
            case "hello":
                await self._greeted(message)
            case "here":
                self._heard(message)
            case "bye":
                self._farewell(message)
            case "moved":
                for connection in self.following.pop(message["table"], {}).values():
                    self._spawn(self._reopen(message["table"], connection))
            case other:
                log.warning("bus_unknown_message", channel=channel, op=other)

    def _hand_on(self, game_id: str, event: JSON | None) -> None:
        """Show a patience game's sockets another process's ``event``, or (``None``) the
        stored position again, outside the bus reader and in order per game: a socket slow to
        take it (up to ``SEND_TIMEOUT_S``) holds up its own game only, not every message of
        the process; a position read is not sent after a later event."""
        lane = self.lanes.get(game_id)
        if lane is None:
            lane = self.lanes[game_id] = deque()
            self._spawn(self._drive(game_id, lane))
        lane.append(event)

    async def _drive(self, game_id: str, lane: deque[JSON | None]) -> None:
        try:
            while lane:
                event = lane.popleft()
                try:
                    if event is not None and self.on_game_event is not None:
                        await self.on_game_event(event)
                    elif event is None and self.on_game_resync is not None:
                        await self.on_game_resync(game_id)
                except Exception:
                    log.exception("game_lane_failed", game=game_id, resync=event is None)
        finally:
            del self.lanes[game_id]

    def _note_answer(self, socket_id: str, message: JSON) -> None:
        """A relayed message carrying a routed command's ``ref`` is that command's answer."""
        ref = message.get("ref")
        if ref is None:
            return
        for cid, routed in self.routed.items():
            if routed == (socket_id, ref):
                self.relayed.add(cid)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self.tasks.add(task)  # a reference until it ends, so it is not collected midway
        task.add_done_callback(self.tasks.discard)


def command_message(table_id: str, command: Command) -> JSON:
    """The ``table.*`` message a command was made from (to send it to another process)."""
    message: JSON
    match command:
        case OpenCommand():
            message = {"type": "table.open", "last_seq": command.last_seq}
            if command.invite is not None:
                message["invite"] = command.invite
        case MoveCommand():
            message = {"type": "table.move", "move": command.move, "seq": command.seq}
        case ChatCommand():
            message = {"type": "table.chat", "text": command.text}
        case LeaveCommand():
            message = {"type": "table.leave"}
        case ReturnCommand():
            message = {"type": "table.return"}
        case _:
            raise TypeError(f"not a table command: {command!r}")
    return {**message, "table_id": table_id}
