"""Meine Partien in the browser: the account's games with their replay, achievements,
leaderboards, the campaign and today's quilt (seed 003, "Kampagne allein", "Tagesquilt",
"Erfolge"), in German and English, on a laptop and a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from spielcenter.solvers.cruel import solve

from .ui import (
    PHONE,
    PageFactory,
    board_cards,
    moves_made,
    play_first_by_click,
    play_line,
    play_to_the_end,
    seq,
    set_auto_move,
    shown_id,
    start_deal,
    wait_past,
)

pytestmark = pytest.mark.browser

# A Cruel deal the "first highlighted move" policy ends within a few moves.
SHORT_DEAL = 158
# A Cruel deal the solver wins quickly; its winning line is computed by the test.
WINNABLE_DEAL = 59


OPEN_A_TABLE_WITH_ONE_COMPUTER = """async () => {
  const me = await (await fetch('/api/me')).json();
  const headers = {'X-CSRF-Token': me.csrf, 'Content-Type': 'application/json'};
  const body = JSON.stringify({players: 2, bots: ['normal'], tempo: 'fast'});
  return (await fetch('/api/tables', {method: 'POST', headers, body})).json();
}"""
"""A new table of hers against one normal computer, opened as the start page's form does."""


def finish_a_short_cruel_game(page: Page) -> tuple[str, list[list[str]]]:
    """Play deal SHORT_DEAL to its end through the game screen; its status and its first deal."""
    start_deal(page, "cruel", SHORT_DEAL)
    dealt = board_cards(page)
    set_auto_move(page, False)
    status = play_to_the_end(page, play_first_by_click)
    page.locator(".overlay .home").click()
    page.wait_for_selector(".game-panel")
    return status, dealt


def open_my_games(page: Page) -> None:
    """Follow the start page's link to Meine Partien."""
    page.locator(".start-header .progress-link").click()
    page.wait_for_selector(".progress-screen .games-table, .progress-screen .my-games .empty")


def step_number(page: Page) -> int:
    """The step the replay viewer shows (0 is the deal)."""
    return int(page.locator(".progress-body").get_attribute("data-step") or "-1")


def test_the_start_page_leads_to_my_games(open_page: PageFactory, screenshots: Path) -> None:
    page = open_page()
    link = page.locator(".start-header .progress-link")
    expect(link).to_have_text("My games")
    page.locator(".start-header").screenshot(path=screenshots / "progress-start-link.png")
    link.click()
    expect(page.locator(".progress-screen h1")).to_have_text("My games")
    expect(page.locator(".progress-tabs .tab")).to_have_text(
        ["Games", "Achievements", "Leaderboards", "Campaign", "Daily quilt"]
    )
    expect(page.locator(".my-games .empty")).to_have_text("No games yet.")


def test_a_finished_game_is_listed_with_its_result(open_page: PageFactory) -> None:
    page = open_page()
    status, _ = finish_a_short_cruel_game(page)
    open_my_games(page)
    rows = page.locator(".games-table .game-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-game", "cruel")
    expect(rows.first.locator("td").first).to_have_text("Cruel · Classic")
    expect(rows.first.locator("td").nth(2)).to_have_text(status)


def test_an_unfinished_game_is_listed_and_can_be_continued(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", SHORT_DEAL)
    page.locator(".toolbar .back").click()
    page.wait_for_selector(".game-panel")
    open_my_games(page)
    row = page.locator(".games-table .game-row.playing")
    expect(row.locator("td").nth(2)).to_have_text("unfinished")
    row.locator(".resume-link").click()
    expect(page.locator(".game-screen .deal-number")).to_have_text(f"Deal #{SHORT_DEAL}")


def test_the_replay_steps_through_the_game_forward_and_backward(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    status, dealt = finish_a_short_cruel_game(page)
    open_my_games(page)
    page.locator(".games-table .replay-link").first.click()
    page.wait_for_selector(".replay-board .cruel-board")
    assert step_number(page) == 0
    assert board_cards(page) == dealt
    expect(page.locator(".step-move")).to_have_text("The deal")
    expect(page.locator(".replay-controls .back")).to_be_disabled()

    page.locator(".replay-controls .forward").click()
    assert step_number(page) == 1
    # Issue 38, finding 8: "Move 1>4" was notation; a move reads in card pictures.
    expect(page.locator(".step-move")).to_have_text(
        re.compile(r"^Move: (10|[2-9AJQK])[♠♥♦♣] → ((10|[2-9AJQK])[♠♥♦♣]|foundation)$")
    )
    assert board_cards(page) != dealt

    page.locator(".replay-controls .last").click()
    total = step_number(page)
    expect(page.locator(".step-count")).to_have_text(f"Step {total} of {total}")
    expect(page.locator(".progress-body")).to_have_attribute("data-status", status)
    expect(page.locator(".replay-controls .forward")).to_be_disabled()
    page.screenshot(path=screenshots / "progress-replay-desktop.png")

    page.keyboard.press("ArrowLeft")
    assert step_number(page) == total - 1
    page.locator(".replay-controls .first").click()
    assert step_number(page) == 0
    assert board_cards(page) == dealt


def test_achievements_show_every_achievement_in_english_and_german(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    open_my_games(page)
    page.locator(".progress-tabs .tab-achievements").click()
    items = page.locator(".achievement-list .achievement")
    expect(items.first).to_be_visible()
    total = items.count()
    expect(page.locator(".earned-count")).to_have_text(f"0 of {total} achievements earned")
    expect(page.locator('.achievement[data-key="first_stage"] .when')).to_have_text(
        "not yet earned"
    )
    english = page.locator('.achievement[data-key="one_colour"] .name').inner_text()
    assert not english.startswith("achievement.")
    page.screenshot(path=screenshots / "progress-achievements-desktop.png", full_page=True)

    page.locator('.progress-header select[name="lang"]').select_option("de")
    expect(page.locator(".progress-screen h1")).to_have_text("Meine Partien")
    expect(page.locator(".earned-count")).to_have_text(f"0 von {total} Erfolgen erreicht")
    german = page.locator('.achievement[data-key="one_colour"] .name').inner_text()
    assert german != english


def win_a_cruel_game(page: Page) -> None:
    """Deal WINNABLE_DEAL through the start page and play the solver's winning line over the
    page's own session."""
    line = solve(WINNABLE_DEAL).moves
    assert line, "the solver found no winning line"
    start_deal(page, "cruel", WINNABLE_DEAL)
    set_auto_move(page, False)
    game_id = shown_id(page)
    page.goto("/#/")
    page.wait_for_selector(".game-panel")
    assert play_line(page, game_id, line) == "won"


def test_an_earned_achievement_shows_its_date(open_page: PageFactory, screenshots: Path) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    win_a_cruel_game(page)
    earned = page.evaluate("fetch('/api/achievements').then(r => r.json())")
    page.goto("/#/progress/achievements")
    first_win = page.locator('.achievement[data-key="first_patience_win"]')
    expect(first_win).to_have_class("achievement earned")
    expect(first_win.locator(".when")).to_have_text(re.compile(r"^erreicht am \d+\.\d+\.\d{4}$"))
    total = len(earned["achievements"])
    expect(page.locator(".earned-count")).to_have_text(
        f"{earned['earned']} von {total} Erfolgen erreicht"
    )
    expect(page.locator(".achievement.earned")).to_have_count(earned["earned"])
    # The earned ones come first in the list.
    expect(page.locator(".achievement").nth(earned["earned"] - 1)).to_have_class(
        "achievement earned"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=screenshots / "progress-achievements-phone.png")
    page.goto("/#/progress/games")
    expect(page.locator(".game-row.won td").nth(2)).to_have_text("gewonnen")


def test_leaderboards_show_tables_campaign_and_daily(open_page: PageFactory) -> None:
    page = open_page()
    open_my_games(page)
    page.locator(".progress-tabs .tab-boards").click()
    headings = page.locator(".boards .board-box h3")
    expect(headings).to_have_text(["Tables", "Campaign", "Today's quilt"])
    expect(page.locator(".periods button")).to_have_text(["Week", "Month", "All time"])
    page.locator(".periods .period-month").click()
    expect(page.locator(".periods .period-month")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".periods .period-week")).to_have_attribute("aria-pressed", "false")


def test_the_campaign_shows_stage_spools_points_and_every_target(open_page: PageFactory) -> None:
    page = open_page()
    campaign = page.evaluate("fetch('/api/campaign').then(r => r.json())")
    open_my_games(page)
    page.locator(".progress-tabs .tab-campaign").click()
    facts = page.locator(".campaign .facts dd")
    expect(facts.nth(0)).to_have_text(f"Stage {campaign['stage']}")
    expect(facts.nth(1)).to_contain_text(f"({campaign['spools']})")
    expect(facts.nth(2)).to_have_text(str(campaign["points"]))
    rows = page.locator(".stages tr:not(:first-child)")
    expect(rows).to_have_count(len(campaign["stages"]))
    for index, stage in enumerate(campaign["stages"]):
        expect(rows.nth(index).locator("td").nth(1)).to_have_text(str(stage["target"]))
    expect(page.locator(".stages tr.current td").first).to_have_text(str(campaign["stage"]))


def test_the_daily_quilt_says_whether_it_was_played_today(open_page: PageFactory) -> None:
    page = open_page()
    daily = page.evaluate("fetch('/api/daily').then(r => r.json())")
    open_my_games(page)
    page.locator(".progress-tabs .tab-daily").click()
    facts = page.locator(".daily .facts dd")
    expect(facts.nth(0)).to_have_text(daily["day"])
    expect(facts.nth(1)).to_have_text("no")
    expect(facts.nth(2)).to_have_text("not played yet")
    # A guest is on no list (docs/ledger.md): the line says how to get onto it.
    expect(page.locator(".daily-rank .rank-line")).to_contain_text("Guests are on no list")


def back_to_start(page: Page) -> None:
    """Leave the game screen for the start page."""
    page.locator(".toolbar .back").click()
    page.wait_for_selector(".game-panel")


def test_my_games_lists_what_was_played_last_first(open_page: PageFactory) -> None:
    """Issue 38, finding 11: the list was ordered by when a game was dealt, with the tables
    after all games. It goes by the last move: a table started now comes first, then the game
    played a moment ago, then the one dealt after it but left since."""
    page = open_page()
    start_deal(page, "cruel", 1)
    played = shown_id(page)
    back_to_start(page)
    start_deal(page, "cruel", 2)
    left = shown_id(page)
    back_to_start(page)
    page.goto(f"/#/game/{played}")
    page.wait_for_selector(".game-screen[data-seq] .board")
    set_auto_move(page, False)
    assert play_first_by_click(page)
    back_to_start(page)
    table = page.evaluate(OPEN_A_TABLE_WITH_ONE_COMPUTER)
    open_my_games(page)
    rows = page.locator(".games-table tr.game-row, .games-table tr.table-row")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).get_attribute("data-id") for i in range(3)] == [table["id"], played, left]


def test_my_games_count_the_moves_that_stand_and_the_ones_taken_back(
    open_page: PageFactory,
) -> None:
    """Issue 38, finding 11: a move taken back still counted as a move. Three moves played and
    one taken back: two moves stand, as the game screen says, and one was taken back."""
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    assert play_first_by_click(page) and play_first_by_click(page)
    before = seq(page)
    page.keyboard.press("u")
    wait_past(page, before)
    assert play_first_by_click(page)
    assert moves_made(page) == 2
    back_to_start(page)
    open_my_games(page)
    moves = page.locator(".games-table .game-row td.moves")
    expect(moves.locator(".standing")).to_have_text("2 moves")
    expect(moves.locator(".undos")).to_have_text("1 move taken back")
    page.locator('.progress-header select[name="lang"]').select_option("de")
    expect(moves.locator(".standing")).to_have_text("2 Züge")
    expect(moves.locator(".undos")).to_have_text("1 Zug zurückgenommen")


def test_my_games_fit_a_phone(open_page: PageFactory, screenshots: Path) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    finish_a_short_cruel_game(page)
    open_my_games(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    page.screenshot(path=screenshots / "progress-games-phone.png")
    page.locator(".games-table .replay-link").first.tap()
    page.wait_for_selector(".replay-board .cruel-board")
    page.locator(".replay-controls .forward").tap()
    assert step_number(page) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=screenshots / "progress-replay-phone.png")
    page.goto("/#/progress/boards")
    page.wait_for_selector(".boards .board-box")
    expect(page.locator(".boards .loading")).to_have_count(0)  # every list has arrived
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=screenshots / "progress-boards-phone.png", full_page=True)


def test_leaving_a_stage_costs_a_spool_on_the_campaign_page(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    page.evaluate(
        """async () => {
          const me = await (await fetch('/api/me')).json();
          const headers = {'X-CSRF-Token': me.csrf, 'Content-Type': 'application/json'};
          await fetch('/api/campaign/play', {method: 'POST', headers, body: '{}'});
          await fetch('/api/campaign/leave', {method: 'POST', headers, body: '{}'});
        }"""
    )
    page.goto("/#/progress/campaign")
    expect(page.locator(".campaign .facts dd").nth(1)).to_have_text("●○ (1)")
    page.screenshot(path=screenshots / "progress-campaign-desktop.png")


def leaderboard_of(ranks: list[int], mine: int) -> dict[str, object]:
    """A campaign leaderboard answer as the server writes it: these ranks, the caller at `mine`."""

    def line(rank: int) -> dict[str, object]:
        return {
            "rank": rank,
            "name": f"p{rank}",
            "you": rank == mine,
            "stage": max(1, 7 - rank // 5),  # the campaign has seven stages
            "points": 100 - rank,
        }

    return {"entries": [line(rank) for rank in ranks], "me": line(mine), "total": mine + 4}


def test_the_own_rank_is_highlighted_even_outside_the_top(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    answer = leaderboard_of(list(range(1, 21)), 31)
    page.route("**/api/leaderboards/campaign", lambda route: route.fulfill(json=answer))
    page.goto("/#/progress/boards")
    rows = page.locator(".board-campaign tr:not(:first-child)")
    expect(rows).to_have_count(22)
    expect(rows.nth(20)).to_have_class("gap")
    own = page.locator(".board-campaign tr.you")
    expect(own).to_have_count(1)
    expect(own.locator("td").first).to_have_text("31")
    expect(own).to_have_attribute("aria-current", "true")
    page.screenshot(path=screenshots / "progress-boards-desktop.png", full_page=True)


def test_the_own_rank_inside_the_top_is_highlighted_in_place(open_page: PageFactory) -> None:
    page = open_page()
    answer = leaderboard_of([1, 2, 2, 4], 2)
    page.route("**/api/leaderboards/campaign", lambda route: route.fulfill(json=answer))
    page.goto("/#/progress/boards")
    expect(page.locator(".board-campaign tr:not(:first-child)")).to_have_count(4)
    expect(page.locator(".board-campaign tr.you td:first-child")).to_have_text(["2", "2"])
    expect(page.locator(".board-campaign tr.gap")).to_have_count(0)


def test_a_crazy_quilt_game_replays_on_its_own_board(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    dealt = board_cards(page, ".board .quilt .cell")
    page.locator(".board .stock").click()
    page.wait_for_function("() => Number(document.querySelector('.game-screen')?.dataset.seq) > 0")
    page.goto("/#/progress/games")
    page.locator('.game-row[data-game="crazy-quilt"] .replay-link').click()
    page.wait_for_selector(".replay-board .quilt-board")
    assert board_cards(page, ".board .quilt .cell") == dealt
    page.keyboard.press("ArrowRight")
    assert step_number(page) == 1
    # Issue 38, finding 8: the replay said "Move s" (notation); it says what was done.
    expect(page.locator(".step-move")).to_have_text("Move: Turn a card")
    page.screenshot(path=screenshots / "progress-replay-crazy-quilt-desktop.png")


def test_a_speedquilt_stage_replays_as_text(open_page: PageFactory) -> None:
    page = open_page()
    campaign = page.evaluate(
        """async () => {
          const me = await (await fetch('/api/me')).json();
          const headers = {'X-CSRF-Token': me.csrf, 'Content-Type': 'application/json'};
          const play = await fetch('/api/campaign/play', {method: 'POST', headers, body: '{}'});
          const leave = await fetch('/api/campaign/leave', {method: 'POST', headers, body: '{}'});
          return {play: [play.status, await play.text()], leave: [leave.status, await leave.text()],
                  ...(await (await fetch('/api/campaign')).json())};
        }"""
    )
    # The stage was started and left (a miss), so its game is in the list: say so if not.
    assert campaign["play"][0] == 200, campaign["play"]
    assert campaign["leave"][0] == 200, campaign["leave"]
    stage = campaign["stages"][0]
    page.goto("/#/progress/games")
    row = page.locator('.game-row[data-game="speedquilt"]')
    expect(row.locator("td").first).to_have_text("Speedquilt · Stage 1")
    expect(row.locator("td").nth(2)).to_have_text(re.compile(r"^lost · \d+ points$"))
    row.locator(".replay-link").click()
    text = page.locator(".speedquilt-replay")
    expect(text).to_contain_text(f"Round 1 of {stage['rounds']}")
    expect(text).to_contain_text(f"Target: {stage['target']} points")
    # Issue 38, finding 1: on a page that never opened a table, the replay drew empty frames
    # with ids only. Every block it draws has its definition: a pattern block or a kit.
    blocks = page.locator(".progress-screen svg.sq-block")
    expect(blocks.first).to_be_visible()
    assert blocks.count() >= 3  # at least her start row
    blank = page.locator(".progress-screen svg.sq-block:not(.pattern):not(.kit)")
    assert blank.count() == 0, "blocks drawn without their definition"


def test_a_table_replay_names_the_computers_as_the_table_did(open_page: PageFactory) -> None:
    """Issue 38, finding 7: a computer was "Hilde (normal)" while playing and "Player 2
    (normal)" in the replay."""
    page = open_page()
    table = page.evaluate(OPEN_A_TABLE_WITH_ONE_COMPUTER)
    page.goto(f"/#/table/{table['id']}")
    page.wait_for_selector(".sq-screen .sq-whose, .sq-screen .start-choice")
    at_table = page.locator(".sq-screen").inner_text()
    assert "Hilde (normal)" in at_table
    page.goto("/#/progress/games")
    page.locator(".table-row .replay-link").first.click()
    replay = page.locator(".progress-screen")
    expect(replay).to_contain_text("Hilde (normal)")
    expect(replay).not_to_contain_text("Player 2")
