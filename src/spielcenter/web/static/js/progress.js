// Meine Partien (#/progress/<tab>): the account's games with a replay viewer, its achievements,
// the leaderboards, the campaign and today's quilt. Everything is read from the server; this
// page only draws it. A link on the start page leads here.

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import { achievementsTab, boardsTab, campaignTab, dailyTab } from "./progress-boards.js";
import { el } from "./dom.js";
import { formatDate, gameTitle, row, table } from "./progress-dom.js";
import { ReplayViewer } from "./progress-replay.js";
import { TABS } from "./progress-link.js";

const DRAW = {
  games: gamesTab,
  achievements: achievementsTab,
  boards: boardsTab,
  campaign: campaignTab,
  daily: dailyTab,
};

function resultText(entry) {
  if (entry.status === "playing") return t("progress.unfinished");
  const status = t(`progress.status.${entry.status}`);
  if (typeof entry.points !== "number") return status;
  return `${status} · ${t("progress.points_count", { count: entry.points })}`;
}

/** The moves that stand (as the game screen counts them) and, below, the ones taken back. */
function movesCell(entry) {
  const cell = el("td", "moves");
  const count = entry.standing_moves ?? entry.moves ?? 0;
  cell.append(el("span", "standing", t("progress.moves_standing", { count })));
  if (entry.undos) cell.append(el("span", "undos", t("progress.undos", { count: entry.undos })));
  return cell;
}

function gameRow(entry) {
  const actions = el("td", "actions");
  const replay = el("a", "replay-link", t("progress.replay"));
  replay.href = `#/progress/replay/${encodeURIComponent(entry.id)}`;
  actions.append(replay);
  if (entry.status === "playing") {
    // A Speedquilt game here is a campaign stage or a daily quilt: the solo screen plays it.
    const screen = entry.game === "speedquilt" ? "solo" : "game";
    const resume = el("a", "resume-link", t("progress.resume"));
    resume.href = `#/${screen}/${encodeURIComponent(entry.id)}`;
    actions.append(" ", resume);
  }
  const tr = row(
    [
      gameTitle(entry),
      formatDate(entry.last_move_at ?? entry.created_at, true),
      resultText(entry),
      movesCell(entry),
      actions,
    ],
    `game-row ${entry.status}`,
  );
  tr.dataset.game = entry.game;
  tr.dataset.id = entry.id;
  return tr;
}

function tableRow(entry) {
  const open = entry.status === "open";
  const place = t("progress.place_of", { place: entry.place, seats: entry.seats });
  const result = open
    ? t("progress.unfinished")
    : `${place} · ${t("progress.points_count", { count: entry.points })}`;
  const id = encodeURIComponent(entry.table_id);
  const replay = el("a", "replay-link", t("progress.replay"));
  replay.href = `#/progress/table/${id}`;
  const actions = el("td", "actions");
  actions.append(replay);
  if (open) {
    const resume = el("a", "resume-link", t("progress.resume"));
    resume.href = `#/table/${id}`;
    actions.append(" ", resume);
  }
  const when = formatDate(entry.last_move_at ?? entry.finished_at ?? entry.created_at, true);
  const cells = [t("progress.table_game"), when, result, "", actions];
  const tr = row(cells, `table-row ${entry.status}`);
  tr.dataset.id = entry.table_id;
  return tr;
}

/**
 * Games and tables in one list, the last played first. The server sends each list in that
 * order; the stable sort keeps it for rows of the same moment.
 */
function newestFirst(games, tables) {
  const rows = [
    ...games.map((entry) => ({ entry, draw: gameRow })),
    ...tables.map((entry) => ({ entry, draw: tableRow })),
  ];
  const when = ({ entry }) => Date.parse(entry.last_move_at ?? entry.created_at);
  rows.sort((a, b) => when(b) - when(a));
  return rows.map(({ entry, draw }) => draw(entry));
}

function gamesTab() {
  const box = el("section", "my-games");
  box.append(el("p", "muted loading", t("progress.loading")));
  getJson("/api/my-games")
    .then((data) => {
      const rows = newestFirst(data.games, data.tables);
      if (!rows.length) {
        box.replaceChildren(el("p", "muted empty", t("progress.no_games")));
        return;
      }
      const heads = [
        "progress.game",
        "progress.when",
        "progress.result",
        "progress.moves",
        "progress.actions",
      ];
      box.replaceChildren(table("games-table", heads, rows));
    })
    .catch(() => box.replaceChildren(el("p", "status-line error", t("progress.unavailable"))));
  return box;
}

export class ProgressScreen {
  /**
   * @param root the element the page draws into
   * @param route {tab} or {replay: game id}, from progressRoute()
   * @param app {me, languageSelect()}
   */
  constructor(root, route, app) {
    this.root = root;
    this.route = route;
    this.app = app;
    this.viewer = null;
  }

  /** Draw the page. */
  start() {
    this.build();
  }

  /** Leave the page: the replay viewer stops listening to the keyboard. */
  stop() {
    this.viewer?.stop();
    this.viewer = null;
    delete this.root.dataset.tab;
  }

  /** Draw the page anew (also after the language changed). */
  build() {
    this.viewer?.stop();
    this.viewer = null;
    this.root.className = "screen progress-screen";
    const header = el("header", "progress-header");
    const back = el("a", "back", "← " + t("app.title"));
    back.href = "#/";
    header.append(back, el("h1", "", t("progress.title")), this.app.languageSelect());
    const body = el("main", "progress-body");
    if (this.route.replay) {
      this.root.dataset.tab = "replay";
      this.viewer = new ReplayViewer(body, this.route.replay, Boolean(this.route.table));
      this.viewer.start();
      this.root.replaceChildren(header, body);
      return;
    }
    this.root.dataset.tab = this.route.tab;
    body.append(DRAW[this.route.tab]());
    this.root.replaceChildren(header, this.tabBar(), body);
  }

  tabBar() {
    const nav = el("nav", "progress-tabs");
    nav.setAttribute("aria-label", t("progress.title"));
    for (const tab of TABS) {
      const link = el("a", `tab tab-${tab}`, t(`progress.tab.${tab}`));
      link.href = `#/progress/${tab}`;
      link.dataset.tab = tab;
      if (tab === this.route.tab) link.setAttribute("aria-current", "page");
      nav.append(link);
    }
    return nav;
  }
}
