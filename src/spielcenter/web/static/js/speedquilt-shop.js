// The fabric shop (Stoffladen): the top shelf of pattern blocks, the bottom shelf of sewing kits.
// Buying: she selects 3 or 4 equal dice, taps a block whose price they pay, then a cell. On a
// phone the shop is one narrow line until she buys ("aufklappen", or by itself once her selected
// dice could pay for something).

import { t } from "./i18n.js";
import { blockSvg } from "./speedquilt-blocks.js";

/** The number of equal dice a block of each shelf costs. */
export const PRICE = { pattern: 4, kit: 3 };

/**
 * The shop.
 * @param view the table view (shop, decks)
 * @param ui {open, buyable: Set("pattern"/"kit"), chosen: block id, onBlock(id, shelf),
 *            onToggle(), slid: {pattern: bool, kit: bool}}
 */
export function shopPanel(view, ui) {
  const shop = document.createElement("section");
  shop.className = "sq-shop";
  shop.classList.toggle("open", Boolean(ui.open));
  const head = document.createElement("div");
  head.className = "shop-head";
  const title = document.createElement("h2");
  title.textContent = t("sq.shop");
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "shop-toggle";
  toggle.textContent = ui.open ? t("sq.shop_close") : t("sq.shop_open");
  toggle.setAttribute("aria-expanded", String(Boolean(ui.open)));
  toggle.addEventListener("click", () => ui.onToggle());
  head.append(title, toggle);
  shop.append(head);
  for (const shelf of ["pattern", "kit"]) {
    const row = document.createElement("div");
    row.className = `shelf shelf-${shelf}`;
    row.dataset.shelf = shelf;
    if (ui.slid?.[shelf]) row.classList.add("slide");
    const label = document.createElement("span");
    label.className = "shelf-label";
    label.textContent = t(`sq.shelf.${shelf}`, { price: PRICE[shelf], left: view.decks[shelf] });
    row.append(label);
    for (const id of view.shop[shelf]) {
      if (id === null) {
        // An empty place on the shelf: nothing to press, so no button a reader would name.
        row.append(Object.assign(document.createElement("span"), { className: "shop-block gap" }));
        continue;
      }
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = "shop-block";
      slot.dataset.block = id;
      slot.append(blockSvg(id));
      slot.classList.toggle("buyable", Boolean(ui.buyable?.has(shelf)));
      slot.classList.toggle("chosen", ui.chosen === id);
      slot.addEventListener("click", () => ui.onBlock(id, shelf, slot));
      row.append(slot);
    }
    shop.append(row);
  }
  return shop;
}

/**
 * Which shelves the selected dice pay for: 4 equal dice a pattern block, 3 a kit.
 * @param values the values of the selected dice
 */
export function shelvesPaidBy(values) {
  const out = new Set();
  if (values.length < 3 || new Set(values).size !== 1) return out;
  if (values.length === PRICE.kit) out.add("kit");
  if (values.length === PRICE.pattern) out.add("pattern");
  return out;
}
