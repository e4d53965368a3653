// The account's taler (#/taler): the balance and every movement, newest first (docs/ledger.md).

import { getJson } from "./api.js";
import { formatDate, formatNumber, t } from "./i18n.js";
import { el, link } from "./dom.js";
import { errorText } from "./errors.js";
import { LobbyPage, taler } from "./lobby-page.js";

/** What a named account is given once (services/ledger.py, START_BALANCE). */
const START_TALER = 1000;

/** #/taler: the account's balance and its movements, newest first. */
export class TalerScreen extends LobbyPage {
  constructor(root, app) {
    super(root, app, () => t("tables.taler_title"));
    this.statement = null;
  }

  async start() {
    try {
      this.statement = await getJson("/api/ledger");
      this.balance = this.statement.balance;
    } catch (error) {
      this.frame(el("p", "game-panel", errorText(error)));
      return;
    }
    this.build();
  }

  build() {
    if (!this.statement) return;
    const panel = el("article", "game-panel taler-panel");
    panel.append(
      el("h2", "taler-balance", t("tables.balance", { amount: taler(this.statement.balance) })),
      el("p", "muted", t("tables.taler_explained", { start: formatNumber(START_TALER) })),
    );
    // A guest has no taler (docs/ledger.md): say how to get them instead of showing 0 alone.
    if (this.statement.claimed === false)
      panel.append(el("p", "taler-guest", t("tables.taler_guest", { start: formatNumber(START_TALER) })));
    const table = el("table", "taler-history");
    const head = el("tr");
    for (const key of ["when", "what", "amount"])
      head.append(el("th", "", t(`tables.column.${key}`)));
    table.append(head);
    for (const movement of this.statement.history) {
      const row = el("tr", `movement ${movement.kind}`);
      row.dataset.kind = movement.kind;
      const what = el("td", "");
      what.append(t(`tables.kind.${movement.kind}`));
      if (movement.table_id) {
        const table = `#/table/${encodeURIComponent(movement.table_id)}`;
        what.append(" · ", link(t("tables.to_table"), table));
      }
      const amount = el("td", movement.amount < 0 ? "amount minus" : "amount plus");
      amount.textContent = (movement.amount > 0 ? "+" : "") + taler(movement.amount);
      const when = formatDate(movement.at, true);
      row.append(el("td", "", when), what, amount);
      table.append(row);
    }
    panel.append(table);
    this.frame(panel);
  }
}
