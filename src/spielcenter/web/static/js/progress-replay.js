// The replay viewer of Meine Partien: the game's views from the server, one per log entry, stepped
// forward and backward with buttons or the arrow keys. Cruel and Crazy Quilt are drawn with the
// game screen's own boards; a Speedquilt game (a stage, a daily quilt, or a table she sat at) with
// the table's parts: quilts, dice as they were, shop, history, and the end table.

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import { fairnessLine } from "./fairness.js";
import * as cruel from "./cruel.js";
import * as crazyQuilt from "./crazy-quilt.js";
import { describeMove } from "./move-words.js";
import { el } from "./dom.js";
import { gameTitle } from "./progress-dom.js";
import { ReviewPanel } from "./progress-review.js";
import { replayNames, speedquiltBoard } from "./progress-speedquilt.js";
import { loadCatalogue } from "./speedquilt-blocks.js";
import { historyText } from "./speedquilt-history.js";

const BOARDS = { cruel, "crazy-quilt": crazyQuilt };
const KEYS = { ArrowLeft: -1, ArrowRight: 1 };

export class ReplayViewer {
  /**
   * @param box the element to draw into; @param gameId the game (or table) to replay
   * @param table whether `gameId` is a Speedquilt table
   */
  constructor(box, gameId, table = false) {
    this.box = box;
    this.gameId = gameId;
    this.table = table;
    this.steps = [];
    this.index = 0;
    this.onKey = (event) => this.key(event);
    this.review = null;
  }

  /** Fetch the replay and show its start. */
  start() {
    this.box.append(el("p", "muted loading", t("progress.loading")));
    document.addEventListener("keydown", this.onKey);
    const path = this.table ? "my-tables" : "my-games";
    getJson(`/api/${path}/${encodeURIComponent(this.gameId)}/replay`)
      .then(async (data) => {
        // A Speedquilt replay draws blocks: without their definitions they are empty frames.
        if (data.table || data.game?.game === "speedquilt") await loadCatalogue();
        this.game = data.game ?? { ...data.table, kind: "table" };
        this.seats = data.table?.seats;
        this.result = data.table?.result;
        this.steps = data.steps;
        // A finished Speedquilt game of hers (a table, a stage, a daily quilt) can be reviewed.
        const over = data.table
          ? data.table.status === "finished"
          : data.game?.game === "speedquilt" && data.game.status !== "playing";
        if (over) {
          this.review = new ReviewPanel(path, this.gameId, (index) => this.go(index));
          this.review.start();
        }
        this.draw();
      })
      .catch(() =>
        this.box.replaceChildren(el("p", "status-line error", t("progress.replay_unavailable"))),
      );
  }

  /** Stop listening to the keyboard. */
  stop() {
    document.removeEventListener("keydown", this.onKey);
    document.body.classList.remove("theme-linen");
    this.review?.stop();
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
    if (step.line) {
      // A Speedquilt step reads as its history line ("Erna würfelt ▲3 ●5 …").
      const nameOf = replayNames(this.seats, step.view.you ?? 0);
      return historyText(step.line, (seat) => nameOf(seat, true));
    }
    if (this.game.game === "speedquilt" && step.move === null) return t("solo.replay.hidden");
    if (step.kind === "undo") return t("progress.step_undo");
    const words = this.moveWords(step);
    if (step.kind === "redo") return t("progress.step_redo", { move: words });
    return t("progress.step_move", { move: words });
  }

  /** A patience step's move in card pictures, read off the position it was made in. */
  moveWords(step) {
    const before = this.steps[this.index - 1]?.view;
    const kind = BOARDS[before?.game];
    if (!step.move || !kind) return step.move ?? "";
    return describeMove(kind, step.move, before, kind.render(before));
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
    const fairness = fairnessLine(this.game.fairness);
    if (fairness) head.append(fairness);
    const board = BOARDS[view.game]
      ? BOARDS[view.game].render(view)
      : speedquiltBoard(this.steps, this.index, {
          seats: this.seats,
          result: this.result,
          variant: this.game.variant,
        });
    // A Speedquilt board takes its colours from the table's light theme (linen).
    document.body.classList.toggle("theme-linen", !BOARDS[view.game]);
    const stage = el("div", "replay-board");
    stage.append(board);
    const back = el("a", "to-list", "← " + t("progress.tab.games"));
    back.href = "#/progress/games";
    this.box.replaceChildren(back, head, this.controls());
    if (this.review) {
      this.review.show(this.index);
      this.box.append(this.review.node);
    }
    this.box.append(stage);
    this.box.dataset.step = String(this.index);
    this.box.dataset.status = view.status;
  }
}
