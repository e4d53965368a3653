// The WebSocket of one open game. It subscribes with `open`, remembers the last seq it saw and,
// after a dropped connection, reconnects and subscribes again with last_seq so the server sends
// only what was missed.

const RETRY_MS = [250, 500, 1000, 2000, 4000];

export class GameSocket {
  /**
   * @param gameId the game to follow
   * @param onMessage called with every message from the server (state, event, hint, error, …)
   * @param onConnection called with true/false when the connection comes and goes
   */
  constructor(gameId, onMessage, onConnection) {
    this.gameId = gameId;
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
      this.attempt = 0;
      const open = { type: "open", game_id: this.gameId };
      if (this.lastSeq !== null) open.last_seq = this.lastSeq;
      ws.send(JSON.stringify(open));
      this.onConnection(true);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", () => this.dropped(ws));
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof message.seq === "number") {
      // A repeated entry (sent again after a reconnect) is already on screen.
      if (message.type === "event" && this.lastSeq !== null && message.seq <= this.lastSeq) return;
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

  /** Send one message (an id is added); false if the socket is not connected right now. */
  send(message) {
    if (!this.connected) return false;
    const full = message.type === "ping" ? message : { ...message, game_id: this.gameId };
    this.ws.send(JSON.stringify({ ...full, id: this.nextId++ }));
    return true;
  }

  /** Subscribe again from the last seq seen, to catch up after a move was refused as stale. */
  resync() {
    if (!this.connected) return;
    this.ws.send(JSON.stringify({ type: "open", game_id: this.gameId, last_seq: this.lastSeq }));
  }

  /** Drop the connection on purpose (tests use it to check the reconnect). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
