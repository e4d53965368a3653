// The Cruel board: four foundations above twelve fanned piles (1–6 top row, 7–12 bottom row).
// Places carry data-src (a pile whose top card may move) and data-dst (where a card may land);
// the game screen matches them against the server's legal moves.

import { cardElement, emptySlot } from "./cards.js";
import { suitSymbol, t } from "./i18n.js";

const SUITS = ["S", "H", "D", "C"];

function foundation(suit, rank) {
  const slot = document.createElement("div");
  slot.className = "slot foundation";
  slot.dataset.dst = `f${suit}`;
  slot.setAttribute("aria-label", t("cruel.foundation", { suit: suitSymbol(suit) }));
  slot.append(rank ? cardElement(rank + suit) : emptySlot(suitSymbol(suit)));
  return slot;
}

function pile(cards, number) {
  const el = document.createElement("div");
  el.className = "pile";
  el.dataset.dst = `p${number}`;
  el.dataset.src = `p${number}`;
  el.dataset.pile = String(number);
  el.style.setProperty("--cards", String(Math.max(cards.length, 1)));
  el.setAttribute("aria-label", t("cruel.pile", { number }));
  if (cards.length === 0) el.append(emptySlot("", "gap"));
  cards.forEach((code, i) => {
    const card = cardElement(code);
    card.style.setProperty("--i", String(i));
    el.append(card);
  });
  return el;
}

/** The board of a Cruel view as a new element. */
export function render(view) {
  const board = document.createElement("div");
  board.className = "board cruel-board";
  const top = document.createElement("div");
  top.className = "foundations";
  top.setAttribute("role", "group");
  top.setAttribute("aria-label", t("pile.foundations"));
  for (const suit of SUITS) top.append(foundation(suit, view.foundations?.[suit]));
  // Named in words as in Crazy Quilt, in the free space beside them (no extra height).
  const label = document.createElement("span");
  label.className = "pile-label foundations-label";
  label.textContent = t("pile.foundations");
  top.append(label);
  const redeals = document.createElement("p");
  redeals.className = "redeals";
  redeals.textContent = t("cruel.redeals", { count: view.redeals ?? 0 });
  if (typeof view.redeals_left === "number") {
    redeals.append(
      document.createElement("br"),
      t("cruel.redeals_left", { count: view.redeals_left }),
    );
  }
  top.append(redeals);
  const tableau = document.createElement("div");
  tableau.className = "tableau";
  view.piles.forEach((cards, i) => tableau.append(pile(cards, i + 1)));
  board.append(top, tableau);
  return board;
}

/** Where a move starts and ends on this board: {from, to}, or {action} for the redeal. */
export function endpoints(move, view) {
  let m = /^(\d+)f$/.exec(move);
  if (m) {
    const cards = view.piles[Number(m[1]) - 1] || [];
    const top = cards[cards.length - 1];
    return top ? { from: `p${m[1]}`, to: `f${top[1]}` } : null;
  }
  m = /^(\d+)>(\d+)$/.exec(move);
  if (m) return { from: `p${m[1]}`, to: `p${m[2]}` };
  return { action: move };
}

/** The card a drag from `src` carries: the top card of that pile. */
export function dragCard(board, src) {
  const cards = board.querySelectorAll(`[data-src="${src}"] .card:not(.empty)`);
  return cards[cards.length - 1] || null;
}

/** Foundation targets start with "f". */
export function isFoundation(dst) {
  return dst.startsWith("f");
}

/** A foundation in words (a Cruel card only ever fits one, so nobody is asked). */
export function foundationWords(dst) {
  return t("cruel.foundation", { suit: suitSymbol(dst[1]) });
}

/** The key that plays the board's own action (the redeal) and its label. */
export const actions = [{ move: "r", key: "r", label: "action.redeal" }];
