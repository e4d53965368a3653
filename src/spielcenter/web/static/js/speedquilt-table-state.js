// What the Speedquilt table screen knows of its table, as a reducer: the state so far and one
// message of the server (docs/protocol.md, "Speedquilt tables") give the new state. Pure: no
// DOM, no socket, no sound; the screen draws the state and does what a message asks beyond it
// (a beep, a sound, loading the achievements). Solo games reach it through the same messages
// (speedquilt-solo-protocol.js).

/** Before the first `table.state`: no table, no seat, nothing to play. */
export const NO_TABLE = Object.freeze({
  table: null,
  seat: null,
  view: null,
  seq: null,
  legal: [],
  toAct: [],
  clocks: [],
  history: [],
  chat: null,
  /** The seq of her own seat's last entry: a test (or a person) can tell her move was taken. */
  mine: null,
  result: null,
  /** A solo stage's seed fingerprint (from its replay); a table's is in `table.fairness`. */
  fairness: null,
  /** The shelves whose blocks changed with the last view: {pattern, kit}, or null. */
  slid: null,
});

/**
 * The state after one message; a message the state does not hold (an error, a clock's
 * warning, a hint) leaves it as it is.
 * @param state the state so far (NO_TABLE at first); @param message the server's message
 */
export function tableState(state, message) {
  switch (message.type) {
    case "table.state":
      return seen(
        {
          ...state,
          table: message.table,
          seat: message.seat,
          history: (message.history ?? []).slice(),
          chat: message.chat ?? null,
        },
        message,
      );
    case "table.event":
      return seen(withEntry(state, message), message);
    case "table.chat":
      return { ...state, chat: [...(state.chat ?? []), message] };
    case "table.seat":
      return seatChanged(state, message);
    case "table.end":
      return { ...state, result: message.result };
    case "solo.history":
      // A solo game's earlier lines, from its replay: they come before what arrived since.
      return {
        ...state,
        history: [...message.lines, ...state.history],
        fairness: message.fairness,
      };
    default:
      return state;
  }
}

/** An entry's lines join the history; her own entry's seq is `mine`. */
function withEntry(state, message) {
  const entry = message.entry;
  const history = [...state.history];
  if (entry?.line) history.push(entry.line);
  for (const line of entry?.also ?? []) history.push(line);
  const mine = entry && entry.seat === state.seat ? message.seq : state.mine;
  return { ...state, history, mine };
}

/** What `table.state` and `table.event` both carry: the view, her legal moves, the clocks. */
function seen(state, message) {
  const view = message.view;
  const next = {
    ...state,
    view,
    seq: message.seq,
    legal: message.legal ?? [],
    toAct: message.to_act ?? [],
    clocks: message.clocks ?? [],
    slid: slidShelves(state.view?.shop, view.shop),
  };
  // A finished game's view holds the scores: the end table needs no `table.end` to show them.
  if (view.phase === "over" && view.scores && !state.result) {
    next.result = {
      scores: view.scores,
      places: view.places,
      breakdown: view.breakdown,
      leaderboard_points: state.table?.result?.leaderboard_points,
      empty_patches: view.breakdown?.map((b) => b.empty_patches),
    };
  }
  return next;
}

/** Which shelves of the shop changed since the last view (their blocks slide in), or null. */
function slidShelves(before, shop) {
  if (!before || JSON.stringify(before) === JSON.stringify(shop)) return null;
  const changed = (shelf) => JSON.stringify(before[shelf]) !== JSON.stringify(shop[shelf]);
  return { pattern: changed("pattern"), kit: changed("kit") };
}

/** A seat changed hands (a computer plays it while its person is away, or she is back). */
function seatChanged(state, message) {
  const seats = state.table?.seats?.map((seat) =>
    seat.seat === message.seat ? { ...seat, away: message.away } : seat,
  );
  const table = seats ? { ...state.table, seats } : state.table;
  return { ...state, table, clocks: message.clocks ?? state.clocks };
}
