// Speedquilt with people: the lobby (#/lobby: create a table with every option, the open tables,
// join) and the join screen of an invitation link (#/join/<code>, also the waiting room until
// every seat is taken). The start page's Speedquilt panel is speedquilt-panel.js.

import { getJson, listOf, send } from "./api.js";
import { rememberInvite } from "./socket.js";
import { seatName } from "./speedquilt-names.js";
import { t } from "./i18n.js";
import { TEMPOS } from "./speedquilt-settings.js";
import { el, link } from "./dom.js";
import { errorText } from "./errors.js";
import { LobbyPage, labelled, seconds, select, taler } from "./lobby-page.js";

const LEVELS = ["easy", "normal", "strong"];
const THINK = [30, 60, 90, 120, null];
const GIVING = [15, 20, 30, null];
/** How often the lobby and the waiting room ask the server again. */
const REFRESH_MS = 2000;

// -- one table as the lobby shows it -----------------------------------------------------------

/** Who sits at a seat of a lobby table: "free", or the name the table will give her or it. */
function seatText(seats, seat, me) {
  if (seat.kind === "free") return t("tables.seat_free");
  const name = seatName(seats, seat.seat);
  return seat.account_id === me?.id ? t("tables.seat_you", { name }) : name;
}

function seatList(table, me) {
  const list = el("ul", "lobby-seats");
  for (const seat of table.seats) {
    const item = el("li", `lobby-seat ${seat.kind}`, seatText(table.seats, seat, me));
    item.dataset.seat = String(seat.seat);
    item.dataset.kind = seat.kind;
    list.append(item);
  }
  return list;
}

/** The facts of a lobby table: clocks, tempo, stake. */
function setupFacts(table) {
  const setup = table.setup ?? {};
  const facts = el("p", "lobby-facts");
  const parts = [
    t("tables.fact_think", { time: seconds(setup.think) }),
    t("tables.fact_giving", { time: seconds(setup.giving) }),
    t("tables.fact_tempo", { tempo: t(`sq.tempo.${table.tempo}`) }),
    setup.stake ? t("tables.fact_stake", { stake: taler(setup.stake) }) : t("tables.no_stake"),
  ];
  facts.textContent = parts.join(" · ");
  return facts;
}

function sitsAt(table, me) {
  return table.seats.some((s) => s.account_id && s.account_id === me?.id);
}

/** The invitation link of a table: it opens the table's join screen. */
export function inviteUrl(table) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(table.setup.invite)}`;
}

/** Go where a table is: to the table once it has started, else to its join screen. */
function goTo(table) {
  location.hash =
    table.status === "waiting"
      ? `#/join/${encodeURIComponent(table.setup.invite)}`
      : `#/table/${encodeURIComponent(table.id)}`;
}

/** #/lobby: create a table for people, and the tables waiting for people. */
export class LobbyScreen extends LobbyPage {
  constructor(root, app) {
    super(root, app, () => t("tables.lobby_title"));
    this.tables = [];
  }

  async start() {
    await Promise.all([this.loadBalance(), this.loadTables()]);
    this.build();
    this.refreshEvery(REFRESH_MS, async () => {
      await this.loadTables();
      this.root.querySelector(".lobby-list")?.replaceWith(this.tableList());
    });
  }

  /** Her own waiting tables (a private one is listed nowhere else), then the public ones. */
  async loadTables() {
    const [mine, open] = await Promise.all([
      getJson("/api/tables?state=waiting"),
      getJson("/api/lobby"),
    ]);
    const own = listOf(mine, "tables");
    const ids = new Set(own.map((table) => table.id));
    this.tables = [...own, ...listOf(open, "tables").filter((table) => !ids.has(table.id))];
    const gone = [...(this.ownIds ?? [])].filter((id) => !ids.has(id));
    this.ownIds = ids;
    if (gone.length) await this.followStarted(gone);
  }

  /** One of her waiting tables is no longer waiting: if its game has begun, go there. */
  async followStarted(ids) {
    const started = listOf(await getJson("/api/tables?state=open"), "tables");
    const table = started.find((candidate) => ids.includes(candidate.id));
    if (table) goTo(table);
  }

  build() {
    const body = el("div", "lobby-body");
    body.append(this.createPanel(), this.listPanel());
    this.frame(body);
  }

  createPanel() {
    const panel = el("article", "game-panel lobby-create");
    panel.append(el("h2", "", t("tables.new_table")));
    const form = el("form", "lobby-form");
    const players = select("players", [2, 3, 4], (n) => t("tables.players_n", { count: n }), 3);
    const seats = el("fieldset", "lobby-seat-choice");
    const drawSeats = () => {
      seats.replaceChildren(el("legend", "", t("tables.free_seats")));
      for (let seat = 1; seat < Number(players.value); seat += 1) {
        const who = select(
          `seat${seat}`,
          ["person", ...LEVELS],
          (v) =>
            v === "person"
              ? t("tables.for_person")
              : t("tables.for_computer", { level: t(`sq.level.${v}`) }),
          "person",
        );
        seats.append(labelled(t("tables.seat_n", { n: seat + 1 }), who));
      }
    };
    players.addEventListener("change", drawSeats);
    drawSeats();
    const think = select("think", THINK, seconds, 60);
    const giving = select("giving", GIVING, seconds, 20);
    const tempo = select("tempo", TEMPOS, (v) => t(`sq.tempo.${v}`), "normal");
    const standIn = select("stand_in", LEVELS, (l) => t(`sq.level.${l}`), "normal");
    const stake = el("input");
    stake.type = "number";
    stake.name = "stake";
    stake.min = "0";
    stake.step = "1";
    stake.value = "0";
    if (this.balance !== null) stake.max = String(this.balance);
    const stakeNote = el(
      "span",
      "stake-note muted",
      this.balance === null ? "" : t("tables.stake_note", { amount: taler(this.balance) }),
    );
    const privateBox = el("input");
    privateBox.type = "checkbox";
    privateBox.name = "private";
    const privateLabel = el("label", "lobby-private");
    privateLabel.append(privateBox, " " + t("tables.private"));
    const submit = el("button", "create-table primary", t("tables.create"));
    submit.type = "submit";
    const stakeLabel = labelled(t("tables.stake"), stake);
    stakeLabel.append(stakeNote);
    form.append(
      labelled(t("tables.players"), players),
      seats,
      labelled(t("tables.think"), think),
      labelled(t("tables.giving"), giving),
      labelled(t("sq.setting.tempo"), tempo),
      labelled(t("tables.stand_in"), standIn),
      stakeLabel,
      privateLabel,
      submit,
    );
    const number = (value) => (value === "null" ? null : Number(value));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const bots = [...seats.querySelectorAll("select")].map((s) =>
        s.value === "person" ? null : s.value,
      );
      const body = {
        players: Number(players.value),
        bots,
        think: number(think.value),
        giving: number(giving.value),
        tempo: tempo.value,
        stand_in: standIn.value,
        stake: Number(stake.value || 0),
        private: privateBox.checked,
      };
      try {
        goTo(await send("POST", "/api/lobby", body));
      } catch (error) {
        this.say(errorText(error));
      }
    });
    panel.append(form);
    return panel;
  }

  listPanel() {
    const panel = el("article", "game-panel lobby-open");
    panel.append(el("h2", "", t("tables.open_tables")), this.tableList());
    return panel;
  }

  tableList() {
    const box = el("div", "lobby-list");
    if (!this.tables.length) {
      box.append(el("p", "muted lobby-empty", t("tables.none_open")));
      return box;
    }
    const list = el("ul", "lobby-tables");
    for (const table of this.tables) list.append(this.tableItem(table));
    box.append(list);
    return box;
  }

  tableItem(table) {
    const item = el("li", "lobby-table");
    item.dataset.table = table.id;
    item.dataset.invite = table.setup.invite;
    item.append(seatList(table, this.app.me), setupFacts(table));
    const actions = el("div", "lobby-actions");
    if (sitsAt(table, this.app.me)) {
      const waiting = `#/join/${encodeURIComponent(table.setup.invite)}`;
      actions.append(link(t("tables.your_table"), waiting, "open-waiting"));
    } else {
      const join = el("button", "join-table primary", t("tables.join"));
      join.type = "button";
      join.addEventListener("click", () => this.join(table));
      actions.append(join);
    }
    item.append(actions);
    return item;
  }

  async join(table) {
    try {
      goTo(await send("POST", `/api/lobby/${encodeURIComponent(table.id)}/join`, {}));
    } catch (error) {
      this.say(errorText(error));
    }
  }
}

/** #/join/<code>: the table of an invitation — join it, or wait at it until it starts. */
export class JoinScreen extends LobbyPage {
  constructor(root, code, app) {
    super(root, app, () => t("tables.join_title"));
    this.code = code;
    this.table = null;
  }

  async start() {
    await this.loadBalance();
    try {
      await this.load();
    } catch (error) {
      this.frame(el("p", "game-panel lobby-missing", errorText(error)));
      return;
    }
    this.refreshEvery(REFRESH_MS, () => this.load());
  }

  async load() {
    const table = await getJson(`/api/lobby/invite/${encodeURIComponent(this.code)}`);
    rememberInvite(table.id, this.code); // to watch it, if it is private and she sits elsewhere
    const seated = sitsAt(table, this.app.me);
    // Once the game has begun, its players (and whoever follows a link) go to the table.
    if (table.status === "open" || table.status === "finished") {
      if (seated) {
        this.stop();
        location.hash = `#/table/${encodeURIComponent(table.id)}`;
        return;
      }
    }
    if (JSON.stringify(table) !== JSON.stringify(this.table)) {
      this.table = table;
      this.build();
    }
  }

  build() {
    if (!this.table) return;
    const table = this.table;
    const seated = sitsAt(table, this.app.me);
    const panel = el("article", "game-panel lobby-waiting");
    panel.dataset.status = table.status;
    panel.append(
      el("h2", "", t(`tables.status.${table.status}`)),
      seatList(table, this.app.me),
      setupFacts(table),
    );
    const actions = el("div", "lobby-actions");
    if (table.status === "waiting" && seated) {
      panel.append(this.inviteBox(table));
      actions.append(this.button(t("tables.leave"), "leave-table", () => this.leave()));
    } else if (table.status === "waiting") {
      actions.append(this.button(t("tables.join"), "join-table primary", () => this.join()));
    } else if (table.status === "open") {
      const watch = `#/table/${encodeURIComponent(table.id)}`;
      actions.append(link(t("tables.watch"), watch, "watch-table"));
    }
    actions.append(link(t("tables.to_lobby"), "#/lobby", "to-lobby"));
    panel.append(actions);
    this.frame(panel);
  }

  inviteBox(table) {
    const box = el("div", "invite");
    box.append(el("p", "", t("tables.invite_hint")));
    const field = el("input", "invite-link");
    field.readOnly = true;
    field.value = inviteUrl(table);
    field.setAttribute("aria-label", t("tables.invite_link"));
    const copy = this.button(t("tables.copy"), "copy-invite", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        this.say(t("tables.copied"), false);
      } catch {
        this.say(t("tables.copy_by_hand"), false);
      }
    });
    box.append(field, copy);
    return box;
  }

  button(label, className, onClick) {
    const node = el("button", className, label);
    node.type = "button";
    node.addEventListener("click", onClick);
    return node;
  }

  async join() {
    try {
      const table = await send("POST", `/api/lobby/${encodeURIComponent(this.table.id)}/join`, {
        invite: this.code,
      });
      this.table = null;
      if (table.status === "open") goTo(table);
      else await this.load();
    } catch (error) {
      this.say(errorText(error));
    }
  }

  async leave() {
    try {
      await send("POST", `/api/lobby/${encodeURIComponent(this.table.id)}/leave`, {});
      this.stop();
      location.hash = "#/lobby";
    } catch (error) {
      this.say(errorText(error));
    }
  }
}
