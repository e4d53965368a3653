"""What a Speedquilt player does at the table, as small steps the browser tests are written in.

Everything goes through the page as a person would use it: taps on dice, patches, shop blocks,
buttons. Besides visible text a step reads only ``data-*`` attributes the table keeps (the last
seq drawn, the phase, whose turn it is, what lights up), so it can wait for the server's answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .ui import WATCH_MS

MAX_STEPS = 600
"""A whole game against three computers needs far fewer of the player's steps than this."""

STEP_TIMEOUT_MS = 30_000
"""How long one step may wait for the server: the machine the tests run on may be busy."""


def open_table(
    page: Page,
    computers: int = 3,
    level: str = "easy",
    tempo: str = "fast",
    deal: int | None = None,
) -> None:
    """From the start page, open a new Speedquilt table and wait for its first view."""
    page.set_default_timeout(STEP_TIMEOUT_MS)
    panel = page.locator(".speedquilt-panel")
    if deal is not None:
        panel.locator('input[name="deal"]').fill(str(deal))
    panel.locator('select[name="computers"]').select_option(str(computers))
    for index in range(1, computers + 1):  # each computer has its own strength
        panel.locator(f'select[name="level{index}"]').select_option(level)
    panel.locator('select[name="tempo"]').select_option(tempo)
    panel.locator(".new-table").click()
    page.wait_for_selector(".sq-screen[data-seq]")


def seq(page: Page) -> int:
    """The last table entry the screen has drawn."""
    return int(page.locator(".sq-screen").get_attribute("data-seq") or "0")


def mine(page: Page) -> int:
    """The last table entry of the player's own seat that the screen has drawn."""
    return int(page.locator(".sq-screen").get_attribute("data-mine") or "0")


def wait_for_mine(page: Page, before: int, timeout: float | None = None) -> None:
    """Wait until the server has taken a decision of hers made after entry ``before``
    (the computers' entries, which keep coming meanwhile, do not count)."""
    try:
        page.wait_for_function(
            "n => Number(document.querySelector('.sq-screen')?.dataset.mine) > n",
            arg=before,
            timeout=timeout or STEP_TIMEOUT_MS,
            polling=WATCH_MS,
        )
    except PlaywrightTimeoutError as exc:
        # Say what the screen showed, so a failure on a busy machine can be told apart.
        status = page.locator(".sq-screen .status-line").all_inner_texts()
        data = page.evaluate("() => ({...document.querySelector('.sq-screen')?.dataset})")
        raise AssertionError(f"her decision was not taken: status {status}, screen {data}") from exc


def click_and_wait(page: Page, target: str) -> None:
    """Click ``target`` (a selector) and wait until the server has taken her decision."""
    before = mine(page)
    page.locator(target).first.click()
    wait_for_mine(page, before)


def choose_start_row(page: Page) -> None:
    """Put back the last dealt block, lay the other three in the dealt order, confirm."""
    hand = page.locator(".choice-block")
    expect(hand).to_have_count(4)
    hand.nth(3).click()
    expect(hand.nth(3)).to_have_class(re.compile("returned"))
    for index in range(3):
        hand.nth(index).click()
        expect(hand.nth(index)).to_have_class(re.compile("placed"))
    click_and_wait(page, ".choice-confirm")


def my_turn(page: Page) -> bool:
    """Whether the table waits for the player's own turn."""
    return "my-turn" in (page.locator(".sq-screen").get_attribute("class") or "")


NEXT_STEP = """(wanted) => {
  // The first of the ``wanted`` kinds the table waits for from her now: "end" (the end table),
  // "choose" (her start row), "give" (a giving window), "turn" (her turn, with legal moves).
  const screen = document.querySelector(".sq-screen");
  if (!screen) return null;
  const now = {
    end: () => document.querySelector(".sq-end"),
    choose: () => screen.dataset.phase === "choosing" && document.querySelector(".choice-block"),
    give: () => document.querySelector(".sq-giving"),
    turn: () => screen.classList.contains("my-turn") && Number(screen.dataset.legal || 0) > 0,
  };
  return wanted.find((step) => now[step]()) ?? null;
}"""
ALL_STEPS = ("end", "choose", "give", "turn")


def next_step(page: Page, wanted: tuple[str, ...] = ALL_STEPS) -> str:
    """Wait until the table waits for one of the ``wanted`` things from her and say which:
    "end" (the end table shows), "choose" (her start row), "give" (a giving window), "turn" (her
    own turn). The page itself watches for it (every `WATCH_MS`): one round trip instead of
    asking it again and again, attribute by attribute."""
    try:
        handle = page.wait_for_function(
            NEXT_STEP, arg=list(wanted), timeout=STEP_TIMEOUT_MS, polling=WATCH_MS
        )
    except PlaywrightTimeoutError as exc:
        status = page.locator(".sq-screen .status-line").all_inner_texts()
        raise AssertionError(f"the table never waited for {wanted}: status {status}") from exc
    step: str = handle.json_value()
    return step


SEWABLE = """async () => {
  const [, kind, id] = location.hash.split("/");
  const path = kind === "table" ? `/api/tables/${id}` : `/api/games/${id}`;
  const shown = await (await fetch(path)).json();
  return (shown.legal ?? shown.view?.legal ?? []).find((m) => m.startsWith("sew ")) ?? null;
}"""
"""A block the server lets her sew now with her dice (``sew <block> <die>:<patch> …``), if any:
her legal moves as the server lists them for the page's own session (a table's ``legal``, a
solo game's ``view.legal``)."""


def sew_what_fits(page: Page) -> bool:
    """If her dice sew a block, tap each of its dice and the patch it lights, then press
    "Block nähen"; True. Otherwise tap one die onto a patch it lights and clear that plan
    again (planning and its undoing stay exercised); False.

    Which block her dice sew is the server's answer (its legal moves, asked over HTTP with the
    page's session): trying dice by tapping until a block happened to be full took most of a whole
    game's time, and mostly planned patches only to clear them."""
    move = page.evaluate(SEWABLE)
    if move is None:
        free = page.locator(".sq-dice-area .die-slot:not(.used) .die-face:enabled")
        for index in range(free.count()):
            free.nth(index).click()
            target = page.locator(".sq-own .patch.target")
            if target.count():
                target.first.click()
                page.locator(".sq-actions .clear-plan").click()
                break
            free.nth(index).click()  # not this one: tap again to put it down
        return False
    sew_by_taps(page, move)
    return True


def sew_by_taps(page: Page, move: str) -> None:
    """Sew the server's ``sew`` move as she would: tap each die and the patch it lights, then
    the sew button; wait until the server has taken it."""
    words = move.split()
    block = page.locator(f'.sq-own .quilt-cell:has(svg[data-block="{words[1]}"])')
    for die, patch in (pair.split(":") for pair in words[2:]):
        page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
        block.locator(f'.patch.target[data-patch="{patch}"]').click()
    click_and_wait(page, ".sq-own .sew-button")


def play_own_turn(page: Page) -> None:
    """Roll, sew what fits once, and end the turn."""
    if page.locator('.sq-actions [data-move="roll"]').count():
        click_and_wait(page, '.sq-actions [data-move="roll"]')
    sew_what_fits(page)
    if page.locator('.sq-actions [data-move="end"]').count():
        click_and_wait(page, '.sq-actions [data-move="end"]')


def give_or_pass(page: Page) -> None:
    """In her giving window, tap the first helpful die and the first patch it lights, else
    "Weiter" (the taps only: `wait_for_mine` waits until the server has taken it)."""
    window = page.locator(".sq-giving")
    helpful = window.locator(".die-slot.helpful .die-face")
    if helpful.count():
        helpful.first.click()
        target = page.locator(".sq-own .patch.target")
        if target.count():
            target.first.click()
            return
    window.locator(".giving-pass").click()


def answer_giving(page: Page) -> None:
    """In the giving window: take the first helpful die onto the first lit patch, else pass;
    then wait until the server has taken her answer."""
    before = mine(page)
    give_or_pass(page)
    wait_for_mine(page, before)


HURRY = """async ([patienceMs]) => {
  // Her part of the game as play_to_the_end (a table) or play_solo_to_the_end (a solo game)
  // plays it, done by the page's own buttons until the last round has begun: the start row (the
  // last dealt block back), own turns (roll, sew the block the server lets her sew by tapping
  // each die and the patch it lights, end), giving windows (a helpful die onto the first patch
  // it lights, else pass) and a solo game's shelf removals. The round she has come to (the
  // screen's data-round and data-last-round), or "end".
  const screen = () => document.querySelector(".sq-screen");
  const mine = () => Number(screen()?.dataset.mine ?? 0);
  const has = (selector) => document.querySelector(selector) !== null;
  // A click as the pointer's (an SVG patch has no click() of its own).
  const click = (node) => node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  const tap = (selector) => click(document.querySelector(selector));
  const pause = (ms) => new Promise((ok) => setTimeout(ok, ms));
  // Each wait may last ``patienceMs`` from the last entry the screen drew (as each step of the
  // test's own waits may: STEP_TIMEOUT_MS).
  let seen = null;
  let deadline = 0;
  const inTime = (what) => {
    const seq = screen()?.dataset.seq;
    if (seq !== seen) [seen, deadline] = [seq, Date.now() + patienceMs];
    if (Date.now() > deadline) throw new Error(`${what} did not come in time`);
  };
  const taken = async (before, what) => {
    while (mine() <= before) {
      inTime(`her ${what} taken`);
      await pause(10);
    }
  };
  const press = async (selector) => {
    const before = mine();
    tap(selector);
    await taken(before, selector);
  };
  const sewable = async () => {  // her legal moves as the server lists them: a sewing, if any
    const [, kind, id] = location.hash.split("/");
    const path = kind === "table" ? `/api/tables/${id}` : `/api/games/${id}`;
    const answer = await (await fetch(path)).json();
    return (answer.legal ?? answer.view.legal).find((move) => move.startsWith("sew "));
  };
  for (;;) {
    inTime("the last round");
    if (has(".sq-end")) return "end";
    const { phase, round, lastRound, legal } = screen()?.dataset ?? {};
    if (Number(round) >= Number(lastRound)) return Number(round);
    const giving = has(".sq-giving");
    const turn = screen()?.classList.contains("my-turn") && Number(legal) > 0;
    const choosing = phase === "choosing" && has(".choice-block");
    const removing = phase === "shop_remove" && has(".solo-remove");
    if (choosing) {
      const hand = [...document.querySelectorAll(".choice-block")];
      for (const index of [3, 0, 1, 2]) click(hand[index]);
      await press(".choice-confirm");
    } else if (giving) {
      const before = mine();
      const helpful = document.querySelector(".sq-giving .die-slot.helpful .die-face");
      if (helpful) click(helpful);
      if (helpful && has(".sq-own .patch.target")) tap(".sq-own .patch.target");
      else tap(".sq-giving .giving-pass");
      await taken(before, "answer to the giving window");
    } else if (removing) {
      await press(".solo-remove .remove-shelf");
    } else if (turn) {
      if (has('.sq-actions [data-move="roll"]')) await press('.sq-actions [data-move="roll"]');
      const sew = await sewable();
      if (sew) {
        const [, block, ...pairs] = sew.split(" ");
        const quilt = `.sq-own .quilt-cell:has(svg[data-block="${block}"])`;
        for (const [die, patch] of pairs.map((pair) => pair.split(":"))) {
          tap(`.sq-dice-area .die-slot[data-die="${die}"] .die-face`);
          tap(`${quilt} .patch.target[data-patch="${patch}"]`);
        }
        await press(".sq-own .sew-button");
      }
      if (has('.sq-actions [data-move="end"]')) await press('.sq-actions [data-move="end"]');
    } else await pause(20);  // the others' part, or an answer not drawn yet: look again
  }
}"""


def hurry_to_the_last_round(*pages: Page) -> list[int | str]:
    """Play her part on each of ``pages`` (as `play_to_the_end` does, or solo_ui's
    `play_solo_to_the_end`) until the last round has begun (each page plays on its own, all at
    once); the round each page came to ("end": the game had ended).

    The steps run inside the page (its own buttons, clicked one after another as each answer
    arrives): the same moves through the same screen, without the round trips of some ten
    looks and taps of the test for every move, which took most of a whole game's time. The
    last round is then played by the test's own clicks to the end table."""
    for page in pages:
        page.evaluate(f"(args) => {{ window.__hurried = ({HURRY})(args); }}", [STEP_TIMEOUT_MS])
    reached: list[int | str] = [page.evaluate("() => window.__hurried") for page in pages]
    return reached


def play_to_the_end(page: Page) -> None:
    """Play the player's part until the end table shows: start row, turns, giving windows; the
    rounds before the last inside the page (`hurry_to_the_last_round`)."""
    assert hurry_to_the_last_round(page) != ["end"], "the last round is played by clicks"
    for _ in range(MAX_STEPS):
        step = next_step(page)
        if step == "end":
            return
        if step == "choose":
            choose_start_row(page)
        elif step == "give":
            answer_giving(page)
        else:
            play_own_turn(page)
    expect(page.locator(".sq-end")).to_be_visible()


def wait_for_my_turn(page: Page) -> None:
    """Wait (passing any giving window) until the table waits for the player's own turn."""
    for _ in range(MAX_STEPS):
        if next_step(page, ("turn", "give")) == "turn":
            return
        click_and_wait(page, ".sq-giving .giving-pass")
    raise AssertionError("the player's turn never came")


def deal_where(
    first_roll: Callable[[list[int], list[str]], bool], computers: int = 1
) -> tuple[int, list[str]]:
    """A deal number whose table starts with the player and whose first roll satisfies
    ``first_roll(values in dice order, her legal moves)`` — found with the engine itself, with
    the start row the browser helper chooses (the last dealt block back, the rest in order).
    Returns the deal and her legal moves after that roll."""
    from spielcenter.games import get_game

    game = get_game("speedquilt", "table", players=computers + 1)
    for deal in range(1, 2000):
        state = game.start(deal)
        hand = game.view_for(state, 0)["seats"][0]["hand"]
        state = game.play(state, f"choose {' '.join(hand[:3])} return {hand[3]}", 0)
        if game.to_act(state) != {seat for seat in range(1, computers + 1)}:
            continue
        for seat in range(1, computers + 1):
            state = game.play(state, game.format_move(game.legal_moves(state, seat)[0]), seat)
        if game.to_act(state) != {0}:
            continue
        state = game.play(state, "roll", 0)
        values = [die["value"] for die in game.view_for(state, 0)["turn"]["dice"]]
        legal = [game.format_move(move) for move in game.legal_moves(state, 0)]
        if first_roll(values, legal):
            return deal, legal
    raise AssertionError("no deal found")


def deal_with_a_sewing_first_roll() -> tuple[int, str, list[list[str]]]:
    """A deal whose first roll lets her sew at once: the deal, the block of her first legal sewing
    move, and that move's die:patch pairs."""
    deal, legal = deal_where(lambda values, legal: any(m.startswith("sew ") for m in legal))
    words = next(m for m in legal if m.startswith("sew ")).split()
    return deal, words[1], [pair.split(":") for pair in words[2:]]


def wait_for_helpful_giving(page: Page) -> None:
    """Wait (passing windows where nothing fits) until a giving window offers a die that helps."""
    for _ in range(MAX_STEPS):
        wait_for_giving(page)
        if page.locator(".sq-giving .die-slot.helpful").count():
            return
        click_and_wait(page, ".sq-giving .giving-pass")
    raise AssertionError("no giving window offered a helpful die")


def wait_for_giving(page: Page) -> None:
    """Wait until a giving window opens for the player, playing short turns of her own
    (roll, end) while she is the one at turn."""
    for _ in range(MAX_STEPS):
        if next_step(page, ("give", "turn")) == "give":
            return
        if page.locator('.sq-actions [data-move="roll"]').count():
            click_and_wait(page, '.sq-actions [data-move="roll"]')
        click_and_wait(page, '.sq-actions [data-move="end"]')
    raise AssertionError("no giving window opened")
