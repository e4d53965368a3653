// The sewing panel of the table screen: her quilt (plan dice on patches, sew a full block, lay a
// bought or drawn block), the phone's large sewing view, and the action bar of her turn (roll,
// sew, the bargain bin, undo, end). It draws from the screen's state and her choice; a tap asks
// the screen (`choose`, `replan`, `play`).

import { t } from "./i18n.js";
import { button, el } from "./dom.js";
import {
  blockDef,
  blockName,
  blockShortName,
  blockSvg,
  placementCells,
  quiltGrid,
} from "./speedquilt-blocks.js";
import { canPlace } from "./speedquilt-plan.js";
import { buyMove } from "./speedquilt-table-shop.js";

/** The dice colours, as the bin's move names them between placements. */
const BIN_PLACEMENT = / (?=(?:red|blue|green|yellow|purple) to )/;

// -- her quilt -----------------------------------------------------------------------------------

/** Her quilt with its plan, the lit patches of the chosen die and the free cells to lay at. */
export function myQuilt(screen) {
  const box = el("section", "sq-own");
  const quilt = screen.view.seats[screen.seat]?.quilt ?? [];
  // Before the start rows are laid there is no quilt to show yet.
  box.hidden = !quilt.length;
  box.append(el("h2", "", t("sq.your_quilt")));
  const slots = placingSlots(screen, quilt);
  const grid = quiltGrid(quilt, {
    slots,
    onSlot: (cell) => placeAt(screen, cell),
    blockOpts: (placed) => blockOpts(screen, placed),
    decorate: (placed, wrap) => decorateOwn(screen, placed, wrap, quilt),
  });
  if (slots.length) grid.classList.add("placing");
  box.append(grid);
  return box;
}

/** The patches of a block where the chosen die (in her turn, or while giving) may go. */
export function patchTargets(screen, placed) {
  const { selected, givingDie, binMode, binDice, plan } = screen.choice;
  const die = selected.length === 1 ? selected[0] : screen.myWindow && givingDie;
  if (!die || placed.finished) return new Set();
  const dice = screen.dice();
  if (screen.myWindow && givingDie) {
    return new Set(
      placed.filled
        .map((_, i) => i)
        .filter((i) => screen.legal.includes(`give ${die} to ${placed.block}:${i + 1}`)),
    );
  }
  if (binMode) {
    const def = blockDef(placed.block);
    const filled = placed.filled.slice();
    for (const b of binDice) if (b.block === placed.block) filled[b.patch - 1] = dice[b.die].value;
    const fits = def.patches.map((_, i) => i).filter((i) => canPlace(def, filled, i, dice[die]));
    return new Set(fits);
  }
  return plan.targets(placed, die, dice);
}

function blockOpts(screen, placed) {
  const key = `${placed.x},${placed.y}`;
  const dice = screen.dice();
  const planned = {};
  for (const [index, die] of screen.choice.plan.of(key)) planned[index] = dice[die];
  for (const b of screen.choice.binDice)
    if (b.block === placed.block) planned[b.patch - 1] = dice[b.die];
  return { planned, targets: patchTargets(screen, placed) };
}

/** Her plan sews this block and the server lists the move. */
function sewable(screen, placed) {
  const plan = screen.choice.plan;
  return plan.complete(placed) && screen.legal.includes(plan.sewMove(placed));
}

function decorateOwn(screen, placed, wrap, quilt) {
  wrap.classList.toggle("finished", placed.finished);
  if (sewable(screen, placed)) {
    const sew = button(t("sq.sew"), "sew-button primary", (event) => {
      event.stopPropagation();
      screen.play(screen.choice.plan.sewMove(placed));
    });
    wrap.append(sew);
  }
  const context = () => ({
    placed,
    quilt,
    dice: screen.diceForInfo(),
    giving: !screen.myTurn,
    own: true,
  });
  screen.info.attach(wrap, placed.block, context, (event) => tapOwn(screen, event, placed));
}

/** A tap on her own block: plan/give/bin a die on a patch, or open the sewing view. */
function tapOwn(screen, event, placed) {
  const patch = event.target.closest?.("[data-patch]");
  const index = patch ? Number(patch.dataset.patch) - 1 : null;
  if (index !== null && patchTargets(screen, placed).has(index)) {
    usePatch(screen, placed, index);
    return true;
  }
  const open = screen.myTurn || screen.myWindow;
  if (screen.phone && !screen.choice.sewingCell && open && !placed.finished) {
    screen.choose({ sewingCell: `${placed.x},${placed.y}` });
    return true;
  }
  return false;
}

/** The chosen die onto patch `index`: given (while giving), into the bin, or into the plan. */
function usePatch(screen, placed, index) {
  const { givingDie, selected, binMode, binDice } = screen.choice;
  if (screen.myWindow && givingDie) {
    screen.play(`give ${givingDie} to ${placed.block}:${index + 1}`);
    screen.choose({ givingDie: null }, { draw: false });
    return;
  }
  const die = selected[0];
  if (binMode) {
    const placing = { die, block: placed.block, patch: index + 1 };
    screen.choose({ binDice: [...binDice.filter((b) => b.die !== die), placing], selected: [] });
  } else {
    screen.replan((plan) => plan.toggle(`${placed.x},${placed.y}`, index, die), { selected: [] });
  }
}

function placingSlots(screen, quilt) {
  const drawn = screen.view.turn?.drawn;
  if (screen.myTurn && drawn?.block) {
    return placementCells(quilt).filter((c) => screen.legal.includes(`bin place at ${c}`));
  }
  if (screen.choice.buying) {
    return placementCells(quilt).filter((c) => buyMove(screen, c) !== null);
  }
  return [];
}

/** A tap on a free cell: lay the drawn block, or the bought one. */
function placeAt(screen, cell) {
  if (screen.view.turn?.drawn?.block) {
    screen.play(`bin place at ${cell}`);
    return;
  }
  const move = screen.choice.buying && buyMove(screen, cell);
  if (move && screen.play(move)) screen.choose({ buying: null, selected: [] }, { draw: false });
}

// -- the sewing view (phone) ---------------------------------------------------------------------

/** On a phone: her block large with the dice below; patches are filled right there. Null when
 * the block is gone (the view closes). */
export function sewingView(screen) {
  const cell = screen.choice.sewingCell;
  const placed = screen.view.seats[screen.seat].quilt.find((b) => `${b.x},${b.y}` === cell);
  if (!placed) {
    screen.choose({ sewingCell: null }, { draw: false });
    return null;
  }
  const box = el("section", "sq-sewing");
  box.setAttribute("role", "dialog");
  const title = t("sq.sewing_view", { block: blockName(placed.block) });
  box.setAttribute("aria-label", title);
  box.append(el("h2", "", title));
  box.append(largeBlock(screen, placed, cell));
  if (screen.myWindow) {
    box.append(screen.givingDice());
    const hint = screen.choice.givingDie ? "sq.giving.tap_patch" : "sq.giving.tap_die";
    box.append(el("p", "giving-hint muted", t(hint)));
  } else {
    box.append(screen.diceArea());
  }
  const buttons = el("div", "sewing-buttons");
  if (sewable(screen, placed))
    buttons.append(
      button(t("sq.sew"), "sew-button primary", () => {
        screen.play(screen.choice.plan.sewMove(placed));
        screen.choose({ sewingCell: null }, { draw: false });
      }),
    );
  buttons.append(button(t("sq.close"), "close-sewing", () => screen.choose({ sewingCell: null })));
  box.append(buttons);
  return box;
}

function largeBlock(screen, placed, cell) {
  const big = el("div", "sewing-block quilt-cell");
  big.dataset.cell = cell;
  const opts = { finished: placed.finished, ...blockOpts(screen, placed) };
  big.append(blockSvg(placed.block, placed.filled, opts));
  big.addEventListener("click", (event) => {
    const patch = event.target.closest?.("[data-patch]");
    if (!patch) return;
    const index = Number(patch.dataset.patch) - 1;
    if (patchTargets(screen, placed).has(index)) usePatch(screen, placed, index);
  });
  return big;
}

// -- the action bar ------------------------------------------------------------------------------

/** Her turn's buttons: roll, reroll, sew, clear the plan, the bargain bin, undo, end. */
export function actionBar(screen) {
  const bar = el("nav", "sq-actions");
  const legal = new Set(screen.legal);
  const add = (label, move, className = "") => {
    if (!legal.has(move)) return;
    const node = button(label, `action ${className}`, () => screen.play(move));
    node.dataset.move = move;
    bar.append(node);
  };
  if (!screen.myTurn) return bar;
  const answering = Object.keys(screen.view.turn.windows ?? {}).map(Number);
  if (answering.length) {
    // Her reroll and end wait for the others' giving windows: say for whom.
    const names = answering.map((seat) => screen.nameOf(seat)).join(", ");
    bar.append(el("p", "waiting-for", t("sq.waiting_for", { names })));
  }
  add(t("sq.roll"), "roll", "primary");
  add(t("sq.reroll"), "reroll", "primary");
  const plan = screen.choice.plan;
  for (const placed of screen.view.seats[screen.seat].quilt) {
    if (plan.complete(placed) && legal.has(plan.sewMove(placed))) {
      const label = t("sq.sew_block", { block: blockShortName(placed.block) });
      bar.append(button(label, "action sew primary", () => screen.play(plan.sewMove(placed))));
    }
  }
  if (plan.byCell.size)
    bar.append(
      button(t("sq.clear_plan"), "action clear-plan", () => screen.replan((p) => p.clear())),
    );
  binActions(screen, bar, legal);
  add(t("sq.undo"), "undo");
  add(t("sq.end_turn"), "end", screen.legal.length <= 2 ? "primary" : "");
  return bar;
}

/** The bargain bin: the drawn block to lay or return, dice to place, or a blind draw. */
function binActions(screen, bar, legal) {
  const drawn = screen.view.turn?.drawn;
  if (drawn?.block) {
    const box = el("div", "bin-drawn");
    box.append(el("span", "", t("sq.bin.drawn")), blockSvg(drawn.block));
    if (legal.has("bin return"))
      box.append(button(t("sq.bin.return"), "action bin-return", () => screen.play("bin return")));
    box.append(el("span", "muted", t("sq.bin.place_hint")));
    bar.append(box);
    return;
  }
  const binMoves = screen.legal.filter((m) => m.startsWith("bin "));
  if (!binMoves.length) return;
  if (screen.choice.binMode) {
    bar.append(...binDiceButtons(screen));
    return;
  }
  bar.append(el("span", "bin-label", t("sq.bin")));
  if (binMoves.some((m) => / to /.test(m)))
    bar.append(
      button(t("sq.bin.dice"), "action bin-start", () =>
        screen.replan((plan) => plan.clear(), { binMode: true }),
      ),
    );
  for (const deck of ["pattern", "kit"]) {
    if (legal.has(`bin draw ${deck}`))
      bar.append(
        button(t(`sq.bin.draw_${deck}`), `action bin-draw-${deck}`, () =>
          screen.play(`bin draw ${deck}`),
        ),
      );
  }
}

/** While she lays dice into the bin: place them (once the server lists the move), or cancel. */
function binDiceButtons(screen) {
  const move = binMove(screen);
  const place = button(t("sq.bin.place_dice"), "action bin-dice primary", () => {
    if (move && screen.play(move)) screen.choose({ binDice: [], binMode: false }, { draw: false });
  });
  place.disabled = !move;
  const cancel = button(t("sq.cancel"), "action bin-cancel", () =>
    screen.choose({ binMode: false, binDice: [] }),
  );
  return [place, cancel];
}

/** The legal bin move that lays exactly her bin dice on their patches (in any order). */
function binMove(screen) {
  const binDice = screen.choice.binDice;
  if (!binDice.length) return null;
  const parts = binDice.map((b) => `${b.die} to ${b.block}:${b.patch}`);
  const want = parts.slice().sort().join("|");
  return screen.findLegal((m) => {
    if (!m.startsWith("bin ") || !m.includes(" to ")) return false;
    const got = m.slice(4).split(BIN_PLACEMENT);
    return got.slice().sort().join("|") === want;
  });
}
