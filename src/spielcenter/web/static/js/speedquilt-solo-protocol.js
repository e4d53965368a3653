// A stored solo game (a campaign stage, a daily quilt) speaks the game protocol (`open`, `move`;
// `state`, `event`), a table the table protocol (`table.open`, `table.move`; `table.state`,
// `table.event`). This adapter is the one place that turns the first into the second, so the
// rest of the client sees one protocol. What differs (docs/protocol.md):
// - `state` carries `legal` and `to_act` inside `view`, and no `seat`, `history`, `table`, `chat`
//   or `clocks`: she is seat 0, and her earlier history lines come from the game's replay.
// - `event` carries `event: {kind, move}` instead of an `entry`: no history line, so the line is
//   worked out here from the views before and after (linesOf); `achievements` rides along.
// - a patience game's `state` means the screen is the wrong one (`solo.other_game`).

import { linesOf } from "./speedquilt-solo-parts.js";
import { GameSocket } from "./socket.js";

/**
 * The table message for one message of a solo game; other messages (error, hint) pass as they
 * are.
 * @param message what the server sent; @param before the view before it (null at first)
 * @param gameId the stored game
 */
export function tableMessageOf(message, before, gameId) {
  if (message.type === "state" && message.view.game !== "speedquilt") return { type: "solo.other_game" };
  if (message.type === "state")
    return { ...seen("table.state", message, gameId), seat: 0, history: [] };
  if (message.type !== "event") return message;
  const { kind, move } = message.event;
  const lines = kind === "move" && before ? linesOf(move, before, message.view) : [];
  const entry = { seq: message.seq, seat: 0, move, line: lines[0] ?? null, also: lines.slice(1) };
  const out = { ...seen("table.event", message, gameId), entry };
  if (message.achievements) out.achievements = message.achievements;
  return out;
}

/** What both table messages carry: seq, view, legal and the seats the game waits for. */
function seen(type, message, gameId) {
  const { seq, view } = message;
  return { type, table_id: gameId, seq, view, legal: view.legal, to_act: view.to_act };
}

/** The socket of a stored solo game: it sends the game protocol's `move` and hands the screen
 * table messages. */
export class SoloSocket extends GameSocket {
  constructor(gameId, onMessage, onConnection) {
    let before = null;
    super(
      gameId,
      (message) => {
        const translated = tableMessageOf(message, before, gameId);
        if (translated.view) before = translated.view;
        onMessage(translated);
      },
      onConnection,
    );
  }

  move(move) {
    return this.send({ type: "move", move });
  }
}
