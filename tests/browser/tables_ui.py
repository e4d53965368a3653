"""What people do at a table with others, as small steps the browser tests are written in: the
lobby, an invitation link, the clocks on screen, leaving and coming back, the taler.

Everything goes through the page as a person would use it; besides visible text a step reads only
``data-*`` attributes the screens keep, and the account's own taler and the table's pot through
the HTTP API the pages use themselves.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import serve
from .speedquilt_ui import (
    SEWABLE,
    STEP_TIMEOUT_MS,
    click_and_wait,
    give_or_pass,
    my_turn,
    sew_by_taps,
    wait_for_mine,
)
from .ui import WATCH_MS, PageFactory


def api(page: Page, path: str) -> Any:
    """``GET path`` as the page's account (its session cookie), the JSON body."""
    answer = page.request.get(path)
    assert answer.ok, answer.text()
    return answer.json()


def balance(page: Page) -> int:
    """The account's taler, as its taler page reads them."""
    value: int = api(page, "/api/ledger")["balance"]
    return value


def open_lobby(page: Page) -> None:
    """From the start page, go to the lobby of tables with people."""
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.locator(".speedquilt-panel .lobby-link").click()
    page.wait_for_selector(".lobby-form")


def create_table(
    page: Page,
    seats: list[str],
    think: str = "60",
    giving: str = "15",
    tempo: str = "fast",
    stake: int = 0,
    private: bool = False,
) -> str:
    """In the lobby, open a table: ``seats`` says who takes each seat after hers ("person" or a
    computer level); ``think`` and ``giving`` are seconds, or "null" for no clock. Returns the
    invitation link of its waiting room."""
    form = page.locator(".lobby-form")
    form.locator('select[name="players"]').select_option(str(len(seats) + 1))
    for seat, who in enumerate(seats, start=1):
        form.locator(f'select[name="seat{seat}"]').select_option(who)
    form.locator('select[name="think"]').select_option(think)
    form.locator('select[name="giving"]').select_option(giving)
    form.locator('select[name="tempo"]').select_option(tempo)
    form.locator('input[name="stake"]').fill(str(stake))
    form.locator('input[name="private"]').set_checked(private)
    form.locator(".create-table").click()
    link = page.locator(".lobby-waiting .invite-link")
    expect(link).to_be_visible()
    return link.input_value()


def invite_code(link: str) -> str:
    """The code of an invitation link."""
    return link.rsplit("/", 1)[1]


def wait_for_table(page: Page) -> str:
    """Wait until the page shows the table (the game has begun); the table's id."""
    page.wait_for_selector(".sq-screen[data-seq]", timeout=STEP_TIMEOUT_MS)
    return str(page.evaluate("() => decodeURIComponent(location.hash.split('/')[2])"))


def own_clock(page: Page) -> Any:
    """Her own clock on the table screen."""
    return page.locator(".sq-own-clock .sq-clock")


def seconds(shown: str) -> int:
    """The seconds of a clock's text (m:ss)."""
    minutes, rest = shown.strip().split(":")
    return int(minutes) * 60 + int(rest)


def seconds_shown(page: Page, clock: Any) -> int:
    """The seconds a clock shows now (m:ss)."""
    return seconds(clock.inner_text())


def chat(page: Page, text: str) -> None:
    """Write one line into the table's chat."""
    page.locator(".chat-form input[name=chat]").fill(text)
    page.locator(".chat-form .chat-send").click()


def chat_lines(page: Page) -> list[str]:
    """The chat lines the page shows, as text."""
    lines: list[str] = page.locator(".sq-chat .chat-lines li").all_inner_texts()
    return lines


def seq(page: Page) -> int:
    """The last table entry the screen has drawn."""
    return int(page.locator(".sq-screen").get_attribute("data-seq") or "0")


def can_roll(page: Page) -> bool:
    """Her turn has begun and she has not rolled yet."""
    return my_turn(page) and page.locator('.sq-actions [data-move="roll"]').count() > 0


WHAT_WAITS = """() => {
  const screen = document.querySelector(".sq-screen");
  const data = screen?.dataset ?? {};
  return {
    over: document.querySelector(".sq-end") !== null,
    giving: document.querySelector(".sq-giving") !== null,
    turn: (screen?.classList.contains("my-turn") ?? false) && Number(data.legal ?? 0) > 0,
    roll: document.querySelector('.sq-actions [data-move="roll"]') !== null,
    seq: Number(data.seq ?? 0),
    mine: Number(data.mine ?? 0),
  };
}"""
"""What her page shows the table waits for, read at one moment (one call instead of one per
question: a whole game asks it some hundred times on each page)."""


@dataclass(frozen=True)
class Waits:
    """What the table waits for from her, as her page shows it at one moment."""

    over: bool
    """The end table shows."""
    giving: bool
    """A giving window is open for her."""
    turn: bool
    """It is her turn and she has something to do."""
    roll: bool
    """She may roll (her turn has begun, no roll yet)."""
    seq: int
    """The last table entry her page has drawn."""
    mine: int
    """The last entry of her own seat her page has drawn."""


def what_waits(page: Page) -> Waits:
    """What the table waits for from her now (`WHAT_WAITS`)."""
    return Waits(**page.evaluate(WHAT_WAITS))


def answer_the_windows(now: dict[Page, Waits]) -> None:
    """Each whose giving window is open answers it (`give_or_pass`); then wait until the
    server has taken every answer (a computer's reroll opens both windows at once, and the two
    answers travel together)."""
    opened = [page for page, waits in now.items() if waits.giving]
    for page in opened:
        give_or_pass(page)
    for page in opened:
        wait_for_mine(page, now[page].mine)


def play_a_short_turn(page: Page) -> None:
    """Her turn: roll, sew the block the server says her dice sew (if any) by tapping each die
    and the patch it lights, then "Zug beenden"."""
    if page.locator('.sq-actions [data-move="roll"]').count():
        click_and_wait(page, '.sq-actions [data-move="roll"]')
    move = page.evaluate(SEWABLE)
    if move is not None:
        sew_by_taps(page, move)
    click_and_wait(page, '.sq-actions [data-move="end"]')


def anna_and_bea_at_one_table(
    open_page: PageFactory, think: str = "null", giving: str = "null"
) -> tuple[Page, Page]:
    """Anna (German) makes a table for two people (without clocks unless ``think`` and
    ``giving`` give them, in seconds); Bea (English) follows its link and joins: both pages
    show the one table."""
    anna = open_page(locale="de-DE")
    bea = open_page(locale="en-GB")
    open_lobby(anna)
    link = create_table(anna, ["person"], think=think, giving=giving)
    bea.goto(link)
    bea.locator(".lobby-waiting .join-table").click()
    assert wait_for_table(bea) == wait_for_table(anna)
    return anna, bea


NEWS_MS = 1000
"""How long to wait for a page's next table entry before looking at both pages again."""


def wait_for_news(now: dict[Page, Waits]) -> None:
    """Nothing to do on either page: wait until the page furthest behind draws a table entry
    it had not drawn (a computer's move, the other's), for `NEWS_MS` at most."""
    page = min(now, key=lambda page: now[page].seq)
    # Else something besides an entry changed (a window opened, the end table): look again.
    with suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            "n => Number(document.querySelector('.sq-screen')?.dataset.seq) > n",
            arg=now[page].seq,
            timeout=NEWS_MS,
            polling=WATCH_MS,
        )


def leave_table(page: Page) -> None:
    """Leave the running game ("Tisch verlassen", confirmed): the page goes to the lobby."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".sq-people .leave-game").click()
    page.wait_for_selector(".lobby-form")


__all__ = [
    "Waits",
    "anna_and_bea_at_one_table",
    "answer_the_windows",
    "api",
    "balance",
    "can_roll",
    "chat",
    "chat_lines",
    "create_table",
    "give_or_pass",
    "invite_code",
    "leave_table",
    "open_lobby",
    "own_clock",
    "play_a_short_turn",
    "seconds",
    "seconds_shown",
    "seq",
    "serve",
    "wait_for_news",
    "wait_for_table",
    "what_waits",
]
