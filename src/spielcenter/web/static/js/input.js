// How a player moves cards on the board: click a card then a lit target, drag and drop (pointer
// events, so mouse and touch alike), double-click or double-tap to send a card to its foundation
// (asking which, when two take it), and the keyboard (Enter on a focused card or target, twice
// for the foundation, and the game's keys). Whatever the input, the move played is one of the
// server's legal moves; the screen sends it.

import { MoveChoice } from "./choice.js";
import { cardLabel, t } from "./i18n.js";

const DOUBLE_TAP_MS = 400;
const DRAG_THRESHOLD_PX = 6;

function isTyping(target) {
  return target instanceof HTMLElement && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName);
}

export class BoardInput {
  /**
   * @param screen the game screen: its view, board, kind (the board module), selected place,
   *   movesByPlace(), decorate(), render(), play(move), command(type) and newDeal()
   * @param slot the element the board is drawn into
   */
  constructor(screen, slot) {
    this.screen = screen;
    this.lastClick = { src: null, time: 0 };
    this.drag = null;
    this.choice = null;
    this.suppressClick = false;
    this.onMove = (event) => this.pointerMove(event);
    this.onUp = (event) => this.pointerUp(event);
    slot.addEventListener("click", (event) => this.click(event.target));
    slot.addEventListener("pointerdown", (event) => this.pointerDown(event));
    slot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.click(event.target);
      }
    });
  }

  /** After a move a click starts afresh; it is not the second half of a double-click. */
  forget() {
    this.lastClick = { src: null, time: 0 };
  }

  click(target) {
    const screen = this.screen;
    if (this.suppressClick || !screen.view || !(target instanceof Element)) return;
    this.closeChoice();
    const action = target.closest("[data-action]")?.dataset.action;
    if (action) {
      if (screen.view.legal.includes(action)) screen.play(action);
      return;
    }
    const src = target.closest("[data-src]")?.dataset.src;
    const dst = target.closest("[data-dst]")?.dataset.dst;
    const now = performance.now();
    const again = src && src === this.lastClick.src && now - this.lastClick.time < DOUBLE_TAP_MS;
    this.lastClick = { src, time: again ? 0 : now };
    if (again && this.toFoundation(src)) return;
    const places = screen.movesByPlace();
    const chosen = (places.get(screen.selected) || []).find((m) => m.to === dst);
    if (screen.selected && dst && chosen) {
      screen.play(chosen.move);
      return;
    }
    screen.selected = src && places.has(src) && src !== screen.selected ? src : null;
    screen.decorate();
  }

  /**
   * Double-click or double-tap: the card goes to its foundation if it may. When two take it (an
   * up and a down foundation in Crazy Quilt) the player says which; neither is the default.
   */
  toFoundation(src) {
    const screen = this.screen;
    const moves = screen.movesByPlace().get(src) || [];
    const homes = moves.filter((m) => screen.kind.isFoundation(m.to));
    if (homes.length === 1) screen.play(homes[0].move);
    else if (homes.length > 1) this.askWhichFoundation(src, homes);
    return homes.length > 0;
  }

  askWhichFoundation(src, homes) {
    const screen = this.screen;
    const place = screen.board.querySelector(`[data-src="${src}"]`);
    const code = screen.kind.dragCard(screen.board, src)?.dataset.card;
    if (!place || !code) return;
    screen.selected = src;
    screen.decorate();
    const options = homes.map((home) => ({
      label: screen.kind.foundationWords(home.to, screen.view),
      choose: () => screen.play(home.move),
    }));
    const title = t("choice.where", { card: cardLabel(code) });
    this.choice = new MoveChoice(place, title, options, () => this.choiceClosed(place));
  }

  /** After the choice: nothing chosen leaves the card as it was, with the focus back on it. */
  choiceClosed(place) {
    this.choice = null;
    const screen = this.screen;
    if (screen.pending || !place.isConnected) return;
    screen.selected = null;
    screen.decorate();
    place.focus();
  }

  /** Close an open choice (a new position, a click elsewhere). */
  closeChoice() {
    this.choice?.close();
  }

  pointerDown(event) {
    if (event.button !== 0 || !this.screen.view) return;
    const el = event.target.closest("[data-src].movable");
    if (!el) return;
    this.drag = { src: el.dataset.src, x: event.clientX, y: event.clientY, ghost: null };
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onUp);
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.ghost && !this.lift(drag, event)) return;
    const x = event.clientX - drag.dx;
    const y = event.clientY - drag.dy;
    drag.ghost.style.transform = `translate(${x}px, ${y}px)`;
  }

  /** Start dragging once the pointer has moved far enough: a copy of the card follows it. */
  lift(drag, event) {
    const screen = this.screen;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD_PX) {
      return false;
    }
    const card = screen.kind.dragCard(screen.board, drag.src);
    if (!card) return false;
    const box = card.getBoundingClientRect();
    drag.ghost = card.cloneNode(true);
    drag.ghost.classList.add("ghost");
    Object.assign(drag.ghost.style, { width: `${box.width}px`, height: `${box.height}px` });
    drag.dx = drag.x - box.left;
    drag.dy = drag.y - box.top;
    document.body.append(drag.ghost);
    card.classList.add("lifted");
    screen.selected = drag.src;
    screen.decorate();
    return true;
  }

  pointerUp(event) {
    const screen = this.screen;
    const drag = this.drag;
    this.stop();
    if (!drag || !drag.ghost) return;
    // The click that follows a drag is not a click on the board.
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const dst = under?.closest("[data-dst]")?.dataset.dst;
    const chosen = (screen.movesByPlace().get(drag.src) || []).find((m) => m.to === dst);
    if (chosen) {
      screen.play(chosen.move);
    } else {
      screen.selected = null;
      screen.render();
    }
  }

  /** Drop a drag in progress (the card goes back). */
  stop() {
    if (this.drag?.ghost) this.drag.ghost.remove();
    this.drag = null;
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onUp);
  }

  /** The keys: u undo, Ctrl+Y redo, h hint, n new deal, Escape, and the board's own keys. */
  key(event) {
    const screen = this.screen;
    if (isTyping(event.target) || event.altKey || event.metaKey || !screen.view) return;
    const key = event.key.toLowerCase();
    if (this.choice) {
      // While she chooses, the keys are the choice's: Tab, Enter and Escape.
      if (key === "escape") {
        event.preventDefault();
        this.closeChoice();
      }
      return;
    }
    const ctrl = event.ctrlKey;
    if ((ctrl && key === "y") || (ctrl && event.shiftKey && key === "z")) screen.command("redo");
    else if (ctrl && key === "z") screen.command("undo");
    else if (ctrl) return;
    else if (key === "u") screen.command("undo");
    else if (key === "h") screen.command("hint");
    else if (key === "n") screen.newDeal();
    else if (key === "escape") {
      screen.selected = null;
      screen.decorate();
    } else {
      const action = screen.kind.actions.find((a) => a.key === key);
      if (!action) return;
      screen.play(action.move);
    }
    event.preventDefault();
  }
}
