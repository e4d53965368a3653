// Block info (Karten-Info): a window with the block's picture and whole sentences — colour,
// scoring or ability, rule, every patch — and what the block means now: in the shop whether her
// roll buys it and how many blocks of its colour she has; in a quilt which of her dice fit which
// patches, or for a finished pattern block what it counts now and why; in a neighbour's quilt
// what it brings her or which patches she still lacks; at the start-row choice what its place
// in the row means. It opens when she points at a block (the pointer moved onto it and rests),
// by a click, a long-press or an info button, and never over the dice or the action bar.

import { t } from "./i18n.js";
import { blockDef, blockShortName, blockSvg, SYMBOLS } from "./speedquilt-blocks.js";
import { canPlace } from "./speedquilt-plan.js";
import { scoreQuilt } from "./speedquilt-score.js";
import { PRICE } from "./speedquilt-shop.js";

const LONG_PRESS_MS = 450;
/** How long the pointer rests on a block before its info opens. */
const REST_MS = 350;
/** The info's width on a wide screen, and its distance from the edges and from its block. */
const BOX_WIDTH = 300;
const PHONE_WIDTH = 600;
const MARGIN = 8;
/** What block info never covers: the dice, the action bar and a docked giving window (at the
 * start-row choice the dice area holds the dealt blocks, which it may cover). */
const PROTECTED = ".sq-dice-area:not(.choosing), .sq-actions, .sq-overlay.docked > section";

// The block whose info she pinned: it stays open while the table is drawn anew (others move).
let pinnedId = null;
// The block whose info her resting pointer opened: open again when its block is drawn anew.
let hoveredId = null;
// Where the mouse is. The board is drawn anew under a resting pointer, and the browser then
// reports a "move" on the new block at the same place: only a change of place is a move of hers.
const pointer = { x: -1, y: -1, lastX: -1, lastY: -1, moved: false };
// The block the pointer rests on, waiting for its info. The wait outlives a redraw (the
// computers' moves redraw the table more often than she rests), so it is kept here, not on an
// element, and finds its block under the pointer when the rest is over.
let resting = { id: null, timer: null };
// What each block element opens: {info, id, context}.
const targets = new WeakMap();

function stopResting() {
  clearTimeout(resting.timer);
  resting = { id: null, timer: null };
}

function startResting(id) {
  clearTimeout(resting.timer);
  resting = { id, timer: setTimeout(openRested, REST_MS) };
}

function openRested() {
  const id = resting.id;
  resting = { id: null, timer: null };
  let node = document.elementFromPoint(pointer.x, pointer.y);
  while (node && !targets.has(node)) node = node.parentElement;
  const target = node && targets.get(node);
  if (!target || target.id !== id || target.info.isPinned) return;
  target.info.show(node, id, target.context());
}

document.addEventListener(
  "pointermove",
  (event) => {
    if (event.pointerType !== "mouse") return;
    pointer.moved = event.clientX !== pointer.x || event.clientY !== pointer.y;
    if (!pointer.moved) return;
    [pointer.lastX, pointer.lastY] = [pointer.x, pointer.y];
    [pointer.x, pointer.y] = [event.clientX, event.clientY];
  },
  { capture: true },
);

function closeAll(which = ".sq-info") {
  for (const box of document.querySelectorAll(which)) {
    box.hidden = true;
    box.classList.remove("pinned");
  }
}

// A click or tap: an info her pointer opened goes (she acts now, she is not reading); a pinned
// one goes unless she clicked inside it (the click that pins one stops on its way).
document.addEventListener(
  "click",
  () => {
    hoveredId = null;
    stopResting();
    closeAll(".sq-info:not(.pinned)");
  },
  { capture: true },
);
document.addEventListener("click", (event) => {
  const box = document.querySelector(".sq-info.pinned");
  if (box?.contains(event.target)) return;
  // Nothing pinned: a pointer's info stays with its pointer.
  if (!box && pinnedId === null) return;
  // Without a box too: a pinned info the table has just drawn anew waits, hidden, for the next
  // frame to open again (BlockInfo.reopen), and a tap elsewhere before that frame closes it.
  closeAll();
  pinnedId = null;
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  closeAll();
  pinnedId = null;
  hoveredId = null;
});

function within(rect, x, y) {
  return x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom;
}

function overlap(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Where the info goes: beside its block if that leaves the protected parts (dice, action bar)
 * free, else beside them, else below or above its block or them; if nothing of its full height
 * fits, the larger free band, in which it scrolls. All in window coordinates.
 */
export function placeBox(anchor, width, height, guarded, view) {
  const clampX = (x) => Math.min(Math.max(MARGIN, x), view.width - width - MARGIN);
  const clampY = (y) => Math.min(Math.max(MARGIN, y), view.height - height - MARGIN);
  const union = guarded.length
    ? {
        left: Math.min(...guarded.map((r) => r.left)),
        right: Math.max(...guarded.map((r) => r.right)),
        top: Math.min(...guarded.map((r) => r.top)),
        bottom: Math.max(...guarded.map((r) => r.bottom)),
      }
    : null;
  const xs = [anchor.right + MARGIN, anchor.left - width - MARGIN];
  if (union) xs.push(union.right + MARGIN, union.left - width - MARGIN);
  const spots = xs
    .filter((x) => x >= MARGIN && x + width <= view.width - MARGIN)
    .map((x) => ({ left: x, top: clampY(anchor.top) }));
  const ys = [anchor.bottom + MARGIN, anchor.top - height - MARGIN];
  if (union) ys.push(union.top - height - MARGIN, union.bottom + MARGIN);
  for (const y of ys) spots.push({ left: clampX(anchor.left), top: y });
  const fits = (spot) => {
    const rect = { ...spot, right: spot.left + width, bottom: spot.top + height };
    const inView = spot.top >= MARGIN && rect.bottom <= view.height - MARGIN;
    return inView && !guarded.some((r) => overlap(rect, r));
  };
  const spot = spots.find(fits);
  if (spot) return { ...spot, maxHeight: null };
  // Too tall for any free place: the larger band above or below the protected parts.
  const above = union ? union.top - 2 * MARGIN : view.height - 2 * MARGIN;
  const below = union ? view.height - union.bottom - 2 * MARGIN : 0;
  const left = clampX(anchor.left);
  if (above >= below) return { left, top: MARGIN, maxHeight: Math.max(above, 0) };
  return { left, top: union.bottom + MARGIN, maxHeight: below };
}


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

/** Whether her roll buys a block of `deck`: each use of a finished scissors lets one die of any
 * value stand in for one of the equal dice (design: kits). */
function buySentence(deck, dice, scissors) {
  const need = PRICE[deck];
  const counts = {};
  for (const die of dice) counts[die.value] = (counts[die.value] ?? 0) + 1;
  const [value, most] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  const standIns = Math.max(0, need - most);
  if (standIns === 0) return t("sq.now.can_buy", { count: need, value });
  if (standIns <= scissors && dice.length >= need)
    return t("sq.now.can_buy_scissors", { equal: most, value, any: standIns });
  if (!scissors) return t("sq.now.cannot_buy", { count: need });
  const equal = Math.max(1, need - scissors);
  return t("sq.now.cannot_buy_scissors", { count: need, equal, any: need - equal });
}

/** In the shop: can her roll buy it, and how many blocks of its colour lie in her quilt. */
function inShop(def, context) {
  const out = [];
  const dice = context.dice ?? [];
  if (dice.length) out.push(buySentence(def.deck, dice, context.scissors ?? 0));
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
  // Only the dice she can put on a patch now: in her turn her unused ones, while giving the
  // ones offered to her (never the active player's others, never one already used).
  const fitsKey = context.giving ? "sq.now.fits_offered" : "sq.now.fits";
  for (const die of context.dice ?? []) {
    const fits = def.patches.map((_, i) => i).filter((i) => canPlace(def, placed.filled, i, die));
    if (fits.length)
      out.push(
        t(fitsKey, {
          die: colourWord(die.colour),
          value: die.value,
          patches: list(fits.map((i) => i + 1)),
        }),
      );
  }
  if (context.dice?.length && !out.length)
    out.push(t(context.giving ? "sq.now.fits_none_offered" : "sq.now.fits_none"));
  if (def.scoring) out.push(t("sq.now.unfinished"));
  return out;
}

/** Dealt for the start row: what its place in the row means for its scoring. */
function inHand(def, context) {
  if (def.kit) return [t("sq.now.start_kit")];
  const line = def.scoring?.line;
  if (line === "finished_line" || line === "mono_line") return [t("sq.now.start_line")];
  if (line !== "finished_neighbour" && line !== "colour_neighbour")
    return [t("sq.now.start_anywhere")];
  const out = [t("sq.now.start_neighbours")];
  if (line === "colour_neighbour") {
    const colour = def.scoring.colour;
    const others = context.hand.filter((id) => id !== def.id);
    const count = others.filter((id) => blockDef(id)?.colour === colour).length;
    out.push(t("sq.now.start_colour", { count, colour: colourWord(colour) }));
  }
  return out;
}

/**
 * The block info of a block.
 * @param id the block id
 * @param context {placed (a quilt entry) or null for the shop, quilt, own, dice (the dice she
 *   can use now), giving (those are offered to her), scissors (stand-ins her finished scissors
 *   still give this turn)} or, for a dealt block at the start-row choice, {hand: the dealt ids}
 */
export function infoSentences(id, context = {}) {
  const def = blockDef(id);
  if (!def) return { about: [t("sq.history.a_block")], now: [] };
  const sentences = describeBlock(def, context.placed?.filled);
  let now;
  if (context.hand) now = inHand(def, context);
  else if (context.placed) now = inQuilt(def, context.placed, context);
  else now = inShop(def, context);
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
    this.box.setAttribute("aria-label", t("sq.info.title"));
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
    hoveredId = pinned ? null : id;
    // A window opened by hovering lets clicks through; a pinned one (click, long-press) does not.
    this.box.classList.toggle("pinned", pinned);
    this.place(anchor);
  }

  /** Beside its block, never over the dice or the action bar (see placeBox). */
  place(anchor) {
    const view = { width: document.documentElement.clientWidth, height: window.innerHeight };
    // A phone gives it the whole width: beside a block there is no room anyway.
    const width = view.width < PHONE_WIDTH ? view.width - 2 * MARGIN : BOX_WIDTH;
    this.box.style.width = `${width}px`;
    this.box.style.maxHeight = "";
    const inView = (r) => r.bottom > 0 && r.top < view.height && r.width > 0;
    const guarded = [...this.host.querySelectorAll(PROTECTED)]
      .map((node) => node.getBoundingClientRect())
      .filter(inView);
    const spot = placeBox(
      anchor.getBoundingClientRect(),
      width,
      this.box.offsetHeight,
      guarded,
      view,
    );
    this.box.style.left = `${spot.left}px`;
    this.box.style.top = `${spot.top}px`;
    if (spot.maxHeight !== null) this.box.style.maxHeight = `${spot.maxHeight}px`;
  }

  /** Whether a click or long-press keeps the window open (hovering does not). */
  get isPinned() {
    return !this.box.hidden && this.box.classList.contains("pinned");
  }

  close() {
    this.box.hidden = true;
    this.box.classList.remove("pinned");
    pinnedId = null;
    hoveredId = null;
  }

  /**
   * Make `el` open the info when she points at it (mouse), on a click, or on a long-press
   * (touch). `onTap` (optional) takes over a plain click, e.g. planning a die on one of her
   * patches; the info then opens by pointing or long-press only.
   */
  attach(el, id, context, onTap) {
    this.reopen(el, id, context);
    this.pointAt(el, id, context);
    let timer = null;
    let longPressed = false;
    let downAt = 0;
    el.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse") return;
      longPressed = false;
      downAt = event.timeStamp;
      timer = setTimeout(() => {
        // A redraw in between (the table moves on) replaces the element: no long press then.
        if (!el.isConnected) return;
        longPressed = true;
        this.show(el, id, context(), true);
      }, LONG_PRESS_MS);
    });
    for (const type of ["pointercancel", "pointerleave"])
      el.addEventListener(type, () => clearTimeout(timer));
    el.addEventListener("pointerup", (event) => {
      clearTimeout(timer);
      // A busy page can run the long-press timer before the finger's lifting is handled: the
      // events' own times say whether she held the block, so a quick tap stays a tap.
      if (longPressed && event.timeStamp - downAt < LONG_PRESS_MS) {
        longPressed = false;
        this.close();
      }
    });
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

  /** The table drew this block anew: an info that was open on it opens again. */
  reopen(el, id, context) {
    if (this.reopening || (id !== pinnedId && id !== hoveredId)) return;
    this.reopening = true;
    const pinned = id === pinnedId;
    requestAnimationFrame(() => {
      if (!el.isConnected) return;
      // Closed since the drawing (a tap elsewhere, Escape): it stays closed.
      if (id !== (pinned ? pinnedId : hoveredId)) return;
      // A pointer's info only while the pointer is still on the block.
      const onIt = within(el.getBoundingClientRect(), pointer.x, pointer.y);
      if (pinned || onIt) this.show(el, id, context(), pinned);
      else hoveredId = null;
    });
  }

  /**
   * The mouse's way: the info opens once the pointer has moved onto the block from outside and
   * rests there. A block drawn under a resting pointer, or the pointer still on the block she
   * just clicked, is no pointing at it: it has to leave and come back.
   */
  pointAt(el, id, context) {
    targets.set(el, { info: this, id, context });
    let entered = false;
    el.addEventListener("pointermove", (event) => {
      if (event.pointerType !== "mouse" || !pointer.moved || this.isPinned) return;
      if (!entered) {
        entered = !within(el.getBoundingClientRect(), pointer.lastX, pointer.lastY);
        if (!entered) return;
      }
      if (!this.box.hidden && this.box.dataset.block === id) return;
      startResting(id);
    });
    el.addEventListener("pointerleave", (event) => {
      // (A block drawn anew is left behind by the board, not by her pointer.)
      if (event.pointerType !== "mouse" || !el.isConnected) return;
      entered = false;
      if (resting.id === id) stopResting();
      if (!this.isPinned && this.box.dataset.block === id) this.close();
    });
    el.addEventListener("pointerdown", () => {
      entered = false;
      stopResting();
    });
  }
}
