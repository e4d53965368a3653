// The tabs of Meine Partien that only read the server's lists: achievements, leaderboards, the
// campaign and today's quilt. Each returns an element at once and fills it when the answer comes.

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { formatDate, row, table } from "./progress-dom.js";
import { playDaily, playStage } from "./speedquilt-solo-start.js";

const PERIODS = ["week", "month", "all"];

function fill(box, path, draw) {
  box.append(el("p", "muted loading", t("progress.loading")));
  getJson(path)
    .then((data) => box.replaceChildren(...draw(data)))
    .catch(() => box.replaceChildren(el("p", "status-line error", t("progress.unavailable"))));
  return box;
}

/** Every achievement; the earned ones first in the list's order, each with its date. */
export function achievementsTab() {
  return fill(el("section", "achievements"), "/api/achievements", (data) => {
    const list = el("ul", "achievement-list");
    // Earned first (the catalogue's order within each part): what she has is what she looks for.
    const ordered = [...data.achievements].sort((a, b) => !a.awarded_at - !b.awarded_at);
    for (const item of ordered) {
      const earned = Boolean(item.awarded_at);
      const li = el("li", earned ? "achievement earned" : "achievement");
      li.dataset.key = item.key;
      li.append(
        el("span", "badge", earned ? "★" : "☆"),
        el("strong", "name", t(item.name)),
        el("span", "text", t(item.text)),
        el(
          "span",
          "when",
          earned
            ? t("progress.earned_on", { date: formatDate(item.awarded_at) })
            : t("progress.not_yet"),
        ),
      );
      list.append(li);
    }
    const count = t("progress.earned_count", {
      earned: data.earned,
      total: data.achievements.length,
    });
    return [el("p", "earned-count", count), list];
  });
}

function rankRow(line, cells) {
  const tr = row(
    [String(line.rank), line.name ?? t("progress.guest"), ...cells],
    line.you ? "you" : "",
  );
  if (line.you) tr.setAttribute("aria-current", "true");
  return tr;
}

/** One leaderboard: its top lines, and the own line below them when it is outside the top. */
function board(className, heads, data, cells) {
  const lines = data.entries.map((line) => rankRow(line, cells(line)));
  const mine = data.me && !data.entries.some((line) => line.you);
  if (mine)
    lines.push(
      row(["…", "", ...heads.slice(2).map(() => "")], "gap"),
      rankRow(data.me, cells(data.me)),
    );
  if (!lines.length) return el("p", `muted empty ${className}`, t("progress.board_empty"));
  return table(className, heads, lines);
}

/** Under a list a guest asks for: why she is not on it (only accounts with a name are). */
function unlisted(data) {
  return data.listed === false ? [el("p", "muted unlisted", t("progress.guest_unlisted"))] : [];
}

function tablesBoard(box, period) {
  return fill(box, `/api/leaderboards/tables?period=${period}`, (data) => [
    board(
      "board-tables",
      ["progress.rank", "progress.player", "progress.lb_points", "progress.tables"],
      data,
      (line) => [String(line.points), String(line.tables)],
    ),
    ...unlisted(data),
  ]);
}

/** The three leaderboards: tables (week, month, all time), the campaign and today's quilt. */
export function boardsTab() {
  const section = el("section", "boards");
  const tables = el("div", "board-box");
  const periods = el("div", "periods");
  periods.setAttribute("role", "group");
  const result = el("div", "board-result");
  for (const period of PERIODS) {
    const button = el("button", `period period-${period}`, t(`progress.period.${period}`));
    button.type = "button";
    button.dataset.period = period;
    button.addEventListener("click", () => {
      for (const other of periods.children)
        other.setAttribute("aria-pressed", String(other === button));
      result.replaceChildren();
      tablesBoard(result, period);
    });
    button.setAttribute("aria-pressed", String(period === "week"));
    periods.append(button);
  }
  tables.append(el("h3", "", t("progress.board.tables")), periods, tablesBoard(result, "week"));
  const campaign = el("div", "board-box");
  campaign.append(
    el("h3", "", t("progress.board.campaign")),
    fill(el("div"), "/api/leaderboards/campaign", (data) => [
      board(
        "board-campaign",
        ["progress.rank", "progress.player", "progress.best_stage", "progress.campaign_points"],
        data,
        (line) => [String(line.stage), String(line.points)],
      ),
      ...unlisted(data),
    ]),
  );
  const daily = el("div", "board-box");
  daily.append(
    el("h3", "", t("progress.board.daily")),
    fill(el("div"), "/api/leaderboards/daily", (data) => [
      board(
        "board-daily",
        ["progress.rank", "progress.player", "progress.points", "progress.empty_patches"],
        data,
        (line) => [String(line.points), String(line.empty_patches)],
      ),
      ...unlisted(data),
    ]),
  );
  section.append(tables, campaign, daily);
  return section;
}

function facts(pairs) {
  const list = el("dl", "facts");
  for (const [key, value] of pairs) list.append(el("dt", "", t(key)), el("dd", "", value));
  return list;
}

/** A button that starts (or continues) a solo game; it says so when the server refuses. */
function playButton(className, label, play) {
  const button = el("button", `play-solo primary ${className}`, label);
  button.type = "button";
  button.addEventListener("click", () =>
    play().catch(() => {
      button.disabled = true;
      button.after(el("p", "status-line error", t("progress.unavailable")));
    }),
  );
  return button;
}

/** The campaign: stage, spools, campaign points, the best run, and each stage's target. */
export function campaignTab() {
  return fill(el("section", "campaign"), "/api/campaign", (data) => {
    const spools = "●".repeat(data.spools) + "○".repeat(Math.max(0, 2 - data.spools));
    const best = data.best_stage
      ? t("progress.best_run", {
          stage: data.best_stage,
          points: data.best_points,
          date: formatDate(data.best_at),
        })
      : t("progress.no_best_run");
    const status = facts([
      ["progress.stage_now", t("progress.stage", { stage: data.stage })],
      ["progress.spools", `${spools} (${data.spools})`],
      ["progress.campaign_points", String(data.points)],
      ["progress.best", best],
    ]);
    const stages = data.stages.map((stage) => {
      const twist = [t("progress.rounds", { count: stage.rounds })];
      if (stage.top_shelf !== 4) twist.push(t("progress.top_shelf", { count: stage.top_shelf }));
      if (stage.bottom_shelf !== 4)
        twist.push(t("progress.bottom_shelf", { count: stage.bottom_shelf }));
      const className =
        stage.number === data.stage ? "current" : stage.number < data.stage ? "cleared" : "";
      return row([String(stage.number), String(stage.target), twist.join(", ")], className);
    });
    const play = data.game_id ? "solo.start.campaign_resume" : "solo.start.campaign_stage";
    const parts = [
      status,
      playButton("play-stage", t(play, { stage: data.stage }), playStage),
      table("stages", ["progress.stage_col", "progress.target", "progress.twist"], stages),
    ];
    if (data.provisional) parts.push(el("p", "muted", t("progress.provisional")));
    return parts;
  });
}

/** What the daily button does today: play the ranked game, continue one, or practise. */
function dailyAction(data) {
  if (data.open_game_id) return "solo.start.daily_resume";
  return data.played ? "solo.start.daily_practice" : "solo.start.daily";
}

/** Today's quilt: played or not, the ranked result, practice games, and the own rank. */
export function dailyTab() {
  const section = el("section", "daily");
  const status = section.appendChild(el("div", "daily-status"));
  fill(status, "/api/daily", (data) => {
    const ranked = data.ranked;
    const result = !ranked
      ? t("progress.daily_not_played")
      : ranked.finished_at
        ? t("progress.daily_result", { points: ranked.points, empty: ranked.empty_patches })
        : t("progress.daily_running");
    return [
      facts([
        ["progress.day", data.day],
        ["progress.played_today", t(data.played ? "progress.yes" : "progress.no")],
        ["progress.result", result],
        ["progress.practice", String(data.practice)],
      ]),
      playButton("play-daily", t(dailyAction(data)), playDaily),
    ];
  });
  const rank = section.appendChild(el("div", "daily-rank"));
  fill(rank, "/api/leaderboards/daily", (data) => [
    el(
      "p",
      "rank-line",
      data.me
        ? t("progress.your_rank", { rank: data.me.rank, total: data.total })
        : t(data.listed === false ? "progress.guest_unlisted" : "progress.no_rank"),
    ),
  ]);
  return section;
}
