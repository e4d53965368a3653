// The Crazy Quilt board: the 8 × 8 quilt (a1 top left; a cell lies sideways when row + column is
// odd), four foundations building up and four building down, the stock and the waste.

import { cardBack, cardElement, emptySlot } from "./cards.js";
import { cardLabel, suitSymbol, t } from "./i18n.js";

const SUITS = ["S", "H", "D", "C"];
const COLUMNS = "abcdefgh";

function foundation(direction, suit, rank) {
  const slot = document.createElement("div");
  slot.className = `slot foundation ${direction}`;
  slot.dataset.dst = `${direction[0]}${suit}`;
  slot.setAttribute("aria-label", t(`quilt.foundation.${direction}`, { suit: suitSymbol(suit) }));
  slot.append(rank ? cardElement(rank + suit) : emptySlot(suitSymbol(suit)));
  const arrow = document.createElement("span");
  arrow.className = "direction";
  arrow.textContent = direction === "up" ? "↑" : "↓";
  slot.append(arrow);
  return slot;
}

function foundationRow(direction, tops) {
  const row = document.createElement("div");
  row.className = `foundation-row ${direction}`;
  for (const suit of SUITS) row.append(foundation(direction, suit, tops?.[suit]));
  return row;
}

/** A pile's name in words, shown with it: a newcomer tells the piles apart without guessing. */
function pileLabel(className, key) {
  const label = document.createElement("span");
  label.className = `pile-label ${className}`;
  label.textContent = t(key);
  return label;
}

/** The eight foundations as one named group: four building up, four building down. */
function foundations(view) {
  const group = document.createElement("div");
  group.className = "foundations";
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", t("pile.foundations"));
  group.append(
    pileLabel("foundations-label", "pile.foundations"),
    foundationRow("up", view.foundations?.up),
    foundationRow("down", view.foundations?.down),
  );
  return group;
}

function stock(view) {
  const slot = document.createElement("div");
  slot.className = "slot stock";
  slot.dataset.action = view.stock_count > 0 ? "s" : "r";
  slot.setAttribute("role", "button");
  slot.tabIndex = 0;
  slot.setAttribute("aria-label", t(view.stock_count > 0 ? "action.turn" : "quilt.redeal"));
  slot.append(view.stock_count > 0 ? cardBack(view.stock_count) : emptySlot("↻", "stock-empty"));
  const redeals = document.createElement("span");
  redeals.className = "redeals-left";
  redeals.textContent = t("quilt.redeals_left", { count: view.redeals_left ?? 0 });
  slot.append(redeals);
  return slot;
}

function waste(view) {
  const slot = document.createElement("div");
  slot.className = "slot waste";
  slot.dataset.dst = "w";
  const cards = view.waste || [];
  if (cards.length) {
    slot.dataset.src = "w";
    slot.append(cardElement(cards[cards.length - 1]));
    slot.setAttribute("aria-label", t("quilt.waste", { card: cardLabel(cards[cards.length - 1]) }));
  } else {
    slot.append(emptySlot(""));
    slot.setAttribute("aria-label", t("quilt.waste_empty"));
  }
  const count = document.createElement("span");
  count.className = "waste-count";
  count.textContent = String(cards.length);
  slot.append(count);
  return slot;
}

/** A pile with its name above it. */
function namedPile(labelClass, key, slot) {
  const place = document.createElement("div");
  place.className = "pile-place";
  place.append(pileLabel(labelClass, key), slot);
  return place;
}

/**
 * The stock and, right beside it, the waste, together in a tray of their own: the waste is
 * the stock's pile, not a foundation (once it sat in the row of foundations and looked like one).
 */
function stockAndWaste(view) {
  const box = document.createElement("div");
  box.className = "stock-waste";
  box.append(
    namedPile("stock-label", "pile.stock", stock(view)),
    namedPile("waste-label", "pile.waste", waste(view)),
  );
  return box;
}

function quilt(view) {
  const grid = document.createElement("div");
  grid.className = "quilt";
  const available = new Set(view.available || []);
  view.quilt.forEach((row, r) => {
    row.forEach((code, c) => {
      const name = `${COLUMNS[c]}${r + 1}`;
      const cell = document.createElement("div");
      const sideways = (r + c) % 2 === 1;
      cell.className = `cell${sideways ? " across" : ""}`;
      cell.dataset.cell = name;
      if (code) {
        cell.append(cardElement(code, { face: "quilt", sideways }));
        if (available.has(name)) {
          cell.dataset.src = `q${name}`;
          cell.classList.add("available");
        }
      }
      grid.append(cell);
    });
  });
  return grid;
}

/** The board of a Crazy Quilt view as a new element. */
export function render(view) {
  const board = document.createElement("div");
  board.className = "board quilt-board";
  const side = document.createElement("div");
  side.className = "quilt-side";
  side.append(foundations(view), stockAndWaste(view));
  board.append(side, quilt(view));
  return board;
}

function quiltCard(view, cell) {
  const c = COLUMNS.indexOf(cell[0]);
  const r = Number(cell.slice(1)) - 1;
  return view.quilt[r]?.[c] || null;
}

/** Where a move starts and ends: {from, to}, or {action} for turning the stock and the redeal. */
export function endpoints(move, view) {
  let m = /^([a-h][1-8])([udw])$/.exec(move);
  if (m) {
    const card = quiltCard(view, m[1]);
    if (!card) return null;
    return { from: `q${m[1]}`, to: m[2] === "w" ? "w" : `${m[2]}${card[1]}` };
  }
  m = /^w([ud])$/.exec(move);
  if (m) {
    const waste = view.waste || [];
    const top = waste[waste.length - 1];
    return top ? { from: "w", to: `${m[1]}${top[1]}` } : null;
  }
  return { action: move };
}

/** The card a drag from `src` carries. */
export function dragCard(board, src) {
  return board.querySelector(`[data-src="${src}"] .card`);
}

/** Foundation targets are the up ("u…") and down ("d…") piles. */
export function isFoundation(dst) {
  return dst.startsWith("u") || dst.startsWith("d");
}

/** A foundation as a place to put a card, in words: "onto 5♥, going up to the King". */
export function foundationWords(dst, view) {
  const direction = dst[0] === "u" ? "up" : "down";
  const suit = dst[1];
  const top = view.foundations?.[direction]?.[suit];
  return t(`quilt.onto.${direction}`, { card: top ? cardLabel(top + suit) : suitSymbol(suit) });
}

/** Keys for the board's own actions. */
export const actions = [
  { move: "s", key: "s", label: "action.turn" },
  // Crazy Quilt turns its waste over and calls that "Neu geben" in German (the rules, the
  // counter, the hints), not Cruel's "Neu verteilen".
  { move: "r", key: "r", label: "quilt.redeal" },
];
