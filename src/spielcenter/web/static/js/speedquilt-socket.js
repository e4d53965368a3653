// The WebSocket of one Speedquilt table: `table.open` (again with last_seq after a dropped
// connection, so the server resends what was missed), `table.move`, and every message the server
// sends to the table screen.

const RETRY_MS = [250, 500, 1000, 2000, 4000];

export class TableSocket {
  /**
   * @param tableId the table to watch
   * @param onMessage called with every message (table.state, table.event, table.end, error)
   * @param onConnection called with true/false when the connection comes and goes
   */
  constructor(tableId, onMessage, onConnection) {
    this.tableId = tableId;
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
      const open = { type: "table.open", table_id: this.tableId };
      if (this.lastSeq !== null) open.last_seq = this.lastSeq;
      ws.send(JSON.stringify(open));
      this.onConnection(true);
      this.pingTimer = setInterval(() => this.raw({ type: "ping" }), 25000);
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
      // An event already drawn (sent again after a reconnect) changes nothing.
      if (message.type === "table.event" && this.lastSeq !== null && message.seq <= this.lastSeq)
        return;
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

  raw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Send a move of her own seat; false if the socket is not connected right now.
   * No `seq` goes with it: the computers keep moving while she decides (giving windows are
   * answered during another player's turn), and the engine checks every move anyway.
   */
  move(move) {
    return this.raw({ type: "table.move", table_id: this.tableId, move, id: this.nextId++ });
  }

  /** Open the table again from the last seq seen (after a refused stale move). */
  resync() {
    this.raw({ type: "table.open", table_id: this.tableId, last_seq: this.lastSeq });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
