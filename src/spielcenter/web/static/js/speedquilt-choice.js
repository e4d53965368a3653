// The start choice: her four dealt blocks (two pattern blocks, two kits). She taps the one to put
// back under its deck, then the other three in the order they shall lie (neighbours count for
// some patterns), and confirms: `choose P03 K07 P12 return K02`. Each dealt block has its
// block info, which says what its place in the row means.

import { t } from "./i18n.js";
import { blockName, blockSvg } from "./speedquilt-blocks.js";

export class StartChoice {
  /**
   * @param redraw () => void — draw the table again after a tap
   * @param play (move) => void — send the choice
   */
  constructor(redraw, play) {
    this.redraw = redraw;
    this.play = play;
    this.returned = null;
    this.row = [];
  }

  get move() {
    if (!this.returned || this.row.length !== 3) return null;
    return `choose ${this.row.join(" ")} return ${this.returned}`;
  }

  tap(id) {
    if (!this.returned) this.returned = id;
    else if (id === this.returned) this.returned = null;
    else if (this.row.includes(id)) this.row = this.row.filter((b) => b !== id);
    else this.row.push(id);
    if (this.returned === null) this.row = [];
    this.redraw();
  }

  /**
   * The choice panel, or a waiting note once she has chosen.
   * @param info the table's BlockInfo: each dealt block shows its block info when she points
   *   at it, long-presses it or taps its info button (a plain tap chooses)
   */
  render(view, legal, info) {
    const me = view.seats[view.you]; // none for a spectator: she only waits with the others
    const box = document.createElement("section");
    box.className = "sq-choice";
    if (!me?.hand || me.chosen || !legal.some((m) => m.startsWith("choose "))) {
      const waiting = document.createElement("p");
      waiting.className = "muted";
      waiting.textContent = t("sq.choice.waiting");
      box.append(waiting);
      return box;
    }
    const title = document.createElement("h2");
    title.textContent = t("sq.choice.title");
    const hint = document.createElement("p");
    hint.className = "choice-hint";
    hint.textContent = this.returned ? t("sq.choice.order") : t("sq.choice.return");
    const hand = document.createElement("div");
    hand.className = "choice-hand";
    for (const id of me.hand) {
      const slot = document.createElement("div");
      slot.className = "choice-slot";
      const card = document.createElement("button");
      card.type = "button";
      card.className = "choice-block";
      card.dataset.block = id;
      card.append(blockSvg(id));
      const mark = document.createElement("span");
      mark.className = "choice-mark";
      if (id === this.returned) {
        card.classList.add("returned");
        mark.textContent = t("sq.choice.returned");
      } else if (this.row.includes(id)) {
        card.classList.add("placed");
        mark.textContent = String(this.row.indexOf(id) + 1);
      }
      card.append(mark);
      slot.append(card);
      const context = () => ({ hand: me.hand, row: this.row });
      if (info) {
        info.attach(card, id, context, () => this.tap(id));
        slot.append(this.infoButton(card, id, info, context));
      } else card.addEventListener("click", () => this.tap(id));
      hand.append(slot);
    }
    const confirm = document.createElement("button");
    confirm.type = "button";
    confirm.className = "choice-confirm primary";
    confirm.textContent = t("sq.choice.confirm");
    confirm.disabled = !this.move || !legal.includes(this.move);
    confirm.addEventListener("click", () => this.move && this.play(this.move));
    box.append(title, hint, hand, confirm);
    return box;
  }

  /** The info button under a dealt block: on a phone a tap on the block chooses, so the block
   * info needs a button of its own (a long-press works too). */
  infoButton(card, id, info, context) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = "choice-info";
    node.textContent = t("sq.info.title");
    node.setAttribute("aria-label", `${t("sq.info.title")}: ${blockName(id)}`);
    node.addEventListener("click", (event) => {
      event.stopPropagation(); // the tap elsewhere that closes a pinned info is not this one
      info.show(card, id, context(), true);
    });
    return node;
  }
}
