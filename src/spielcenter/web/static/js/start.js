// The start page "Spielcenter": the games with new game, restart, play deal number N, variant,
// rules and statistics; the unfinished games to resume; the account box; the language switch.

import { getJson, listOf } from "./api.js";
import { accountBox } from "./account.js";
import { el } from "./dom.js";
import { formatDuration, t } from "./i18n.js";
import { rulesUrl } from "./rules.js";
import { speedquiltPanel } from "./speedquilt-panel.js";
import { soloTitle } from "./speedquilt-solo-names.js";

/** The patience games of the start page with their variants (the first is the default). */
export const GAMES = [
  { game: "cruel", variants: ["classic", "stuck", "perseverance"] },
  {
    game: "crazy-quilt",
    variants: ["classic", "second-redeal", "round-the-corner", "second-redeal+round-the-corner"],
  },
];

function gameTitle(entry) {
  return `${t(`game.${entry.game}`)} · ${t(`variant.${entry.game}.${entry.variant}`)}`;
}

function resumeList(open) {
  const section = el("section", "resume");
  section.append(el("h2", "", t("start.resume")));
  const list = el("ul", "open-games");
  for (const entry of open) {
    const item = el("li");
    // A Speedquilt game here is a campaign stage or a daily quilt: its deal is secret.
    const solo = entry.game === "speedquilt";
    const title = solo
      ? soloTitle(entry.variant)
      : `${gameTitle(entry)} — ${t("game.deal", { deal: entry.deal })}`;
    const link = el("a", "resume-game", title);
    link.href = `#/${solo ? "solo" : "game"}/${encodeURIComponent(entry.id)}`;
    const moves = entry.moves ?? entry.moves_made;
    if (moves !== undefined) {
      const key = moves === 1 ? "game.move" : "game.moves";
      link.append(el("span", "resume-moves", ` (${t(key, { count: moves })})`));
    }
    item.append(link);
    list.append(item);
  }
  section.append(list);
  return section;
}

/** Rows of statistics per variant, whichever of the usual shapes the server sends. */
function statRows(data) {
  const rows = data?.variants ?? data?.stats ?? data;
  if (Array.isArray(rows)) return rows.map((row) => [row.variant, row]);
  if (rows && typeof rows === "object") {
    return Object.entries(rows).filter(([, row]) => row && typeof row === "object");
  }
  return [];
}

function percent(rate, played, won) {
  if (typeof rate === "number") return `${Math.round(rate <= 1 ? rate * 100 : rate)} %`;
  return played ? `${Math.round((100 * won) / played)} %` : "–";
}

const STAT_COLUMNS = [
  "variant",
  "played",
  "in_progress",
  "won",
  "rate",
  "streak",
  "best_streak",
  "best_time",
  "fewest_moves",
];

function statsTable(game, data) {
  const table = el("table", "stats");
  const head = el("tr");
  const labels = STAT_COLUMNS.map((key) => t(`stats.${key}`));
  for (const label of labels) head.append(el("th", "", label));
  table.append(head);
  const rows = statRows(data);
  if (!rows.length) return el("p", "muted stats-empty", t("stats.none"));
  for (const [variant, row] of rows) {
    const tr = el("tr");
    tr.dataset.variant = variant;
    const bestTime = row.best_time_ms ?? row.best_time;
    const cells = [
      t(`variant.${game}.${variant}`),
      row.played ?? 0,
      row.in_progress ?? 0,
      row.won ?? 0,
      percent(row.rate ?? row.win_rate, row.played, row.won),
      row.current_streak ?? row.streak ?? 0,
      row.best_streak ?? 0,
      typeof bestTime === "number" ? formatDuration(bestTime) : "–",
      row.fewest_moves ?? "–",
    ];
    cells.forEach((cell, i) => {
      const td = el("td", "", String(cell));
      td.dataset.label = labels[i]; // a narrow card shows each number with its name (CSS)
      tr.append(td);
    });
    table.append(tr);
  }
  return table;
}

function gamePanel(spec, app) {
  const panel = el("article", "game-panel");
  panel.dataset.game = spec.game;
  panel.append(el("h2", "", t(`game.${spec.game}`)), el("p", "blurb", t(`blurb.${spec.game}`)));

  const variantLabel = el("label", "variant", t("start.variant") + " ");
  const variant = el("select");
  variant.name = "variant";
  for (const name of spec.variants) {
    const option = el("option", "", t(`variant.${spec.game}.${name}`));
    option.value = name;
    variant.append(option);
  }
  variantLabel.append(variant);

  // Only deals the solver has proven winnable (the server keeps the lists); each game keeps its
  // own switch (the one both once shared is read where a game has none yet).
  const winnableLabel = el("label", "winnable-only");
  const winnable = el("input");
  winnable.type = "checkbox";
  winnable.name = "winnable_only";
  const setting = `winnable_only_${spec.game.replace("-", "_")}`;
  winnable.checked = Boolean(app.settings[setting] ?? app.settings.winnable_only);
  winnable.addEventListener("change", () => app.saveSettings({ [setting]: winnable.checked }));
  winnableLabel.append(winnable, " " + t("start.winnable_only"));

  const actions = el("div", "panel-actions");
  const fresh = el("button", "new-game primary", t("start.new_game"));
  fresh.type = "button";
  fresh.addEventListener("click", () =>
    app.newGame({ game: spec.game, variant: variant.value, winnableOnly: winnable.checked }),
  );
  // Her last deal of this game, finished or not: right after a game it is the one just played.
  const restart = el("button", "restart", t("start.restart"));
  restart.type = "button";
  restart.disabled = true;
  getJson(`/api/games?game=${encodeURIComponent(spec.game)}&limit=1`)
    .then((data) => {
      const [last] = listOf(data, "games");
      if (!last) return;
      restart.disabled = false;
      restart.title = t("game.deal", { deal: last.deal });
      restart.addEventListener("click", () => app.newGame({ restart: last.id }));
    })
    .catch(() => {}); // without the list the button stays off, as for a first visit
  actions.append(fresh, restart);

  const dealForm = el("form", "deal-form");
  const dealLabel = el("label", "", t("start.deal_number") + " ");
  const number = el("input");
  number.type = "number";
  number.name = "deal";
  number.min = "1";
  number.required = true;
  dealLabel.append(number);
  const play = el("button", "play-deal", t("start.play_deal"));
  play.type = "submit";
  dealForm.append(dealLabel, play);
  dealForm.addEventListener("submit", (event) => {
    event.preventDefault();
    app.newGame({ game: spec.game, variant: variant.value, deal: Number(number.value) });
  });

  const rules = el("a", "rules-link", t("action.rules"));
  rules.href = rulesUrl(spec.game);
  rules.target = "_blank";
  rules.rel = "noopener";
  const stats = el("div", "stats-box");
  stats.append(el("h3", "", t("stats.title")));
  panel.append(variantLabel, winnableLabel, actions, dealForm, rules, stats);
  getJson(`/api/stats?game=${encodeURIComponent(spec.game)}`)
    .then((data) => stats.append(statsTable(spec.game, data)))
    .catch(() => stats.append(el("p", "muted", t("stats.unavailable"))));
  return panel;
}

/** Draw the start page into `root`. */
export async function showStart(root, app) {
  root.className = "screen start-screen";
  let open = [];
  try {
    open = listOf(await getJson("/api/games?state=open"), "games");
  } catch {
    open = [];
  }
  const header = el("header", "start-header");
  const side = el("div", "header-side");
  side.append(app.languageSelect(), accountBox(app.me, app.reload));
  header.append(el("h1", "", t("app.title")), side);
  const body = el("div", "start-body");
  if (open.length) body.append(resumeList(open));
  const games = el("div", "games");
  for (const spec of GAMES) games.append(gamePanel(spec, app));
  games.append(speedquiltPanel(app));
  body.append(games);
  const error = el("p", "status-line");
  error.setAttribute("role", "status");
  root.replaceChildren(header, body, error);
}
