// The Speedquilt table screen (#/table/<id>): her quilt, the dice, the shop, the neighbours, the
// history, the giving window, the start choice, the end table and the view settings. The server
// decides every move: the screen sends the engine's text notation and offers only what the
// server's `legal` list holds; its own pre-checks only decide what lights up.

import { fingerprintNote } from "./fairness.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { rulesUrl } from "./rules.js";
import {
  blockDef,
  blockName,
  blockShortName,
  blockSvg,
  placementCells,
  quiltGrid,
  loadCatalogue,
} from "./speedquilt-blocks.js";
import { diceTray } from "./speedquilt-dice.js";
import { seatName } from "./speedquilt-names.js";
import { endTable, keptEndTable } from "./speedquilt-end.js";
import { achievementsBox, achievementsOf } from "./speedquilt-achievements.js";
import { AUTO_PASS_MS, givingWindow, helpfulDice } from "./speedquilt-giving.js";
import { historyPanel } from "./speedquilt-history.js";
import { BlockInfo } from "./speedquilt-info.js";
import { SewingPlan, canPlace } from "./speedquilt-plan.js";
import { settingsDialog, tableSettings } from "./speedquilt-settings.js";
import { shelvesPaidBy, shopPanel } from "./speedquilt-shop.js";
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
  seatChanged,
  startClockTicker,
  withPeople,
} from "./speedquilt-people.js";

const ANIMATION_MS = { slow: 900, normal: 450, fast: 120 };
const PHONE_WIDTH = 700;
/** The longest a redraw waits for a press to end (longer than the long-press that opens block info). */
const HOLD_MS = 1500;
/** How far above a docked window a lit patch is scrolled: clear of the window's border. */
const DOCK_GAP_PX = 12;

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
    this.view = null;
    this.legal = [];
    this.toAct = [];
    this.seat = null;
    this.table = null;
    this.history = [];
    this.result = null;
    this.plan = new SewingPlan();
    this.selected = [];
    this.buying = null;
    this.binDice = [];
    this.binMode = false;
    this.shopOpen = false;
    this.tab = "neighbours";
    this.largeNeighbour = null;
    this.sewingCell = null;
    this.settingsOpen = false;
    this.startChoice = null;
    this.autoPassTimer = null;
    this.autoPassFor = null;
    this.previousShop = null;
    this.pressedAt = null;
    this.heldRender = null;
    this.settings = tableSettings(app.settings);
    this.socket = new TableSocket(
      tableId,
      (message) => this.receive(message),
      (up) => this.connection(up),
    );
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
    if (!this.myWindow || this.givingDie || !this.legal.includes("pass")) return;
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
    this.render();
  }

  stop() {
    this.stopped = true;
    for (const key of ["seq", "mine", "phase", "status", "turn", "you", "legal", "tab"])
      delete this.root.dataset[key];
    this.root.classList.remove("theme-lamp", "theme-linen");
    document.body.classList.remove("sq-body", "theme-lamp", "theme-linen");
    clearTimeout(this.autoPassTimer);
    clearTimeout(this.heldRender);
    document.removeEventListener("keydown", this.onKey);
    this.stopClocks?.();
    for (const type of ["pointerup", "pointercancel"])
      window.removeEventListener(type, this.released, { capture: true });
    this.socket.close();
  }

  build() {
    if (this.view) this.render();
  }

  // -- messages ------------------------------------------------------------------------------

  receive(message) {
    if (message.type === "table.state") {
      this.table = message.table;
      this.applySettings(); // the animations follow the table's tempo
      this.seat = message.seat;
      this.history = (message.history ?? []).slice();
      this.chat = message.chat ?? null;
      this.update(message);
    } else if (message.type === "table.chat") {
      (this.chat ??= []).push(message);
      this.render();
    } else if (message.type === "table.clock") {
      // A clock ran out: a beep and the 10 s of grace (tables with people have clocks).
      if (message.seat === this.seat && message.phase === "grace") {
        playClockWarning();
        this.say(t("sq.clock_grace"), true);
      } else if (message.seat === this.seat) this.say(expiredText(message.kind), true);
    } else if (message.type === "table.event") {
      const entry = message.entry;
      // The last entry of her own seat: a test (or a person) can tell her move has been taken.
      if (entry?.seat === this.seat) this.mine = message.seq;
      if (entry?.line) this.history.push(entry.line);
      for (const line of entry?.also ?? []) this.history.push(line);
      this.sound(entry);
      this.update(message);
    } else if (message.type === "table.seat") {
      // A seat changed hands: a computer plays it while its person is away, or she is back.
      seatChanged(this, message);
      this.render();
    } else if (message.type === "table.left") {
      location.hash = "#/lobby";
    } else if (message.type === "table.end") {
      this.result = message.result;
      playBell();
      this.render();
      this.loadAchievements();
      loadPot(this).then((pot) => {
        this.pot = pot;
        this.render();
      });
    } else if (message.type === "error") {
      if (message.code === "stale") this.socket.resync();
      this.say(errorText(message), true);
      this.pending = false;
      this.render();
    }
  }

  update(message) {
    const before = this.view;
    this.view = message.view;
    this.legal = message.legal ?? [];
    this.toAct = message.to_act ?? [];
    this.clocks = message.clocks ?? [];
    this.root.dataset.seq = String(message.seq);
    this.root.dataset.mine = String(this.mine ?? 0);
    this.pending = false;
    if (this.view.phase === "over" && this.view.scores && !this.result) {
      this.result = {
        scores: this.view.scores,
        places: this.view.places,
        breakdown: this.view.breakdown,
        leaderboard_points: this.table?.result?.leaderboard_points,
        empty_patches: this.view.breakdown?.map((b) => b.empty_patches),
      };
    }
    this.forgetStale(before);
    this.render();
  }

  /** Drop selections and plans the new view has made meaningless. */
  forgetStale(before) {
    const turn = this.view.turn;
    const sameTurn =
      before?.turn && turn && before.turn.seat === turn.seat && before.round === this.view.round;
    const usable = new Set(
      (turn?.dice ?? []).map((d) => d.die).filter((d) => !(turn?.used ?? []).includes(d)),
    );
    if (!sameTurn || before.turn.rolls !== turn.rolls) {
      this.plan.clear();
      this.selected = [];
      this.buying = null;
      this.binDice = [];
      this.binMode = false;
    }
    this.selected = this.selected.filter((d) => usable.has(d));
    for (const die of this.plan.plannedDice()) if (!usable.has(die)) this.plan.unplan(die);
    if (this.previousShop && JSON.stringify(this.previousShop) !== JSON.stringify(this.view.shop)) {
      const changed = (shelf) =>
        JSON.stringify(this.previousShop[shelf]) !== JSON.stringify(this.view.shop[shelf]);
      this.slid = { pattern: changed("pattern"), kit: changed("kit") };
    } else this.slid = null;
    this.previousShop = this.view.shop;
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
    clearTimeout(this.autoPassTimer);
    if (!this.socket.move(move)) {
      this.say(t("status.reconnecting"), true);
      return false;
    }
    this.pending = true;
    this.say("");
    return true;
  }

  /** The legal move that matches a predicate over its words (dice order may differ). */
  findLegal(predicate) {
    return this.legal.find(predicate) ?? null;
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

  render() {
    const view = this.view;
    // A stopped screen draws nothing: an answer that arrives after she went elsewhere (the
    // solo screen's history and campaign facts load late on a busy machine) would otherwise
    // draw this screen over the page she went to.
    if (!view || this.stopped) return;
    if (this.pressedAt !== null && Date.now() - this.pressedAt < HOLD_MS) {
      this.heldRender ??= setTimeout(() => {
        this.pressedAt = null;
        this.flushHeldRender();
      }, HOLD_MS);
      return;
    }
    clearTimeout(this.heldRender);
    this.heldRender = null;
    this.root.dataset.phase = view.phase;
    this.root.dataset.status = view.status;
    this.root.dataset.you = String(this.seat);
    this.root.dataset.turn = view.turn ? String(view.turn.seat) : "";
    this.root.dataset.legal = String(this.legal.length);
    this.root.classList.toggle("my-turn", this.myTurn);
    this.root.classList.toggle("phone", this.phone);
    const scrollY = window.scrollY;
    this.root.replaceChildren();
    this.info = new BlockInfo(this.root);
    this.root.append(this.header());
    if (this.phone) this.root.append(this.phoneTabs());
    const layout = el("div", "sq-layout");
    const side = el("aside", "sq-side");
    const history = historyPanel(this.history, (s) => this.nameOf(s, true));
    side.append(neighboursPanel(this), history, chatPanel(this));
    const centre = el("main", "sq-centre");
    centre.append(peopleBar(this), this.statusBar());
    centre.append(this.myQuilt(), this.diceArea(), this.actionBar());
    layout.append(this.shop(), centre, side);
    decorateNeighbours(this, side);
    this.root.append(layout);
    this.statusEl = el("p", "status-line", this.statusText ?? "");
    this.statusEl.classList.toggle("error", Boolean(this.statusError));
    this.statusEl.setAttribute("role", "status");
    this.root.append(this.statusEl);
    const fingerprint = fingerprintNote(this.table?.fairness ?? this.fairness);
    if (fingerprint) this.root.append(fingerprint);
    this.overlays();
    this.makeRoomForDock();
    decorateWindow(this, this.root);
    window.scrollTo(0, scrollY);
    this.scheduleAutoPass();
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
    const gear = button("⚙", "gear", () => {
      this.settingsOpen = true;
      this.render();
    });
    gear.setAttribute("aria-label", t("sq.settings"));
    gear.title = t("sq.settings");
    bar.append(back, title, round, rules, this.app.languageSelect(), gear);
    return bar;
  }

  phoneTabs() {
    const tabs = el("nav", "sq-tabs");
    tabs.setAttribute("role", "tablist");
    for (const tab of ["neighbours", "history", "chat"]) {
      const node = button(t(`sq.tab.${tab}`), `tab tab-${tab}`, () => {
        this.tab = tab;
        this.render();
      });
      node.setAttribute("role", "tab");
      node.setAttribute("aria-selected", String(this.tab === tab));
      tabs.append(node);
    }
    this.root.dataset.tab = this.tab;
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

  // -- her quilt -------------------------------------------------------------------------------

  patchTargets(placed) {
    const die = this.selected.length === 1 ? this.selected[0] : this.myWindow && this.givingDie;
    if (!die || placed.finished) return new Set();
    const dice = this.dice();
    if (this.myWindow && this.givingDie) {
      return new Set(
        placed.filled
          .map((_, i) => i)
          .filter((i) => this.legal.includes(`give ${die} to ${placed.block}:${i + 1}`)),
      );
    }
    if (this.binMode) {
      const def = blockDef(placed.block);
      const filled = placed.filled.slice();
      for (const b of this.binDice)
        if (b.block === placed.block) filled[b.patch - 1] = dice[b.die].value;
      const fits = def.patches.map((_, i) => i).filter((i) => canPlace(def, filled, i, dice[die]));
      return new Set(fits);
    }
    return this.plan.targets(placed, die, dice);
  }

  blockOpts(placed) {
    const key = `${placed.x},${placed.y}`;
    const dice = this.dice();
    const planned = {};
    for (const [index, die] of this.plan.of(key)) planned[index] = dice[die];
    for (const b of this.binDice) if (b.block === placed.block) planned[b.patch - 1] = dice[b.die];
    return { planned, targets: this.patchTargets(placed) };
  }

  canSewNow() {
    return this.myTurn && this.legal.some((m) => m.startsWith("sew "));
  }

  myQuilt() {
    const box = el("section", "sq-own");
    const quilt = this.view.seats[this.seat]?.quilt ?? [];
    // Before the start rows are laid there is no quilt to show yet.
    box.hidden = !quilt.length;
    box.append(el("h2", "", t("sq.your_quilt")));
    const slots = this.placingSlots(quilt);
    const grid = quiltGrid(quilt, {
      slots,
      onSlot: (cell) => this.placeAt(cell),
      blockOpts: (placed) => this.blockOpts(placed),
      decorate: (placed, wrap) => this.decorateOwn(placed, wrap, quilt),
    });
    if (slots.length) grid.classList.add("placing");
    box.append(grid);
    return box;
  }

  decorateOwn(placed, wrap, quilt) {
    const key = `${placed.x},${placed.y}`;
    wrap.classList.toggle("finished", placed.finished);
    if (this.plan.complete(placed) && this.legal.includes(this.plan.sewMove(placed))) {
      const sew = button(t("sq.sew"), "sew-button primary", (event) => {
        event.stopPropagation();
        this.play(this.plan.sewMove(placed));
      });
      wrap.append(sew);
    }
    const context = () => ({
      placed,
      quilt,
      dice: this.diceForInfo(),
      giving: !this.myTurn,
      own: true,
    });
    this.info.attach(wrap, placed.block, context, (event) => this.tapOwn(event, placed, key));
  }

  /** A tap on her own block: plan/give/bin a die on a patch, or open the sewing view. */
  tapOwn(event, placed) {
    const patch = event.target.closest?.("[data-patch]");
    const index = patch ? Number(patch.dataset.patch) - 1 : null;
    const targets = this.patchTargets(placed);
    if (index !== null && targets.has(index)) {
      this.usePatch(placed, index);
      return true;
    }
    if (this.phone && !this.sewingCell && (this.myTurn || this.myWindow) && !placed.finished) {
      this.sewingCell = `${placed.x},${placed.y}`;
      this.render();
      return true;
    }
    return false;
  }

  usePatch(placed, index) {
    if (this.myWindow && this.givingDie) {
      this.play(`give ${this.givingDie} to ${placed.block}:${index + 1}`);
      this.givingDie = null;
      return;
    }
    const die = this.selected[0];
    if (this.binMode) {
      this.binDice = this.binDice.filter((b) => b.die !== die);
      this.binDice.push({ die, block: placed.block, patch: index + 1 });
    } else {
      this.plan.toggle(`${placed.x},${placed.y}`, index, die);
    }
    this.selected = [];
    this.render();
  }

  placingSlots(quilt) {
    const drawn = this.view.turn?.drawn;
    if (this.myTurn && drawn?.block) {
      return placementCells(quilt).filter((c) => this.legal.includes(`bin place at ${c}`));
    }
    if (this.buying) {
      return placementCells(quilt).filter((c) => this.buyMove(c) !== null);
    }
    return [];
  }

  buyMove(cell) {
    const prefix = `buy ${this.buying.id} at ${cell} with `;
    const wanted = [...this.selected].sort().join(" ");
    return this.findLegal(
      (m) => m.startsWith(prefix) && m.slice(prefix.length).split(" ").sort().join(" ") === wanted,
    );
  }

  placeAt(cell) {
    if (this.view.turn?.drawn?.block) {
      this.play(`bin place at ${cell}`);
      return;
    }
    const move = this.buying && this.buyMove(cell);
    if (move && this.play(move)) {
      this.buying = null;
      this.selected = [];
    }
  }

  // -- dice --------------------------------------------------------------------------------------

  diceArea() {
    const box = el("section", "sq-dice-area");
    const turn = this.view.turn;
    if (this.view.phase === "choosing") {
      box.classList.add("choosing");
      this.startChoice ??= new StartChoice(() => this.render(), (move) => this.play(move));
      box.append(this.startChoice.render(this.view, this.legal, this.info));
      return box;
    }
    if (!turn || !turn.rolls) {
      box.append(el("p", "muted dice-waiting", t("sq.dice_waiting")));
      return box;
    }
    const mine = this.myTurn;
    const rolling = mine && !turn.acted && this.legal.includes("reroll");
    const planned = this.plan.plannedDice();
    for (const b of this.binDice) planned.add(b.die);
    const tray = diceTray(turn, {
      selected: this.selected.length === 1 ? this.selected[0] : null,
      multi: new Set(this.selected),
      basketOpen: rolling,
      plannedDice: planned,
      kits: mine ? { thimble: this.kits().thimble, dye_bath: this.kits().dye_bath } : {},
      legal: this.legal,
      onSelect: mine ? (name) => this.selectDie(name) : null,
      onBasket: (name) => this.toggleBasket(name),
      ...this.adjusting(),
    });
    for (const name of this.selected)
      tray.querySelector(`[data-die="${name}"]`)?.classList.add("selected");
    box.append(tray);
    const machines = mine ? (this.kits().sewing_machine ?? 0) : 0;
    const left = Math.max(0, 3 + machines - turn.rolls);
    const facts = el("p", "dice-facts");
    // Once she has sewn or bought, rolling is over: no reroll is "left" any more.
    const rolled = turn.acted ? t("sq.rolling_over") : t("sq.rerolls_left", { count: left });
    facts.append(el("span", "rerolls-left", rolled));
    if (!mine)
      facts.append(" · ", el("span", "", t("sq.dice_of", { name: this.nameOf(turn.seat) })));
    box.append(facts);
    if (mine && this.selected.length >= 3) {
      const paid = shelvesPaidBy(this.selected.map((d) => this.dice()[d].value));
      if (paid.size) box.append(el("p", "buy-hint", t("sq.buy_hint")));
    }
    return box;
  }

  selectDie(name) {
    const turn = this.view.turn;
    if (turn.used.includes(name)) return;
    if (this.plan.plannedDice().has(name)) {
      this.plan.unplan(name);
      this.render();
      return;
    }
    if (this.binDice.some((b) => b.die === name)) {
      this.binDice = this.binDice.filter((b) => b.die !== name);
      this.render();
      return;
    }
    this.selected = this.selected.includes(name)
      ? this.selected.filter((d) => d !== name)
      : [...this.selected, name];
    this.buying = null;
    // On a phone the shop opens by itself once the chosen dice could pay for something.
    const paid = shelvesPaidBy(this.selected.map((d) => this.dice()[d].value));
    if (paid.size) this.shopOpen = true;
    this.render();
  }

  toggleBasket(name) {
    const basket = new Set(this.view.turn.basket);
    if (basket.has(name)) basket.delete(name);
    else basket.add(name);
    const order = this.view.turn.dice.map((d) => d.die).filter((d) => basket.has(d));
    this.play(order.length ? `keep ${order.join(" ")}` : "keep none");
  }

  // -- the action bar -------------------------------------------------------------------------

  actionBar() {
    const bar = el("nav", "sq-actions");
    const legal = new Set(this.legal);
    const add = (label, move, className = "") => {
      if (!legal.has(move)) return;
      const node = button(label, `action ${className}`, () => this.play(move));
      node.dataset.move = move;
      bar.append(node);
    };
    if (!this.myTurn) return bar;
    const answering = Object.keys(this.view.turn.windows ?? {}).map(Number);
    if (answering.length) {
      // Her reroll and end wait for the others' giving windows: say for whom.
      const names = answering.map((seat) => this.nameOf(seat)).join(", ");
      bar.append(el("p", "waiting-for", t("sq.waiting_for", { names })));
    }
    add(t("sq.roll"), "roll", "primary");
    add(t("sq.reroll"), "reroll", "primary");
    for (const placed of this.view.seats[this.seat].quilt) {
      if (this.plan.complete(placed) && legal.has(this.plan.sewMove(placed))) {
        const node = button(t("sq.sew_block", { block: blockShortName(placed.block) }), "action sew primary", () =>
          this.play(this.plan.sewMove(placed)),
        );
        bar.append(node);
      }
    }
    if (this.plan.byCell.size)
      bar.append(
        button(t("sq.clear_plan"), "action clear-plan", () => {
          this.plan.clear();
          this.render();
        }),
      );
    this.binActions(bar, legal);
    add(t("sq.undo"), "undo");
    add(t("sq.end_turn"), "end", this.legal.length <= 2 ? "primary" : "");
    return bar;
  }

  binActions(bar, legal) {
    const drawn = this.view.turn?.drawn;
    if (drawn?.block) {
      const box = el("div", "bin-drawn");
      box.append(el("span", "", t("sq.bin.drawn")), blockSvg(drawn.block));
      if (legal.has("bin return"))
        box.append(button(t("sq.bin.return"), "action bin-return", () => this.play("bin return")));
      box.append(el("span", "muted", t("sq.bin.place_hint")));
      bar.append(box);
      return;
    }
    const binMoves = this.legal.filter((m) => m.startsWith("bin "));
    if (!binMoves.length) return;
    if (this.binMode) {
      const move = this.binMove();
      const place = button(t("sq.bin.place_dice"), "action bin-dice primary", () => {
        if (move && this.play(move)) {
          this.binDice = [];
          this.binMode = false;
        }
      });
      place.disabled = !move;
      bar.append(place, button(t("sq.cancel"), "action bin-cancel", () => {
        this.binMode = false;
        this.binDice = [];
        this.render();
      }));
      return;
    }
    bar.append(el("span", "bin-label", t("sq.bin")));
    if (binMoves.some((m) => / to /.test(m)))
      bar.append(button(t("sq.bin.dice"), "action bin-start", () => {
        this.binMode = true;
        this.plan.clear();
        this.render();
      }));
    for (const deck of ["pattern", "kit"]) {
      if (legal.has(`bin draw ${deck}`))
        bar.append(
          button(t(`sq.bin.draw_${deck}`), `action bin-draw-${deck}`, () =>
            this.play(`bin draw ${deck}`),
          ),
        );
    }
  }

  binMove() {
    if (!this.binDice.length) return null;
    const parts = this.binDice.map((b) => `${b.die} to ${b.block}:${b.patch}`);
    const want = parts.slice().sort().join("|");
    return this.findLegal((m) => {
      if (!m.startsWith("bin ") || !m.includes(" to ")) return false;
      const got = m.slice(4).split(/ (?=(?:red|blue|green|yellow|purple) to )/);
      return got.slice().sort().join("|") === want;
    });
  }

  // -- shop ----------------------------------------------------------------------------------

  shop() {
    const values = this.selected.map((d) => this.dice()[d]?.value);
    const buyable = this.myTurn ? shelvesPaidBy(values) : new Set();
    if (this.myTurn && this.kits().scissors && this.selected.length >= 3) {
      for (const shelf of ["kit", "pattern"]) {
        const price = shelf === "kit" ? 3 : 4;
        const pays = this.legal.some((m) => m.startsWith("buy ") && this.selectedPay(m));
        if (this.selected.length === price && pays) buyable.add(shelf);
      }
    }
    const panel = shopPanel(this.view, {
      open: this.shopOpen || buyable.size > 0 || Boolean(this.buying),
      buyable,
      chosen: this.buying?.id,
      slid: this.slid,
      onToggle: () => {
        this.shopOpen = !this.shopOpen;
        this.render();
      },
      onBlock: (id, shelf) => this.chooseShopBlock(id, shelf, buyable),
    });
    for (const slot of panel.querySelectorAll(".shop-block[data-block]")) {
      const id = slot.dataset.block;
      this.info.attach(slot, id, () => ({
        placed: null,
        quilt: this.view.seats[this.seat]?.quilt ?? [],
        dice: this.myTurn ? this.unusedDice() : [],
        scissors: this.scissorsLeft(),
        own: true,
      }), () => {
        const shelf = slot.closest("[data-shelf]").dataset.shelf;
        if (!buyable.has(shelf)) return false;
        this.chooseShopBlock(id, shelf, buyable);
        return true;
      });
    }
    return panel;
  }

  selectedPay(move) {
    const dice = move.split(" with ")[1]?.split(" ") ?? [];
    return dice.slice().sort().join(" ") === this.selected.slice().sort().join(" ");
  }

  chooseShopBlock(id, shelf, buyable) {
    if (!buyable.has(shelf)) return;
    this.buying = { id, shelf };
    this.render();
  }

  // -- overlays ------------------------------------------------------------------------------

  overlays() {
    const layer = el("div", "sq-overlay");
    let content = null;
    if (this.settingsOpen) {
      content = settingsDialog(
        this.settings,
        (partial) => this.changeSetting(partial),
        () => {
          this.settingsOpen = false;
          this.render();
        },
      );
    } else if (this.result && this.view.phase === "over") {
      const build = () =>
        endTable(this.view, this.result, {
          nameOf: (s) => this.nameOf(s),
          tempoMs: ANIMATION_MS[this.tempo] * 2,
          // A table with people is set up again in the lobby.
          onAgain: () =>
            withPeople(this) ? (location.hash = "#/lobby") : this.app.newTable(this.table),
        });
      content = keptEndTable(this, build, (box, add) => {
        add(achievementsBox(this.achievements), box.querySelector(".end-buttons"));
        add(payoutLine(this, this.pot));
      });
    } else if (this.largeNeighbour !== null) {
      content = neighbourLarge(this, this.largeNeighbour);
    } else if (this.myWindow && this.legal.length && this.sewingCell && this.phone) {
      // Seed 003: tapping her own block while giving opens the sewing view as in her turn.
      content = this.sewingView();
    } else if (this.myWindow && this.legal.length) {
      const { box } = givingWindow(this.view, {
        ...this.giving(),
        giverName: this.nameOf(this.view.turn.seat),
        autoPass: this.settings.auto_continue,
        onAutoPass: (on) => this.changeSetting({ auto_continue: on }),
        legal: this.legal,
      });
      layer.classList.add("docked");
      content = box;
    } else if (this.sewingCell && this.phone && this.myTurn) {
      content = this.sewingView();
    } else {
      this.sewingCell = null; // her turn or her giving window is over: so is the sewing view
    }
    const kind = content?.className ?? null;
    // Only a window that was not there before pops up; redrawing one that stays is quiet.
    if (content && kind !== this.overlayKind) layer.classList.add("appear");
    this.overlayKind = kind;
    if (!content) return;
    layer.append(content);
    this.root.append(layer);
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

  /** On a phone: her block large with the dice below; patches are filled right there. */
  sewingView() {
    const quilt = this.view.seats[this.seat].quilt;
    const placed = quilt.find((b) => `${b.x},${b.y}` === this.sewingCell);
    if (!placed) {
      this.sewingCell = null;
      return null;
    }
    const box = el("section", "sq-sewing");
    box.setAttribute("role", "dialog");
    const title = t("sq.sewing_view", { block: blockName(placed.block) });
    box.setAttribute("aria-label", title);
    box.append(el("h2", "", title));
    const big = el("div", "sewing-block quilt-cell");
    big.dataset.cell = this.sewingCell;
    const opts = { finished: placed.finished, ...this.blockOpts(placed) };
    big.append(blockSvg(placed.block, placed.filled, opts));
    big.addEventListener("click", (event) => {
      const patch = event.target.closest?.("[data-patch]");
      if (!patch) return;
      const index = Number(patch.dataset.patch) - 1;
      if (this.patchTargets(placed).has(index)) this.usePatch(placed, index);
    });
    box.append(big);
    if (this.myWindow) {
      box.append(this.givingDice());
      const hint = this.givingDie ? "sq.giving.tap_patch" : "sq.giving.tap_die";
      box.append(el("p", "giving-hint muted", t(hint)));
    } else {
      box.append(this.diceArea());
    }
    const buttons = el("div", "sewing-buttons");
    if (this.plan.complete(placed) && this.legal.includes(this.plan.sewMove(placed)))
      buttons.append(button(t("sq.sew"), "sew-button primary", () => {
        this.play(this.plan.sewMove(placed));
        this.sewingCell = null;
      }));
    buttons.append(button(t("sq.close"), "close-sewing", () => {
      this.sewingCell = null;
      this.render();
    }));
    box.append(buttons);
    return box;
  }

  /** The sewing view's dice while giving: those she may take, as her giving window shows them
   * (a tap chooses one, a tap on a lit patch of the large block takes it). */
  givingDice() {
    const turn = this.view.turn;
    const open = new Set(this.diceForInfo().map((d) => d.die));
    const quilt = this.view.seats[this.seat].quilt;
    const giving = this.giving();
    const area = el("section", "sq-dice-area");
    area.append(
      diceTray(
        { ...turn, basket: [], used: [] },
        {
          ...giving,
          offered: open,
          helpful: helpfulDice(quilt, turn.dice, [...open]),
          legal: this.legal,
          onSelect: (name) => open.has(name) && giving.onSelect(name),
        },
      ),
    );
    return area;
  }

  /**
   * What her taps do while she gives (a table's giving window, solo's giving turn, the sewing
   * view of either): the die she chose, her thimble and dye bath, and the moves they send.
   * Choosing a die scrolls its lit patches into sight above a docked window.
   */
  giving() {
    return {
      selected: this.givingDie,
      kits: { thimble: this.kits().thimble, dye_bath: this.kits().dye_bath },
      onSelect: (name) => {
        this.givingDie = this.givingDie === name ? null : name;
        this.render();
        this.revealLitPatch();
      },
      onPass: () => this.play("pass"),
      ...this.adjusting(),
    };
  }

  /** The thimble and dye-bath moves of a die (in her turn and while she gives). */
  adjusting() {
    return {
      onThimble: (name, delta) => this.play(`thimble ${name} ${delta > 0 ? "+1" : "-1"}`),
      onDye: (name, colour) => this.play(`dye ${name}->${colour}`),
    };
  }

  changeSetting(partial) {
    Object.assign(this.settings, partial);
    this.applySettings();
    this.app.saveSettings(partial);
    this.render();
  }

  /** The achievements this table earned her, for the end table (seed: "Neue Erfolge zeigt die
   * Endtafel"). */
  async loadAchievements() {
    if (this.seat === null || this.achievements) return;
    this.achievements = await achievementsOf(this.tableId).catch(() => []);
    this.render();
  }

  /** With auto-continue on, pass the giving window after 2 s when none of the dice fits. */
  scheduleAutoPass() {
    const window = this.myWindow;
    const turn = this.view.turn;
    // One timer per window: a window is one reroll of one turn.
    const key = window ? `${this.view.round}/${turn.seat}/${turn.rolls}` : null;
    if (!window || !this.settings.auto_continue || !this.legal.includes("pass")) {
      clearTimeout(this.autoPassTimer);
      this.autoPassFor = null;
      return;
    }
    const quilt = this.view.seats[this.seat].quilt;
    if (helpfulDice(quilt, this.view.turn.dice, window.offered).size) return;
    if (this.autoPassFor === key) return;
    this.autoPassFor = key;
    clearTimeout(this.autoPassTimer);
    // The server passes for her after 2 s (an "auto" clock); this is the fallback if it did not.
    this.autoPassTimer = setTimeout(() => {
      if (this.myWindow && this.legal.includes("pass")) this.play("pass");
    }, AUTO_PASS_MS + 800);
  }
}
