// The way to Meine Partien (#/progress/<tab>): its route, its link on the start page and its
// stylesheet. The page itself (progress.js) is loaded when it is first opened.

import { t } from "./i18n.js";
import { el } from "./dom.js";

export const TABS = ["games", "achievements", "boards", "campaign", "daily"];

/** Load the page's stylesheet once (the page brings its own so index.html stays untouched). */
export function ensureStyles() {
  if (document.querySelector("link[data-progress-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/progress.css";
  link.dataset.progressCss = "";
  document.head.append(link);
}

/** The hash route of this page, or null: {tab} or {replay: game id}. */
export function progressRoute(hash) {
  const replay = /^#\/progress\/replay\/(.+)$/.exec(hash);
  if (replay) return { replay: decodeURIComponent(replay[1]) };
  const table = /^#\/progress\/table\/(.+)$/.exec(hash);
  if (table) return { replay: decodeURIComponent(table[1]), table: true };
  const tab = /^#\/progress(?:\/(\w+))?$/.exec(hash);
  if (!tab) return null;
  return { tab: TABS.includes(tab[1]) ? tab[1] : "games" };
}

/** The start page's way here: a link in its header (called after the start page is drawn). */
export function addProgressLink(root) {
  ensureStyles();
  const side = root.querySelector(".header-side");
  if (!side || side.querySelector(".progress-link")) return;
  const link = el("a", "progress-link", t("progress.title"));
  link.href = "#/progress/games";
  side.prepend(link);
}
