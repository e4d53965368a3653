// The end table (Ende und Wertung): places, points, leaderboard points, and the score breakdown.
// Tapping a row lights that player's pattern blocks one by one in a small quilt, each with its
// reckoning ("2 fertige Nachbarn × 2 = 4"); a dot on a finished remnant shows its chosen colour.

import { t } from "./i18n.js";
import { blockName, quiltGrid } from "./speedquilt-blocks.js";
import { calculation } from "./speedquilt-info.js";

const STEP_MS = 900;

function cell(tag, text, className = "") {
  const node = document.createElement(tag);
  node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

/**
 * The end table.
 * @param view the final view (seats with quilts)
 * @param result {scores, places, leaderboard_points, empty_patches, breakdown}
 * @param ui {nameOf(seat), onHome(), onAgain(), tempoMs, reviewHref}: with `reviewHref` a link
 *   to the game's replay, where her decisions are reviewed (issue 42)
 */
export function endTable(view, result, ui) {
  const box = document.createElement("section");
  box.className = "sq-end";
  box.setAttribute("role", "dialog");
  const title = document.createElement("h2");
  const mine = result.places[view.you];
  title.textContent = mine === 1 ? t("sq.end.won") : t("sq.end.place", { place: mine });
  box.setAttribute("aria-label", title.textContent);
  const table = document.createElement("table");
  table.className = "end-table";
  const head = document.createElement("tr");
  for (const key of ["rank", "player", "points", "empty", "leaderboard"])
    head.append(cell("th", t(`sq.end.${key}`)));
  table.append(head);
  const order = result.places
    .map((place, seat) => seat)
    .sort((a, b) => result.places[a] - result.places[b] || a - b);
  const detail = document.createElement("div");
  detail.className = "end-detail";
  let timers = [];
  const open = (seat, row) => {
    for (const other of table.querySelectorAll("tr.open")) other.classList.remove("open");
    row.classList.add("open");
    timers.forEach(clearTimeout);
    const points = result.scores[seat];
    timers = breakdown(detail, view.seats[seat].quilt, result.breakdown[seat], points, ui);
  };
  for (const seat of order) {
    const row = document.createElement("tr");
    row.className = "end-row";
    row.dataset.seat = String(seat);
    row.tabIndex = 0;
    if (seat === view.you) row.classList.add("you");
    row.append(
      cell("td", `${result.places[seat]}.`),
      cell("td", ui.nameOf(seat)),
      cell("td", result.scores[seat], "end-points"),
      cell("td", result.empty_patches?.[seat] ?? "–"),
      cell("td", result.leaderboard_points?.[seat] ?? "–", "end-leaderboard"),
    );
    row.addEventListener("click", () => open(seat, row));
    row.addEventListener("keydown", (event) => event.key === "Enter" && open(seat, row));
    table.append(row);
  }
  const hint = cell("p", t("sq.end.tap_row"), "muted end-hint");
  const buttons = document.createElement("div");
  buttons.className = "end-buttons";
  const again = cell("button", t("sq.end.again"), "primary end-again");
  again.type = "button";
  again.addEventListener("click", ui.onAgain);
  const home = cell("a", t("end.to_start"), "home");
  home.href = "#/";
  buttons.append(again, home);
  if (ui.reviewHref) {
    const review = cell("a", t("review.open"), "end-review");
    review.href = ui.reviewHref;
    buttons.append(review);
  }
  box.append(title, table, hint, detail, buttons);
  return box;
}

/** The end table each screen shows: {key (its result), box}. */
const kept = new WeakMap();

/**
 * The end table kept across renders. The screen draws itself again whenever something arrives
 * (the pot's payout, her new achievements, a chat line, a seat that changes hands); a table built
 * afresh each time would close the row she had just tapped and cut its breakdown short. So it is
 * built once per result (anew only when the result itself differs), and only the parts that
 * arrive late are put in again: `late(box, add)` puts them with `add(node, before?)`, and they
 * are taken out before the next render.
 * @param screen the screen that draws it (this module keeps its table, by screen)
 * @param build () => the end table of `screen.result`
 * @param late (box, add) => void
 */
export function keptEndTable(screen, build, late) {
  // By content, not identity: after a reconnect the server sends the same result again.
  const key = JSON.stringify(screen.result);
  if (kept.get(screen)?.key !== key) kept.set(screen, { key, box: build() });
  const box = kept.get(screen).box;
  for (const part of box.querySelectorAll(".end-late")) part.remove();
  late(box, (node, before = null) => {
    if (!node) return;
    node.classList.add("end-late");
    box.insertBefore(node, before);
  });
  return box;
}

/**
 * Show one player's breakdown: her quilt small, her pattern blocks lit one after another, and
 * what her points hold besides the quilt (alone: 2 points for every round to spare), so that the
 * total is the points of the table above.
 */
function breakdown(detail, quilt, score, points, ui) {
  const colours = score.remnant_colours ?? {};
  const grid = quiltGrid(quilt, { colours });
  grid.classList.add("small");
  const lines = document.createElement("ol");
  lines.className = "breakdown-lines";
  const total = document.createElement("p");
  total.className = "breakdown-total";
  total.textContent = t("sq.end.total", { points });
  detail.replaceChildren(grid, lines, total);
  const timers = [];
  const step = ui.tempoMs ?? STEP_MS;
  score.blocks.forEach((entry, index) => {
    timers.push(
      setTimeout(() => {
        for (const lit of grid.querySelectorAll(".lit")) lit.classList.remove("lit");
        grid.querySelector(`[data-cell="${entry.cell[0]},${entry.cell[1]}"]`)?.classList.add("lit");
        const item = document.createElement("li");
        item.dataset.block = entry.id;
        const name = blockName(entry.id);
        item.textContent = entry.finished
          ? `${name}: ${calculation(entry)}`
          : `${name}: ${t("sq.end.unfinished")}`;
        lines.append(item);
      }, index * step),
    );
  });
  const bonus = points - score.total;
  if (bonus > 0) {
    timers.push(
      setTimeout(() => {
        const item = document.createElement("li");
        item.className = "round-bonus";
        item.textContent = t("sq.end.round_bonus", { points: bonus });
        lines.append(item);
      }, score.blocks.length * step),
    );
  }
  return timers;
}
