// The Speedquilt table screen (#/table/<id>): her quilt, the dice, the shop, the neighbours, the
// history, the giving window, the start choice, the end table and the view settings. The server
// decides every move: the screen sends the engine's text notation and offers only what the
// server's `legal` list holds; its own pre-checks only decide what lights up.
//
// What the screen knows of the table is `state`, made by the reducer of the server's messages
// (speedquilt-table-state.js); what she has chosen and the server does not know yet (dice, a
// plan, a block to buy, an open view) is `choice`, changed only through `choose` and `replan`.
// The panels (speedquilt-table-dice.js, -shop.js, -sewing.js, -giving.js) draw from both.

import { fingerprintNote } from "./fairness.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { rulesUrl } from "./rules.js";
import { blockDef, loadCatalogue } from "./speedquilt-blocks.js";
import { seatName } from "./speedquilt-names.js";
import { endTable, keptEndTable } from "./speedquilt-end.js";
import { achievementsBox, achievementsOf } from "./speedquilt-achievements.js";
import { historyPanel } from "./speedquilt-history.js";
import { BlockInfo } from "./speedquilt-info.js";
import { SewingPlan } from "./speedquilt-plan.js";
import { settingsDialog, tableSettings } from "./speedquilt-settings.js";
import { TableSocket } from "./socket.js";
import { chatPanel } from "./speedquilt-chat.js";
import { button, el } from "./dom.js";
import { neighbourLarge, neighboursPanel } from "./speedquilt-neighbours.js";
import {
  playBell,
  playBlock,
  playClockWarning,
  playRoll,
  setClockBeep,
  setSounds,
} from "./speedquilt-sounds.js";
import { StartChoice } from "./speedquilt-choice.js";
import {
  decorateNeighbours,
  decorateWindow,
  expiredText,
  loadPot,
  payoutLine,
  peopleBar,
  startClockTicker,
  withPeople,
} from "./speedquilt-people.js";
import { NO_TABLE, tableState } from "./speedquilt-table-state.js";
import { diceArea } from "./speedquilt-table-dice.js";
import { shop } from "./speedquilt-table-shop.js";
import { actionBar, myQuilt, sewingView } from "./speedquilt-table-sewing.js";
import { AutoPass, givingDice, givingHandler, givingPanel } from "./speedquilt-table-giving.js";

const ANIMATION_MS = { slow: 900, normal: 450, fast: 120 };
const PHONE_WIDTH = 700;
/** The longest a redraw waits for a press to end (longer than the long-press of block info). */
const HOLD_MS = 1500;
/** rAF does not run in a hidden tab: there a timer draws what the server's messages changed. */
const FRAME_FALLBACK_MS = 100;
/** How far above a docked window a lit patch is scrolled: clear of the window's border. */
const DOCK_GAP_PX = 12;

/** Her choices before the server hears of them: chosen dice, the sewing plan, the block she
 * buys, dice for the bargain bin, the die she gives, and which panel or view is open. */
export function nothingChosen() {
  return {
    selected: [],
    plan: new SewingPlan(),
    buying: null,
    binDice: [],
    binMode: false,
    givingDie: null,
    shopOpen: false,
    sewingCell: null,
    tab: "neighbours",
    largeNeighbour: null,
    settingsOpen: false,
  };
}

/** Her choice after a new view: a new turn or roll forgets the dice, plan, buy and bin; a die
 * that is used now leaves the choice and the plan. */
export function forgetStale(choice, before, view) {
  const turn = view.turn;
  const sameTurn =
    before?.turn && turn && before.turn.seat === turn.seat && before.round === view.round;
  const usable = new Set(
    (turn?.dice ?? []).map((d) => d.die).filter((d) => !(turn?.used ?? []).includes(d)),
  );
  let next = choice;
  if (!sameTurn || before.turn.rolls !== turn.rolls) {
    const fresh = nothingChosen();
    const { selected, plan, buying, binDice, binMode } = fresh;
    next = { ...choice, selected, plan, buying, binDice, binMode };
  }
  const plan = next.plan.copy();
  for (const die of plan.plannedDice()) if (!usable.has(die)) plan.unplan(die);
  return { ...next, plan, selected: next.selected.filter((d) => usable.has(d)) };
}

export class TableScreen {
  /**
   * @param root the element the screen draws into
   * @param tableId the table to show
   * @param app {me, settings, saveSettings(partial), languageSelect(), newTable(options)}
   */
  constructor(root, tableId, app) {
    this.stopped = false;
    this.root = root;
    this.tableId = tableId;
    this.app = app;
    this.state = NO_TABLE;
    this.choice = nothingChosen();
    this.startChoice = new StartChoice(
      () => this.renderNow(),
      (move) => this.play(move),
    );
    this.autoPass = new AutoPass();
    this.pressedAt = null;
    this.heldRender = null;
    this.frame = null;
    this.frameTimer = null;
    this.settings = tableSettings(app.settings);
    this.socket = new TableSocket(
      tableId,
      (message) => this.receive(message),
      (up) => this.connection(up),
    );
  }

  // -- the state, as the panels and the people's modules read it ----------------------------------

  get view() {
    return this.state.view;
  }

  get legal() {
    return this.state.legal;
  }

  get toAct() {
    return this.state.toAct;
  }

  get seat() {
    return this.state.seat;
  }

  get table() {
    return this.state.table;
  }

  get history() {
    return this.state.history;
  }

  get chat() {
    return this.state.chat;
  }

  get clocks() {
    return this.state.clocks;
  }

  get result() {
    return this.state.result;
  }

  // -- her choice ------------------------------------------------------------------------------

  /** Change her choice and draw it at once (what her tap does may read the new screen, e.g.
   * revealLitPatch); `draw: false` where the server's answer will draw. */
  choose(change, { draw = true } = {}) {
    this.choice = { ...this.choice, ...change };
    if (draw) this.renderNow();
  }

  /** Change a copy of her sewing plan (and more of her choice) and draw it. */
  replan(edit, change = {}) {
    const plan = this.choice.plan.copy();
    edit(plan);
    this.choose({ ...change, plan });
  }

  async start() {
    this.root.className = "screen sq-screen";
    this.root.replaceChildren(el("p", "loading", "Speedquilt …"));
    await loadCatalogue();
    if (this.stopped) return; // she went elsewhere while the catalogue loaded
    this.applySettings();
    this.holdRenderWhilePressed();
    this.stopClocks = startClockTicker(this.root);
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    this.socket.connect();
  }

  /**
   * Enter or Space answers a giving window with nothing chosen: one keystroke, as one tap
   * (a window opens after every reroll of every other player). Typing in a field, or a key on a
   * focused button (which presses that button), is left alone.
   */
  key(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, textarea, select, button, a"))
      return;
    if (!this.myWindow || this.choice.givingDie || !this.legal.includes("pass")) return;
    event.preventDefault();
    this.play("pass");
  }

  /**
   * A tap is a press and a release on the same element. The computers' moves keep arriving while
   * she taps, and a redraw between press and release would replace the element under her finger
   * and swallow the tap; so a redraw waits until the press ends (at most HOLD_MS).
   */
  holdRenderWhilePressed() {
    this.root.addEventListener("pointerdown", () => {
      this.pressedAt = Date.now();
    });
    const released = () => {
      if (this.pressedAt === null) return;
      this.pressedAt = null;
      // After the click that follows this release has been handled.
      setTimeout(() => this.flushHeldRender(), 0);
    };
    this.released = released;
    for (const type of ["pointerup", "pointercancel"])
      window.addEventListener(type, released, { capture: true });
  }

  flushHeldRender() {
    if (this.heldRender === null) return;
    clearTimeout(this.heldRender);
    this.heldRender = null;
    this.renderNow();
  }

  stop() {
    this.stopped = true;
    const keys = ["seq", "mine", "phase", "status", "turn", "you", "legal", "round", "lastRound"];
    for (const key of [...keys, "tab"]) delete this.root.dataset[key];
    this.root.classList.remove("theme-lamp", "theme-linen");
    document.body.classList.remove("sq-body", "theme-lamp", "theme-linen");
    this.autoPass.hold();
    clearTimeout(this.heldRender);
    this.cancelFrame();
    document.removeEventListener("keydown", this.onKey);
    this.stopClocks?.();
    for (const type of ["pointerup", "pointercancel"])
      window.removeEventListener(type, this.released, { capture: true });
    this.socket.close();
  }

  build() {
    if (this.view) this.renderNow();
  }

  // -- messages ------------------------------------------------------------------------------

  /** One message of the server: the reducer keeps what it says; the screen does the rest. */
  receive(message) {
    const before = this.state.view;
    this.state = tableState(this.state, message);
    if (message.type === "table.state") {
      this.applySettings(); // the animations follow the table's tempo
      this.seen(before);
    } else if (message.type === "table.event") {
      this.sound(message.entry);
      this.seen(before);
    } else if (message.type === "table.chat" || message.type === "table.seat") {
      // table.seat: a seat changed hands (a computer plays it while its person is away).
      this.render();
    } else if (message.type === "table.clock") {
      this.clockRanOut(message);
    } else if (message.type === "table.left") {
      location.hash = "#/lobby";
    } else if (message.type === "table.end") {
      this.ended();
    } else if (message.type === "error") {
      if (message.code === "stale") this.socket.resync();
      this.say(errorText(message), true);
      this.render();
    }
  }

  /** A new view: her choice forgets what the view made meaningless, and the screen is drawn
   * (with the next frame: the root says which view once it shows it, see markRoot). */
  seen(before) {
    this.choice = forgetStale(this.choice, before, this.view);
    // The sewing view lasts her turn or her giving window. Messages that come together are
    // drawn together, so it closes here, with every view, not only with the ones drawn: else a
    // window answered and the next one opened in one frame would keep it open.
    if (!this.myTurn && !(this.myWindow && this.legal.length))
      this.choice = { ...this.choice, sewingCell: null };
    this.render();
  }

  /** A clock ran out: a beep and the 10 s of grace (tables with people have clocks). */
  clockRanOut(message) {
    if (message.seat === this.seat && message.phase === "grace") {
      playClockWarning();
      this.say(t("sq.clock_grace"), true);
    } else if (message.seat === this.seat) this.say(expiredText(message.kind), true);
  }

  /** The game is over: the bell, the end table, then what it earned and paid out. */
  ended() {
    playBell();
    this.render();
    this.loadAchievements();
    loadPot(this).then((pot) => {
      this.pot = pot;
      this.render();
    });
  }

  sound(entry) {
    const move = entry?.move ?? "";
    if (move === "roll" || move === "reroll") playRoll();
    else if (/^(sew|buy|bin place)/.test(move)) playBlock();
  }

  connection(up) {
    this.root.classList.toggle("offline", !up);
    if (!up) this.say(t("status.reconnecting"), true);
    // Connected again: the note of the lost connection goes (another error stays).
    else if (this.statusText === t("status.reconnecting")) this.say("");
  }

  say(text, isError = false) {
    this.statusText = text;
    this.statusError = isError;
    if (this.statusEl) {
      this.statusEl.textContent = text;
      this.statusEl.classList.toggle("error", isError);
    }
  }

  // -- sending ---------------------------------------------------------------------------------

  /** Send a move if the server listed it; returns whether it was sent. */
  play(move) {
    if (!this.legal.includes(move)) {
      this.say(t("sq.not_allowed"), true);
      return false;
    }
    this.autoPass.hold();
    if (!this.socket.move(move)) {
      this.say(t("status.reconnecting"), true);
      return false;
    }
    this.say("");
    return true;
  }

  /** The legal move that matches a predicate over its words (dice order may differ). */
  findLegal(predicate) {
    return this.legal.find(predicate) ?? null;
  }

  /** The thimble and dye-bath moves of a die (in her turn and while she gives). */
  adjusting() {
    return {
      onThimble: (name, delta) => this.play(`thimble ${name} ${delta > 0 ? "+1" : "-1"}`),
      onDye: (name, colour) => this.play(`dye ${name}->${colour}`),
    };
  }

  // -- who is who ----------------------------------------------------------------------------

  /** A seat's name; her own is "Du", except in the history (its verbs are third person). */
  nameOf(seat, thirdPerson = false) {
    return seatName(this.table?.seats, seat, this.seat, thirdPerson);
  }

  get you() {
    return this.seat;
  }

  get myTurn() {
    return this.view?.phase === "turn" && this.view.turn?.seat === this.seat;
  }

  get myWindow() {
    return this.view?.turn?.windows?.[String(this.seat)] ?? null;
  }

  get phone() {
    return window.innerWidth < PHONE_WIDTH;
  }

  /** Her finished kits of each kind (thimble, dye bath, scissors, sewing machine, pins). */
  kits() {
    const out = {};
    for (const b of this.view.seats[this.seat]?.quilt ?? []) {
      const def = blockDef(b.block);
      if (b.finished && def?.kit) out[def.kit] = (out[def.kit] ?? 0) + 1;
    }
    return out;
  }

  dice() {
    return Object.fromEntries((this.view.turn?.dice ?? []).map((d) => [d.die, d]));
  }

  /** The dice of this turn she has not used yet. */
  unusedDice() {
    const turn = this.view.turn;
    return turn ? turn.dice.filter((d) => !turn.used.includes(d.die)) : [];
  }

  /** The dice she can put on a patch now, which her block info names: in her turn the ones she
   * has not used; in her giving window the offered ones she may still take; else none (the
   * active player's dice are not hers). */
  diceForInfo() {
    if (this.myTurn) return this.unusedDice();
    const window = this.myWindow;
    if (!window || !this.legal.some((m) => m.startsWith("give "))) return [];
    const open = (d) => window.offered.includes(d.die) && !window.taken.includes(d.die);
    return (this.view.turn?.dice ?? []).filter(open);
  }

  /** How many dice her finished scissors may still stand in for in this turn. */
  scissorsLeft() {
    return Math.max(0, (this.kits().scissors ?? 0) - (this.view.turn?.kit_uses?.scissors ?? 0));
  }

  // -- drawing ---------------------------------------------------------------------------------

  /** The tempo of this table (chosen when it was set up; the setting is for new tables): it
   * paces the computers on the server and the animations here. */
  get tempo() {
    return ANIMATION_MS[this.table?.tempo] ? this.table.tempo : this.settings.tempo;
  }

  applySettings() {
    const theme = this.settings.table_theme;
    document.body.classList.add("sq-body");
    document.body.classList.toggle("theme-lamp", theme === "lamp");
    document.body.classList.toggle("theme-linen", theme === "linen");
    this.root.style.setProperty("--sq-anim", `${ANIMATION_MS[this.tempo]}ms`);
    setSounds(this.settings.sounds);
    setClockBeep(this.settings.clock_beep);
  }

  /**
   * Draw the screen with the next frame. The whole screen is built anew, and messages come in
   * bursts (computers that do not pause, a reconnect that catches up a hundred entries): drawn
   * once per message, the browser would spend seconds on screens nobody sees. So every message
   * of a burst asks, and the frame draws once what they all changed.
   */
  render() {
    if (this.frameTimer !== null || this.stopped) return;
    const draw = () => this.renderNow();
    this.frame = requestAnimationFrame(draw);
    this.frameTimer = setTimeout(draw, FRAME_FALLBACK_MS);
  }

  cancelFrame() {
    cancelAnimationFrame(this.frame);
    clearTimeout(this.frameTimer);
    this.frame = null;
    this.frameTimer = null;
  }

  /** Draw the screen now (her own taps: what they do next may read the new screen). */
  renderNow() {
    this.cancelFrame();
    // A stopped screen draws nothing: an answer that arrives after she went elsewhere (the
    // solo screen's history and campaign facts load late on a busy machine) would otherwise
    // draw this screen over the page she went to.
    if (!this.view || this.stopped) return;
    if (this.pressedAt !== null && Date.now() - this.pressedAt < HOLD_MS) {
      this.heldRender ??= setTimeout(() => {
        this.pressedAt = null;
        this.flushHeldRender();
      }, HOLD_MS);
      return;
    }
    clearTimeout(this.heldRender);
    this.heldRender = null;
    this.draw();
  }

  /** Build the whole screen from the state and her choice, keeping the scroll position. */
  draw() {
    this.markRoot();
    const scrollY = window.scrollY;
    this.root.replaceChildren();
    this.info = new BlockInfo(this.root);
    this.root.append(this.header());
    if (this.phone) this.root.append(this.phoneTabs());
    this.root.append(this.layout());
    this.statusEl = el("p", "status-line", this.statusText ?? "");
    this.statusEl.classList.toggle("error", Boolean(this.statusError));
    this.statusEl.setAttribute("role", "status");
    this.root.append(this.statusEl);
    const fingerprint = fingerprintNote(this.table?.fairness ?? this.state.fairness);
    if (fingerprint) this.root.append(fingerprint);
    this.overlays();
    this.makeRoomForDock();
    decorateWindow(this, this.root);
    window.scrollTo(0, scrollY);
    this.autoPass.schedule(this);
  }

  /** The root's data and classes: what the page shows now, for CSS, tests and people (the
   * last entry drawn, and her own last one: tests and people can tell her move was taken). */
  markRoot() {
    const view = this.view;
    this.root.dataset.seq = String(this.state.seq);
    this.root.dataset.mine = String(this.state.mine ?? 0);
    this.root.dataset.phase = view.phase;
    this.root.dataset.status = view.status;
    this.root.dataset.you = String(this.seat);
    this.root.dataset.turn = view.turn ? String(view.turn.seat) : "";
    this.root.dataset.legal = String(this.legal.length);
    // The round, and the last one as it stands (the rounds' limit, or the round a full quilt
    // made the last).
    this.root.dataset.round = String(view.round);
    this.root.dataset.lastRound = String(Math.min(view.max_rounds, view.end_round ?? Infinity));
    this.root.classList.toggle("my-turn", this.myTurn);
    this.root.classList.toggle("phone", this.phone);
  }

  /** The shop, her quilt with the dice and actions, and the side (neighbours, history, chat). */
  layout() {
    const layout = el("div", "sq-layout");
    const side = el("aside", "sq-side");
    const history = historyPanel(this.history, (s) => this.nameOf(s, true));
    side.append(neighboursPanel(this), history, chatPanel(this));
    const centre = el("main", "sq-centre");
    centre.append(peopleBar(this), this.statusBar());
    centre.append(this.myQuilt(), this.diceArea(), this.actionBar());
    layout.append(this.shop(), centre, side);
    decorateNeighbours(this, side);
    return layout;
  }

  header() {
    const bar = el("header", "sq-toolbar");
    const back = el("a", "back", "← " + t("app.title"));
    back.href = "#/";
    const title = el("h1", "", t("game.speedquilt"));
    const round = el("span", "sq-round", t("sq.round", { round: this.view.round }));
    if (this.view.end_round)
      round.textContent += ` · ${t("sq.last_round", { round: this.view.end_round })}`;
    const rules = el("a", "rules-link", t("action.rules"));
    rules.href = rulesUrl("speedquilt");
    rules.target = "_blank";
    rules.rel = "noopener";
    const gear = button("⚙", "gear", () => this.choose({ settingsOpen: true }));
    gear.setAttribute("aria-label", t("sq.settings"));
    gear.title = t("sq.settings");
    bar.append(back, title, round, rules, this.app.languageSelect(), gear);
    return bar;
  }

  phoneTabs() {
    const tabs = el("nav", "sq-tabs");
    tabs.setAttribute("role", "tablist");
    for (const tab of ["neighbours", "history", "chat"]) {
      const node = button(t(`sq.tab.${tab}`), `tab tab-${tab}`, () => this.choose({ tab }));
      node.setAttribute("role", "tab");
      node.setAttribute("aria-selected", String(this.choice.tab === tab));
      tabs.append(node);
    }
    this.root.dataset.tab = this.choice.tab;
    return tabs;
  }

  statusBar() {
    const bar = el("p", "sq-whose");
    const view = this.view;
    if (view.phase === "choosing") bar.textContent = t("sq.status.choosing");
    else if (view.phase === "over") bar.textContent = t("sq.status.over");
    else if (this.myTurn) bar.textContent = t("sq.status.your_turn");
    else if (this.myWindow) bar.textContent = t("sq.status.giving");
    else if (view.turn)
      bar.textContent = t("sq.status.their_turn", { name: this.nameOf(view.turn.seat) });
    return bar;
  }

  // -- the panels (the solo screen draws some of them differently) ----------------------------

  myQuilt() {
    return myQuilt(this);
  }

  diceArea() {
    return diceArea(this);
  }

  actionBar() {
    return actionBar(this);
  }

  shop() {
    return shop(this);
  }

  sewingView() {
    return sewingView(this);
  }

  givingDice() {
    return givingDice(this);
  }

  // -- overlays ------------------------------------------------------------------------------

  overlays() {
    const layer = el("div", "sq-overlay");
    const content = this.overlay(layer);
    const kind = content?.className ?? null;
    // Only a window that was not there before pops up; redrawing one that stays is quiet.
    if (content && kind !== this.overlayKind) layer.classList.add("appear");
    this.overlayKind = kind;
    if (!content) return;
    layer.append(content);
    this.root.append(layer);
  }

  /** The window over the table now, if any (the settings, the end table, a neighbour's quilt,
   * the sewing view, her giving window); a docked one marks `layer`. */
  overlay(layer) {
    const { settingsOpen, largeNeighbour, sewingCell } = this.choice;
    const giving = this.myWindow && this.legal.length;
    if (settingsOpen) {
      return settingsDialog(
        this.settings,
        (partial) => this.changeSetting(partial),
        () => this.choose({ settingsOpen: false }),
      );
    }
    if (this.result && this.view.phase === "over") return this.endOverlay();
    if (largeNeighbour !== null) return neighbourLarge(this, largeNeighbour);
    // Seed 003: tapping her own block while giving opens the sewing view as in her turn.
    if (giving && sewingCell && this.phone) return this.sewingView();
    if (giving) {
      layer.classList.add("docked");
      return givingPanel(this);
    }
    if (sewingCell && this.phone && this.myTurn) return this.sewingView();
    // Her turn or her giving window is over: so is the sewing view.
    this.choose({ sewingCell: null }, { draw: false });
    return null;
  }

  endOverlay() {
    const build = () =>
      endTable(this.view, this.result, {
        nameOf: (s) => this.nameOf(s),
        tempoMs: ANIMATION_MS[this.tempo] * 2,
        reviewHref: `#/progress/table/${encodeURIComponent(this.tableId)}`,
        // A table with people is set up again in the lobby.
        onAgain: () =>
          withPeople(this) ? (location.hash = "#/lobby") : this.app.newTable(this.table),
      });
    return keptEndTable(this, build, (box, add) => {
      add(achievementsBox(this.achievements), box.querySelector(".end-buttons"));
      add(payoutLine(this, this.pot));
    });
  }

  /** What her taps do while she gives (speedquilt-table-giving.js). */
  giving() {
    return givingHandler(this);
  }

  /** A docked window (giving, a solo giving turn) sits over the foot of the page. The page
   * gets that much room below, so she can always scroll every row of her quilt above it. */
  makeRoomForDock() {
    const dock = this.root.querySelector(":scope > .sq-overlay.docked");
    this.root.style.paddingBottom = dock ? `${dock.offsetHeight}px` : "";
  }

  /** After she takes a die from a docked window: if every patch it lights lies under the
   * window or off the screen, the first one is scrolled to just above the window. */
  revealLitPatch() {
    const dock = this.root.querySelector(":scope > .sq-overlay.docked > section");
    const lit = [...this.root.querySelectorAll(".sq-own .patch.target")];
    if (!dock || !lit.length) return;
    const edge = dock.getBoundingClientRect().top;
    const reachable = (patch) => {
      const box = patch.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= edge;
    };
    if (lit.some(reachable)) return;
    window.scrollBy(0, lit[0].getBoundingClientRect().bottom - edge + DOCK_GAP_PX);
  }

  changeSetting(partial) {
    Object.assign(this.settings, partial);
    this.applySettings();
    this.app.saveSettings(partial);
    this.renderNow();
  }

  /** The achievements this table earned her, for the end table (seed: "Neue Erfolge zeigt die
   * Endtafel"). */
  async loadAchievements() {
    if (this.seat === null || this.achievements) return;
    this.achievements = await achievementsOf(this.tableId).catch(() => []);
    this.render();
  }
}
