// The start page's way into solo play (a campaign stage, today's quilt): two buttons that start
// or continue the game and go to its screen (speedquilt-solo.js, loaded when it is opened).

import { getJson, send } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { errorText } from "./errors.js";

/** Start (or continue) the current campaign stage and go to it. */
export async function playStage() {
  const answer = await send("POST", "/api/campaign/play");
  location.hash = `#/solo/${encodeURIComponent(answer.game.id)}`;
}

/** Start (or continue) today's quilt and go to it. */
export async function playDaily() {
  const answer = await send("POST", "/api/daily/play");
  location.hash = `#/solo/${encodeURIComponent(answer.game.id)}`;
}

/** The start page's way into solo play: under the Speedquilt panel, the campaign's current
 * stage and today's quilt (each continued where it stands). */
export function addSoloStart(root) {
  const panel = root.querySelector(".speedquilt-panel");
  if (!panel || panel.querySelector(".solo-start")) return;
  const box = document.createElement("div");
  box.className = "solo-start";
  const heading = document.createElement("h3");
  heading.textContent = t("solo.start.title");
  const refusal = el("p", "solo-error");
  refusal.setAttribute("role", "alert");
  refusal.hidden = true;
  const stage = soloButton("solo-play-stage", t("solo.start.campaign"), playStage, refusal);
  const daily = soloButton("solo-play-daily", t("solo.start.daily"), playDaily, refusal);
  box.append(heading, stage, daily, refusal);
  panel.append(box);
  getJson("/api/campaign")
    .then((campaign) => {
      const key = campaign.game_id ? "solo.start.campaign_resume" : "solo.start.campaign_stage";
      stage.textContent = t(key, { stage: campaign.stage });
    })
    .catch(() => {});
  getJson("/api/daily")
    .then((today) => {
      const key = today.open_game_id
        ? "solo.start.daily_resume"
        : today.played
          ? "solo.start.daily_practice"
          : "solo.start.daily";
      daily.textContent = t(key);
    })
    .catch(() => {});
}

/** A solo start button. It is disabled while its request runs (a second click would start the
 * request twice); a refusal is said in `refusal` and the button can be pressed again. */
function soloButton(className, label, action, refusal) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  node.textContent = label;
  node.addEventListener("click", () => {
    node.disabled = true;
    refusal.hidden = true;
    action().catch((error) => {
      node.disabled = false;
      refusal.textContent = errorText(error);
      refusal.hidden = false;
    });
  });
  return node;
}
