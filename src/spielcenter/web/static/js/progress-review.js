// The game review in the replay of a finished Speedquilt game (issue 42): her decisions against the strong computer
// player, computed by the server in the background. The panel asks for it, shows its progress,
// then the points left on the table per kind of decision and the costliest decisions, each a
// button to its position in the replay; at a reviewed position it says how that decision went.

import { getJson, send } from "./api.js";
import { formatNumber, t } from "./i18n.js";
import { button, el } from "./dom.js";
import { historyText } from "./speedquilt-history.js";

const POLL_MS = 400;
const KINDS = ["rerolls", "sewing", "buying", "giving", "bin", "start", "shelf"];
const MARKED = ["mistake", "inaccuracy", "unclear"];
// The server's refusals of a new review (429): what to tell her, in plain words.
const REFUSALS = { too_many_reviews: "review.too_many", rate_limited: "review.rate_limited" };

/** Points as the language writes them, one decimal at most. */
function points(value) {
  return formatNumber(Math.round(value * 10) / 10);
}

export class ReviewPanel {
  /**
   * @param path "my-tables" or "my-games"; @param id the table or game
   * @param go jumps the replay to a position
   */
  constructor(path, id, go) {
    this.url = `/api/${path}/${encodeURIComponent(id)}/review`;
    this.go = go;
    this.node = el("section", "replay-review");
    this.state = null;
    this.index = 0;
    this.stopped = false;
  }

  /** Show where the review stands (none yet: the button that asks for it). */
  start() {
    getJson(this.url)
      .then((state) => this.update(state))
      .catch(() => {});
  }

  stop() {
    this.stopped = true;
  }

  ask() {
    this.update({ state: "running", progress: 0 });
    send("POST", this.url)
      .then((state) => this.update(state))
      .catch((error) =>
        this.update(
          error.code in REFUSALS ? { state: "refused", code: error.code } : { state: "failed" },
        ),
      );
  }

  update(state) {
    if (this.stopped) return;
    this.state = state;
    if (state.state === "running") {
      setTimeout(() => {
        if (this.stopped) return;
        getJson(this.url)
          .then((next) => this.update(next))
          .catch(() => this.update({ state: "failed" }));
      }, POLL_MS);
    }
    this.render();
  }

  /** The replay shows position `index`: say how her decision there went, if it was reviewed. */
  show(index) {
    this.index = index;
    this.render();
  }

  render() {
    const state = this.state?.state;
    const parts = [];
    if (state === "none") {
      parts.push(button(t("review.ask"), "review-ask", () => this.ask()));
    } else if (state === "running") {
      const bar = el("progress", "review-progress");
      bar.max = 1;
      bar.setAttribute("aria-label", t("review.title"));
      const share = this.state.progress;
      // Computed by another server process: how far it is cannot be known here, so the bar
      // moves without a value (indeterminate) and the text gives no percent.
      if (share === null || share === undefined) {
        parts.push(el("p", "review-running", t("review.waiting")), bar);
      } else {
        bar.value = share;
        const percent = Math.round(share * 100);
        parts.push(el("p", "review-running", t("review.running", { percent })), bar);
      }
    } else if (state === "refused") {
      // Nothing was queued: she may ask again once her other reviews are done (or in a minute).
      parts.push(el("p", "review-refused", t(REFUSALS[this.state.code])));
      parts.push(button(t("review.ask"), "review-ask", () => this.ask()));
    } else if (state === "failed") {
      parts.push(el("p", "review-failed error", t("review.failed")));
    } else if (state === "done") {
      parts.push(...this.summary(this.state.review));
    }
    this.node.replaceChildren(...parts);
  }

  summary(review) {
    const { summary } = review;
    const head = el("h3", "", t("review.title"));
    const left = el(
      "p",
      "review-left",
      t("review.left", {
        points: points(summary.left_total),
        mistakes: summary.verdicts.mistake,
        inaccuracies: summary.verdicts.inaccuracy,
      }),
    );
    const kinds = el("ul", "review-kinds");
    for (const kind of KINDS) {
      if (summary.left[kind] > 0.05) {
        const kindWords = t(`review.kind.${kind}`);
        const text = t("review.kind_left", { kind: kindWords, points: points(summary.left[kind]) });
        kinds.append(el("li", "", text));
      }
    }
    const costly = el("ol", "review-costliest");
    for (const n of summary.costliest) {
      const decision = review.decisions[n];
      const label = t("review.costly", {
        round: decision.round,
        kind: t(`review.kind.${decision.kind}`),
        points: points(decision.loss),
      });
      const item = el("li");
      const jump = () => this.go(decision.step);
      item.append(button(label, `review-jump verdict-${decision.verdict}`, jump));
      costly.append(item);
    }
    const parts = [head, left];
    if (kinds.childElementCount) parts.push(kinds);
    if (costly.childElementCount) {
      parts.push(el("p", "review-costly-head", t("review.costliest")), costly);
    }
    const here = review.decisions.filter(
      (d) => d.step === this.index && MARKED.includes(d.verdict),
    );
    for (const decision of here) parts.push(this.here(decision));
    parts.push(el("p", "review-honesty muted", t("review.honesty")));
    return parts;
  }

  here(decision) {
    const text = t(`review.here.${decision.verdict}`, {
      kind: t(`review.kind.${decision.kind}`),
      mine: points(decision.points),
      best: points(decision.best_points),
      lost: points(decision.loss),
    });
    const node = el("div", `review-here verdict-${decision.verdict}`);
    node.append(el("p", "", text));
    // What the strong player would have done, in the words of the game history.
    const strong = () => t("review.strong");
    const words = (decision.best_lines ?? []).map((line) => historyText(line, strong));
    if (words.length) node.append(el("p", "review-best", words.join(" ")));
    return node;
  }
}
