// One step of a Speedquilt replay in Meine Partien, drawn with the table screen's own parts: the
// round and phase, the step's history line, her quilt, the dice as they were rolled (basket and
// used dice marked), the shop, the neighbours' quilts at a table, the history so far, and at the
// end the end table with the score breakdown.

import { seatName } from "./speedquilt-names.js";
import { t } from "./i18n.js";
import { quiltGrid } from "./speedquilt-blocks.js";
import { diceTray } from "./speedquilt-dice.js";
import { el } from "./dom.js";
import { endTable } from "./speedquilt-end.js";
import { historyPanel } from "./speedquilt-history.js";
import { shopPanel } from "./speedquilt-shop.js";
import { stageOf } from "./speedquilt-solo-names.js";

/** The history lines of steps 0 … index (each step's line, then what follows from it). */
export function linesUpTo(steps, index) {
  const lines = [];
  for (const step of steps.slice(0, index + 1)) {
    if (step.line) lines.push(step.line);
    lines.push(...(step.also ?? []));
  }
  return lines;
}

/** A seat's name in a replay, as the table named it (speedquilt-names.js). */
export function replayNames(seats, you) {
  return (seat, thirdPerson = false) => {
    if (!seats) return seat === you && !thirdPerson ? t("sq.you") : t("solo.player"); // alone
    return seatName(seats, seat, you, thirdPerson);
  };
}

function facts(view) {
  const box = el("div", "speedquilt-replay");
  // A table ends with the ninth block, not after a number of rounds (its cap is only a safety).
  const solo = (view.seats?.length ?? 1) === 1;
  const round = solo
    ? t("progress.sq.round", { round: view.round, max: view.max_rounds })
    : t("sq.round", { round: view.round });
  const lines = [round, t("progress.sq.phase", { phase: t(`progress.sq.phase.${view.phase}`) })];
  if (!solo && view.end_round) lines.push(t("sq.last_round", { round: view.end_round }));
  if (typeof view.target === "number") lines.push(t("progress.sq.target", { target: view.target }));
  box.append(el("p", "", lines.join(" · ")));
  return box;
}

function seatQuilt(view, seat, nameOf, className) {
  const box = el("section", `replay-seat ${className}`);
  box.dataset.seat = String(seat.seat);
  box.append(el("h3", "", nameOf(seat.seat)));
  const grid = quiltGrid(seat.quilt);
  if (className === "others") grid.classList.add("small");
  box.append(grid);
  return box;
}

/** The end data of a finished game from its final view (and a table's stored result). */
function endResult(view, stored) {
  return {
    scores: view.scores,
    places: view.places,
    breakdown: view.breakdown,
    leaderboard_points: stored?.leaderboard_points,
    empty_patches: view.breakdown.map((b) => b.empty_patches),
  };
}

/** The end table inside the replay (no buttons); alone, with the solo title and no
 * leaderboard column. */
function replayEnd(view, nameOf, ui) {
  const end = endTable(view, endResult(view, ui.result), { nameOf, onAgain: () => {} });
  end.querySelector(".end-buttons")?.remove();
  end.removeAttribute("role");
  if (view.seats.length === 1) {
    const stage = stageOf(ui.variant);
    const cleared = stage && view.scores[0] >= view.target;
    const verdict = cleared ? "solo.end.cleared" : "solo.end.missed";
    end.querySelector("h2").textContent = t(stage ? verdict : "solo.end.daily_done", { stage });
    for (const cell of end.querySelectorAll(".end-table tr > :last-child")) cell.remove();
  }
  return end;
}

/**
 * The board of one replay step.
 * @param steps every step of the replay; @param index the step shown
 * @param ui {seats (a table's seats), result (a table's stored result), variant (as stored)}
 */
export function speedquiltBoard(steps, index, ui = {}) {
  const view = steps[index].view;
  const you = view.you ?? 0;
  const nameOf = replayNames(ui.seats, you);
  const board = el("div", "sq-replay");
  const main = el("div", "replay-main");
  main.append(facts(view));
  const quilts = el("div", "replay-quilts");
  const own = view.seats[you];
  if (own) quilts.append(seatQuilt(view, own, nameOf, "own"));
  for (const seat of view.seats)
    if (seat.seat !== you) quilts.append(seatQuilt(view, seat, nameOf, "others"));
  main.append(quilts);
  if (view.turn?.rolls) {
    const dice = el("section", "replay-dice");
    dice.append(diceTray(view.turn, {}));
    dice.append(el("p", "muted", t("sq.dice_of", { name: nameOf(view.turn.seat, true) })));
    main.append(dice);
  }
  if (view.phase === "over" && view.scores) {
    main.append(replayEnd(view, nameOf, ui));
  }
  const side = el("aside", "replay-side");
  const history = historyPanel(linesUpTo(steps, index), (seat) => nameOf(seat, true));
  side.append(shopPanel(view, { open: true }), history);
  board.append(main, side);
  return board;
}
