// The game history (Spielverlauf): the server's history lines — i18n keys with parameters —
// rendered as readable sentences in the current language.

import { has, t } from "./i18n.js";
import { SYMBOLS, blockName } from "./speedquilt-blocks.js";

function dieWord(colour) {
  return `${SYMBOLS[colour]} ${t(`sq.colour.${colour}`)}`;
}

/**
 * Where a block was laid, in words: every quilt starts with its row of three at (0,0)–(2,0) and
 * stays within 3 × 3, so a cell is a column of that row and a row above or below it.
 */
function cellWords(cell) {
  const [x, y] = String(cell).split(",").map(Number);
  const row = `sq.where.row.${y}`;
  const col = `sq.where.col.${x}`;
  return t("sq.where", { row: has(row) ? t(row) : String(y), col: has(col) ? t(col) : String(x) });
}

function diceValues(dice) {
  return Object.entries(dice)
    .map(([colour, value]) => `${SYMBOLS[colour]}${value}`)
    .join(" ");
}

/**
 * One history line as text.
 * @param line {key, seat, ...parameters} from the server
 * @param nameOf seat → the player's name
 */
export function historyText(line, nameOf) {
  const p = { name: line.seat === null || line.seat === undefined ? "" : nameOf(line.seat) };
  for (const [key, value] of Object.entries(line)) {
    if (key === "key" || key === "seat") continue;
    p[key] = value;
  }
  if (line.dice !== undefined)
    p.dice = Array.isArray(line.dice)
      ? line.dice.length
        ? line.dice.map(dieWord).join(", ")
        : t("sq.history.no_dice")
      : diceValues(line.dice);
  if (line.die) p.die = dieWord(line.die);
  if (line.to) p.to = dieWord(line.to);
  if (line.row) p.row = line.row.map(blockName).join(" · ");
  if (line.returned) p.returned = blockName(line.returned);
  if (line.deck) p.deck = t(`sq.deck.${line.deck}`);
  if (line.block) p.block = blockName(line.block);
  if (line.cell !== undefined) p.cell = cellWords(line.cell);
  if (line.next !== undefined) p.next = line.next === null ? "–" : nameOf(line.next);
  if (line.start_player !== undefined) p.start_player = nameOf(line.start_player);
  if (line.placements)
    p.placements = line.placements
      .map((x) =>
        t("sq.history.placement", {
          die: dieWord(x.die),
          block: blockName(x.block),
          patch: x.patch,
        }),
      )
      .join(", ");
  if (line.places)
    p.places = line.places
      .map((place, seat) => `${place}. ${nameOf(seat)} (${line.scores[seat]})`)
      .join(", ");
  let key = line.key;
  // A start choice or a blind draw reads differently for the one who knows the blocks.
  if (line.key === "history.choose" && !line.row) key = "history.choose_hidden";
  if (line.key === "history.bin_draw" && !line.block) key = "history.bin_draw_hidden";
  if (line.key === "history.bin_return" && !line.block) key = "history.bin_return_hidden";
  return t(key, p);
}

/** The history as a list, newest at the bottom (scrolled into view). */
export function historyPanel(lines, nameOf) {
  const box = document.createElement("section");
  box.className = "sq-history";
  const title = document.createElement("h2");
  title.textContent = t("sq.history");
  const list = document.createElement("ol");
  list.className = "history-lines";
  for (const line of lines) {
    const item = document.createElement("li");
    item.dataset.key = line.key;
    if (line.seat !== null && line.seat !== undefined) item.dataset.seat = String(line.seat);
    item.textContent = historyText(line, nameOf);
    list.append(item);
  }
  box.append(title, list);
  requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  return box;
}
