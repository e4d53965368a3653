// The shop panel of the table screen: the two shelves, lit where her chosen dice pay, and the
// block she is buying. It draws from the screen's state and her choice; a tap asks the screen.

import { shelvesPaidBy, shopPanel } from "./speedquilt-shop.js";

/** What each shelf costs in dice (scissors may stand in for a die of the price). */
const PRICES = { kit: 3, pattern: 4 };

/** The shop with block info on every block (a tap on a lit one chooses it to buy). */
export function shop(screen) {
  const buyable = buyableShelves(screen);
  const { shopOpen, buying } = screen.choice;
  const panel = shopPanel(screen.view, {
    open: shopOpen || buyable.size > 0 || Boolean(buying),
    buyable,
    chosen: buying?.id,
    slid: screen.state.slid,
    onToggle: () => screen.choose({ shopOpen: !shopOpen }),
    onBlock: (id, shelf) => chooseShopBlock(screen, id, shelf, buyable),
  });
  for (const slot of panel.querySelectorAll(".shop-block[data-block]")) {
    const id = slot.dataset.block;
    const context = () => ({
      placed: null,
      quilt: screen.view.seats[screen.seat]?.quilt ?? [],
      dice: screen.myTurn ? screen.unusedDice() : [],
      scissors: screen.scissorsLeft(),
      own: true,
    });
    screen.info.attach(slot, id, context, () => {
      const shelf = slot.closest("[data-shelf]").dataset.shelf;
      if (!buyable.has(shelf)) return false;
      chooseShopBlock(screen, id, shelf, buyable);
      return true;
    });
  }
  return panel;
}

/** The shelves her chosen dice pay for in her turn (with scissors: any dice of the price). */
function buyableShelves(screen) {
  const { selected } = screen.choice;
  const values = selected.map((d) => screen.dice()[d]?.value);
  const buyable = screen.myTurn ? shelvesPaidBy(values) : new Set();
  if (screen.myTurn && screen.kits().scissors && selected.length >= 3) {
    for (const shelf of ["kit", "pattern"]) {
      const pays = screen.legal.some((m) => m.startsWith("buy ") && paysWith(m, selected));
      if (selected.length === PRICES[shelf] && pays) buyable.add(shelf);
    }
  }
  return buyable;
}

/** Whether a buy move pays with exactly the chosen dice. */
function paysWith(move, selected) {
  const dice = move.split(" with ")[1]?.split(" ") ?? [];
  return dice.slice().sort().join(" ") === selected.slice().sort().join(" ");
}

function chooseShopBlock(screen, id, shelf, buyable) {
  if (!buyable.has(shelf)) return;
  screen.choose({ buying: { id, shelf } });
}

/** The buy move that lays the chosen block at `cell` with the chosen dice, if the server lists
 * one. */
export function buyMove(screen, cell) {
  const { buying, selected } = screen.choice;
  const prefix = `buy ${buying.id} at ${cell} with `;
  const wanted = [...selected].sort().join(" ");
  return screen.findLegal(
    (m) => m.startsWith(prefix) && m.slice(prefix.length).split(" ").sort().join(" ") === wanted,
  );
}
