// Cards drawn as SVG. Two faces: "fan" for Cruel's fanned piles (the index on one line along the
// top edge, the part that stays visible under the next card) and "quilt" for Crazy Quilt, where
// the whole small card is the index. A sideways card is drawn in landscape with its index upright,
// so it reads without turning the head.

import { cardLabel, rankLabel, suitSymbol, t } from "./i18n.js";

const CARD = /^[A2-9TJQK][SHDC]$/;
const RED = new Set(["H", "D"]);

function isCard(code) {
  return typeof code === "string" && CARD.test(code);
}

function colour(suit) {
  return RED.has(suit) ? "red" : "black";
}

function frame(width, height) {
  const size = `width="${width - 3}" height="${height - 3}"`;
  return `<rect class="card-edge" x="1.5" y="1.5" ${size} rx="9"/>`;
}

function fanFace(rank, suit) {
  return (
    `<svg viewBox="0 0 100 140" class="card-svg" aria-hidden="true">${frame(100, 140)}` +
    `<text x="7" y="41" class="idx${rank.length > 1 ? " ten" : ""}">${rank}</text>` +
    `<text x="93" y="41" class="idx-suit" text-anchor="end">${suit}</text>` +
    `<text x="50" y="118" class="pip" text-anchor="middle">${suit}</text></svg>`
  );
}

function quiltFace(rank, suit, sideways) {
  if (sideways) {
    return (
      `<svg viewBox="0 0 140 100" class="card-svg" aria-hidden="true">${frame(140, 100)}` +
      `<text x="10" y="72" class="big-idx">${rank}</text>` +
      `<text x="131" y="70" class="big-suit" text-anchor="end">${suit}</text></svg>`
    );
  }
  return (
    `<svg viewBox="0 0 100 140" class="card-svg" aria-hidden="true">${frame(100, 140)}` +
    `<text x="50" y="64" class="big-idx" text-anchor="middle">${rank}</text>` +
    `<text x="50" y="124" class="big-suit" text-anchor="middle">${suit}</text></svg>`
  );
}

/**
 * A face-up card as an element: `face` is "fan" or "quilt"; `sideways` lays a quilt card across.
 * The element carries data-card with the card's notation and an aria-label for people.
 */
export function cardElement(code, { face = "fan", sideways = false } = {}) {
  if (!isCard(code)) throw new Error(`not a card: ${code}`);
  const el = document.createElement("div");
  const rank = rankLabel(code[0]);
  const suit = suitSymbol(code[1]);
  el.className = `card ${colour(code[1])}${sideways ? " sideways" : ""}`;
  el.dataset.card = code;
  el.setAttribute("aria-label", cardLabel(code));
  el.innerHTML = face === "quilt" ? quiltFace(rank, suit, sideways) : fanFace(rank, suit);
  return el;
}

/** The back of a card (the face-down stock), with how many cards lie there. */
export function cardBack(count) {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-label", t("stock.count", { count }));
  el.innerHTML =
    `<svg viewBox="0 0 100 140" class="card-svg" aria-hidden="true">${frame(100, 140)}` +
    `<rect x="10" y="10" width="80" height="120" rx="6" class="back-pattern"/>` +
    `<text x="50" y="84" class="back-count" text-anchor="middle">${Number(count)}</text></svg>`;
  return el;
}

/** An empty place for a card: a dashed outline with a faint label (a suit, an arrow, …). */
export function emptySlot(label = "", extraClass = "") {
  const el = document.createElement("div");
  el.className = `card empty ${extraClass}`.trim();
  el.innerHTML =
    `<svg viewBox="0 0 100 140" class="card-svg" aria-hidden="true">` +
    `<rect class="slot-edge" x="3" y="3" width="94" height="134" rx="9"/>` +
    `<text x="50" y="88" class="slot-label" text-anchor="middle"></text></svg>`;
  el.querySelector("text").textContent = label;
  return el;
}
