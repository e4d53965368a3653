"""Steps for the Speedquilt tests of kits, sounds, tempo and reconnecting (test_speedquilt_kits.py).

Deals are found with the engine itself: a deal whose dealt four hold a kit of the wanted kind and
whose first roll sews it, so the browser can finish the kit the honest way, through the page.
What the page heard from the server (every ``table.*`` message, with the time it arrived) and the
notes its Web Audio started are recorded by an init script, so a test can compare what the
screen shows with what the server sent, measure the computers' pace and count sounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from playwright.sync_api import Locator, Page, expect

from spielcenter.games import get_game
from spielcenter.games.speedquilt.feasibility import can_place
from spielcenter.games.speedquilt.model import Colour

from .speedquilt_ui import click_and_wait, mine, wait_for_mine

SEARCHED_DEALS = range(1, 2000)

RECORDER = """
(() => {
  // Every table.* message the page receives, with its arrival time; every message it sends, with
  // its sending time; and the sockets, to drop one.
  window.__sq = {
    messages: [], sent: [], sockets: [], notes: 0, contexts: 0, states: [], frame: 0, held: null,
  };
  // Each message notes how many notes had started when it arrived (before the page handled it),
  // and the frame it arrived before: the messages of one frame are one burst. The count goes up
  // with the first frame after a message (no frames are asked for while nothing arrives).
  let counting = false;
  const countFrame = () => {
    if (counting) return;
    counting = true;
    requestAnimationFrame(() => { window.__sq.frame += 1; counting = false; });
  };
  const Native = window.WebSocket;
  class Recorded extends Native {
    constructor(...args) {
      super(...args);
      window.__sq.sockets.push(this);
      super.addEventListener("message", (event) => {
        try {
          const message = JSON.parse(event.data);
          if (String(message.type).startsWith("table.") || message.type === "error") {
            const { notes, frame } = window.__sq;
            window.__sq.messages.push({ at: performance.now(), notes, frame, message });
            countFrame();
          }
        } catch (error) {}
      });
    }
    send(data) {
      try {
        window.__sq.sent.push({ at: performance.now(), message: JSON.parse(data) });
      } catch (error) {}
      return super.send(data);
    }
    // While ``window.__sq.held`` is a list, the page's own handlers get nothing: the messages
    // wait there, as a connection that stalls holds them back, until `release_held` hands them
    // over all at once.
    addEventListener(type, listener, ...rest) {
      if (type !== "message") return super.addEventListener(type, listener, ...rest);
      return super.addEventListener(type, (event) => {
        if (window.__sq.held) window.__sq.held.push(() => listener.call(this, event));
        else listener.call(this, event);
      }, ...rest);
    }
  }
  window.WebSocket = Recorded;
  // Count every note the living-room sounds start (an oscillator's start()).
  const NativeAudio = window.AudioContext || window.webkitAudioContext;
  if (NativeAudio) {
    // Chrome's autoplay policy, which headless Chromium does not apply (it reports every page
    // as activated): a context made before the page's first user gesture stays "suspended"
    // (silent) until resume() is called after one.
    let gestured = false;
    for (const type of ["pointerdown", "keydown", "click"])
      window.addEventListener(type, (event) => { gestured ||= event.isTrusted; }, true);
    class CountedAudio extends NativeAudio {
      constructor(...args) {
        super(...args);
        window.__sq.contexts += 1;
        this.blocked = !gestured;
      }
      get state() {
        return this.blocked ? "suspended" : super.state;
      }
      resume() {
        if (gestured) this.blocked = false;
        return super.resume();
      }
      createOscillator() {
        const oscillator = super.createOscillator();
        const start = oscillator.start.bind(oscillator);
        oscillator.start = (...when) => {
          window.__sq.notes += 1;
          window.__sq.states.push(this.state);  // "running" is heard, "suspended" is not
          return start(...when);
        };
        return oscillator;
      }
    }
    window.AudioContext = CountedAudio;
    window.webkitAudioContext = CountedAudio;
  }
})();
"""


@dataclass(frozen=True)
class KitDeal:
    """A deal where her start row holds a kit she sews with her first roll."""

    deal: int
    row: list[str]
    returned: str
    sew: str
    buy: str | None = None


def kit_deal(kind: str, computers: int = 1, scissors_buy: bool = False) -> KitDeal:
    """The first deal (she starts) where a kit of ``kind`` in her start row is sewn by her first
    roll; with ``scissors_buy`` also a buy of a kit with three dice that are not all equal must
    be legal with the dice left after the sewing."""
    game = get_game("speedquilt", "table", players=computers + 1)
    for deal in SEARCHED_DEALS:
        state = game.start(deal)
        view = game.view_for(state, 0)
        if view["start_player"] != 0:
            continue
        hand = view["seats"][0]["hand"]
        for kit in hand:
            if game.ctx.block(kit).kit != kind:
                continue
            others = [b for b in hand if b != kit]
            row, returned = [kit, others[0], others[1]], others[2]
            found = _first_turn(game, state, row, returned, computers, scissors_buy)
            if found is not None:
                sew, buy = found
                return KitDeal(deal, row, returned, sew, buy)
    raise AssertionError(f"no deal sews a {kind} kit in the first roll")


def _first_turn(
    game: Any, state: Any, row: list[str], returned: str, computers: int, scissors_buy: bool
) -> tuple[str, str | None] | None:
    state = game.play(state, f"choose {' '.join(row)} return {returned}", 0)
    for seat in range(1, computers + 1):
        state = game.play(state, game.format_move(game.legal_moves(state, seat)[0]), seat)
    state = game.play(state, "roll", 0)
    sews = [
        game.format_move(m)
        for m in game.legal_moves(state, 0)
        if game.format_move(m).startswith(f"sew {row[0]} ")
    ]
    for sew in sews:
        if not scissors_buy:
            return sew, None
        after = game.play(state, sew, 0)
        values = {d["die"]: d["value"] for d in game.view_for(after, 0)["turn"]["dice"]}
        for move in map(game.format_move, game.legal_moves(after, 0)):
            dice = move.split(" with ")[1].split() if move.startswith("buy K") else []
            if len(dice) == 3 and len({values[d] for d in dice}) > 1:
                return sew, move
    return None


# -- the page ----------------------------------------------------------------------------------


def record(page: Page) -> None:
    """Record the page's table messages and Web Audio notes from now on (reloads the page)."""
    page.context.add_init_script(RECORDER)
    page.reload()
    page.wait_for_selector(".game-panel")


def messages(page: Page) -> list[dict[str, Any]]:
    """The recorded ``table.*`` messages: ``{"at": ms, "message": {...}}`` in arrival order."""
    recorded: list[dict[str, Any]] = page.evaluate("() => window.__sq.messages")
    return recorded


def sent(page: Page) -> list[dict[str, Any]]:
    """The recorded messages the page sent: ``{"at": ms, "message": {...}}`` in sending order."""
    recorded: list[dict[str, Any]] = page.evaluate("() => window.__sq.sent")
    return recorded


def message_at(page: Page, seq: int) -> dict[str, Any]:
    """The last recorded message that brought the table to ``seq`` (an event or a state)."""
    for item in reversed(messages(page)):
        message: dict[str, Any] = item["message"]
        if message.get("seq") == seq and "view" in message:
            return message
    raise AssertionError(f"no message of seq {seq} was recorded")


HEARD = """(since) => ({
  notes: window.__sq.notes,
  heard: window.__sq.messages.slice(since).map(({ notes, frame, message }) => ({
    notes,
    frame,
    message: { type: message.type, seq: message.seq, entry: { move: message.entry?.move } },
  })),
})"""
"""The recorded messages from the ``since``-th on, each without its view (a sound depends on
the message's kind alone; a whole game's views took seconds to carry out of the page)."""


def bursts_heard(page: Page, since: int = 0) -> list[tuple[dict[str, Any], int, int]]:
    """Each recorded message (from the ``since``-th on; its type, seq and entry's move) with the
    number of notes the page started while handling it (up to the next message) and the frame it
    arrived before (the messages of one frame: one burst)."""
    recorded = page.evaluate(HEARD, since)
    items = recorded["heard"]
    ends = [item["notes"] for item in items[1:]] + [recorded["notes"]]
    return [
        (item["message"], end - item["notes"], item["frame"])
        for item, end in zip(items, ends, strict=True)
    ]


def hold_messages(page: Page) -> None:
    """From now on the page's own handlers get no message of the server: they wait (the
    recorder still records them as they arrive) until :func:`release_held`."""
    page.evaluate("() => { window.__sq.held = []; }")


def release_held(page: Page) -> int:
    """Hand the page every held message at once, as a stalled connection delivers its backlog
    (one burst); the notes the page started while handling them."""
    played: int = page.evaluate(
        """() => {
          const held = window.__sq.held;
          window.__sq.held = null;
          const before = window.__sq.notes;
          for (const deliver of held) deliver();
          return window.__sq.notes - before;
        }"""
    )
    return played


def audio_states(page: Page) -> list[str]:
    """The state of the page's AudioContext at each note it started (only "running" is heard)."""
    states: list[str] = page.evaluate("() => window.__sq.states")
    return states


def notes(page: Page) -> int:
    """How many notes the page's sounds have started."""
    count: int = page.evaluate("() => window.__sq.notes")
    return count


def drop_socket(page: Page) -> None:
    """Close the table's WebSocket as a lost connection would (the page reconnects by itself)."""
    page.evaluate("() => window.__sq.sockets.at(-1).close()")


def drop_and_wait_for_state(page: Page) -> None:
    """Lose the connection (:func:`drop_socket`) and wait until the server's state after the
    reconnect has arrived."""
    states = page.evaluate(
        "() => window.__sq.messages.filter(h => h.message.type === 'table.state').length"
    )
    drop_socket(page)
    page.wait_for_function(
        "n => window.__sq.messages.filter(h => h.message.type === 'table.state').length > n",
        arg=states,
    )


def table_id(page: Page) -> str:
    """The id of the table the page shows (from its address, #/table/<id>)."""
    address = page.url.split("#/table/", 1)
    assert len(address) == 2, page.url
    return unquote(address[1])


def choose_row(page: Page, row: list[str], returned: str) -> None:
    """Put ``returned`` back and lay ``row`` in this order, then confirm."""
    page.locator(f'.choice-block[data-block="{returned}"]').click()
    for block in row:
        page.locator(f'.choice-block[data-block="{block}"]').click()
    click_and_wait(page, ".choice-confirm")


def sew(page: Page, move: str) -> None:
    """Sew as the engine's ``sew BLOCK die:patch …`` says: tap each die, then its patch, then
    "Block nähen"."""
    words = move.split()
    block = page.locator(f'.sq-own .quilt-cell:has(svg[data-block="{words[1]}"])')
    for pair in words[2:]:
        die, patch = pair.split(":")
        touch(page, f'.sq-dice-area .die-slot[data-die="{die}"] .die-face')
        touch(page, block.locator(f'.patch[data-patch="{patch}"]'))
    before = mine(page)
    touch(page, ".sq-own .sew-button")
    wait_for_mine(page, before)


def on_phone(page: Page) -> bool:
    """Whether the page has a phone's touch screen (its tests tap instead of click)."""
    return bool(page.evaluate("() => navigator.maxTouchPoints > 0"))


def touch(page: Page, target: str | Locator) -> None:
    """Tap ``target`` on a phone, click it on the desktop (a selector or a locator)."""
    where = page.locator(target).first if isinstance(target, str) else target
    if on_phone(page):
        where.tap()
    else:
        where.click()


def die_seen(page: Page, die: str, scope: str = ".sq-dice-area") -> dict[str, str]:
    """The die of colour ``die`` as the screen shows it: its colour class, symbol and pips."""
    slot = page.locator(f'{scope} .die-slot[data-die="{die}"]')
    shown: dict[str, str] = slot.evaluate(
        """slot => {
          const svg = slot.querySelector('svg');
          return {
            colour: [...svg.classList].find(c => c.startsWith('c-')).slice(2),
            symbol: svg.querySelector('.die-symbol').textContent,
            pips: String(svg.querySelectorAll('.pip').length),
            label: svg.getAttribute('aria-label'),
          };
        }"""
    )
    return shown


def helpful_for(view: dict[str, Any], seat: int, offered: list[str]) -> int:
    """How many of the ``offered`` dice (as ``view`` shows them) fit some patch of ``seat``'s
    unfinished blocks: the engine's own placement rule."""
    game = get_game("speedquilt", "table", players=len(view["seats"]))
    dice = {d["die"]: d for d in view["turn"]["dice"]}
    count = 0
    for name in offered:
        die = dice[name]
        colour = Colour(die["colour"])
        if any(
            can_place(game.ctx.block(p["block"]), tuple(p["filled"]), i, die["value"], colour)
            for p in view["seats"][seat]["quilt"]
            if not p["finished"]
            for i, filled in enumerate(p["filled"])
            if filled is None
        ):
            count += 1
    return count


def pass_giving(page: Page) -> None:
    """Pass her open giving window and wait until the server has taken it."""
    before = mine(page)
    page.locator(".sq-giving .giving-pass").click()
    wait_for_mine(page, before)


HURRY = """async ([maxSteps, patienceMs]) => {
  // Her part of the game, step by step as hurry_to_the_end says, done by the page's own buttons.
  const screen = () => document.querySelector(".sq-screen");
  const mine = () => Number(screen()?.dataset.mine ?? 0);
  const has = (selector) => document.querySelector(selector) !== null;
  const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));
  let pressed = 0;
  const press = async (selector) => {
    const before = mine();
    document.querySelector(selector).click();
    pressed += 1;
    for (let waited = 0; mine() <= before; waited += 10) {
      if (waited > patienceMs) throw new Error(`her ${selector} was not taken`);
      await pause(10);
    }
  };
  const deadline = Date.now() + patienceMs;
  while (pressed < maxSteps && Date.now() < deadline && !has(".sq-end")) {
    const before = pressed;
    if (has(".sq-giving")) await press(".sq-giving .giving-pass");
    else if (screen().classList.contains("my-turn") && Number(screen().dataset.legal || 0)) {
      for (const move of ["roll", "reroll", "reroll", "reroll"]) {
        const button = `.sq-actions [data-move="${move}"]`;
        if (has(button)) await press(button);
      }
      if (has(".bin-draw-pattern")) {
        await press(".bin-draw-pattern");
        await press(has(".sq-own .quilt-slot") ? ".sq-own .quilt-slot" : ".bin-return");
      }
      if (has('.sq-actions [data-move="end"]')) await press('.sq-actions [data-move="end"]');
    }
    if (pressed === before) await pause(20);  // the computers' part: wait and look again
  }
}"""


HURRY_PATIENCE_MS = 120_000
"""How long the computers' turns and her own may take together on a busy machine."""


def hurry_to_the_end(page: Page, max_steps: int = 400) -> None:
    """Bring the game to its end quickly: in each of her turns roll to the last roll and place a
    blindly drawn pattern block (a block a turn fills her quilt soonest); pass every window.

    The steps run inside the page (its own buttons, clicked one after another as each answer
    arrives): the same moves through the same screen, without a round trip to the test for every
    look at the screen, which took most of a whole game's time."""
    page.evaluate(HURRY, [max_steps, HURRY_PATIENCE_MS])
    expect(page.locator(".sq-end")).to_be_visible()
