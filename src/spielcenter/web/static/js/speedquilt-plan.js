// The sewing plan of the player at the table: which die she put on which patch before she presses
// "Block nähen". The pre-check here only decides what lights up; the server decides every move
// (docs/speedquilt-engine.md, "placement rule": a die goes only where the block stays finishable).

import { blockDef } from "./speedquilt-blocks.js";

/** Whether the filled values still allow the block to be finished (the engine's can_complete). */
export function canComplete(def, filled) {
  for (let i = 0; i < def.patches.length; i++) {
    const value = filled[i];
    const need = def.patches[i].value;
    if (value !== null && (value < 1 || value > 6 || (need && need !== value))) return false;
  }
  if (def.rule === "<") {
    let lowest = 1;
    for (let i = 0; i < def.patches.length; i++) {
      const fixed = filled[i] ?? def.patches[i].value ?? lowest;
      if (fixed < lowest || fixed > 6) return false;
      lowest = fixed + 1;
    }
  } else if (def.rule === "=") {
    const wanted = {};
    for (let i = 0; i < def.patches.length; i++) {
      const letter = def.patches[i].letter;
      const fixed = filled[i] ?? def.patches[i].value ?? null;
      if (!letter || fixed === null) continue;
      if ((wanted[letter] ??= fixed) !== fixed) return false;
    }
  } else if (def.rule === ">=40") {
    let best = 0;
    for (let i = 0; i < def.patches.length; i++) best += filled[i] ?? def.patches[i].value ?? 6;
    if (best < 40) return false;
  }
  return true;
}

/** Whether a die {value, colour} may go on patch `index` of a block filled so far. */
export function canPlace(def, filled, index, die) {
  const patch = def.patches[index];
  if (!patch || filled[index] !== null) return false;
  if (patch.value && patch.value !== die.value) return false;
  if (patch.colour && patch.colour !== die.colour) return false;
  const after = filled.slice();
  after[index] = die.value;
  return canComplete(def, after);
}

/**
 * The player's plan for one turn: per block cell, patch index → die name.
 * A die is planned at most once; planning it again moves it.
 */
export class SewingPlan {
  constructor() {
    this.byCell = new Map();
  }

  clear() {
    this.byCell.clear();
  }

  /** A plan of its own with the same dice on the same patches (the screen changes a copy). */
  copy() {
    const plan = new SewingPlan();
    for (const [cell, patches] of this.byCell) plan.byCell.set(cell, new Map(patches));
    return plan;
  }

  /** The dice already in the plan. */
  plannedDice() {
    const out = new Set();
    for (const patches of this.byCell.values()) for (const die of patches.values()) out.add(die);
    return out;
  }

  /** The plan of one block: Map(patchIndex → die name). */
  of(cell) {
    return this.byCell.get(cell) ?? new Map();
  }

  /** Take a die out of the plan wherever it lies. */
  unplan(die) {
    for (const [cell, patches] of this.byCell) {
      for (const [index, planned] of patches) if (planned === die) patches.delete(index);
      if (!patches.size) this.byCell.delete(cell);
    }
  }

  /** Put a die on a patch (taking it off any other) or, on the same patch, take it off. */
  toggle(cell, index, die) {
    const patches = this.byCell.get(cell);
    if (patches?.get(index) === die) {
      patches.delete(index);
      if (!patches.size) this.byCell.delete(cell);
      return;
    }
    this.unplan(die);
    if (!this.byCell.has(cell)) this.byCell.set(cell, new Map());
    this.byCell.get(cell).set(index, die);
  }

  /** The values a block shows with the plan laid on it. */
  filledWithPlan(placed, diceByName) {
    const filled = placed.filled.slice();
    for (const [index, die] of this.of(`${placed.x},${placed.y}`))
      filled[index] = diceByName[die].value;
    return filled;
  }

  /** The patches (indexes) of a placed block where `die` may go given the plan so far. */
  targets(placed, die, diceByName) {
    const def = blockDef(placed.block);
    const out = new Set();
    if (!def || placed.finished) return out;
    const filled = this.filledWithPlan(placed, diceByName);
    def.patches.forEach((_, index) => {
      if (canPlace(def, filled, index, diceByName[die])) out.add(index);
    });
    return out;
  }

  /** Whether every empty patch of the block is planned: then "Block nähen" may be pressed. */
  complete(placed) {
    const planned = this.of(`${placed.x},${placed.y}`);
    const empty = placed.filled.filter((v) => v === null).length;
    return empty > 0 && planned.size === empty;
  }

  /** The sew move of a fully planned block, e.g. "sew P03 red:1 blue:2" (dice in patch order). */
  sewMove(placed) {
    const pairs = [...this.of(`${placed.x},${placed.y}`)].sort((a, b) => a[0] - b[0]);
    return `sew ${placed.block} ${pairs.map(([index, die]) => `${die}:${index + 1}`).join(" ")}`;
  }
}
