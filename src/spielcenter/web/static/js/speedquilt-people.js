// A table with people (from the lobby): every seat's clock counting down to its absolute deadline
// (a warning colour near the end, then the grace), who is still choosing while the active player
// waits for the giving windows, a seat the computer plays while its person is away (and the
// button to take it back), leaving the table, and the stake and the pot.

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import { button, el } from "./dom.js";
import { taler } from "./lobby-page.js";

/** Below this many seconds left a clock shows the warning colour. */
const WARN_MS = 10_000;
/** How often the clocks on screen are redrawn. */
const TICK_MS = 250;
/** A device clock off by less than this is trusted (the Date header has whole seconds). */
const SKEW_MS = 2000;

/** How far the server's clock is ahead of this device's (deadlines are the server's). */
let serverAhead = 0;

function serverNow() {
  return Date.now() + serverAhead;
}

/** Compare this device's clock with the server's once (the Date header of a small request). */
async function measureSkew() {
  try {
    const sent = Date.now();
    const answer = await fetch("/health", { cache: "no-store" });
    const server = Date.parse(answer.headers.get("date") ?? "");
    const ahead = server + 500 - (sent + Date.now()) / 2; // mid-second, mid-request
    if (Number.isFinite(ahead) && Math.abs(ahead) > SKEW_MS) serverAhead = ahead;
  } catch {
    serverAhead = 0;
  }
}

/** Whether the table is one with people (it has a setup: clocks, stake, stand-in). */
export function withPeople(screen) {
  return Boolean(screen.table?.setup);
}

function mmss(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** A clock's element; its text and colour are kept up to date by {@link tickClocks}. */
export function clockBadge(clock) {
  const node = el("span", `sq-clock kind-${clock.kind}`);
  node.dataset.seat = String(clock.seat);
  node.dataset.kind = clock.kind;
  node.dataset.deadline = clock.deadline;
  node.dataset.graceUntil = clock.grace_until;
  node.setAttribute("role", "timer");
  showTime(node, serverNow());
  return node;
}

/** Redraw one clock: time left, the warning near the end, then the grace. It ticks four times
 * a second but shows whole seconds: only what changed is written, since every write makes the
 * browser lay the page out again. */
function showTime(node, now) {
  const deadline = Date.parse(node.dataset.deadline);
  const graceUntil = Date.parse(node.dataset.graceUntil);
  const left = deadline - now;
  const grace = left <= 0 && graceUntil > deadline;
  const phase = grace ? "grace" : left > 0 ? "running" : "over";
  const text = grace ? t("tables.clock_grace", { time: mmss(graceUntil - now) }) : mmss(left);
  // toggle(name, force) leaves an unchanged class list alone.
  node.classList.toggle("warn", left > 0 && left <= WARN_MS);
  node.classList.toggle("grace", grace);
  if (node.dataset.phase !== phase) node.dataset.phase = phase;
  if (node.textContent !== text) node.textContent = text;
}

/** Redraw every clock under `root` (called every TICK_MS while a table is shown). */
export function tickClocks(root) {
  const now = serverNow();
  for (const node of root.querySelectorAll(".sq-clock")) showTime(node, now);
}

/** Start redrawing the clocks of `root`; returns the function that stops it. */
export function startClockTicker(root) {
  measureSkew();
  const timer = setInterval(() => tickClocks(root), TICK_MS);
  return () => clearInterval(timer);
}

/** The clock of a seat now, if the game waits for her with one. */
export function clockOf(screen, seat) {
  return (screen.clocks ?? []).find((c) => c.seat === seat) ?? null;
}

function seatInfo(screen, seat) {
  return screen.table?.seats?.find((s) => s.seat === seat) ?? null;
}

/** Seats whose giving window of the last reroll is still open. */
function stillChoosing(screen) {
  const windows = screen.view?.turn?.windows ?? {};
  return Object.keys(windows).map(Number);
}

/**
 * The bar of a table with people above her status line: the stake and the pot, her own clock,
 * whom the active player waits for, the computer playing her seat (and taking it back), leaving.
 */
export function peopleBar(screen) {
  const bar = el("section", "sq-people");
  if (!withPeople(screen)) return bar;
  const setup = screen.table.setup;
  const facts = el("p", "sq-pot");
  if (setup.stake) {
    // Every seat's stake is in the pot from the start (the house pays for computers).
    const pot = setup.stake * screen.table.seats.length;
    facts.append(el("span", "stake", t("tables.fact_stake", { stake: taler(setup.stake) })));
    if (screen.view.status === "playing")
      facts.append(" · ", el("span", "pot", t("tables.pot", { amount: taler(pot) })));
  } else facts.append(el("span", "stake", t("tables.no_stake")));
  bar.append(facts);
  const mine = screen.seat === null ? null : clockOf(screen, screen.seat);
  if (mine) {
    const own = el("p", "sq-own-clock");
    own.append(el("span", "", t(`tables.clock_for.${mine.kind}`) + " "), clockBadge(mine));
    bar.append(own);
  }
  const waiting = screen.myTurn ? stillChoosing(screen) : [];
  if (waiting.length) {
    const line = el("p", "sq-waiting-for");
    line.append(el("span", "", t("tables.still_choosing") + " "));
    for (const seat of waiting) {
      const who = el("span", "waiting-seat", screen.nameOf(seat));
      who.dataset.seat = String(seat);
      const clock = clockOf(screen, seat);
      if (clock) who.append(" ", clockBadge(clock));
      line.append(who);
    }
    bar.append(line);
  }
  const playing = screen.view.status === "playing";
  if (screen.seat !== null && seatInfo(screen, screen.seat)?.away && playing) {
    const away = el("div", "sq-away-banner");
    away.setAttribute("role", "alert");
    away.append(
      el("span", "", t("tables.computer_plays_you")),
      button(t("tables.take_back"), "take-back primary", () =>
        screen.socket.send({ type: "table.return" }),
      ),
    );
    bar.append(away);
  }
  if (screen.seat !== null && playing) {
    bar.append(
      button(t("tables.leave_table"), "leave-game", () => {
        if (window.confirm(t("tables.leave_confirm"))) screen.socket.send({ type: "table.leave" });
      }),
    );
  }
  return bar;
}

/** Mark the neighbours' cards: each one's clock, and whether a computer plays her seat now. */
export function decorateNeighbours(screen, root) {
  if (!withPeople(screen)) return;
  for (const card of root.querySelectorAll(".sq-neighbours .neighbour[data-seat]")) {
    const seat = Number(card.dataset.seat);
    const head = card.querySelector(".neighbour-head") ?? card;
    const info = seatInfo(screen, seat);
    if (info?.kind === "human" && info.away) {
      card.classList.add("away");
      head.append(el("span", "badge away", t("tables.played_by_computer")));
    }
    if (stillChoosing(screen).includes(seat))
      head.append(el("span", "badge choosing", t("tables.choosing")));
    const clock = clockOf(screen, seat);
    if (clock) head.append(clockBadge(clock));
  }
}

/** After the end: the pot as it was paid out (who got what), read from the table's ledger. */
export async function loadPot(screen) {
  if (!withPeople(screen) || !screen.table.setup.stake) return null;
  try {
    return await getJson(`/api/ledger/tables/${encodeURIComponent(screen.tableId)}`);
  } catch {
    return null;
  }
}

/** The line under the end table saying where the pot went. */
export function payoutLine(screen, pot) {
  const payout = pot?.movements?.find((m) => m.kind === "payout");
  if (!payout) return null;
  const parts = payout.legs
    .filter((leg) => leg.amount > 0)
    .map((leg) =>
      leg.who === "house"
        ? t("tables.payout_house", { amount: taler(leg.amount) })
        : leg.seat === screen.seat
          ? t("tables.payout_you", { amount: taler(leg.amount) })
          : t("tables.payout_seat", { name: screen.nameOf(leg.seat), amount: taler(leg.amount) }),
    );
  const line = el("p", "sq-payout", t("tables.payout", { parts: parts.join(", ") }));
  line.setAttribute("role", "status");
  return line;
}

/** Her giving window shows her clock too (the window covers the bar above her quilt). */
export function decorateWindow(screen, root) {
  const heading = root.querySelector(".sq-giving h2");
  const mine = screen.seat === null ? null : clockOf(screen, screen.seat);
  if (heading && mine) heading.append(" ", clockBadge(mine));
}

/** What happened when her clock's grace ended: the computer decided for her (giving: nothing). */
export function expiredText(kind) {
  return t(kind === "auto" ? "tables.expired.giving" : `tables.expired.${kind}`);
}
