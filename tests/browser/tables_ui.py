"""What people do at a table with others, as small steps the browser tests are written in: the
lobby, an invitation link, the clocks on screen, leaving and coming back, the taler.

Everything goes through the page as a person would use it; besides visible text a step reads only
``data-*`` attributes the screens keep, and the account's own taler and the table's pot through
the HTTP API the pages use themselves.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .conftest import serve
from .speedquilt_ui import STEP_TIMEOUT_MS, answer_giving, choose_start_row, my_turn, play_own_turn


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


def seconds_shown(page: Page, clock: Any) -> int:
    """The seconds a clock shows now (m:ss)."""
    minutes, seconds = clock.inner_text().strip().split(":")
    return int(minutes) * 60 + int(seconds)


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


def take_a_step(page: Page) -> bool:
    """Do what the table waits for from her, if anything: her start row, a giving window (the
    first helpful die, else "Weiter"), her turn (roll, sew what fits, end). Whether she acted."""
    if page.locator(".sq-end").count():
        return False
    screen = page.locator(".sq-screen")
    if screen.get_attribute("data-phase") == "choosing" and page.locator(".choice-block").count():
        choose_start_row(page)
    elif page.locator(".sq-giving").count():
        answer_giving(page)
    elif my_turn(page) and int(screen.get_attribute("data-legal") or "0"):
        play_own_turn(page)
    else:
        return False
    return True


def leave_table(page: Page) -> None:
    """Leave the running game ("Tisch verlassen", confirmed): the page goes to the lobby."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".sq-people .leave-game").click()
    page.wait_for_selector(".lobby-form")


__all__ = [
    "api",
    "balance",
    "can_roll",
    "chat",
    "chat_lines",
    "create_table",
    "invite_code",
    "leave_table",
    "open_lobby",
    "own_clock",
    "seconds_shown",
    "seq",
    "serve",
    "take_a_step",
    "wait_for_table",
]
