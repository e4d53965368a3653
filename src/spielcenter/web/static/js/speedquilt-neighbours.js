// The neighbours: each one's quilt small (with how many of her newly rerolled dice help that
// neighbour, during her own reroll), and one of them large with block info on every block.

import { t } from "./i18n.js";
import { quiltGrid } from "./speedquilt-blocks.js";
import { button, el } from "./dom.js";
import { helpfulDice } from "./speedquilt-giving.js";

/** The neighbours panel of the table screen `screen`. */
export function neighboursPanel(screen) {
  const box = el("section", "sq-neighbours");
  box.append(el("h2", "", t("sq.neighbours")));
  const turn = screen.view.turn;
  for (const seat of screen.view.seats) {
    if (seat.seat === screen.seat) continue;
    const card = el("div", "neighbour");
    card.dataset.seat = String(seat.seat);
    const head = el("div", "neighbour-head");
    head.append(el("strong", "", screen.nameOf(seat.seat)));
    if (turn?.seat === seat.seat && screen.view.phase === "turn")
      head.append(el("span", "badge turn", t("sq.at_turn")));
    const window = turn?.windows?.[String(seat.seat)];
    if (window && screen.myTurn) {
      const helpful = helpfulDice(seat.quilt, turn.dice, window.offered);
      const key = helpful.size === 1 ? "sq.helpful_count_one" : "sq.helpful_count";
      const badge = el("span", "badge helpful", t(key, { count: helpful.size }));
      badge.dataset.count = String(helpful.size);
      head.append(badge);
    }
    if (screen.view.phase === "choosing")
      head.append(el("span", "badge", seat.chosen ? t("sq.chosen") : t("sq.choosing")));
    card.append(head);
    const grid = quiltGrid(seat.quilt);
    grid.classList.add("small");
    card.append(grid);
    card.addEventListener("click", () => screen.choose({ largeNeighbour: seat.seat }));
    box.append(card);
  }
  return box;
}

/** One neighbour's quilt large; every block opens its block info (what it brings her). */
export function neighbourLarge(screen, seat) {
  const data = screen.view.seats[seat];
  const box = el("section", "sq-neighbour-large");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("sq.quilt_of", { name: screen.nameOf(seat) }));
  box.append(el("h2", "", t("sq.quilt_of", { name: screen.nameOf(seat) })));
  const grid = quiltGrid(data.quilt, {
    decorate: (placed, wrap) => {
      const context = () => ({ placed, quilt: data.quilt, dice: [], own: false });
      screen.info.attach(wrap, placed.block, context);
    },
  });
  const close = button(t("sq.close"), "close-large primary", () =>
    screen.choose({ largeNeighbour: null }),
  );
  box.append(grid, close);
  return box;
}

