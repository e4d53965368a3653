// What the pages around the tables with people share (the lobby, an invitation's join screen,
// the taler page): labelled controls, how taler and clock settings read, and the page frame.

import { getJson } from "./api.js";
import { formatNumber, t } from "./i18n.js";
import { el, link } from "./dom.js";

/** A select `name` of `values`, each shown as `labelOf(value)`, `current` chosen. */
export function select(name, values, labelOf, current) {
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

/** A label with its text before the control. */
export function labelled(text, control) {
  const label = el("label", "", text + " ");
  label.append(control);
  return label;
}

/** A number of taler as people read it ("1.000 Taler", "1,000 taler"). */
export function taler(amount) {
  return t("tables.taler", { amount: formatNumber(amount) });
}

/** "30 s", "2 min" or "ohne Uhr" for a clock setting. */
export function seconds(value) {
  if (value === null || value === undefined) return t("tables.no_clock");
  if (value >= 120) return t("tables.minutes", { count: value / 60 });
  return t("tables.seconds", { count: value });
}

/** What the lobby's screens share: the page frame, a status line, a timer that refreshes. */
export class LobbyPage {
  constructor(root, app, title) {
    this.root = root;
    this.app = app;
    this.title = title;
    this.timer = null;
    this.balance = null;
  }

  frame(...content) {
    this.root.className = "screen start-screen lobby-screen";
    const header = el("header", "start-header");
    const back = link("← " + t("app.title"), "#/", "back");
    const side = el("div", "header-side");
    const text =
      this.balance === null
        ? t("tables.my_taler")
        : t("tables.balance", { amount: taler(this.balance) });
    const balance = link(text, "#/taler", "balance");
    side.append(balance, this.app.languageSelect());
    const titles = el("div", "lobby-titles");
    titles.append(back, el("h1", "", this.title()));
    header.append(titles, side);
    this.status = el("p", "status-line");
    this.status.setAttribute("role", "status");
    this.root.replaceChildren(header, ...content, this.status);
  }

  say(text, isError = true) {
    if (!this.status) return;
    this.status.textContent = text;
    this.status.classList.toggle("error", isError);
  }

  async loadBalance() {
    try {
      this.balance = (await getJson("/api/ledger")).balance;
    } catch {
      this.balance = null;
    }
  }

  refreshEvery(ms, load) {
    clearInterval(this.timer);
    this.timer = setInterval(() => load().catch(() => {}), ms);
  }

  stop() {
    clearInterval(this.timer);
  }
}

