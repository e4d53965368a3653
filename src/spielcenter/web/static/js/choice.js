// A small choice that opens beside a card when a move could go more than one way (in Crazy
// Quilt a card may fit an up and a down foundation at once). Each option is a button that names
// the move in words; the first takes the focus, Tab goes on, Enter or a tap chooses, Escape or a
// press outside closes it. It lives outside the board, so the board's keys leave it alone.

import { button } from "./dom.js";
import { t } from "./i18n.js";

const MARGIN_PX = 8;

export class MoveChoice {
  /**
   * @param anchor the element the choice opens beside (the card to move)
   * @param title what the choice asks, in words
   * @param options [{label, choose()}], in the order shown
   * @param onClose called once when the choice closes, chosen or not
   */
  constructor(anchor, title, options, onClose) {
    this.onClose = onClose;
    this.el = document.createElement("div");
    this.el.className = "foundation-choice";
    this.el.setAttribute("role", "dialog");
    this.el.setAttribute("aria-label", title);
    const heading = document.createElement("p");
    heading.className = "choice-title";
    heading.textContent = title;
    this.el.append(heading);
    for (const option of options) {
      const pick = () => {
        this.close();
        option.choose();
      };
      this.el.append(button(option.label, "choice-option", pick));
    }
    this.el.append(button(t("action.cancel"), "choice-cancel", () => this.close()));
    // A press anywhere else closes it (the capture phase sees it before the board does).
    this.onOutside = (event) => {
      if (!this.el.contains(event.target)) this.close();
    };
    document.body.append(this.el);
    this.place(anchor);
    document.addEventListener("pointerdown", this.onOutside, true);
    this.el.querySelector(".choice-option")?.focus();
  }

  /** Below the card, or above it when the window ends first; always inside the window. */
  place(anchor) {
    const card = anchor.getBoundingClientRect();
    const box = this.el.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const height = window.innerHeight;
    const left = Math.min(Math.max(card.left, MARGIN_PX), width - box.width - MARGIN_PX);
    const below = card.bottom + MARGIN_PX;
    const top = below + box.height <= height ? below : card.top - box.height - MARGIN_PX;
    this.el.style.left = `${Math.max(left, MARGIN_PX)}px`;
    this.el.style.top = `${Math.max(top, MARGIN_PX)}px`;
  }

  /** Close the choice (once); nothing is played. */
  close() {
    if (!this.el.isConnected) return;
    document.removeEventListener("pointerdown", this.onOutside, true);
    this.el.remove();
    this.onClose();
  }
}
