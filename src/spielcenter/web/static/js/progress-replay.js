// The replay viewer of Meine Partien: the game's views from the server, one per log entry, stepped
// forward and backward with buttons or the arrow keys. Cruel and Crazy Quilt are drawn with the
// game screen's own boards; a Speedquilt game is told as text (round, phase, and at the end the
// points and their breakdown).

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import * as cruel from "./cruel.js";
import * as crazyQuilt from "./crazy-quilt.js";
import { el, gameTitle } from "./progress-dom.js";

const BOARDS = { cruel, "crazy-quilt": crazyQuilt };
const KEYS = { ArrowLeft: -1, ArrowRight: 1 };

function speedquiltText(view) {
  const box = el("div", "speedquilt-replay");
  const lines = [
    t("progress.sq.round", { round: view.round, max: view.max_rounds }),
    t("progress.sq.phase", { phase: t(`progress.sq.phase.${view.phase}`) }),
  ];
  if (typeof view.target === "number") lines.push(t("progress.sq.target", { target: view.target }));
  for (const line of lines) box.append(el("p", "", line));
  if (view.breakdown) box.append(breakdown(view));
  return box;
}

/** The final points per seat: total, empty patches, and each pattern block's points. */
function breakdown(view) {
  const list = el("ol", "breakdown");
  view.breakdown.forEach((score, seat) => {
    const item = el("li", seat === view.you ? "you" : "");
    const head = t("progress.sq.seat_total", {
      seat: seat + 1,
      points: view.scores?.[seat] ?? score.total,
      empty: score.empty_patches,
    });
    item.append(el("strong", "", head));
    const blocks = el("ul", "blocks");
    for (const block of score.blocks) {
      const text = t("progress.sq.block", {
        count: block.count,
        factor: block.factor,
        points: block.points,
      });
      blocks.append(el("li", "", text));
    }
    item.append(blocks);
    list.append(item);
  });
  return list;
}

export class ReplayViewer {
  /** @param box the element to draw into; @param gameId the game to replay */
  constructor(box, gameId) {
    this.box = box;
    this.gameId = gameId;
    this.steps = [];
    this.index = 0;
    this.onKey = (event) => this.key(event);
  }

  /** Fetch the replay and show its start. */
  start() {
    this.box.append(el("p", "muted loading", t("progress.loading")));
    document.addEventListener("keydown", this.onKey);
    getJson(`/api/my-games/${encodeURIComponent(this.gameId)}/replay`)
      .then((data) => {
        this.game = data.game;
        this.steps = data.steps;
        this.draw();
      })
      .catch(() =>
        this.box.replaceChildren(el("p", "status-line error", t("progress.replay_unavailable"))),
      );
  }

  /** Stop listening to the keyboard. */
  stop() {
    document.removeEventListener("keydown", this.onKey);
  }

  key(event) {
    if (!(event.key in KEYS) || !this.steps.length) return;
    event.preventDefault();
    this.go(this.index + KEYS[event.key]);
  }

  /** Show step `index` (clamped to the log). */
  go(index) {
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    this.draw();
  }

  button(className, label, target, disabled) {
    const node = el("button", className, label);
    node.type = "button";
    node.disabled = disabled;
    node.addEventListener("click", () => this.go(target));
    return node;
  }

  controls() {
    const last = this.steps.length - 1;
    const bar = el("div", "replay-controls");
    bar.append(
      this.button("first", "« " + t("progress.first"), 0, this.index === 0),
      this.button("back", "◀ " + t("progress.step_back"), this.index - 1, this.index === 0),
      this.button(
        "forward",
        t("progress.step_forward") + " ▶",
        this.index + 1,
        this.index === last,
      ),
      this.button("last", t("progress.last") + " »", last, this.index === last),
    );
    return bar;
  }

  describe(step) {
    if (step.kind === "start") return t("progress.step_start");
    if (step.kind === "undo") return t("progress.step_undo");
    if (step.kind === "redo") return t("progress.step_redo", { move: step.move ?? "" });
    return t("progress.step_move", { move: step.move });
  }

  draw() {
    const step = this.steps[this.index];
    const view = step.view;
    const head = el("div", "replay-head");
    head.append(
      el("h2", "", gameTitle(this.game)),
      el(
        "p",
        "step-count",
        t("progress.step_of", { step: this.index, total: this.steps.length - 1 }),
      ),
      el("p", "step-move", this.describe(step)),
    );
    const board = BOARDS[view.game] ? BOARDS[view.game].render(view) : speedquiltText(view);
    const stage = el("div", "replay-board");
    stage.append(board);
    const back = el("a", "to-list", "← " + t("progress.tab.games"));
    back.href = "#/progress/games";
    this.box.replaceChildren(back, head, this.controls(), stage);
    this.box.dataset.step = String(this.index);
    this.box.dataset.status = view.status;
  }
}
