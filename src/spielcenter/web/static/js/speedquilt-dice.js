// The five yarn dice: each drawn as an SVG die in its colour with its symbol, the basket button
// under it, and — under the die she tapped — thimble and dye-bath buttons when her kits allow.

import { t } from "./i18n.js";
import { COLOURS, SYMBOLS, svgEl } from "./speedquilt-blocks.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

/** One die as SVG: {die, value, colour, adjusted}. */
export function dieSvg(die) {
  const svg = svgEl("svg", { viewBox: "0 0 100 100", class: `sq-die c-${die.colour}` });
  svg.setAttribute("role", "img");
  svg.setAttribute(
    "aria-label",
    t("sq.die_label", { colour: t(`sq.colour.${die.colour}`), value: die.value }),
  );
  svg.append(svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-body" }));
  for (const [cx, cy] of PIPS[die.value] ?? [])
    svg.append(svgEl("circle", { cx, cy, r: 8, class: "pip" }));
  svg.append(svgEl("text", { x: 88, y: 96, class: "die-symbol" }, SYMBOLS[die.colour]));
  return svg;
}

function smallButton(label, className, onClick, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = label;
  if (title) button.title = title;
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    onClick();
  });
  return button;
}

/**
 * The dice tray.
 * @param turn the view's turn (dice, basket, used)
 * @param ui {selected, basketOpen, plannedDice: Set, kits: {thimble, dye_bath}, helpful: Set,
 *            legal: the server's legal moves (a kit's button shows only for a listed move),
 *            onSelect(name), onBasket(name), onThimble(name, delta), onDye(name, colour),
 *            offered: Set (only these dice are shown as new)}
 */
export function diceTray(turn, ui) {
  const tray = document.createElement("div");
  tray.className = "sq-dice";
  for (const die of turn.dice) {
    const slot = document.createElement("div");
    slot.className = "die-slot";
    slot.dataset.die = die.die;
    const inBasket = turn.basket.includes(die.die);
    const used = turn.used.includes(die.die) || ui.plannedDice?.has(die.die);
    slot.classList.toggle("in-basket", inBasket);
    slot.classList.toggle("used", Boolean(used));
    slot.classList.toggle("selected", ui.selected === die.die);
    slot.classList.toggle("adjusted", Boolean(die.adjusted));
    if (ui.offered && !ui.offered.has(die.die)) slot.classList.add("not-offered");
    if (ui.helpful?.has(die.die)) slot.classList.add("helpful");
    const face = document.createElement("button");
    face.type = "button";
    face.className = "die-face";
    face.append(dieSvg(die));
    face.disabled = !ui.onSelect || turn.used.includes(die.die);
    face.addEventListener("click", () => ui.onSelect?.(die.die));
    slot.append(face);
    if (ui.basketOpen) {
      const basket = smallButton(
        inBasket ? t("sq.basket_out") : t("sq.basket_in"),
        `basket-button${inBasket ? " on" : ""}`,
        () => ui.onBasket(die.die),
      );
      basket.setAttribute("aria-pressed", String(inBasket));
      slot.append(basket);
    }
    if (ui.selected === die.die && !turn.used.includes(die.die)) slot.append(kitButtons(die, ui));
    tray.append(slot);
  }
  return tray;
}

function kitButtons(die, ui) {
  const box = document.createElement("div");
  box.className = "kit-buttons";
  // A finished kit is used once per turn: once used, the server lists its moves no more.
  const allowed = (move) => !ui.legal || ui.legal.includes(move);
  if (ui.kits?.thimble) {
    const thimble = t("sq.kit.thimble");
    if (die.value > 1 && allowed(`thimble ${die.die} -1`))
      box.append(smallButton("−1", "thimble minus", () => ui.onThimble(die.die, -1), thimble));
    if (die.value < 6 && allowed(`thimble ${die.die} +1`))
      box.append(smallButton("+1", "thimble plus", () => ui.onThimble(die.die, +1), thimble));
  }
  if (ui.kits?.dye_bath) {
    for (const colour of COLOURS) {
      if (colour === die.colour || !allowed(`dye ${die.die}->${colour}`)) continue;
      const dye = smallButton(SYMBOLS[colour], `dye c-${colour}`, () => ui.onDye(die.die, colour));
      dye.title = `${t("sq.kit.dye_bath")}: ${t(`sq.colour.${colour}`)}`;
      dye.dataset.colour = colour;
      box.append(dye);
    }
  }
  return box;
}
