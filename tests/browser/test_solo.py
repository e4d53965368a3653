"""Solo Speedquilt in the browser (seed 003, "Kampagne allein", "Tagesquilt", "Erfolge"): a campaign
stage and the daily quilt played through the Speedquilt screen to their end, with the giving turn
and the shelf that loses a block after each own turn, the result on the end table, the lists of
Meine Partien and the replay — on a laptop and a phone, in English and German."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from spielcenter.games.base import get_game
from spielcenter.games.speedquilt.history import lines_of
from spielcenter.games.speedquilt.rules import Speedquilt

from .solo_ui import (
    api,
    choose_fast_tempo,
    play_solo_to_the_end,
    play_until,
    record_frames,
    remove_a_block,
    replay_step,
    settle,
    start_solo,
)
from .speedquilt_ui import (
    choose_start_row,
    click_and_wait,
    open_table,
    wait_for_my_turn,
)
from .table_socket import play_table_by_socket
from .ui import MAX_STEPS, PHONE, PageFactory, assert_accessible, claim_account, shown_id

pytestmark = pytest.mark.browser

PATIENCE_MS = 20_000
"""How long an assertion may wait: the shared machine may be busy."""

SYMBOLS = {"red": "▲", "blue": "●", "green": "■", "yellow": "★", "purple": "◆"}
"""The symbol each die carries besides its colour (the history writes a roll with them)."""

ROLLING_MOVES = {"roll", "reroll", "end"}
"""The moves that roll dice: a roll, a reroll, and the end of her turn (the giving turn's roll)."""


@pytest.fixture(autouse=True)
def patient_expectations() -> Iterator[None]:
    """Assertions of these tests wait longer than the default 5 s (restored afterwards)."""
    expect.set_options(timeout=PATIENCE_MS)
    yield
    expect.set_options(timeout=5_000)


def turns_shown(frames: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each game message (``state``, ``event``) that shows a turn, with that turn."""
    shown = []
    for frame in frames:
        turn = frame["view"].get("turn") if frame.get("type") in ("state", "event") else None
        if turn:
            shown.append((frame, turn))
    return shown


def first_sight_of_each_roll(
    shown: list[tuple[dict[str, Any], dict[str, Any]]],
) -> list[dict[str, Any]]:
    """The first game message that showed the dice of each roll (round, turn kind, roll)."""
    seen: set[tuple[int, str, int]] = set()
    first = []
    for frame, turn in shown:
        key = (frame["view"]["round"], turn["kind"], turn["rolls"])
        if turn["rolls"] and key not in seen:
            seen.add(key)
            first.append(frame)
    return first


def test_no_message_to_the_browser_holds_a_die_of_a_roll_not_yet_made(
    open_page: PageFactory,
) -> None:
    page = open_page(locale="de-DE")
    frames = record_frames(page)
    start_solo(page, ".solo-play-daily")
    choose_fast_tempo(page)
    for _ in range(2):  # two rounds: own rolls, rerolls and giving turns
        play_until(page, "shop_remove")
        remove_a_block(page)
    shown = turns_shown(frames)
    assert len(first_sight_of_each_roll(shown)) >= 4
    # Each roll's dice first came with the move that rolled them; before a roll, no dice at all.
    for frame in first_sight_of_each_roll(shown):
        assert frame["type"] == "state" or frame["event"]["move"] in ROLLING_MOVES, frame["event"]
    assert all(turn["dice"] == [] for _, turn in shown if not turn["rolls"])
    # Nor the deal number that keys the dice.
    assert all(frame["view"].get("deal") is None for frame in frames if "view" in frame)


def test_the_daily_quilt_is_played_to_its_end_and_ranked(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    claim_account(page)  # the daily list shows accounts with a name
    start_solo(page, ".solo-play-daily")
    choose_fast_tempo(page)
    day = api(page, "/api/daily")["day"]
    expect(page.locator(".sq-toolbar .solo-facts")).to_contain_text(
        f"Round 1 of 12 · Daily quilt {day}"
    )
    play_until(page, "giving_turn")
    expect(page.locator(".solo-giving h2")).to_have_text("Giving turn")
    expect(page.locator(".sq-whose")).to_have_text("Giving turn: the dice have been rolled once.")
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-giving-turn.png")
    play_until(page, "shop_remove")
    expect(page.locator(".solo-remove .remove-shelf")).to_have_count(2)
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-shop-removal.png")
    play_solo_to_the_end(page)

    result = api(page, "/api/daily")["ranked"]
    end = page.locator(".sq-end")
    expect(end.locator("h2")).to_have_text("Daily quilt finished")
    expect(end.locator(".daily-result .result-line")).to_have_text(
        f"{result['points']} points, {result['empty_patches']} empty patches"
    )
    expect(end.locator(".result-rank")).to_have_text(
        re.compile(r"^Rank \d+ of \d+ in the daily list$")
    )
    expect(end.locator(".end-points")).to_have_text(str(result["points"]))
    # A daily quilt played earns "Tagesgast" (seed 003, "Erfolge"): the end table shows it new.
    expect(end.locator('.new-achievement[data-key="daily_guest"] .name')).to_have_text(
        "Daily guest"
    )
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-daily-result.png")

    # The history the screen wrote as she played is the one the server tells in the replay.
    history = page.locator(".sq-screen .sq-history li").all_inner_texts()
    end.locator(".result-link.to_daily").click()
    expect(page.locator(".daily .facts dd").nth(1)).to_have_text("yes")
    expect(page.locator(".daily .play-daily")).to_have_text("Practise the daily quilt")
    page.goto("/#/progress/boards")
    own = page.locator(".board-daily tr.you")
    expect(own.locator("td").nth(2)).to_have_text(str(result["points"]))

    page.goto("/#/progress/games")
    row = page.locator('.game-row[data-game="speedquilt"]')
    expect(row.locator("td").first).to_have_text(f"Speedquilt · Daily quilt {day}")
    row.locator(".replay-link").click()
    step_through_the_replay(page, screenshots, history)


def step_through_the_replay(page: Page, screenshots: Path, history: list[str]) -> None:
    """The replay of her finished solo game: the deal, the start choice, the first roll with its
    dice as the history tells them, and at the end the whole ``history`` the screen showed and
    the end table with the breakdown."""
    board = page.locator(".replay-board .sq-replay")
    expect(board).to_be_visible()
    assert replay_step(page) == 0
    expect(page.locator(".step-move")).to_have_text("The deal")
    page.locator(".replay-controls .forward").click()
    expect(page.locator(".step-move")).to_contain_text("lays the start row")
    expect(board.locator(".replay-seat.own .quilt-cell")).to_have_count(3)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".step-move")).to_contain_text("rolls")
    rolled = page.locator(".step-move").inner_text()
    for die in board.locator(".replay-dice .die-slot").all():
        label = die.locator("svg").get_attribute("aria-label") or ""
        value = re.findall(r"\d", label)[-1]
        assert f"{SYMBOLS[die.get_attribute('data-die') or '']}{value}" in rolled
    page.locator(".replay-controls .last").click()
    expect(board.locator(".sq-end .end-row")).to_have_count(1)
    assert board.locator(".sq-history li").all_inner_texts() == history
    board.locator(".sq-end .end-row").click()
    expect(board.locator(".breakdown-total")).to_be_visible()
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-replay-end.png", full_page=True)
    page.locator(".replay-controls .back").click()
    expect(board.locator(".sq-end")).to_have_count(0)


def test_a_campaign_stage_is_played_to_its_end_on_a_phone(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    expect(page.locator(".solo-play-stage")).to_have_text("Kampagne: Stufe 1 spielen")
    start_solo(page, ".solo-play-stage")
    choose_fast_tempo(page)
    campaign = api(page, "/api/campaign")
    target = campaign["stages"][0]["target"]
    facts = page.locator(".sq-toolbar .solo-facts")
    expect(facts).to_contain_text(f"Runde 1 von 12 · Stufe 1 · Ziel {target} Punkte")
    expect(facts.locator(".spools")).to_have_text("●●")
    play_until(page, "giving_turn")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-phone-giving-turn.png")
    play_until(page, "shop_remove")
    expect(page.locator(".solo-remove .remove-shelf")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-phone-shop-removal.png")
    play_solo_to_the_end(page)

    after = api(page, "/api/campaign")
    end = page.locator(".sq-end")
    points = int(end.locator(".end-points").inner_text())
    cleared = points >= target
    expect(end.locator("h2")).to_have_text("Stufe 1 geschafft!" if cleared else "Stufe 1 verfehlt")
    expect(end.locator(".stage-result")).to_have_attribute("data-cleared", str(cleared).lower())
    expect(end.locator(".stage-result .spools")).to_have_text(
        "●" * after["spools"] + "○" * (2 - after["spools"])
    )
    expect(end.locator(".stage-result")).to_contain_text(
        f"Kampagnenpunkte jetzt: {after['points']}"
    )
    assert after["spools"] == (2 if cleared else 1)
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-stage-result-phone.png", full_page=True)
    expect(end.locator(".end-again")).to_have_text("Nächste Stufe" if cleared else "Stufe nochmal")
    end.locator(".end-again").click()
    expect(page.locator(".sq-toolbar .solo-facts")).to_contain_text(f"Stufe {after['stage']}")
    expect(page.locator(".sq-screen")).to_have_attribute("data-phase", "choosing")
    assert api(page, "/api/campaign")["game_id"] not in (None, campaign["game_id"])

    # Its replay fits the phone, and ends on the same end table.
    page.goto(f"/#/progress/replay/{campaign['game_id']}")
    page.locator(".replay-controls .last").tap()
    expect(page.locator(".replay-head h2")).to_have_text("Speedquilt · Stufe 1")
    replay_end = page.locator(".replay-board .sq-end")
    expect(replay_end.locator(".end-points")).to_have_text(str(points))
    expect(replay_end.locator("h2")).to_have_text(
        "Stufe 1 geschafft!" if cleared else "Stufe 1 verfehlt"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-replay-phone.png")


def test_a_table_replays_from_her_seat_with_the_dice_as_they_were(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1, level="easy", tempo="fast")
    choose_start_row(page)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    table_id = shown_id(page)
    rolled = page.locator(".sq-history li").last.inner_text()
    page.goto("/#/progress/games")
    row = page.locator(f'.table-row[data-id="{table_id}"]')
    expect(row.locator("td").nth(2)).to_have_text("nicht beendet")
    expect(row.locator(".resume-link")).to_have_attribute("href", f"#/table/{table_id}")
    row.locator(".replay-link").click()
    board = page.locator(".replay-board .sq-replay")
    expect(board.locator(".replay-seat")).to_have_count(2)
    expect(page.locator(".replay-head h2")).to_have_text("Speedquilt · Tisch")
    moves = []
    while page.locator(".replay-controls .forward").is_enabled():
        page.locator(".replay-controls .forward").click()
        moves.append(page.locator(".step-move").inner_text())
    # Her own start choice reads in full; the computer's only that it has chosen.
    assert any("legt die Startreihe" in move for move in moves), moves
    assert any(move.endswith("hat gewählt.") for move in moves), moves
    assert moves[-1] == rolled
    expect(board.locator(".replay-dice .die-slot")).to_have_count(5)
    settle(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "solo-replay-table.png", full_page=True)


def test_a_stage_is_continued_from_the_start_page_and_giving_it_up_costs_a_spool(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    start_solo(page, ".solo-play-stage")
    choose_start_row(page)
    page.locator(".sq-toolbar .back").click()
    resume = page.locator(".resume .resume-game")
    expect(resume).to_contain_text("Speedquilt · Stage 1")
    expect(page.locator(".solo-play-stage")).to_have_text("Campaign: continue stage 1")
    page.locator(".speedquilt-panel").screenshot(path=screenshots / "solo-start-buttons.png")
    resume.click()
    expect(page.locator(".sq-screen.solo")).to_have_attribute("data-phase", "turn")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".sq-toolbar .leave-stage").click()
    expect(page.locator(".campaign .facts dd").nth(1)).to_have_text("●○ (1)")
    expect(page.locator(".campaign .play-stage")).to_have_text("Campaign: play stage 1")


def test_the_end_table_of_a_table_shows_what_the_game_earned(open_page: PageFactory) -> None:
    page = open_page()
    # Deal 1 against an easy computer earns her achievements (Gut beschenkt among them) the way
    # the test plays, so the end table has something to show. Her moves go over the socket (the
    # play is not what this test is about; test_speedquilt.py plays whole tables in the
    # browser), and she comes back to the table when it is over.
    open_table(page, computers=1, level="easy", tempo="fast", deal=1)
    table_id = shown_id(page)
    play_table_by_socket(page, table_id)
    page.reload()
    expect(page.locator(".sq-end")).to_be_visible()
    earned = [
        item["key"]
        for item in api(page, "/api/achievements")["achievements"]
        if item["game_id"] == table_id
    ]
    assert earned, "the table earned nothing: the end table's achievements go untested"
    shown = page.locator(".sq-end .new-achievement")
    expect(shown).to_have_count(len(earned))
    assert [shown.nth(i).get_attribute("data-key") for i in range(len(earned))] == earned


def random_solo_log(deal: int, seed: int) -> list[dict[str, Any]]:
    """A whole solo game of random legal moves (rolls, baskets, rerolls, sewing, buying, the
    bargain bin, kits, undo, giving, removing): each move with the views around it and the
    history lines the table's server writes for it."""
    engine = get_game("speedquilt", "solo")
    assert isinstance(engine, Speedquilt)
    rng = random.Random(seed)
    state = engine.start(deal)
    played = []
    while engine.to_act(state):
        move = rng.choice(engine.legal_moves(state, 0))
        after = engine.apply(state, move, 0)
        lines = lines_of(engine, state, after, 0, move)
        played.append(
            {
                "move": engine.format_move(move),
                "before": engine.view_for(state, 0),
                "after": engine.view_for(after, 0),
                "lines": [lines.own, *lines.also],
            }
        )
        state = after
    return played


@cache
def two_random_solo_games() -> str:
    """Two random solo games that between them make every kind of move (found with the engine),
    as :func:`random_solo_log` writes them, in JSON: computed once per worker, and handed to the
    page as one string (as objects, Playwright took 15 s at load 17 to hand over the 1.5 MB)."""
    return json.dumps(random_solo_log(deal=105, seed=5) + random_solo_log(deal=177, seed=80))


LINES_OF = """async (text) => {
  const played = JSON.parse(text);
  const { linesOf } = await import("/static/js/speedquilt-solo-parts.js");
  return played.map((p) => linesOf(p.move, p.before, p.after));
}"""


def move_kind(text: str) -> str:
    """``sew``, ``bin draw``, ``bin dice`` …: what kind of move a move's text is."""
    words = text.split()
    if words[0] != "bin":
        return words[0]
    return f"bin {words[1] if words[1] in ('draw', 'place', 'return') else 'dice'}"


EVERY_KIND = {
    "choose", "roll", "keep", "reroll", "sew", "buy", "thimble", "dye", "undo", "end", "give",
    "pass", "remove", "bin dice", "bin draw", "bin place", "bin return",
}  # fmt: skip
"""Every kind of move of a solo game."""


def test_the_history_the_solo_screen_writes_is_the_history_a_table_tells(
    open_page: PageFactory,
) -> None:
    page = open_page()
    # Two random games that between them make every kind of move (found with the engine).
    played = json.loads(two_random_solo_games())
    assert {move_kind(entry["move"]) for entry in played} == EVERY_KIND
    written = page.evaluate(LINES_OF, two_random_solo_games())
    for entry, lines in zip(played, written, strict=True):
        assert lines == entry["lines"], entry["move"]


SENTENCES_OF = """async (text) => {
  const played = JSON.parse(text);
  const { historyText } = await import("/static/js/speedquilt-history.js");
  const { loadCatalogue } = await import("/static/js/speedquilt-blocks.js");
  await loadCatalogue();
  const nameOf = (seat) => `Seat ${seat}`;
  return played.flatMap((p) => p.lines.map((line) => historyText(line, nameOf)));
}"""
NOTATION = re.compile(r"\b[PK]\d\d\b|-?\d,-?\d|:\d\b|\bbin (draw|place|return)\b")
"""Block ids (P45, K16), cells (1,-1), patches (P45:1) and move words of the notation."""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_history_speaks_of_blocks_places_and_patches_in_words(
    open_page: PageFactory, locale: str
) -> None:
    """Issue 38, finding 8: "buys K16 and places it at 1,-1", "takes ★ yellow onto P45:1"."""
    page = open_page(locale=locale)
    played = json.loads(two_random_solo_games())
    sentences = page.evaluate(SENTENCES_OF, two_random_solo_games())
    assert len(sentences) >= len(played)
    notation = [text for text in sentences if NOTATION.search(text)]
    assert notation == [], notation[:5]
    placed = [text for text in sentences if "start row" in text or "Startreihe" in text]
    assert placed, "no sentence says where a block was laid"


END_TABLE = """async ([points, quilt]) => {
  const { endTable } = await import("/static/js/speedquilt-end.js");
  const view = { you: 0, seats: [{ quilt: [] }] };
  const result = {
    scores: [points], places: [1], leaderboard_points: [null], empty_patches: [0],
    breakdown: [{ total: quilt, blocks: [], remnant_colours: {} }],
  };
  const table = endTable(view, result, { nameOf: () => "Du", tempoMs: 10, onAgain() {} });
  document.body.append(table);
  table.querySelector(".end-row").click();
  await new Promise((done) => setTimeout(done, 50));
  return [...table.querySelectorAll(".breakdown-lines li, .breakdown-total")].map(
    (node) => node.textContent,
  );
}"""


def test_the_solo_end_table_adds_the_rounds_to_spare_to_its_total(open_page: PageFactory) -> None:
    """Seed 003 departure (issue 38): "Zusammen: N Punkte" left out the 2 points per round to
    spare that the points column counts; the breakdown now ends at the same total."""
    page = open_page(locale="de-DE")
    said = page.evaluate(END_TABLE, [26, 20])
    assert said == ["Für die übrigen Runden: +6", "Zusammen: 26 Punkte"]


def test_a_stage_she_has_left_draws_nothing_over_the_page_she_went_to(
    open_page: PageFactory,
) -> None:
    """Going elsewhere stops the stage's screen: what it still loads (its history, the campaign
    facts) arrives later on a busy machine and must not draw the stage over the new page."""
    page = open_page()
    start_solo(page, ".solo-play-stage")
    stage = shown_id(page)
    page.goto("/#/progress/games")
    games = page.locator(".game-row")
    expect(games.first).to_be_visible()
    # From now on the server's answers to the stage's loads are held back, as on a busy machine.
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/campaign", hold)
    page.route("**/api/my-games/*/replay", hold)
    page.goto(f"/#/solo/{stage}")
    page.wait_for_selector(".sq-screen.solo[data-seq]")
    page.goto("/#/progress/games")
    expect(games.first).to_be_visible()
    for _ in range(MAX_STEPS):
        if len(held) == 2:
            break
        page.wait_for_timeout(20)
    assert sorted(route.request.url.split("/api/")[1] for route in held) == [
        "campaign",
        f"my-games/{stage}/replay",
    ]
    # The stage's late answers arrive now, after she went elsewhere.
    for route in held:
        with page.expect_request_finished(lambda request, route=route: request == route.request):
            route.continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    expect(page.locator(".sq-screen")).to_have_count(0)
    expect(games.first).to_be_visible()


def test_a_refused_solo_start_is_said_and_the_button_works_again(
    open_page: PageFactory, screenshots: Path
) -> None:
    """When the server refuses to start a stage, the start page says why (in her language) and
    the button can be pressed again; it is not left dead and silent."""
    page = open_page(locale="de-DE")
    refuse = {"error": {"code": "rate_limited", "message": "too many"}}
    page.route("**/api/campaign/play", lambda route: route.fulfill(status=429, json=refuse))
    page.locator(".solo-start .solo-play-stage").click()
    refusal = page.locator(".solo-start .solo-error")
    expect(refusal).to_have_text("Zu viele Versuche – bitte kurz warten.")
    expect(page.locator(".solo-start .solo-play-stage")).to_be_enabled()
    page.screenshot(path=screenshots / "solo-start-refused.png")
    page.unroute("**/api/campaign/play")
    start_solo(page, ".solo-play-stage")
    expect(page.locator(".sq-screen.solo")).to_be_visible()
