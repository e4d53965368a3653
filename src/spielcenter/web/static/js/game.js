// The game screen of a patience game: toolbar, board, status line and the end screen. The server
// decides everything; this screen only offers what the server's `legal` list allows and sends the
// moves the player makes (input.js turns clicks, drags and keys into those moves).

import { BoardInput } from "./input.js";
import { GameSocket } from "./socket.js";
import { button } from "./dom.js";
import { errorText } from "./errors.js";
import { formatDuration, has, t } from "./i18n.js";
import { describeMove } from "./move-words.js";
import { rulesUrl } from "./rules.js";
import * as cruel from "./cruel.js";
import * as crazyQuilt from "./crazy-quilt.js";

const BOARDS = { cruel, "crazy-quilt": crazyQuilt };

/** A toolbar button: a dom.js button that names its keyboard shortcut. */
function toolButton(label, key, onClick, className = "") {
  const node = button(label, className, onClick);
  if (key) node.setAttribute("aria-keyshortcuts", key);
  return node;
}

export class GameScreen {
  /**
   * @param root the element the screen draws into
   * @param gameId the game to show
   * @param app {settings, newGame({game, variant, deal}), saveSettings(partial), languageSelect()}
   */
  constructor(root, gameId, app) {
    this.root = root;
    this.gameId = gameId;
    this.app = app;
    this.view = null;
    this.board = null;
    this.selected = null;
    this.hint = null;
    this.input = null;
    this.receivedAt = 0;
    this.socket = new GameSocket(
      gameId,
      (message) => this.receive(message),
      (up) => this.connection(up),
    );
    this.onKey = (event) => this.input?.key(event);
    this.timer = setInterval(() => this.tick(), 500);
  }

  /** Build the screen and subscribe to the game. */
  start() {
    this.build();
    document.addEventListener("keydown", this.onKey);
    this.socket.connect();
  }

  /** Leave the screen: close the socket, stop the timer and the keyboard. */
  stop() {
    for (const key of ["seq", "status", "game"]) delete this.root.dataset[key];
    this.socket.close();
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
    this.input?.closeChoice();
    this.input?.stop();
  }

  /** The board module of the game on screen (cruel.js or crazy-quilt.js). */
  get kind() {
    return BOARDS[this.view?.game];
  }

  // -- layout ---------------------------------------------------------------------------------

  build() {
    this.root.replaceChildren();
    this.root.className = "screen game-screen";
    const bar = document.createElement("header");
    bar.className = "toolbar";
    const back = document.createElement("a");
    back.className = "back";
    back.href = "#/";
    back.textContent = "← " + t("app.title");
    this.title = document.createElement("h1");
    this.info = document.createElement("div");
    this.info.className = "game-info";
    this.dealEl = document.createElement("span");
    this.dealEl.className = "deal-number";
    this.movesEl = document.createElement("span");
    this.movesEl.className = "move-count";
    this.clockEl = document.createElement("span");
    this.clockEl.className = "clock";
    this.info.append(this.dealEl, this.movesEl, this.clockEl);
    bar.append(back, this.title, this.info, this.app.languageSelect());

    this.controls = document.createElement("nav");
    this.controls.className = "controls";
    this.undoButton = toolButton(t("action.undo"), "u", () => this.command("undo"), "undo");
    this.redoButton = toolButton(t("action.redo"), "Control+y", () => this.command("redo"), "redo");
    this.hintButton = toolButton(t("action.hint"), "h", () => this.command("hint"), "hint-button");
    this.controls.append(this.undoButton, this.redoButton, this.hintButton);
    this.actionButtons = [];
    this.boardSlot = document.createElement("main");
    this.boardSlot.className = "board-slot";
    this.status = document.createElement("p");
    this.status.className = "status-line";
    this.status.setAttribute("role", "status");
    this.overlay = document.createElement("div");
    this.overlay.className = "overlay";
    this.overlay.hidden = true;
    // The status line (hints, refusals) sits right under the buttons that ask for it, above the
    // board: below a tall board it was out of sight on a laptop and on a phone.
    this.root.append(bar, this.controls, this.status, this.boardSlot, this.overlay);
    this.input = new BoardInput(this, this.boardSlot);
    if (this.view) this.render();
  }

  /** The buttons that depend on the game (redeal, turn a card, rules, new deal, …). */
  buildGameControls() {
    if (this.actionButtons.length || !this.view) return;
    const kind = this.kind;
    for (const action of kind.actions) {
      const el = toolButton(t(action.label), action.key, () => this.play(action.move), "action");
      el.dataset.move = action.move;
      this.actionButtons.push(el);
    }
    const newDeal = toolButton(t("action.new_deal"), "n", () => this.newDeal(), "new-deal");
    const restart = toolButton(t("action.restart"), null, () => this.restart(), "restart");
    const rules = document.createElement("a");
    rules.className = "rules-link";
    rules.href = rulesUrl(this.view.game);
    rules.target = "_blank";
    rules.rel = "noopener";
    rules.textContent = t("action.rules");
    const auto = document.createElement("label");
    auto.className = "auto-move";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = Boolean(this.app.settings.auto_move);
    box.addEventListener("change", () => {
      this.app.saveSettings({ auto_move: box.checked });
      if (box.checked) this.autoMove();
    });
    auto.append(box, " " + t("setting.auto_move"));
    this.controls.append(...this.actionButtons, newDeal, restart, rules, auto);
  }

  // -- messages from the server ----------------------------------------------------------------

  receive(message) {
    if (message.type === "state" || message.type === "event") {
      this.view = message.view;
      this.root.dataset.seq = String(message.seq);
      this.receivedAt = performance.now();
      // A hint speaks of the position it was asked in: any new position (a move, an undo, a
      // redeal, another device) makes it stale.
      if (this.hint !== null || this.hintSaid) this.say("");
      this.hint = null;
      this.selected = null;
      this.pending = false;
      this.render();
      if (message.type === "event" && message.event?.kind === "move") this.autoMove();
    } else if (message.type === "hint") {
      this.showHint(message.move ?? null, message.text, message.undo_to);
    } else if (message.type === "error") {
      this.pending = false;
      // Another device moved first: fetch what we missed; the board follows.
      if (message.code === "stale") this.socket.resync();
      this.say(errorText(message), true);
    }
  }

  connection(up) {
    this.root.classList.toggle("offline", !up);
    if (!up) this.say(t("status.reconnecting"), true);
    else if (this.status.classList.contains("error")) this.say("");
  }

  say(text, isError = false) {
    this.hintSaid = false;
    this.status.textContent = text;
    this.status.classList.toggle("error", isError);
  }

  // -- drawing --------------------------------------------------------------------------------

  render() {
    const view = this.view;
    const kind = this.kind;
    if (!kind) return;
    this.buildGameControls();
    // A choice between two foundations was about the position that is gone.
    this.input?.closeChoice();
    const variant = t(`variant.${view.game}.${view.variant}`);
    this.title.textContent = `${t(`game.${view.game}`)} · ${variant}`;
    this.dealEl.textContent = t("game.deal", { deal: view.deal });
    const made = view.moves_made ?? 0;
    this.movesEl.textContent = t(made === 1 ? "game.move" : "game.moves", { count: made });
    this.undoButton.disabled = !view.can_undo;
    this.redoButton.disabled = !view.can_redo;
    this.hintButton.disabled = view.status !== "playing";
    for (const el of this.actionButtons) el.disabled = !view.legal.includes(el.dataset.move);
    this.board = kind.render(view);
    this.boardSlot.replaceChildren(this.board);
    this.root.dataset.game = view.game;
    this.root.dataset.status = view.status;
    this.decorate();
    this.tick();
    this.renderEnd();
  }

  /** Legal moves grouped by where they start: from → [{to, move}]. */
  movesByPlace() {
    const kind = this.kind;
    const places = new Map();
    for (const move of this.view.legal || []) {
      const ends = kind.endpoints(move, this.view);
      if (!ends || !ends.from) continue;
      if (!places.has(ends.from)) places.set(ends.from, []);
      places.get(ends.from).push({ to: ends.to, move });
    }
    return places;
  }

  /** Mark what can move, what is selected, where it may go and what the hint says. */
  decorate() {
    if (!this.board) return;
    const places = this.movesByPlace();
    const targets = new Set((places.get(this.selected) || []).map((m) => m.to));
    for (const el of this.board.querySelectorAll(
      ".movable, .selected, .target, .hint, .hint-target",
    )) {
      el.classList.remove("movable", "selected", "target", "hint", "hint-target");
    }
    for (const el of this.board.querySelectorAll("[data-src]")) {
      if (!places.has(el.dataset.src)) continue;
      el.classList.add("movable");
      el.tabIndex = 0;
      if (el.dataset.src === this.selected) el.classList.add("selected");
    }
    for (const el of this.board.querySelectorAll("[data-dst]")) {
      if (targets.has(el.dataset.dst)) {
        el.classList.add("target");
        el.tabIndex = 0;
      }
    }
    for (const el of this.controls.querySelectorAll(".hint")) el.classList.remove("hint");
    if (this.hint) this.markHint(this.hint);
  }

  markHint(move) {
    const ends = this.kind.endpoints(move, this.view);
    if (!ends) return;
    if (ends.action) {
      for (const el of this.board.querySelectorAll(`[data-action="${ends.action}"]`))
        el.classList.add("hint");
      for (const el of this.actionButtons)
        if (el.dataset.move === ends.action) el.classList.add("hint");
      return;
    }
    this.board.querySelector(`[data-src="${ends.from}"]`)?.classList.add("hint");
    this.board.querySelector(`[data-dst="${ends.to}"]`)?.classList.add("hint-target");
  }

  tick() {
    if (!this.view) return;
    let ms = this.view.elapsed_ms ?? 0;
    // The server's clock starts with the first move; between messages we count on locally.
    if (this.view.status === "playing" && this.view.moves_made > 0) {
      ms += performance.now() - this.receivedAt;
    }
    this.clockEl.textContent = formatDuration(ms);
  }

  renderEnd() {
    const view = this.view;
    const over = view.status === "won" || view.status === "lost";
    this.overlay.hidden = !over;
    this.overlay.replaceChildren();
    if (!over) return;
    const box = document.createElement("div");
    box.className = `end-box ${view.status}`;
    box.setAttribute("role", "dialog");
    const title = document.createElement("h2");
    title.textContent = t(`end.${view.status}`);
    box.setAttribute("aria-label", title.textContent);
    const facts = document.createElement("p");
    facts.textContent = t("end.facts", {
      deal: view.deal,
      moves: view.moves_made ?? 0,
      time: formatDuration(view.elapsed_ms ?? 0),
    });
    const buttons = document.createElement("div");
    buttons.className = "end-buttons";
    buttons.append(
      toolButton(t("end.play_again"), null, () => this.newDeal(), "play-again primary"),
      toolButton(t("end.same_deal"), null, () => this.restart(), "same-deal"),
    );
    if (view.can_undo)
      buttons.append(toolButton(t("action.undo"), null, () => this.command("undo"), "undo"));
    const home = document.createElement("a");
    home.href = "#/";
    home.className = "home";
    home.textContent = t("end.to_start");
    buttons.append(home);
    box.append(title, facts, buttons);
    this.overlay.append(box);
  }

  // -- commands -------------------------------------------------------------------------------

  /** Send a move to the server; the board changes when the server's event comes back. */
  play(move) {
    if (!this.view || !this.view.legal.includes(move)) return;
    this.input?.forget();
    this.selected = null;
    this.hint = null;
    if (!this.socket.send({ type: "move", move, seq: this.socket.lastSeq })) {
      this.say(t("status.reconnecting"), true);
      return;
    }
    this.pending = true;
    this.decorate();
  }

  command(type) {
    if (!this.socket.send({ type })) this.say(t("status.reconnecting"), true);
  }

  newDeal() {
    this.app.newGame({ game: this.view.game, variant: this.view.variant });
  }

  restart() {
    this.app.newGame({ restart: this.gameId });
  }

  /** With the setting on, play one foundation move; the next one follows its acknowledgement. */
  autoMove() {
    if (!this.app.settings.auto_move || !this.view || this.view.status !== "playing") return;
    const kind = this.kind;
    for (const [, moves] of this.movesByPlace()) {
      const home = moves.find((m) => kind.isFoundation(m.to));
      if (home) {
        this.play(home.move);
        return;
      }
    }
  }

  /** Light up the hinted move and say it, with what the solver knows ("keeps it winnable"). */
  showHint(move, verdictKey, undoTo) {
    this.hint = move;
    this.decorate();
    const said = move ? t("hint.show", { move: this.describe(move) }) : t("hint.none");
    const known = verdictKey && has(verdictKey) ? t(verdictKey, { undo_to: undoTo ?? "" }) : "";
    this.say(known ? `${said} ${known}` : said);
    this.hintSaid = true;
  }

  /** A move in words for people: "7♠ → 8♠", "K♥ → foundation", "redeal". */
  describe(move) {
    return describeMove(this.kind, move, this.view, this.board);
  }
}
