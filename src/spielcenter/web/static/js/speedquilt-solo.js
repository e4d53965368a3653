// The solo Speedquilt screen (#/solo/<game id>): a campaign stage or the daily quilt. Such a game
// is a stored game of the server, followed with the game protocol (`open`/`event`/`move`); this
// screen is the table screen with a socket that turns those messages into the table messages the
// table screen understands (speedquilt-solo-protocol.js), plus what only solo has: the giving
// turn, the shelf that loses a block, the round/target/spools in the toolbar, and the stage or
// daily result at the end.

import { getJson, send } from "./api.js";
import { t } from "./i18n.js";
import { endTable, keptEndTable } from "./speedquilt-end.js";
import { button, el } from "./dom.js";
import { achievementsBox, achievementsOf } from "./speedquilt-achievements.js";
import {
  dailyResult,
  givingTurnPanel,
  removePanel,
  soloFacts,
  stageResult,
} from "./speedquilt-solo-parts.js";
import { dayOf, stageOf } from "./speedquilt-solo-names.js";
import { playDaily, playStage } from "./speedquilt-solo-start.js";
import { TableScreen } from "./speedquilt-table.js";
import { linesUpTo } from "./progress-speedquilt.js";
import { SoloSocket } from "./speedquilt-solo-protocol.js";

export class SoloScreen extends TableScreen {
  /**
   * @param root the element the screen draws into
   * @param gameId the stored stage or daily game
   * @param app as for TableScreen
   */
  constructor(root, gameId, app) {
    super(root, gameId, app);
    this.gameId = gameId;
    this.campaign = null;
    this.daily = null;
    this.achievements = null;
    this.ended = false;
    // Alone at the table there are no neighbours and no chat: the history is the side's tab.
    this.choice = { ...this.choice, tab: "history" };
    // Replaces the table socket, which the table screen made but never connected.
    this.socket = new SoloSocket(
      gameId,
      (message) => this.receive(message),
      (up) => this.connection(up),
    );
  }

  start() {
    const started = super.start();
    // After the table screen has set the root's classes.
    this.root.classList.add("solo");
    return started;
  }

  stop() {
    super.stop();
    this.root.classList.remove("solo");
  }

  // -- what solo adds to the table messages ---------------------------------------------------

  receive(message) {
    if (message.type === "solo.other_game") {
      // A patience game has its own screen.
      location.hash = `#/game/${encodeURIComponent(this.gameId)}`;
      return;
    }
    if (message.achievements) this.achievements = message.achievements;
    super.receive(message);
    if (message.type === "table.state") {
      this.loadHistory(message.seq);
      this.loadFacts();
    } else if (message.type === "solo.history") {
      this.render();
    }
  }

  /** The history lines of what happened before this screen opened, from the game's replay. */
  async loadHistory(seq) {
    try {
      const replay = await getJson(`/api/my-games/${encodeURIComponent(this.gameId)}/replay`);
      const lines = linesUpTo(replay.steps, seq);
      // A campaign stage: its seed's fingerprint.
      this.receive({ type: "solo.history", lines, fairness: replay.game?.fairness });
    } catch {
      // The history is a help, not the game: the screen plays on without the earlier lines.
    }
  }

  /** The campaign's spools, for the toolbar of a stage game. */
  async loadFacts() {
    const variant = this.view?.variant;
    if (stageOf(variant)) this.campaign = await getJson("/api/campaign").catch(() => null);
    this.render();
  }

  /** At the end: the campaign after the stage, or the daily attempt and its rank; and the
   * achievements this game earned (from its last event, else from the server). */
  async loadEnd() {
    const variant = this.view.variant;
    const day = dayOf(variant);
    const [campaign, daily, board, achievements] = await Promise.all([
      stageOf(variant) ? getJson("/api/campaign") : null,
      day ? getJson("/api/daily") : null,
      day ? getJson(`/api/leaderboards/daily?day=${day}`) : null,
      this.achievements ?? achievementsOf(this.gameId),
    ]).catch(() => [null, null, null, []]);
    this.campaign = campaign ?? this.campaign;
    if (daily) {
      const ranked = daily.ranked?.game_id === this.gameId;
      const listed = board?.listed !== false; // a guest is on no list (docs/ledger.md)
      this.daily = { ranked, listed, rank: ranked ? board?.me?.rank : null, total: board?.total };
    }
    this.achievements = achievements;
    this.render();
  }

  // -- what solo draws differently -------------------------------------------------------------

  /** In the giving turn her "window" is the five dice of that turn (the table screen then
   * lights the patches where the chosen die may go, and sends `give`). */
  get myWindow() {
    const turn = this.view?.turn;
    if (this.view?.phase === "giving_turn" && turn)
      return { offered: turn.dice.map((d) => d.die), taken: turn.used };
    return super.myWindow;
  }

  /** Her name: "Du" on the screen; in the history, whose verbs are third person, "die
   * Näherin" (as in the replay of the game). */
  nameOf(seat, thirdPerson = false) {
    return thirdPerson ? t("solo.player") : super.nameOf(seat);
  }

  draw() {
    super.draw();
    // Alone at the table: no neighbours and no chat; on a phone the history needs no tab.
    for (const part of this.root.querySelectorAll(".sq-neighbours, .sq-chat, .sq-tabs"))
      part.remove();
    this.root.dataset.tab = "history";
  }

  /** In the giving turn the dice lie in the giving-turn window, not here. */
  diceArea() {
    if (this.view.phase !== "giving_turn") return super.diceArea();
    return el("section", "sq-dice-area solo-dice-moved");
  }

  header() {
    const bar = super.header();
    bar.querySelector(".sq-round")?.replaceWith(soloFacts(this.view, this.campaign));
    if (stageOf(this.view.variant) && this.view.status === "playing") {
      const leave = button(t("solo.leave"), "leave-stage", () => this.leave());
      bar.querySelector(".gear")?.before(leave);
    }
    return bar;
  }

  /** Leave the stage early: it counts as missed and costs a spool (seed: "ebenfalls
   * verfehlt"), so she is asked first. */
  async leave() {
    if (!window.confirm(t("solo.leave_confirm"))) return;
    try {
      await send("POST", "/api/campaign/leave");
      location.hash = "#/progress/campaign";
    } catch (error) {
      this.say(error.message, true);
    }
  }

  statusBar() {
    const phase = this.view.phase;
    if (phase !== "giving_turn" && phase !== "shop_remove") return super.statusBar();
    const bar = super.statusBar();
    bar.textContent = t(`solo.status.${phase}`);
    return bar;
  }

  shop() {
    const panel = super.shop();
    if (this.view.phase === "shop_remove") {
      // The block that would leave each shelf: the rightmost one.
      for (const shelf of panel.querySelectorAll("[data-shelf]"))
        [...shelf.querySelectorAll(".shop-block[data-block]")].at(-1)?.classList.add("leaving");
    }
    return panel;
  }

  overlays() {
    const content = this.soloOverlay();
    if (content === undefined) {
      super.overlays();
      return;
    }
    const layer = document.createElement("div");
    layer.className = "sq-overlay";
    if (content.classList.contains("sq-giving") || content.classList.contains("sq-remove"))
      layer.classList.add("docked");
    if (content.className !== this.overlayKind) layer.classList.add("appear");
    this.overlayKind = content.className;
    layer.append(content);
    this.root.append(layer);
  }

  /** The overlay of a solo phase; undefined where the table screen's own overlay applies. */
  soloOverlay() {
    const phase = this.view.phase;
    if (this.choice.settingsOpen) return undefined;
    if (phase !== "turn" && phase !== "giving_turn")
      this.choose({ sewingCell: null }, { draw: false });
    if (phase === "giving_turn" && this.legal.length) {
      // On a phone a tap on her block opens the sewing view (seed 003: "oder beim Abgeben");
      // otherwise she places dice from the docked panel straight onto her quilt.
      const sewing = this.choice.sewingCell && this.phone ? this.sewingView() : null;
      if (sewing) return sewing;
      return givingTurnPanel(this.view, this.giving());
    }
    if (phase === "shop_remove" && this.legal.length)
      return removePanel(this.view, this.legal, (move) => this.play(move));
    if (phase === "over" && this.result) return this.soloEnd();
    return undefined;
  }

  /** The end table with the stage or daily result, the new achievements and the next step. */
  soloEnd() {
    if (!this.ended) {
      this.ended = true;
      this.loadEnd();
    }
    const view = this.view;
    const stage = stageOf(view.variant);
    const build = () => {
      const box = endTable(view, this.result, {
        nameOf: (seat) => this.nameOf(seat),
        reviewHref: `#/progress/replay/${encodeURIComponent(this.gameId)}`,
        onAgain: () =>
          (stage ? playStage() : playDaily()).catch((error) => this.say(error.message, true)),
      });
      box.classList.add("solo-end");
      // Leaderboard points belong to tables with others; alone there are none.
      for (const cell of box.querySelectorAll(".end-table tr > :last-child")) cell.remove();
      const cleared = stage && view.scores[0] >= view.target;
      box.querySelector("h2").textContent = stage
        ? t(cleared ? "solo.end.cleared" : "solo.end.missed", { stage })
        : t("solo.end.daily_done");
      box.querySelector(".end-again").textContent = stage
        ? t(cleared ? "solo.end.play_next" : "solo.end.play_again")
        : t("solo.end.practice_again");
      return box;
    };
    // The stage or daily result and her achievements load after the end: drawn in afresh.
    return keptEndTable(this, build, (box, add) => {
      const result = stage ? stageResult(view, this.campaign) : dailyResult(view, this.daily);
      add(result, box.querySelector(".end-table"));
      add(achievementsBox(this.achievements), box.querySelector(".end-buttons"));
    });
  }
}
