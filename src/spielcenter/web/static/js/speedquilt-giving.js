// Giving yarn (Garn abgeben): after another player's reroll a window offers her the newly rolled
// dice. It says how many of them help her; she taps a die and then one of her patches, or passes.
// With "auto-continue" on, the window passes by itself after 2 s when nothing fits.

import { t } from "./i18n.js";
import { blockDef } from "./speedquilt-blocks.js";
import { canPlace } from "./speedquilt-plan.js";
import { diceTray } from "./speedquilt-dice.js";
import { checkbox } from "./speedquilt-settings.js";

export const AUTO_PASS_MS = 2000;

/** The offered dice that fit at least one patch of the quilt (no completion needed). */
export function helpfulDice(quilt, dice, offered) {
  const out = new Set();
  for (const die of dice) {
    if (!offered.includes(die.die)) continue;
    if (quilt.some((placed) => fitsBlock(placed, die))) out.add(die.die);
  }
  return out;
}

/** Whether the die may go on some patch of the placed block. */
export function fitsBlock(placed, die) {
  const def = blockDef(placed.block);
  if (!def || placed.finished) return false;
  return def.patches.some((_, index) => canPlace(def, placed.filled, index, die));
}

/** The reroll a giving window belongs to: round, rolling seat and roll count. */
function rollKey(view) {
  return `${view.round}-${view.turn.seat}-${view.turn.rolls}`;
}

/**
 * The giving window of the viewer.
 * @param view the table view; `window` is view.turn.windows[you]
 * @param ui {selected, onSelect(name), onPass(), autoPass: bool, onAutoPass(on), giverName,
 *            kits, legal, onThimble(name, delta), onDye(name, colour)}
 */
export function givingWindow(view, ui) {
  const turn = view.turn;
  const mine = turn.windows[String(view.you)];
  const quilt = view.seats[view.you].quilt;
  const helpful = helpfulDice(quilt, turn.dice, mine.offered);
  const box = document.createElement("section");
  box.className = "sq-giving";
  // Which reroll this window answers: a computer may reroll again the moment the last window
  // closes, and the new window must be told apart from the one she just answered.
  box.dataset.roll = rollKey(view);
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("sq.giving.title"));
  const title = document.createElement("h2");
  title.textContent = t("sq.giving.title");
  const who = document.createElement("p");
  who.className = "giving-who";
  who.textContent = t("sq.giving.rerolled", { name: ui.giverName });
  const count = document.createElement("p");
  count.className = "giving-count";
  count.dataset.helpful = String(helpful.size);
  const helps = helpful.size === 1 ? "sq.giving.helpful_one" : "sq.giving.helpful";
  count.textContent = helpful.size
    ? t(helps, { count: helpful.size, offered: mine.offered.length })
    : t("sq.giving.none_fits");
  const offered = new Set(mine.offered);
  const tray = diceTray(
    { ...turn, basket: [], used: [] },
    {
      selected: ui.selected,
      offered,
      helpful,
      kits: ui.kits,
      legal: ui.legal,
      onSelect: (name) => offered.has(name) && ui.onSelect(name),
      onThimble: ui.onThimble,
      onDye: ui.onDye,
    },
  );
  const hint = document.createElement("p");
  hint.className = "giving-hint muted";
  hint.textContent = ui.selected ? t("sq.giving.tap_patch") : t("sq.giving.tap_die");
  const buttons = document.createElement("div");
  buttons.className = "giving-buttons";
  const pass = document.createElement("button");
  pass.type = "button";
  pass.className = helpful.size ? "giving-pass" : "giving-pass primary";
  pass.textContent = helpful.size ? t("sq.giving.pass") : t("sq.giving.continue");
  pass.setAttribute("aria-keyshortcuts", "Enter");
  pass.title = t("sq.giving.key");
  pass.addEventListener("click", () => ui.onPass());
  buttons.append(pass);
  if (ui.onAutoPass) {
    // The switch where it matters: "auto-continue" stays off until she turns it on (seed 003).
    buttons.append(
      checkbox("auto_continue", ui.autoPass, "sq.setting.auto_continue", ui.onAutoPass),
    );
  }
  box.append(title, who, count, tray);
  if (helpful.size) box.append(hint);
  if (!helpful.size && ui.autoPass) {
    const auto = document.createElement("p");
    auto.className = "giving-auto muted";
    auto.textContent = t("sq.giving.auto");
    box.append(auto);
  }
  box.append(buttons);
  return { box, helpful };
}
