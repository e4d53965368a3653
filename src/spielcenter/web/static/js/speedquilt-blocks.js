// Speedquilt blocks as SVG: the block card (frame colour, patches, rule badge, scoring or kit
// line) and a quilt of them on its grid. Every colour also carries a symbol, so no player has to
// tell red from green by colour alone.

import { getJson } from "./api.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** The five yarn colours in dice order. */
export const COLOURS = ["red", "blue", "green", "yellow", "purple"];

/** The symbol each colour carries beside its colour (colour-blind support). */
export const SYMBOLS = { red: "▲", blue: "●", green: "■", yellow: "★", purple: "◆" };

const RULE_BADGE = { "<": "<", "=": "=", ">=40": "≥40" };

let catalogue = {};
let catalogueLoaded = null;

/** Keep the block definitions the server sent: {id: {deck, colour, patches, rule, ...}}. */
export function setCatalogue(blocks) {
  catalogue = blocks || {};
}

/**
 * Fetch the block definitions once per page. Every screen that draws blocks awaits this first:
 * a block drawn without its definition is an empty frame with its id.
 */
export function loadCatalogue() {
  catalogueLoaded ??= getJson("/static/speedquilt-catalogue.json").then(setCatalogue);
  return catalogueLoaded;
}

/** The definition of a block id, or null if the catalogue does not know it. */
export function blockDef(id) {
  return catalogue[id] ?? null;
}

export function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A colour's name in the current language with its symbol, e.g. "▲ rot". */
export function colourLabel(colour) {
  return `${SYMBOLS[colour]} ${t(`sq.colour.${colour}`)}`;
}

/** The short line under a block: "2 × fertiger Nachbar" or the kit's name. */
export function blockLine(def) {
  if (def.kit) return t(`sq.kit.${def.kit}`);
  const s = def.scoring;
  if (!s) return "";
  const colour = s.colour ? `${SYMBOLS[s.colour]} ${t(`sq.colour.${s.colour}`)}` : "";
  return t(`sq.line.${s.line}`, { points: s.points, colour });
}

/**
 * One block card as SVG.
 * @param id the block id
 * @param filled the value on each patch (null: empty), or null for an empty block
 * @param opts {finished, chosenColour, planned: {patchIndex: {value, colour}}, targets: Set}
 */
export function blockSvg(id, filled = null, opts = {}) {
  const def = blockDef(id);
  const svg = svgEl("svg", { viewBox: "0 0 120 90", class: "sq-block", role: "img" });
  svg.dataset.block = id;
  if (!def) {
    // Not in the catalogue (it should always be): an empty frame, never the id to read.
    svg.append(svgEl("rect", { x: 2, y: 2, width: 116, height: 86, rx: 8, class: "frame" }));
    return svg;
  }
  const colour = def.colour ?? opts.chosenColour ?? null;
  svg.classList.add(def.deck === "kit" ? "kit" : "pattern");
  if (!def.colour) svg.classList.add("remnant");
  if (opts.finished) svg.classList.add("finished");
  svg.setAttribute("aria-label", blockLabel(def));
  svg.append(
    svgEl("rect", {
      x: 3,
      y: 3,
      width: 114,
      height: 84,
      rx: 8,
      class: `frame ${def.colour ? `c-${def.colour}` : "no-colour"}`,
    }),
  );
  if (def.colour) {
    const symbol = { x: 13, y: 20, class: `frame-symbol c-${def.colour}` };
    svg.append(svgEl("text", symbol, SYMBOLS[def.colour]));
  }
  if (!def.colour && opts.chosenColour) {
    // The colour the game chose for a finished remnant: a dot with its symbol, where a
    // coloured block shows the symbol of its frame.
    svg.append(svgEl("circle", { cx: 15, cy: 16, r: 8, class: `chosen-dot c-${colour}` }));
    svg.append(svgEl("text", { x: 15, y: 19, class: "chosen-symbol" }, SYMBOLS[colour]));
  }
  if (def.rule) {
    svg.append(svgEl("rect", { x: 86, y: 7, width: 28, height: 16, rx: 8, class: "rule-badge" }));
    svg.append(svgEl("text", { x: 100, y: 19, class: "rule-text" }, RULE_BADGE[def.rule]));
  }
  svg.append(patchRow(def, filled, opts));
  svg.append(lineText(blockLine(def)));
  return svg;
}

/** The card's units the scoring line may take: the frame's inside less a margin each side. */
const LINE_WIDTH = 100;
const LINE_SIZE = 9.5;
const SMALLEST_LINE_SIZE = 7.5;
let measure = null;

/** How wide `text` is at `size` in the card's units (one unit is one pixel of the same font). */
function textWidth(text, size) {
  measure ??= document.createElement("canvas").getContext("2d");
  measure.font = `${size}px ${getComputedStyle(document.body).fontFamily}`;
  return measure.measureText(text).width;
}

/** The scoring line under the patches: one line if it fits, else two, else smaller type. */
function lineText(text) {
  const node = svgEl("text", { x: 60, y: 80, class: "block-line" });
  if (textWidth(text, LINE_SIZE) <= LINE_WIDTH) {
    node.textContent = text;
    return node;
  }
  const [first, second] = halves(text);
  if (second && longer([first, second]) <= LINE_WIDTH) {
    node.append(
      svgEl("tspan", { x: 60, y: 70.5 }, first),
      svgEl("tspan", { x: 60, y: 80 }, second),
    );
    return node;
  }
  const size = Math.max(SMALLEST_LINE_SIZE, (LINE_SIZE * LINE_WIDTH) / textWidth(text, LINE_SIZE));
  node.style.fontSize = `${size.toFixed(2)}px`; // (the style sheet's size beats an attribute)
  node.textContent = text;
  return node;
}

/** The width of the longer of two lines. */
function longer(pair) {
  return Math.max(textWidth(pair[0], LINE_SIZE), textWidth(pair[1], LINE_SIZE));
}

/** `text` cut at the space that leaves the longer half shortest: "10 per ■ green", "neighbour". */
function halves(text) {
  let best = [text, ""];
  for (let at = text.indexOf(" "); at > 0; at = text.indexOf(" ", at + 1)) {
    const cut = [text.slice(0, at), text.slice(at + 1)];
    if (!best[1] || longer(cut) < longer(best)) best = cut;
  }
  return best;
}

function patchRow(def, filled, opts) {
  const group = svgEl("g", { class: "patches" });
  const n = def.patches.length;
  const gap = 3;
  const size = Math.min(24, (110 - gap * (n - 1)) / n);
  const width = n * size + (n - 1) * gap;
  const left = (120 - width) / 2;
  def.patches.forEach((patch, index) => {
    const x = left + index * (size + gap);
    const y = 26; // high enough that a two-line scoring line fits below the colour symbols
    const value = filled ? filled[index] : null;
    const planned = opts.planned?.[index];
    const cell = svgEl("g", { class: "patch" });
    cell.dataset.patch = String(index + 1);
    if (value !== null && value !== undefined) cell.classList.add("filled");
    if (planned) cell.classList.add("planned");
    if (opts.targets?.has(index)) cell.classList.add("target");
    cell.append(
      svgEl("rect", {
        x,
        y,
        width: size,
        height: size,
        rx: 3,
        class: `patch-box ${patch.colour ? `border c-${patch.colour}` : ""}`,
      }),
    );
    const mid = x + size / 2;
    const text = (className, scale) => ({
      x: mid,
      y: y + size * 0.7,
      class: className,
      "font-size": size * scale,
    });
    const shown = value ?? planned?.value;
    if (shown !== null && shown !== undefined) {
      cell.append(svgEl("text", text("patch-value", 0.58), shown));
    } else if (patch.value) {
      cell.append(svgEl("text", text("patch-need", 0.55), patch.value));
    } else if (patch.letter) {
      cell.append(svgEl("text", text("patch-letter", 0.5), patch.letter));
    }
    if (patch.colour) {
      const at = { x: x + size - 1, y: y + size + 7, class: `patch-symbol c-${patch.colour}` };
      cell.append(svgEl("text", at, SYMBOLS[patch.colour]));
    }
    group.append(cell);
  });
  return group;
}

/**
 * A block as people name it, never by its id: "▲ red block (2 per ▲ red neighbour)",
 * "Thimble (● blue)", "remnant (3 per kit kind)".
 */
export function blockName(id) {
  const def = blockDef(id);
  if (!def) return t("sq.history.a_block");
  const colour = def.colour ? colourLabel(def.colour) : "";
  if (def.kit) return t("sq.name.kit", { kit: t(`sq.kit.${def.kit}`), colour });
  if (!def.colour) return t("sq.name.remnant", { line: blockLine(def) });
  return t("sq.name.pattern", { colour, line: blockLine(def) });
}

/** A block's short name for a button or a heading: "★ yellow block", "Thimble", "remnant". */
export function blockShortName(id) {
  const def = blockDef(id);
  if (!def) return t("sq.history.a_block");
  if (def.kit) return t(`sq.kit.${def.kit}`);
  if (!def.colour) return t("sq.remnant");
  return t("sq.short.pattern", { colour: colourLabel(def.colour) });
}

/** What a screen reader says for a block card: its name in words ("Thimble (● blue)"). */
export function blockLabel(def) {
  return blockName(def.id);
}

/** The grid cells of a quilt that should be drawn: its blocks plus `extra` cells ("x,y"). */
export function quiltBounds(quilt, extra = []) {
  const cells = quilt.map((b) => [b.x, b.y]).concat(extra.map((c) => c.split(",").map(Number)));
  if (!cells.length) return { minX: 0, minY: 0, maxX: 2, maxY: 0 };
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  return {
    minX: Math.min(...xs),
    minY: Math.min(...ys),
    maxX: Math.max(...xs),
    maxY: Math.max(...ys),
  };
}

/** The free cells where a bought or drawn block may lie (touching, within 3 × 3). */
export function placementCells(quilt) {
  const taken = new Set(quilt.map((b) => `${b.x},${b.y}`));
  const out = [];
  for (const b of quilt) {
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        const key = `${b.x + dx},${b.y + dy}`;
        if (taken.has(key) || out.includes(key)) continue;
        const box = quiltBounds(quilt, [key]);
        if (box.maxX - box.minX < 3 && box.maxY - box.minY < 3) out.push(key);
      }
    }
  }
  return out;
}

/**
 * A quilt as a CSS grid of block cards.
 * @param quilt the view's quilt [{x, y, block, filled, finished}]
 * @param opts {slots: ["x,y"] free cells to show as places, decorate(block, svg), colours}
 */
export function quiltGrid(quilt, opts = {}) {
  const slots = opts.slots ?? [];
  const box = quiltBounds(quilt, slots);
  const grid = document.createElement("div");
  grid.className = "sq-quilt";
  grid.style.gridTemplateColumns = `repeat(${box.maxX - box.minX + 1}, 1fr)`;
  for (const b of quilt) {
    const wrap = document.createElement("div");
    wrap.className = "quilt-cell";
    wrap.dataset.cell = `${b.x},${b.y}`;
    wrap.style.gridColumn = String(b.x - box.minX + 1);
    wrap.style.gridRow = String(b.y - box.minY + 1);
    const svg = blockSvg(b.block, b.filled, {
      finished: b.finished,
      chosenColour: opts.colours?.[`${b.x},${b.y}`],
      ...(opts.blockOpts ? opts.blockOpts(b) : {}),
    });
    wrap.append(svg);
    if (opts.decorate) opts.decorate(b, wrap);
    grid.append(wrap);
  }
  for (const key of slots) {
    const [x, y] = key.split(",").map(Number);
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = "quilt-slot";
    slot.dataset.cell = key;
    slot.style.gridColumn = String(x - box.minX + 1);
    slot.style.gridRow = String(y - box.minY + 1);
    slot.setAttribute("aria-label", t("sq.place_here"));
    slot.textContent = "+";
    if (opts.onSlot) slot.addEventListener("click", () => opts.onSlot(key));
    grid.append(slot);
  }
  return grid;
}
