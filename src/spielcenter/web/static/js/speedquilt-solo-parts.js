// The parts of the solo screen (a campaign stage or a daily quilt) that the table screen does not
// have: the history line of each move (a stored game's events carry none), the giving turn, the
// shelf that loses a block, the round/target/spools facts and the stage or daily result.

import { t } from "./i18n.js";
import { blockShortName, blockSvg } from "./speedquilt-blocks.js";
import { diceTray } from "./speedquilt-dice.js";
import { button, el, link } from "./dom.js";
import { helpfulDice } from "./speedquilt-giving.js";
import { dayOf, stageOf } from "./speedquilt-solo-names.js";

/** The campaign's last stage: clearing it completes the campaign. */
const LAST_STAGE = 7;

/** Two spools as symbols: a full one for each left. */
export function spoolSymbols(spools) {
  return "●".repeat(spools) + "○".repeat(Math.max(0, 2 - spools));
}

/** "1 spool left", "2 spools left". */
export function spoolsText(count) {
  return t(count === 1 ? "solo.spools_one" : "solo.spools", { count });
}

// -- history lines ------------------------------------------------------------------------------

function line(key, params = {}) {
  return { key: `history.${key}`, seat: 0, ...params };
}

function diceOf(turn, except = []) {
  const out = {};
  for (const die of turn?.dice ?? []) if (!except.includes(die.die)) out[die.die] = die.value;
  return out;
}

function placementsOf(words) {
  const out = [];
  for (let i = 0; i + 2 < words.length; i += 3) {
    const [block, patch] = words[i + 2].split(":");
    out.push({ die: words[i], block, patch: Number(patch) });
  }
  return out;
}

function rightmost(shelf) {
  return (shelf ?? []).filter((id) => id !== null).at(-1) ?? null;
}

/**
 * The history lines of one move of her own, as the table's server writes them (docs/protocol.md):
 * the move's line first, then what follows from it (the start, the end of the game).
 * @param move the move's text; @param before the view before it; @param after the view after it
 */
export function linesOf(move, before, after) {
  const words = move.split(" ");
  const lines = [moveLine(words, move, before, after)];
  if (words[0] === "choose" && after.phase !== "choosing")
    lines.push({
      key: "history.start",
      seat: after.start_player,
      start_player: after.start_player,
    });
  if (after.phase === "over" && before?.phase !== "over")
    lines.push({ key: "history.over", seat: null, scores: after.scores, places: after.places });
  return lines.filter(Boolean);
}

function moveLine(words, move, before, after) {
  const turn = after.turn;
  switch (words[0]) {
    case "choose":
      return line("choose", { row: words.slice(1, 4), returned: words[5] });
    case "roll":
      return line("roll", { dice: diceOf(turn) });
    case "reroll":
      return line("reroll", { dice: diceOf(turn, before?.turn?.basket ?? []) });
    case "keep":
      return line("keep", { dice: words[1] === "none" ? [] : words.slice(1) });
    case "sew":
      return line("sew", { block: words[1] });
    case "buy":
      return line("buy", { block: words[1], cell: words[3] });
    case "give":
      return line("give", placementsOf(words.slice(1))[0]);
    case "pass":
      return line("pass");
    case "thimble":
      return line("thimble", { die: words[1], by: words[2] });
    case "dye": {
      const [die, to] = words[1].split("->");
      return line("dye", { die, to });
    }
    case "undo":
      return line("undo");
    case "end":
      return line("end", { round: after.round, next: turn?.seat ?? null });
    case "remove":
      return line("remove", { deck: words[1], block: rightmost(before?.shop?.[words[1]]) });
    case "bin":
      return binLine(words, before, after);
    default:
      return { key: "solo.history.move", seat: 0, move };
  }
}

function binLine(words, before, after) {
  if (words[1] === "draw")
    return line("bin_draw", { deck: words[2], block: after.turn?.drawn?.block ?? null });
  const drawn = before?.turn?.drawn ?? {};
  if (words[1] === "place") return line("bin_place", { block: drawn.block, cell: words[3] });
  if (words[1] === "return") return line("bin_return", { deck: drawn.deck, block: drawn.block });
  return line("bin_dice", { placements: placementsOf(words.slice(1)) });
}

// -- the solo phases ----------------------------------------------------------------------------

/**
 * The giving turn (Abgabe-Zug): the five dice rolled once; she places up to her allowance of
 * them on her patches (no block need be finished), or is done.
 * @param view the game view (phase "giving_turn")
 * @param ui {selected, kits, onSelect(name), onPass(), onThimble, onDye}
 */
export function givingTurnPanel(view, ui) {
  const turn = view.turn;
  const quilt = view.seats[view.you].quilt;
  const free = turn.dice.map((d) => d.die).filter((d) => !turn.used.includes(d));
  const helpful = helpfulDice(quilt, turn.dice, free);
  const left = Math.max(0, turn.allowance - turn.used.length);
  const box = el("section", "sq-giving solo-giving");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("solo.giving.title"));
  box.dataset.left = String(left);
  const count = el(
    "p",
    "giving-count",
    helpful.size
      ? t("solo.giving.left", { left, allowance: turn.allowance })
      : t("sq.giving.none_fits"),
  );
  count.dataset.helpful = String(helpful.size);
  const tray = diceTray(
    { ...turn, basket: [] },
    {
      selected: ui.selected,
      helpful,
      kits: ui.kits,
      onSelect: (name) => free.includes(name) && ui.onSelect(name),
      onThimble: ui.onThimble,
      onDye: ui.onDye,
    },
  );
  const done = turn.used.length > 0;
  const pass = button(
    done ? t("solo.giving.done") : helpful.size ? t("sq.giving.pass") : t("sq.giving.continue"),
    helpful.size ? "giving-pass" : "giving-pass primary",
    () => ui.onPass(),
  );
  const buttons = el("div", "giving-buttons");
  buttons.append(pass);
  box.append(el("h2", "", t("solo.giving.title")), el("p", "giving-who", t("solo.giving.rule")));
  box.append(count, tray);
  if (helpful.size) {
    const hint = ui.selected ? "sq.giving.tap_patch" : "sq.giving.tap_die";
    box.append(el("p", "giving-hint muted", t(hint)));
  }
  box.append(buttons);
  return box;
}

/**
 * After the giving turn: she chooses the shelf whose rightmost block leaves the shop.
 * @param view the game view (phase "shop_remove"); @param legal her legal moves
 * @param onRemove called with the move ("remove pattern" / "remove kit")
 */
export function removePanel(view, legal, onRemove) {
  const box = el("section", "sq-remove solo-remove");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("solo.remove.title"));
  box.append(el("h2", "", t("solo.remove.title")), el("p", "muted", t("solo.remove.text")));
  const choices = el("div", "remove-choices");
  for (const deck of ["pattern", "kit"]) {
    const move = `remove ${deck}`;
    if (!legal.includes(move)) continue;
    const id = rightmost(view.shop[deck]);
    const choice = button("", `remove-shelf remove-${deck}`, () => onRemove(move));
    choice.dataset.move = move;
    choice.append(blockSvg(id), el("span", "", t(`solo.remove.${deck}`, { block: blockShortName(id) })));
    choices.append(choice);
  }
  box.append(choices);
  return box;
}

/**
 * The facts of the toolbar: the round of how many, the stage and its target (or the day), the
 * spools left.
 * @param view the game view; @param campaign the campaign (GET /api/campaign) or null
 */
export function soloFacts(view, campaign) {
  const box = el("span", "sq-round solo-facts");
  const parts = [t("solo.round_of", { round: view.round, max: view.max_rounds })];
  if (view.end_round) parts.push(t("sq.last_round", { round: view.end_round }));
  const stage = stageOf(view.variant);
  const day = dayOf(view.variant);
  if (stage) parts.push(t("solo.stage", { stage }));
  if (day) parts.push(t("solo.daily_of", { day }));
  if (typeof view.target === "number") parts.push(t("solo.target", { target: view.target }));
  box.append(el("span", "facts-text", parts.join(" · ")));
  if (stage && campaign) {
    const spools = el("span", "spools", spoolSymbols(campaign.spools));
    spools.title = spoolsText(campaign.spools);
    spools.setAttribute("aria-label", spools.title);
    box.append(" ", spools);
  }
  return box;
}

// -- the result -----------------------------------------------------------------------------------

/**
 * What a finished stage did to the campaign: cleared or missed, the campaign points it carried,
 * the spools left (and a restart at stage 1).
 * @param view the final view (variant, target, scores); @param campaign the campaign now
 */
export function stageResult(view, campaign) {
  const box = el("div", "solo-result stage-result");
  const score = view.scores[0];
  const cleared = score >= view.target;
  box.dataset.cleared = String(cleared);
  const lines = [t("solo.end.score", { score, target: view.target })];
  if (cleared) lines.push(t("solo.end.carried", { points: score - view.target }));
  if (cleared && stageOf(view.variant) === LAST_STAGE) lines.push(t("solo.end.completed"));
  if (campaign) {
    lines.push(t("solo.end.campaign_points", { points: campaign.points }));
    const restarted = !cleared && campaign.stage === 1 && campaign.spools === 2;
    if (restarted) lines.push(t("solo.end.restarted"));
    const spools = el("p", "result-spools");
    spools.append(
      el("span", "spools", spoolSymbols(campaign.spools)),
      " ",
      spoolsText(campaign.spools),
    );
    for (const text of lines) box.append(el("p", "result-line", text));
    box.append(spools);
    box.append(el("p", "result-next", t("solo.end.next", { stage: campaign.stage })));
  } else {
    for (const text of lines) box.append(el("p", "result-line", text));
  }
  box.append(listLinks([CAMPAIGN_LINK, BOARDS_LINK]));
  return box;
}

/**
 * A finished daily quilt: the points, whether it was the ranked first attempt and its rank.
 * @param view the final view; @param daily {ranked, listed, rank, total} or null while loading
 */
export function dailyResult(view, daily) {
  const box = el("div", "solo-result daily-result");
  const score = view.scores[0];
  const empty = view.breakdown?.[0]?.empty_patches ?? 0;
  box.append(el("p", "result-line", t("solo.end.daily_points", { score, empty })));
  if (daily) {
    box.dataset.ranked = String(daily.ranked);
    const rank = !daily.ranked
      ? t("solo.end.daily_practice")
      : daily.listed === false
        ? t("solo.end.daily_unlisted")
        : daily.rank
          ? t("solo.end.daily_rank", { rank: daily.rank, total: daily.total })
          : t("solo.end.daily_ranked");
    box.append(el("p", "result-rank", rank));
  }
  box.append(listLinks([DAILY_LINK, BOARDS_LINK]));
  return box;
}

const CAMPAIGN_LINK = ["#/progress/campaign", "solo.to_campaign"];
const DAILY_LINK = ["#/progress/daily", "solo.to_daily"];
const BOARDS_LINK = ["#/progress/boards", "solo.to_boards"];

function listLinks(pairs) {
  const nav = el("p", "result-links");
  pairs.forEach(([href, key], index) => {
    if (index) nav.append(" · ");
    nav.append(link(t(key), href, `result-link ${key.replace("solo.", "")}`));
  });
  return nav;
}
