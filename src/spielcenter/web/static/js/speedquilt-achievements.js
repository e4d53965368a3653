// New achievements on an end table: the ones a finished game (a table, a stage, a daily quilt)
// earned. The server keeps each achievement with the game that earned it, so the end table asks
// for the account's achievements and shows those of this game.

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";

/** The achievements the game (or table) `id` earned for this account. */
export async function achievementsOf(id) {
  const data = await getJson("/api/achievements");
  return data.achievements.filter((item) => item.awarded_at && item.game_id === id);
}

/** The "new achievements" box of an end table; null when there are none. */
export function achievementsBox(list) {
  if (!list?.length) return null;
  const box = el("div", "end-achievements");
  box.append(el("h3", "", t("solo.achievements.new")));
  const items = el("ul", "new-achievements");
  for (const item of list) {
    const li = el("li", "new-achievement");
    li.dataset.key = item.key;
    li.append(el("span", "badge", "★"), el("strong", "name", t(item.name)), " ");
    li.append(el("span", "text", t(item.text)));
    items.append(li);
  }
  const all = el("a", "all-achievements", t("solo.achievements.all"));
  all.href = "#/progress/achievements";
  box.append(items, all);
  return box;
}
