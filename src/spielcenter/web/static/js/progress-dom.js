// Small helpers shared by the pages of Meine Partien: tables, dates, and a game's title.

import { el } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { soloTitle } from "./speedquilt-solo-names.js";

export { formatDate }; // one way to write a date on every page (i18n.js)

/** "Cruel · Classic", "Speedquilt · Stage 3", "Speedquilt · Daily quilt 2026-11-29". */
export function gameTitle(entry) {
  if (entry.kind === "table") return t("progress.table_game");
  const game = t(`game.${entry.game}`);
  if (entry.kind === "campaign") return `${game} · ${t("progress.stage", { stage: entry.stage })}`;
  if (entry.kind === "daily") return `${game} · ${t("progress.daily_of", { day: entry.day })}`;
  if (entry.game === "speedquilt") return soloTitle(entry.variant);
  return `${game} · ${t(`variant.${entry.game}.${entry.variant}`)}`;
}

/** A table of `rows` (arrays of cells) under the header keys `heads`. */
export function table(className, heads, rows) {
  const node = el("table", `progress-table ${className}`);
  const head = el("tr");
  for (const key of heads) head.append(el("th", "", t(key)));
  node.append(head);
  for (const row of rows) node.append(row);
  return node;
}

/** A table row of plain cells. */
export function row(cells, className = "") {
  const tr = el("tr", className);
  for (const cell of cells) tr.append(cell instanceof Node ? cell : el("td", "", cell));
  return tr;
}
