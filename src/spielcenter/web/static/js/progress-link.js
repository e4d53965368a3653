// The way to Meine Partien (#/progress/<tab>): its route and its link on the start page. The page
// itself (progress.js) and its stylesheets are loaded when it is first opened (main.js).

import { t } from "./i18n.js";
import { el } from "./dom.js";

export const TABS = ["games", "achievements", "boards", "campaign", "daily"];

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
  const side = root.querySelector(".header-side");
  if (!side || side.querySelector(".progress-link")) return;
  const link = el("a", "progress-link", t("progress.title"));
  link.href = "#/progress/games";
  side.prepend(link);
}
