// The start page's Speedquilt panel: a new table against 1–3 computers, the rules, the open
// tables, the ways to the lobby and the taler. The lobby itself (speedquilt-lobby.js) is a screen
// of its own, loaded when it is first opened.

import { getJson, listOf } from "./api.js";
import { NEIGHBOUR_NAMES } from "./speedquilt-names.js";
import { t } from "./i18n.js";
import { rulesUrl } from "./rules.js";
import { TEMPOS, tableSettings } from "./speedquilt-settings.js";
import { el, link } from "./dom.js";
import { labelled, select } from "./lobby-page.js";

const LEVELS = ["easy", "normal", "strong"];

/** The Speedquilt panel; `app.newTable({players, bots, tempo, deal})` opens a table. */
export function speedquiltPanel(app) {
  const panel = el("article", "game-panel speedquilt-panel");
  panel.dataset.game = "speedquilt";
  panel.append(el("h2", "", t("game.speedquilt")), el("p", "blurb", t("blurb.speedquilt")));
  const form = el("form", "table-form");
  const count = select("computers", [1, 2, 3], (n) => t("sq.lobby.computers_n", { count: n }), 3);
  // "1 bis 3 Computer in drei Stärken" (seed 003): each computer its own strength, named as
  // the table will name it.
  const levels = NEIGHBOUR_NAMES.map((name, i) =>
    labelled(name, select(`level${i + 1}`, LEVELS, (l) => t(`sq.level.${l}`), "normal")),
  );
  const strengths = el("fieldset", "computer-levels");
  strengths.append(el("legend", "", t("sq.lobby.level")), ...levels);
  const showLevels = () => levels.forEach((label, i) => (label.hidden = i >= Number(count.value)));
  count.addEventListener("change", showLevels);
  showLevels();
  const defaultTempo = tableSettings(app.settings).tempo;
  const tempo = select("tempo", TEMPOS, (v) => t(`sq.tempo.${v}`), defaultTempo);
  const deal = el("input");
  deal.type = "number";
  deal.name = "deal";
  deal.min = "1";
  deal.placeholder = t("sq.lobby.any_deal");
  deal.title = t("fairness.practice"); // a chosen deal could be rehearsed: never ranked
  const start = el("button", "new-table primary", t("sq.lobby.new_table"));
  start.type = "submit";
  form.append(
    labelled(t("sq.lobby.computers"), count),
    strengths,
    labelled(t("sq.setting.tempo"), tempo),
    labelled(t("start.deal_number"), deal),
    start,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const n = Number(count.value);
    const bots = levels.slice(0, n).map((label) => label.querySelector("select").value);
    const options = { players: n + 1, bots, tempo: tempo.value };
    if (deal.value) options.deal = Number(deal.value);
    app.newTable(options);
  });
  const rules = el("a", "rules-link", t("action.rules"));
  rules.href = rulesUrl("speedquilt");
  rules.target = "_blank";
  rules.rel = "noopener";
  const others = el("p", "with-others");
  others.append(
    link(t("tables.with_others"), "#/lobby", "lobby-link"),
    " · ",
    link(t("tables.my_taler"), "#/taler", "taler-link"),
  );
  const open = el("div", "open-tables");
  panel.append(form, others, rules, open);
  getJson("/api/tables?state=open")
    .then((data) => {
      const tables = listOf(data, "tables");
      if (!tables.length) return;
      open.append(el("h3", "", t("sq.lobby.open_tables")));
      const list = el("ul", "open-games");
      for (const table of tables) {
        const item = el("li");
        const entry = link(
          t("sq.lobby.table", { players: table.seats.length }),
          `#/table/${encodeURIComponent(table.id)}`,
          "resume-table",
        );
        item.append(entry);
        list.append(item);
      }
      open.append(list);
    })
    .catch(() => {});
  return panel;
}
