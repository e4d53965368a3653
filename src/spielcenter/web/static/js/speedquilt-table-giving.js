// The giving panel of the table screen: her giving window after another player's reroll (and,
// on a phone, the dice of the sewing view while she gives), the one handler of her taps while she
// gives (a table's window and solo's giving turn alike), and auto-continue. It draws from the
// screen's state and her choice; a tap asks the screen (`choose`, `play`).

import { diceTray } from "./speedquilt-dice.js";
import { AUTO_PASS_MS, givingWindow, helpfulDice } from "./speedquilt-giving.js";

/** How much longer than the server's own auto pass the screen waits before it passes itself. */
const AUTO_PASS_FALLBACK_MS = 800;

/**
 * What her taps do while she gives (a table's giving window, solo's giving turn, the sewing
 * view of either): the die she chose, her thimble and dye bath, and the moves they send.
 * Choosing a die scrolls its lit patches into sight above a docked window.
 */
export function givingHandler(screen) {
  return {
    selected: screen.choice.givingDie,
    kits: { thimble: screen.kits().thimble, dye_bath: screen.kits().dye_bath },
    onSelect: (name) => {
      screen.choose({ givingDie: screen.choice.givingDie === name ? null : name });
      screen.revealLitPatch();
    },
    onPass: () => screen.play("pass"),
    ...screen.adjusting(),
  };
}

/** Her giving window of a table (docked over the foot of the page). */
export function givingPanel(screen) {
  const { box } = givingWindow(screen.view, {
    ...givingHandler(screen),
    giverName: screen.nameOf(screen.view.turn.seat),
    autoPass: screen.settings.auto_continue,
    onAutoPass: (on) => screen.changeSetting({ auto_continue: on }),
    legal: screen.legal,
  });
  return box;
}

/** The sewing view's dice while giving: those she may take, as her giving window shows them
 * (a tap chooses one, a tap on a lit patch of the large block takes it). */
export function givingDice(screen) {
  const turn = screen.view.turn;
  const open = new Set(screen.diceForInfo().map((d) => d.die));
  const quilt = screen.view.seats[screen.seat].quilt;
  const giving = givingHandler(screen);
  const area = document.createElement("section");
  area.className = "sq-dice-area";
  area.append(
    diceTray(
      { ...turn, basket: [], used: [] },
      {
        ...giving,
        offered: open,
        helpful: helpfulDice(quilt, turn.dice, [...open]),
        legal: screen.legal,
        onSelect: (name) => open.has(name) && giving.onSelect(name),
      },
    ),
  );
  return area;
}

/** With auto-continue on, the screen passes her giving window 2 s after it opened when none of
 * the dice fits. One timer per window: a window is one reroll of one turn. */
export class AutoPass {
  constructor() {
    this.timer = null;
    this.key = null;
  }

  /** After every redraw: arm the timer for a new window that nothing fits, or disarm it. */
  schedule(screen) {
    const window = screen.myWindow;
    const turn = screen.view.turn;
    const key = window ? `${screen.view.round}/${turn.seat}/${turn.rolls}` : null;
    if (!window || !screen.settings.auto_continue || !screen.legal.includes("pass")) {
      this.cancel();
      return;
    }
    const quilt = screen.view.seats[screen.seat].quilt;
    if (helpfulDice(quilt, turn.dice, window.offered).size) return;
    if (this.key === key) return;
    this.key = key;
    clearTimeout(this.timer);
    // The server passes for her after 2 s (an "auto" clock); this is the fallback if it did not.
    this.timer = setTimeout(() => {
      if (screen.myWindow && screen.legal.includes("pass")) screen.play("pass");
    }, AUTO_PASS_MS + AUTO_PASS_FALLBACK_MS);
  }

  /** Disarm: she answered, or the window closed. */
  cancel() {
    clearTimeout(this.timer);
    this.key = null;
  }

  /** Stop the timer without forgetting the window (a move she sent herself). */
  hold() {
    clearTimeout(this.timer);
  }
}
