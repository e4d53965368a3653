// A patience move in words and card pictures, never in notation: "7♠ → 8♠", "2♥ → foundation",
// "Redeal". The game screen and the replay read the cards off a drawn board of the position the
// move was made in.

import { cardLabel, t } from "./i18n.js";

/**
 * The move `move` of the board module `kind` (cruel.js, crazy-quilt.js) in position `view`,
 * with `board` that position drawn (by `kind.render(view)`, in the page or not).
 */
export function describeMove(kind, move, view, board) {
  const ends = kind.endpoints(move, view);
  if (!ends) return move;
  if (ends.action) return t(kind.actions.find((a) => a.move === ends.action)?.label ?? move);
  return `${placeName(board, ends.from)} → ${placeName(board, ends.to)}`;
}

/** A place of the board as people name it: its top card, a foundation, the waste. */
export function placeName(board, place) {
  const card = board?.querySelector(
    `[data-src="${place}"] .card:last-of-type, [data-dst="${place}"] .card:last-of-type`,
  );
  if (/^[fud][SHDC]$/.test(place)) return t(`place.${place[0]}`);
  if (place === "w" && !board?.querySelector('[data-dst="w"] [data-card]')) return t("place.w");
  return card?.dataset.card ? cardLabel(card.dataset.card) : place;
}
