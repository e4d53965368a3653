// The dice panel of the table screen: the start choice before the game, then the dice of the
// turn (hers to choose, plan, keep in the basket and adjust; another player's to watch) and what
// is left of rolling. It draws from the screen's state and her choice and changes neither: a tap
// asks the screen (`choose`, `replan`, `play`).

import { t } from "./i18n.js";
import { el } from "./dom.js";
import { diceTray } from "./speedquilt-dice.js";
import { shelvesPaidBy } from "./speedquilt-shop.js";

/** The rerolls of a turn before any sewing machine adds one. */
const ROLLS = 3;

/** The dice area: the start choice, the dice of the turn, or a note that nobody has rolled. */
export function diceArea(screen) {
  const box = el("section", "sq-dice-area");
  const view = screen.view;
  const turn = view.turn;
  if (view.phase === "choosing") {
    box.classList.add("choosing");
    box.append(screen.startChoice.render(view, screen.legal, screen.info));
    return box;
  }
  if (!turn || !turn.rolls) {
    box.append(el("p", "muted dice-waiting", t("sq.dice_waiting")));
    return box;
  }
  box.append(tray(screen), facts(screen));
  const { selected } = screen.choice;
  if (screen.myTurn && selected.length >= 3) {
    const paid = shelvesPaidBy(selected.map((d) => screen.dice()[d].value));
    if (paid.size) box.append(el("p", "buy-hint", t("sq.buy_hint")));
  }
  return box;
}

function tray(screen) {
  const turn = screen.view.turn;
  const { selected, plan, binDice } = screen.choice;
  const mine = screen.myTurn;
  const rolling = mine && !turn.acted && screen.legal.includes("reroll");
  const planned = plan.plannedDice();
  for (const b of binDice) planned.add(b.die);
  const node = diceTray(turn, {
    selected: selected.length === 1 ? selected[0] : null,
    multi: new Set(selected),
    basketOpen: rolling,
    plannedDice: planned,
    kits: mine ? { thimble: screen.kits().thimble, dye_bath: screen.kits().dye_bath } : {},
    legal: screen.legal,
    onSelect: mine ? (name) => selectDie(screen, name) : null,
    onBasket: (name) => toggleBasket(screen, name),
    ...screen.adjusting(),
  });
  for (const name of selected)
    node.querySelector(`[data-die="${name}"]`)?.classList.add("selected");
  return node;
}

/** Rerolls left (or that rolling is over), and whose dice these are. */
function facts(screen) {
  const turn = screen.view.turn;
  const mine = screen.myTurn;
  const machines = mine ? (screen.kits().sewing_machine ?? 0) : 0;
  const left = Math.max(0, ROLLS + machines - turn.rolls);
  const line = el("p", "dice-facts");
  // Once she has sewn or bought, rolling is over: no reroll is "left" any more.
  const rolled = turn.acted ? t("sq.rolling_over") : t("sq.rerolls_left", { count: left });
  line.append(el("span", "rerolls-left", rolled));
  if (!mine)
    line.append(" · ", el("span", "", t("sq.dice_of", { name: screen.nameOf(turn.seat) })));
  return line;
}

/** A tap on one of her dice: out of the plan or the bin if it lies there, else (un)chosen. */
function selectDie(screen, name) {
  const { selected, plan, binDice } = screen.choice;
  if (screen.view.turn.used.includes(name)) return;
  if (plan.plannedDice().has(name)) {
    screen.replan((next) => next.unplan(name));
    return;
  }
  if (binDice.some((b) => b.die === name)) {
    screen.choose({ binDice: binDice.filter((b) => b.die !== name) });
    return;
  }
  const chosen = selected.includes(name) ? selected.filter((d) => d !== name) : [...selected, name];
  // On a phone the shop opens by itself once the chosen dice could pay for something.
  const paid = shelvesPaidBy(chosen.map((d) => screen.dice()[d].value));
  screen.choose({ selected: chosen, buying: null, ...(paid.size ? { shopOpen: true } : {}) });
}

/** A die into her basket or out of it: the basket is the server's, so this is a move. */
function toggleBasket(screen, name) {
  const turn = screen.view.turn;
  const basket = new Set(turn.basket);
  if (basket.has(name)) basket.delete(name);
  else basket.add(name);
  const order = turn.dice.map((d) => d.die).filter((d) => basket.has(d));
  screen.play(order.length ? `keep ${order.join(" ")}` : "keep none");
}
