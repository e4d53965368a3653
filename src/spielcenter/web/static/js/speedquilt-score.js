// What a quilt's pattern blocks count right now, for the block info during the game (the end table
// uses the server's breakdown). The same eight lines as the engine's scoring: only finished
// pattern blocks score; a finished remnant takes the colour worth most to its owner. Held to the
// engine on random quilts by tests/browser/test_speedquilt_score_copy.py.

import { blockDef, COLOURS } from "./speedquilt-blocks.js";

const FLAT = new Set(["all_colours", "fixed"]);

function neighbours([x, y]) {
  return [`${x},${y - 1}`, `${x - 1},${y}`, `${x + 1},${y}`, `${x},${y + 1}`];
}

function linesOfThree(cells) {
  const points = [...cells].map((c) => c.split(",").map(Number));
  if (!points.length) return [];
  const minX = Math.min(...points.map((p) => p[0]));
  const minY = Math.min(...points.map((p) => p[1]));
  const maxX = Math.max(...points.map((p) => p[0]));
  const maxY = Math.max(...points.map((p) => p[1]));
  const lines = [];
  for (let y = minY; y <= maxY; y++) lines.push([0, 1, 2].map((d) => `${minX + d},${y}`));
  for (let x = minX; x <= maxX; x++) lines.push([0, 1, 2].map((d) => `${x},${minY + d}`));
  return lines.filter((line) => line.every((c) => cells.has(c)));
}

function count(line, colour, cell, board) {
  const near = neighbours(cell.split(",").map(Number));
  const lines = linesOfThree(new Set(board.colours.keys()));
  switch (line) {
    case "finished_neighbour":
      return near.filter((n) => board.finished.has(n)).length;
    case "colour_block":
      return [...board.colours.values()].filter((c) => c === colour).length;
    case "colour_neighbour":
      return near.filter((n) => board.colours.has(n) && board.colours.get(n) === colour).length;
    case "finished_line":
      return lines.filter((three) => three.every((c) => board.finished.has(c))).length;
    case "all_colours":
      return new Set([...board.colours.values()].filter(Boolean)).size;
    case "mono_line":
      return lines.filter((three) => {
        const first = board.colours.get(three[0]);
        return first && three.every((c) => board.colours.get(c) === first);
      }).length;
    case "kit_kind":
      return board.kitKinds;
    default:
      return 1;
  }
}

function points(line, n, factor) {
  if (line === "all_colours") return n === COLOURS.length ? factor : 0;
  return FLAT.has(line) ? factor : n * factor;
}

function scoreWith(quilt, chosen) {
  const colours = new Map();
  const finished = new Set();
  const kinds = new Set();
  for (const b of quilt) {
    const key = `${b.x},${b.y}`;
    const def = blockDef(b.block);
    colours.set(key, chosen[key] ?? def?.colour ?? null);
    if (b.finished) finished.add(key);
    if (b.finished && def?.kit) kinds.add(def.kit);
  }
  const board = { colours, finished, kitKinds: kinds.size };
  const entries = [];
  for (const b of quilt) {
    const def = blockDef(b.block);
    if (!def?.scoring) continue;
    const key = `${b.x},${b.y}`;
    const { line, points: factor, colour } = def.scoring;
    const n = count(line, colour, key, board);
    entries.push({
      id: b.block,
      cell: [b.x, b.y],
      line,
      line_colour: colour,
      count: n,
      factor,
      points: b.finished ? points(line, n, factor) : 0,
      finished: b.finished,
      colour: colours.get(key),
      chosen_colour: key in chosen,
    });
  }
  return { total: entries.reduce((sum, e) => sum + e.points, 0), blocks: entries, chosen };
}

/** The quilt's score now: {total, blocks: [entry like the engine's breakdown], chosen}. */
export function scoreQuilt(quilt) {
  // In the engine's order (by cell: x, then y), so that ties between colours fall the same way
  // and the block info names the colour the end table will show.
  const remnants = quilt
    .filter((b) => b.finished && blockDef(b.block) && !blockDef(b.block).colour)
    .sort((a, b) => a.x - b.x || a.y - b.y)
    .map((b) => `${b.x},${b.y}`);
  let best = null;
  const choose = (index, chosen) => {
    if (index === remnants.length) {
      const score = scoreWith(quilt, chosen);
      if (!best || score.total > best.total) best = score;
      return;
    }
    for (const colour of COLOURS) choose(index + 1, { ...chosen, [remnants[index]]: colour });
  };
  choose(0, {});
  return best;
}
