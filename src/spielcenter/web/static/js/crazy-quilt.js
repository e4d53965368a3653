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

function stockAndWaste(view) {
  const box = document.createElement("div");
  box.className = "stock-waste";
  const stock = document.createElement("div");
  stock.className = "slot stock";
  stock.dataset.action = view.stock_count > 0 ? "s" : "r";
  stock.setAttribute("role", "button");
  stock.tabIndex = 0;
  stock.setAttribute("aria-label", t(view.stock_count > 0 ? "action.turn" : "action.redeal"));
  stock.append(view.stock_count > 0 ? cardBack(view.stock_count) : emptySlot("↻", "stock-empty"));
  const redeals = document.createElement("span");
  redeals.className = "redeals-left";
  redeals.textContent = t("quilt.redeals_left", { count: view.redeals_left ?? 0 });
  stock.append(redeals);

  const waste = document.createElement("div");
  waste.className = "slot waste";
  waste.dataset.dst = "w";
  const cards = view.waste || [];
  if (cards.length) {
    waste.dataset.src = "w";
    waste.append(cardElement(cards[cards.length - 1]));
    waste.setAttribute(
      "aria-label",
      t("quilt.waste", { card: cardLabel(cards[cards.length - 1]) }),
    );
  } else {
    waste.append(emptySlot(""));
    waste.setAttribute("aria-label", t("quilt.waste_empty"));
  }
  const count = document.createElement("span");
  count.className = "waste-count";
  count.textContent = String(cards.length);
  waste.append(count);
  box.append(stock, waste);
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
  side.append(
    foundationRow("up", view.foundations?.up),
    foundationRow("down", view.foundations?.down),
    stockAndWaste(view),
  );
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

/** Keys for the board's own actions. */
export const actions = [
  { move: "s", key: "s", label: "action.turn" },
  { move: "r", key: "r", label: "action.redeal" },
];
