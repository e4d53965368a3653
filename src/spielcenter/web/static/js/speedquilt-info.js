// Block info (Karten-Info): a window with the block's picture and whole sentences — colour,
// scoring or ability, rule, every patch — and what the block means now: in the shop whether her
// roll buys it and how many blocks of its colour she has; in a quilt which of her dice fit which
// patches, or for a finished pattern block what it counts now and why; in a neighbour's quilt
// what it brings her or which patches she still lacks. Hover, click or long-press opens it.

import { t } from "./i18n.js";
import { blockDef, blockShortName, blockSvg, SYMBOLS } from "./speedquilt-blocks.js";
import { canPlace } from "./speedquilt-plan.js";
import { scoreQuilt } from "./speedquilt-score.js";
import { PRICE } from "./speedquilt-shop.js";

const LONG_PRESS_MS = 450;

// The block whose info she pinned: it stays open while the table is drawn anew (others move).
let pinnedId = null;

// A tap anywhere else closes a pinned block info (the tap that opens one stops on its way).
document.addEventListener("click", (event) => {
  const box = document.querySelector(".sq-info.pinned");
  if (!box || box.contains(event.target)) return;
  box.hidden = true;
  box.classList.remove("pinned");
  pinnedId = null;
});

function colourWord(colour) {
  return `${t(`sq.colour.${colour}`)} ${SYMBOLS[colour]}`;
}

function list(numbers) {
  if (numbers.length === 1) return String(numbers[0]);
  return `${numbers.slice(0, -1).join(", ")} ${t("sq.info.and")} ${numbers.at(-1)}`;
}

/** "2 fertige Nachbarn × 2 = 4": one line of a score breakdown (the engine's entry shape). */
export function calculation(entry) {
  const colour = entry.line_colour ? colourWord(entry.line_colour) : "";
  const number = entry.count === 1 ? "one" : "many";
  if (entry.line === "fixed") return t("sq.calc.fixed", { points: entry.points });
  if (entry.line === "all_colours")
    return t("sq.calc.all_colours", { count: entry.count, points: entry.points });
  const what = t(`sq.count.${entry.line}.${number}`, { colour, count: entry.count });
  return t("sq.calc.times", {
    count: entry.count,
    what,
    factor: entry.factor,
    points: entry.points,
  });
}

/** The sentences describing the block itself. */
export function describeBlock(def, filled) {
  const out = [];
  if (!def.colour) out.push(t("sq.info.remnant"));
  else if (def.kit)
    out.push(t("sq.info.kit", { colour: colourWord(def.colour), kit: t(`sq.kit.${def.kit}`) }));
  else out.push(t("sq.info.pattern", { colour: colourWord(def.colour) }));
  if (def.kit) out.push(t(`sq.ability.${def.kit}`));
  else {
    const s = def.scoring;
    const colour = s.colour ? colourWord(s.colour) : "";
    out.push(t(`sq.scores.${s.line}`, { points: s.points, colour }));
  }
  out.push(t(`sq.rule.${{ "<": "ascending", "=": "equal", ">=40": "sum" }[def.rule] ?? "none"}`));
  def.patches.forEach((patch, index) => {
    const n = index + 1;
    const value = filled?.[index];
    if (value !== null && value !== undefined) {
      out.push(t("sq.patch.filled", { n, value }));
      return;
    }
    let sentence;
    if (patch.colour && patch.value)
      sentence = t("sq.patch.colour_value", {
        n,
        colour: colourWord(patch.colour),
        value: patch.value,
      });
    else if (patch.colour) sentence = t("sq.patch.colour", { n, colour: colourWord(patch.colour) });
    else if (patch.value) sentence = t("sq.patch.value", { n, value: patch.value });
    else sentence = t("sq.patch.any", { n });
    if (patch.letter) sentence += " " + t("sq.patch.letter", { letter: patch.letter });
    out.push(sentence);
  });
  return out;
}

/** In the shop: can her roll buy it, and how many blocks of its colour lie in her quilt. */
function inShop(def, context) {
  const out = [];
  const dice = context.dice ?? [];
  if (dice.length) {
    const need = PRICE[def.deck];
    const counts = {};
    for (const die of dice) counts[die.value] = (counts[die.value] ?? 0) + 1;
    const [value, most] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
    out.push(
      most >= need
        ? t("sq.now.can_buy", { count: need, value })
        : t("sq.now.cannot_buy", { count: need }),
    );
  }
  if (def.colour && context.quilt) {
    const have = context.quilt.filter((b) => blockDef(b.block)?.colour === def.colour).length;
    out.push(
      have
        ? t(have === 1 ? "sq.now.have_colour_one" : "sq.now.have_colour", {
            count: have,
            colour: colourWord(def.colour),
          })
        : t("sq.now.have_none", { colour: colourWord(def.colour) }),
    );
  }
  return out;
}

/** In a quilt: which dice fit which patches, or what a finished pattern block counts now. */
function inQuilt(def, placed, context) {
  const out = [];
  const key = `${placed.x},${placed.y}`;
  if (placed.finished) {
    if (!def.scoring) return [t(context.own ? "sq.now.kit_works" : "sq.now.kit_works_her")];
    const entry = scoreQuilt(context.quilt).blocks.find((e) => `${e.cell[0]},${e.cell[1]}` === key);
    if (entry) {
      const key = context.own ? "sq.now.counts" : "sq.now.counts_her";
      out.push(t(key, { points: entry.points, calc: calculation(entry) }));
      if (entry.chosen_colour) out.push(t("sq.now.chosen", { colour: colourWord(entry.colour) }));
    }
    return out;
  }
  if (!context.own) {
    const empty = placed.filled.map((v, i) => (v === null ? i + 1 : null)).filter(Boolean);
    out.push(t("sq.now.she_lacks", { patches: list(empty) }));
    return out;
  }
  for (const die of context.dice ?? []) {
    const fits = def.patches.map((_, i) => i).filter((i) => canPlace(def, placed.filled, i, die));
    if (fits.length)
      out.push(
        t("sq.now.fits", {
          die: colourWord(die.colour),
          value: die.value,
          patches: list(fits.map((i) => i + 1)),
        }),
      );
  }
  if (context.dice?.length && !out.length) out.push(t("sq.now.fits_none"));
  if (def.scoring) out.push(t("sq.now.unfinished"));
  return out;
}

/**
 * The block info of a block.
 * @param id the block id
 * @param context {placed (a quilt entry) or null for the shop, quilt, dice, own}
 */
export function infoSentences(id, context = {}) {
  const def = blockDef(id);
  if (!def) return { about: [t("sq.history.a_block")], now: [] };
  const sentences = describeBlock(def, context.placed?.filled);
  const now = context.placed ? inQuilt(def, context.placed, context) : inShop(def, context);
  return { about: sentences, now };
}

function sentence(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

/** The block info window, shown next to `anchor`. One at a time; `close()` hides it. */
export class BlockInfo {
  constructor(host) {
    this.host = host;
    this.box = document.createElement("aside");
    this.box.className = "sq-info";
    this.box.setAttribute("role", "dialog");
    this.box.hidden = true;
    host.append(this.box);
  }

  show(anchor, id, context, pinned = false) {
    const { about, now } = infoSentences(id, context);
    const picture = document.createElement("div");
    picture.className = "info-picture";
    const finished = context.placed?.finished;
    picture.append(blockSvg(id, context.placed?.filled ?? null, { finished }));
    const title = document.createElement("h3");
    title.textContent = `${t("sq.info.title")} · ${blockShortName(id)}`;
    const aboutList = document.createElement("ul");
    aboutList.className = "info-about";
    for (const s of about) aboutList.append(sentence("li", s));
    const nowBox = document.createElement("div");
    nowBox.className = "info-now";
    if (now.length) {
      const head = document.createElement("h4");
      head.textContent = context.own === false ? t("sq.info.now_her") : t("sq.info.now");
      nowBox.append(head);
      for (const s of now) nowBox.append(sentence("p", s));
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "info-close";
    close.textContent = "×";
    close.setAttribute("aria-label", t("sq.close"));
    close.addEventListener("click", () => this.close());
    this.box.replaceChildren(close, title, picture, aboutList, nowBox);
    this.box.hidden = false;
    this.box.dataset.block = id;
    if (pinned) pinnedId = id;
    // A window opened by hovering lets clicks through; a pinned one (click, long-press) does not.
    this.box.classList.toggle("pinned", pinned);
    this.place(anchor);
  }

  place(anchor) {
    const a = anchor.getBoundingClientRect();
    const h = this.host.getBoundingClientRect();
    const width = Math.min(340, window.innerWidth - 16);
    this.box.style.width = `${width}px`;
    let left = a.right - h.left + 8;
    if (a.right + width + 16 > window.innerWidth) left = Math.max(8, a.left - h.left - width - 8);
    if (left < 8 || window.innerWidth < 600) left = 8;
    this.box.style.left = `${left}px`;
    this.box.style.top = `${Math.max(8, a.top - h.top)}px`;
  }

  /** Whether a click or long-press keeps the window open (hovering does not). */
  get isPinned() {
    return !this.box.hidden && this.box.classList.contains("pinned");
  }

  close() {
    this.box.hidden = true;
    this.box.classList.remove("pinned");
    pinnedId = null;
  }

  /**
   * Make `el` open the info on hover (mouse), click, or long-press (touch).
   * `onTap` (optional) takes over a plain click, e.g. planning a die on one of her patches;
   * the info then opens by hover or long-press only.
   */
  attach(el, id, context, onTap) {
    let timer = null;
    let longPressed = false;
    if (id === pinnedId && !this.reopening) {
      this.reopening = true;
      requestAnimationFrame(() => {
        if (el.isConnected) this.show(el, id, context(), true);
      });
    }
    // Hover is a mouse's: a finger's tap must not leave a window open by "hovering".
    el.addEventListener("pointerenter", (event) => {
      if (event.pointerType === "mouse" && !this.isPinned) this.show(el, id, context());
    });
    el.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse" && !this.isPinned) this.close();
    });
    el.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse") return;
      longPressed = false;
      timer = setTimeout(() => {
        // A redraw in between (the table moves on) replaces the element: no long press then.
        if (!el.isConnected) return;
        longPressed = true;
        this.show(el, id, context(), true);
      }, LONG_PRESS_MS);
    });
    for (const type of ["pointerup", "pointercancel", "pointerleave"])
      el.addEventListener(type, () => clearTimeout(timer));
    el.addEventListener("contextmenu", (event) => event.preventDefault());
    el.addEventListener("click", (event) => {
      if (longPressed) {
        longPressed = false;
        event.stopPropagation();
        return;
      }
      if (onTap && onTap(event) !== false) return;
      event.stopPropagation();
      this.show(el, id, context(), true);
    });
  }
}
