// The Speedquilt panel of the start page: a new table against 1–3 computer players (their
// strength and the tempo of their moves and of the animations), the rules, and the open tables.

import { getJson, listOf } from "./api.js";
import { t } from "./i18n.js";
import { rulesUrl } from "./rules.js";
import { TEMPOS, tableSettings } from "./speedquilt-settings.js";

const LEVELS = ["easy", "normal", "strong"];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function select(name, values, labelOf, current) {
  const node = el("select");
  node.name = name;
  for (const value of values) {
    const option = el("option", "", labelOf(value));
    option.value = String(value);
    option.selected = String(value) === String(current);
    node.append(option);
  }
  return node;
}

function labelled(text, control) {
  const label = el("label", "", text + " ");
  label.append(control);
  return label;
}

/** The Speedquilt panel; `app.newTable({players, bots, tempo, deal})` opens a table. */
export function speedquiltPanel(app) {
  const panel = el("article", "game-panel speedquilt-panel");
  panel.dataset.game = "speedquilt";
  panel.append(el("h2", "", t("game.speedquilt")), el("p", "blurb", t("blurb.speedquilt")));
  const form = el("form", "table-form");
  const count = select("computers", [1, 2, 3], (n) => t("sq.lobby.computers_n", { count: n }), 3);
  const level = select("level", LEVELS, (l) => t(`sq.level.${l}`), "normal");
  const defaultTempo = tableSettings(app.settings).tempo;
  const tempo = select("tempo", TEMPOS, (v) => t(`sq.tempo.${v}`), defaultTempo);
  const deal = el("input");
  deal.type = "number";
  deal.name = "deal";
  deal.min = "1";
  deal.placeholder = t("sq.lobby.any_deal");
  const start = el("button", "new-table primary", t("sq.lobby.new_table"));
  start.type = "submit";
  form.append(
    labelled(t("sq.lobby.computers"), count),
    labelled(t("sq.lobby.level"), level),
    labelled(t("sq.setting.tempo"), tempo),
    labelled(t("start.deal_number"), deal),
    start,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const n = Number(count.value);
    const options = { players: n + 1, bots: Array(n).fill(level.value), tempo: tempo.value };
    if (deal.value) options.deal = Number(deal.value);
    app.newTable(options);
  });
  const rules = el("a", "rules-link", t("action.rules"));
  rules.href = rulesUrl("speedquilt");
  rules.target = "_blank";
  rules.rel = "noopener";
  const open = el("div", "open-tables");
  panel.append(form, rules, open);
  getJson("/api/tables?state=open")
    .then((data) => {
      const tables = listOf(data, "tables");
      if (!tables.length) return;
      open.append(el("h3", "", t("sq.lobby.open_tables")));
      const list = el("ul", "open-games");
      for (const table of tables) {
        const item = el("li");
        const link = el("a", "resume-table", t("sq.lobby.table", { players: table.seats.length }));
        link.href = `#/table/${encodeURIComponent(table.id)}`;
        item.append(link);
        list.append(item);
      }
      open.append(list);
    })
    .catch(() => {});
  return panel;
}
