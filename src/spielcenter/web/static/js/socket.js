// The WebSocket of one thing the screen follows: a game (`open`) or a Speedquilt table
// (`table.open`). It subscribes, remembers the last seq it saw and, after a dropped connection,
// reconnects and subscribes again with last_seq so the server sends only what was missed.

const RETRY_MS = [250, 500, 1000, 2000, 4000];

/** The message names of what a socket follows: a patience game or a Speedquilt table. */
const GAME = { open: "open", idKey: "game_id", event: "event" };
const TABLE = { open: "table.open", idKey: "table_id", event: "table.event" };

class FollowingSocket {
  /**
   * @param kind GAME or TABLE: the names of the subscribe message, the id field and the events
   * @param id the game or table to follow
   * @param onMessage called with every message from the server
   * @param onConnection called with true/false when the connection comes and goes
   */
  constructor(kind, id, onMessage, onConnection) {
    this.kind = kind;
    this.id = id;
    this.onMessage = onMessage;
    this.onConnection = onConnection;
    this.lastSeq = null;
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.nextId = 1;
    this.pingTimer = null;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.subscribe();
      this.onConnection(true);
      this.pingTimer = setInterval(() => this.raw({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", () => this.dropped(ws));
  }

  /** Subscribe (again) from the last seq seen; also used to catch up after a stale refusal. */
  subscribe() {
    const open = { type: this.kind.open, [this.kind.idKey]: this.id, ...this.openFields() };
    if (this.lastSeq !== null) open.last_seq = this.lastSeq;
    this.raw(open);
  }

  /** What else the subscription says (a private table's invitation). */
  openFields() {
    return {};
  }

  resync() {
    this.subscribe();
  }

  /** A message from the server: its text, or (a subclass that looked at it first) parsed. */
  receive(data) {
    // Only an answer shows the server took the socket: a refused one is opened and closed at
    // once with its code (4401, 1008, 4429), and its retries must keep backing off.
    this.attempt = 0;
    let message = data;
    if (typeof data === "string") {
      try {
        message = JSON.parse(data);
      } catch {
        return;
      }
    }
    if (typeof message.seq === "number") {
      // A repeated entry (sent again after a reconnect) is already on screen.
      const seen = this.lastSeq !== null && message.seq <= this.lastSeq;
      if (message.type === this.kind.event && seen) return;
      this.lastSeq = message.seq;
    }
    this.onMessage(message);
  }

  dropped(ws) {
    clearInterval(this.pingTimer);
    if (ws !== this.ws || this.closed) return;
    this.onConnection(false);
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    setTimeout(() => {
      if (!this.closed) this.connect();
    }, delay);
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send one message as it is; false if the socket is not connected right now. */
  raw(message) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send one message about the followed game or table (its id and a message id are added). */
  send(message) {
    return this.raw({ ...message, [this.kind.idKey]: this.id, id: this.nextId++ });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}

/**
 * The socket of one patience game (or a stored solo Speedquilt game). It asks for events with
 * what changed instead of the whole view (docs/protocol.md, "What changed") and hands the
 * screen every `state` and `event` with its whole `view`, as the server would have sent it.
 */
export class GameSocket extends FollowingSocket {
  constructor(gameId, onMessage, onConnection) {
    super(GAME, gameId, onMessage, onConnection);
    this.view = null;
  }

  openFields() {
    return { changes: true };
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "event" && message.changes && !message.view) {
      if (this.lastSeq !== null && message.seq <= this.lastSeq) return; // already on screen
      // Changes count from the entry before: with one missed (or no view yet), catch up.
      if (this.view === null || message.seq !== this.lastSeq + 1) {
        this.attempt = 0;
        this.resync();
        return;
      }
      message.view = applyChanges(this.view, message.changes);
      delete message.changes;
    }
    if (message.view && (message.type === "state" || message.type === "event"))
      this.view = message.view;
    super.receive(message);
  }
}

/** The view after an event's `changes`: new values of whole fields, and of single items of
 * lists that kept their length (docs/protocol.md, "What changed"). */
export function applyChanges(view, changes) {
  const next = { ...view, ...changes.fields };
  for (const [field, items] of Object.entries(changes.items ?? {})) {
    const list = [...view[field]];
    for (const [index, item] of Object.entries(items)) list[Number(index)] = item;
    next[field] = list;
  }
  return next;
}

/** The socket of one Speedquilt table. */
export class TableSocket extends FollowingSocket {
  constructor(tableId, onMessage, onConnection) {
    super(TABLE, tableId, onMessage, onConnection);
  }

  /** A private table is watched with its invitation, if she came by its link. */
  openFields() {
    const invite = rememberedInvite(this.id);
    return invite ? { invite } : {};
  }

  /**
   * Send a move of her own seat; false if the socket is not connected right now.
   * No `seq` goes with it: the computers keep moving while she decides (giving windows are
   * answered during another player's turn), and the engine checks every move anyway.
   */
  move(move) {
    return this.send({ type: "table.move", move });
  }
}

const INVITES = "spielcenter-invites";

/** Keep the invitation of a table she followed a link to: watching a private table needs it. */
export function rememberInvite(tableId, code) {
  const known = JSON.parse(sessionStorage.getItem(INVITES) ?? "{}");
  known[tableId] = code;
  sessionStorage.setItem(INVITES, JSON.stringify(known));
}

function rememberedInvite(tableId) {
  return JSON.parse(sessionStorage.getItem(INVITES) ?? "{}")[tableId] ?? null;
}
