// What a solo Speedquilt game is called, from its stored variant ("stage-3", "daily-2026-11-29"):
// small on its own, so that the start page (its list of open games) needs no more of solo play.

import { t } from "./i18n.js";

/** The stage number of a stored variant such as "stage-3", or null. */
export function stageOf(variant) {
  const match = /^stage-(\d+)$/.exec(variant ?? "");
  return match ? Number(match[1]) : null;
}

/** The day of a stored variant such as "daily-2026-11-29", or null. */
export function dayOf(variant) {
  const match = /^daily-(\d{4}-\d{2}-\d{2})$/.exec(variant ?? "");
  return match ? match[1] : null;
}

/** "Speedquilt · Stage 3", "Speedquilt · Daily quilt 2026-11-29" from a stored variant. */
export function soloTitle(variant) {
  const stage = stageOf(variant);
  const day = dayOf(variant);
  const kind = stage ? t("solo.stage", { stage }) : day ? t("solo.daily_of", { day }) : "";
  return kind ? `${t("game.speedquilt")} · ${kind}` : t("game.speedquilt");
}
