"""The Crazy Quilt solver and the honest strategy, read against the rules (seeds 000 and 002).

Every winning line is replayed through the engine's own validating ``play``; every ``lost`` on a
small constructed end position is checked against a plain brute-force search over the engine's
own ``legal_moves`` / ``apply`` with no pruning at all.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from functools import cache

import pytest

from spielcenter.cli.solve import DEFAULT_BUDGETS
from spielcenter.games import Status, get_game
from spielcenter.games.cards import ACE, KING, SUITS, Card
from spielcenter.games.crazy_quilt import CELL_INDEX, CELLS, SIZE, VARIANTS, QuiltState
from spielcenter.games.shuffle import DealNumberError
from spielcenter.solvers.codes import encode_card
from spielcenter.solvers.crazy_quilt import BEAM_PARTS, BEAM_SHARE, Verdict, solve
from spielcenter.solvers.crazy_quilt_honest import (
    HonestPlayer,
    cards_freed,
    guarded_move,
    play_honestly,
    rule_of_thumb,
    stock_samples,
    visible_state,
)
from spielcenter.solvers.crazy_quilt_last_pass import buried, relaxed_possible
from spielcenter.solvers.crazy_quilt_position import position_of, signed_cells
from spielcenter.solvers.crazy_quilt_relaxed import clearable
from spielcenter.solvers.crazy_quilt_search import Search, decide
from tests.unit.crazy_quilt_runs import beams_on

# -- helpers ---------------------------------------------------------------------------------


def replay_from(state: QuiltState, moves: list[str]) -> QuiltState:
    """Play ``moves`` from ``state`` through the engine's validating edge."""
    game = get_game("crazy-quilt", state.variant)
    for text in moves:
        state = game.play(state, text)
    return state


@cache
def brute_force_wins(state: QuiltState) -> bool:
    """Whether ``state`` can be won: every legal move tried, positions remembered, nothing else.

    The answer is remembered per position: the solver's, the beams' and the knots' tests ask
    about the same constructed positions, and a test process searches each of them once."""
    game = get_game("crazy-quilt", state.variant)

    @cache
    def wins(position: QuiltState) -> bool:
        verdict = game.status(position)
        if verdict is not Status.PLAYING:
            return verdict is Status.WON
        return any(wins(game.apply(position, move)) for move in game.legal_moves(position))

    return wins(state)


def open_ends(rng: random.Random, budget: int) -> tuple[list[Card], list[int], list[int]]:
    """Each suit leaves its top few up-cards and bottom few down-cards out of the foundations,
    ``budget`` cards in all at most: those cards shuffled, and the foundations' up and down."""
    loose: list[Card] = []
    up: list[int] = []
    down: list[int] = []
    for suit in SUITS:
        open_up = rng.randint(0, min(3, budget))
        open_down = rng.randint(0, min(3, budget - open_up))
        budget -= open_up + open_down
        up.append(KING - open_up)
        down.append(ACE + open_down)
        loose += [Card(rank, suit) for rank in range(KING - open_up + 1, KING + 1)]
        loose += [Card(rank, suit) for rank in range(ACE, ACE + open_down)]
    rng.shuffle(loose)
    return loose, up, down


def patch_at(row: int, column: int) -> list[int]:
    """The nine cells of the 3 × 3 patch whose top left cell is (``row``, ``column``)."""
    return [(row + r) * SIZE + column + c for r in range(3) for c in range(3)]


def quilt_with(cells: Sequence[int], cards: Sequence[Card]) -> tuple[Card | None, ...]:
    """A quilt holding ``cards`` in ``cells`` (one each, in order) and no other card."""
    quilt: list[Card | None] = [None] * CELLS
    for cell, card in zip(cells, cards, strict=True):
        quilt[cell] = card
    return tuple(quilt)


def constructed_end_position(seed: int) -> QuiltState:
    """A small end position: a few cards left in the quilt, the stock and the waste.

    Each suit leaves its top few up-cards and bottom few down-cards out of the foundations;
    those cards are spread over a 3 × 3 patch of the quilt (so some block others), the stock
    and the waste. The variant and the redeals left are drawn too.
    """
    rng = random.Random(seed)
    variant = rng.choice(VARIANTS)
    redeals = 2 if "second-redeal" in variant else 1
    loose, up, down = open_ends(rng, rng.randint(4, 10))
    in_quilt = rng.randint(0, min(len(loose), 9))
    in_stock = rng.randint(0, len(loose) - in_quilt)
    row, column = rng.randint(0, SIZE - 3), rng.randint(0, SIZE - 3)
    cells = quilt_with(rng.sample(patch_at(row, column), in_quilt), loose[:in_quilt])
    return QuiltState(
        deal=seed + 1,
        redeals=redeals,
        round_the_corner="round-the-corner" in variant,
        quilt=cells,
        stock=tuple(loose[in_quilt : in_quilt + in_stock]),
        waste=tuple(loose[in_quilt + in_stock :]),
        up=(up[0], up[1], up[2], up[3]),
        down=(down[0], down[1], down[2], down[3]),
        redeals_left=rng.randint(0, redeals),
    )


def crossing_end_position(seed: int) -> QuiltState:
    """An end position where one rank of one suit still has both copies out (two homes).

    The suit's up foundation waits for rank r and its down foundation too, so its 14 loose
    cards (r … K going up, A … r going down) are spread over a 3 × 3 patch of the quilt, the
    stock and the waste; the other suits are complete.
    """
    rng = random.Random(seed)
    variant = rng.choice(VARIANTS)
    redeals = 2 if "second-redeal" in variant else 1
    suit = rng.randrange(len(SUITS))
    rank = rng.randint(ACE + 1, KING - 1)
    up, down = [KING] * 4, [ACE] * 4
    up[suit], down[suit] = rank - 1, rank + 1
    loose = [Card(r, SUITS[suit]) for r in range(rank, KING + 1)]
    loose += [Card(r, SUITS[suit]) for r in range(ACE, rank + 1)]
    rng.shuffle(loose)
    in_quilt = rng.randint(0, 6)
    in_stock = rng.randint(0, len(loose) - in_quilt)
    row, column = rng.randint(0, SIZE - 3), rng.randint(0, SIZE - 3)
    cells = quilt_with(rng.sample(patch_at(row, column), in_quilt), loose[:in_quilt])
    return QuiltState(
        deal=seed + 1,
        redeals=redeals,
        round_the_corner="round-the-corner" in variant,
        quilt=cells,
        stock=tuple(loose[in_quilt : in_quilt + in_stock]),
        waste=tuple(loose[in_quilt + in_stock :]),
        up=(up[0], up[1], up[2], up[3]),
        down=(down[0], down[1], down[2], down[3]),
        redeals_left=rng.randint(0, redeals),
    )


# -- winning lines ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_winning_line_replays_to_won(variant: str) -> None:
    game = get_game("crazy-quilt", variant)
    found = 0
    for deal in range(1, 40):
        verdict = solve(deal, variant, node_budget=1_000)
        if verdict.result == "won":
            assert game.status(game.replay(deal, verdict.moves)) is Status.WON
            found += 1
            if found == 3:
                break
    assert found >= 1, f"no deal of {variant} won within the budget: nothing was replayed"


def test_the_verdict_is_the_cruel_solvers_type() -> None:
    from spielcenter.solvers import cruel

    assert Verdict is cruel.Verdict


def test_a_won_game_needs_no_moves() -> None:
    state = constructed_end_position(0)
    state = QuiltState(
        state.deal,
        state.redeals,
        state.round_the_corner,
        (None,) * CELLS,
        (),
        (),
        (KING,) * 4,
        (ACE,) * 4,
        0,
    )
    assert solve(state) == Verdict("won", [], 0)


# -- lost only after an exhaustive search ----------------------------------------------------


@pytest.mark.parametrize("construct", [constructed_end_position, crossing_end_position])
def test_constructed_positions_are_true_crazy_quilt_positions(
    construct: Callable[[int], QuiltState],
) -> None:
    for seed in range(50):
        state = construct(seed)
        game = get_game("crazy-quilt", state.variant)
        assert game.decode(game.encode(state)) == state


@pytest.mark.parametrize("batch", range(8))
def test_the_verdict_agrees_with_a_brute_force_search(batch: int) -> None:
    verdicts = []
    for seed in range(batch * 40, batch * 40 + 40):
        state = constructed_end_position(seed)
        verdict = solve(state, node_budget=1_000_000)
        truth = brute_force_wins(state)
        assert verdict.result == ("won" if truth else "lost"), f"seed {seed}"
        if verdict.result == "won":
            assert (
                get_game("crazy-quilt", state.variant).status(replay_from(state, verdict.moves))
                is Status.WON
            )
        verdicts.append(verdict.result)
    assert "won" in verdicts


@pytest.mark.parametrize("batch", range(6))
def test_the_verdict_agrees_with_brute_force_where_a_rank_has_two_homes(batch: int) -> None:
    verdicts = []
    for seed in range(batch * 50, batch * 50 + 50):
        state = crossing_end_position(seed)
        verdict = solve(state, node_budget=1_000_000)
        truth = brute_force_wins(state)
        assert verdict.result == ("won" if truth else "lost"), f"seed {seed}"
        if verdict.result == "won":
            assert (
                get_game("crazy-quilt", state.variant).status(replay_from(state, verdict.moves))
                is Status.WON
            )
        verdicts.append(verdict.result)
    assert "won" in verdicts
    assert "lost" in verdicts


def test_the_search_with_the_check_across_the_redeal_agrees_with_brute_force() -> None:
    # With a redeal left, every position asks whether the relaxed game across the redeal can
    # clear (decided by choosing each pile card's foundation); a "no" prunes the position. A
    # wrong "no" would turn a won position into a lost one here. The constructions where a
    # rank has two homes are the ones where the choice of foundation matters.
    answers = {True: 0, False: 0}
    for seed in range(160):
        state = crossing_end_position(seed)
        if state.redeals_left == 0:
            continue
        checks: dict[bytes, bool] = {}
        verdict, _ = decide(position_of(state), 10**6, None, True, set(), checks)
        assert verdict.result == ("won" if brute_force_wins(state) else "lost"), seed
        if verdict.result == "won":
            game = get_game("crazy-quilt", state.variant)
            assert game.status(replay_from(state, verdict.moves)) is Status.WON
        for possible in checks.values():
            answers[possible] += 1
    assert answers[True] >= 20 and answers[False] >= 20  # the check answered both ways


@pytest.mark.parametrize("interrupted_after", [3, 10, 40])
def test_a_search_resumed_from_an_interrupted_ones_positions_agrees_with_brute_force(
    interrupted_after: int,
) -> None:
    # solve() runs a plain search first and, if its budget runs out, a pruned one that skips
    # the positions the first searched to the end: an interrupted position is not one of them.
    resumed = 0
    for seed in range(120):
        state = crossing_end_position(seed)
        position = position_of(state)
        first, lost = decide(position, interrupted_after, None, False, set())
        if first.result != "unknown":
            continue
        resumed += 1
        verdict, _ = decide(position, 10**6, None, True, lost)
        assert verdict.result == ("won" if brute_force_wins(state) else "lost"), seed
        if verdict.result == "won":
            game = get_game("crazy-quilt", state.variant)
            assert game.status(replay_from(state, verdict.moves)) is Status.WON
    assert resumed >= 20  # enough searches were interrupted and resumed


def test_lost_verdicts_occur_among_the_constructions() -> None:
    results = {solve(constructed_end_position(seed)).result for seed in range(320)}
    assert results == {"won", "lost"}


def test_on_the_last_pass_a_card_above_every_copy_it_needs_is_stuck() -> None:
    # Spades: up at 4, down at 5 (so one 5S is founded). 7S can only go up, after 5S and 6S;
    # the last 5S lies beneath it on the waste, so it can never leave.
    fnd = (4, KING, KING, KING, 5, ACE, ACE, ACE)
    five, seven = encode_card(Card.parse("5S")), encode_card(Card.parse("7S"))
    assert buried(seven, bytes((five,)), fnd)
    assert not buried(seven, b"", fnd)
    assert not buried(five, bytes((seven,)), fnd)


def test_the_last_pass_check_asked_again_answers_and_counts_as_the_relaxed_game_afresh() -> None:
    # The search remembers its relaxed checks of the last pass (Search._relaxed): a check asked
    # again, or for a quilt holding the same cards in other cells (a twin left instead), must
    # answer and add to the positions searched exactly what relaxed_possible answers afresh,
    # and a quilt with other cards, other foundations, redeals, waste or stock must not be
    # taken for it.
    rng = random.Random(41)
    answers = set()
    for _ in range(12):
        # One or two suits open at a rank (both foundations wait for it), every other suit
        # founded; both copies of that rank in the quilt (cells 3 and 60) with six more of
        # the loose cards, the rest in the waste and the stock.
        up, down, loose = [KING] * 4, [ACE] * 4, []
        for suit in rng.sample(range(4), rng.randint(1, 2)):
            rank = rng.randint(ACE + 2, KING - 2)
            up[suit], down[suit] = rank - 1, rank + 1
            loose += [suit * 16 + r for r in (*range(rank + 1, KING + 1), *range(ACE, rank))]
            twin = suit * 16 + rank
        rng.shuffle(loose)
        fnd = (*up, *down)
        raised = tuple(top + (slot == twin >> 4) for slot, top in enumerate(fnd))
        cells = [0] * CELLS
        cells[3] = cells[60] = twin
        for cell, code in zip((10, 20, 30, 40, 50, 63), loose, strict=False):
            cells[cell] = code
        pile = loose[6:]
        search = Search(bytes(cells), False, 10**9)
        for gone in (1 << 3, 1 << 60, 1 << 3, 1 << 63, 0):
            turned = rng.randint(0, len(pile))
            turned_over, unturned = pile[:turned], pile[turned:]
            for tops, left, waste, stock in (
                (fnd, 0, turned_over, unturned),
                (fnd, 0, turned_over[::-1], unturned),
                (fnd, 0, turned_over, unturned[::-1]),
                (fnd, 0, [], pile),
                (fnd, 0, pile, []),
                (raised, 0, turned_over, unturned),
                (fnd, 1, turned_over, unturned),
            ):
                quilt = bytes(c for cell, c in enumerate(cells) if c and not gone >> cell & 1)
                fresh = relaxed_possible(bytes(waste), bytes(stock), quilt, tops, left)
                before = search.nodes
                possible = search._relaxed(
                    signed_cells(gone), bytes(stock), bytes(waste), tops, left
                )
                assert (possible, search.nodes - before) == fresh
                answers.add(possible)
    assert answers == {True, False}


# -- the budget --------------------------------------------------------------------------


def test_a_spent_node_budget_answers_unknown() -> None:
    verdict = solve(1, "classic", node_budget=50)
    assert verdict.result == "unknown"
    assert verdict.moves == []
    assert verdict.nodes > 50


def test_a_spent_time_budget_answers_unknown() -> None:
    assert solve(1, "classic", node_budget=10**9, time_budget=0.0).result == "unknown"


def test_the_solver_may_run_the_shaken_restarts_in_place_of_its_default_beams() -> None:
    # Classic deal 193: at 200 000 positions the default beams leave it unknown, the restarts
    # (in the same share of the budget) win it; the line replays to a won game.
    assert solve(193, "classic", node_budget=200_000).result == "unknown"
    verdict = solve(193, "classic", node_budget=200_000, beams="restarts")
    assert verdict.result == "won" and verdict.nodes <= 200_000
    game = get_game("crazy-quilt", "classic")
    assert game.status(game.replay(193, verdict.moves)) is Status.WON


def test_by_default_the_solver_runs_the_eager_restarts_which_begin_as_the_thrifty_beams() -> None:
    # Classic deal 14 (tests/unit/test_crazy_quilt_beam.py): the thrifty beams win it in
    # 67 113 positions, with a narrow widening beam; the mixed beams, the default until
    # 2026-12-07, do not within 110 000. With 117 334 positions the beams' share is 110 000, the
    # budget of the beams' own test, so `solve` must win with exactly its default beams' line,
    # the eager restarts' (since session 11), which run the same narrow widening beams plain
    # first and so find the thrifty beams' line (their runs are remembered in
    # tests/unit/crazy_quilt_runs.py, one run for both modules). The line replays to a won game.
    verdict = solve(14, "classic", node_budget=117_334)
    assert 117_334 * BEAM_SHARE // BEAM_PARTS == 110_000
    assert verdict.result == "won" and verdict.nodes <= 117_334
    assert verdict.moves == beams_on(14, "eager-restarts", 110_000).moves
    assert verdict.moves == beams_on(14, "thrifty", 110_000).moves
    game = get_game("crazy-quilt", "classic")
    assert game.status(game.replay(14, verdict.moves)) is Status.WON
    assert beams_on(14, "mixed", 110_000).result == "unknown"


def test_by_default_the_solver_wins_deal_413_which_its_beams_missed_while_they_backed_up() -> None:
    # Classic deal 413 (tests/unit/test_crazy_quilt_beam.py): within the budget a user's run
    # gives a deal (`spielcenter solve` and `winrate` without --budget) `solve` wins it with its
    # beams' line (since session 11 the eager restarts', one of which wins it before the
    # thrifty beams' first wide restart does; the thrifty beams win it too, now that none backs
    # up); the line replays to a won game.
    budget = DEFAULT_BUDGETS["crazy-quilt"]
    verdict = solve(413, "classic", node_budget=budget)
    assert verdict.result == "won" and verdict.nodes <= budget
    share = budget * BEAM_SHARE // BEAM_PARTS
    assert verdict.moves == beams_on(413, "eager-restarts", share).moves
    assert beams_on(413, "thrifty", 1_200_000).result == "won"
    game = get_game("crazy-quilt", "classic")
    assert game.status(game.replay(413, verdict.moves)) is Status.WON


@pytest.mark.parametrize(
    ("beams", "deal", "budget"), [("graded", 307, 426_667), ("eager-twins", 818, 320_000)]
)
def test_the_solver_may_run_other_beams_that_win_where_its_default_beams_do_not(
    beams: str, deal: int, budget: int
) -> None:
    # Classic deals 307 and 818 (tests/unit/test_crazy_quilt_beam.py): with these budgets (the
    # beams' share 400 000 and 300 000) `solve` with the graded beams (their first graded
    # restart wins 307) or the eager twins (the first beam's eager twin wins 818) wins with
    # exactly their line, while with its default beams, the eager restarts, and with the thrifty
    # beams before them it spends the budget without a win. The line replays to a won game.
    share = budget * BEAM_SHARE // BEAM_PARTS
    assert share == {307: 400_000, 818: 300_000}[deal]
    verdict = solve(deal, "classic", node_budget=budget, beams=beams)
    assert verdict.result == "won" and verdict.nodes <= budget
    assert verdict.moves == beams_on(deal, beams, share).moves
    game = get_game("crazy-quilt", "classic")
    assert game.status(game.replay(deal, verdict.moves)) is Status.WON
    assert beams_on(deal, "thrifty", share).result == "unknown"
    assert solve(deal, "classic", node_budget=budget).result == "unknown"


def test_the_solver_may_run_the_mixed_beams_in_place_of_its_default_beams() -> None:
    # Classic deal 560 (tests/unit/test_crazy_quilt_beam.py): the mixed beams win it (366 179
    # positions) in the beams' share of 426 667 positions (400 000), with the mixed beams' own
    # line; the line replays to a won game.
    verdict = solve(560, "classic", node_budget=426_667, beams="mixed")
    assert 426_667 * BEAM_SHARE // BEAM_PARTS == 400_000
    assert verdict.result == "won" and verdict.nodes <= 426_667
    assert verdict.moves == beams_on(560, "mixed", 400_000).moves
    game = get_game("crazy-quilt", "classic")
    assert game.status(game.replay(560, verdict.moves)) is Status.WON


def test_the_solver_may_run_the_wide_restarts_in_place_of_its_default_beams() -> None:
    # Classic deal 560 (tests/unit/test_crazy_quilt_beam.py): the wide restarts win it (229 623
    # positions) in the beams' share of 260 000 positions (243 750), with the wide restarts'
    # own line; the line replays to a won game.
    verdict = solve(560, "classic", node_budget=260_000, beams="wide-restarts")
    assert verdict.result == "won" and verdict.nodes <= 260_000
    assert verdict.moves == beams_on(560, "wide-restarts", 260_000).moves
    game = get_game("crazy-quilt", "classic")
    assert game.status(game.replay(560, verdict.moves)) is Status.WON


# -- bad input ------------------------------------------------------------------------------


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="no variant 'easy'"):
        solve(1, "easy")


def test_a_state_of_another_variant_is_refused() -> None:
    state = get_game("crazy-quilt", "classic").start(1)
    with pytest.raises(ValueError, match="not 'second-redeal'"):
        solve(state, "second-redeal")


def test_beams_the_solver_does_not_have_are_refused() -> None:
    with pytest.raises(
        ValueError,
        match=r"no beams 'widest'; the beams are eager-restarts, alone-restarts, "
        r"blind-restarts, thrifty, graded, mixed, widening, restarts, wide-restarts, eager, "
        r"eager-twins$",
    ):
        solve(1, "classic", beams="widest")


def test_a_deal_number_out_of_range_is_refused() -> None:
    with pytest.raises(DealNumberError):
        solve(0)


# -- the honest player never reads the stock -------------------------------------------------


def with_stock(state: QuiltState, stock: tuple[Card, ...]) -> QuiltState:
    """``state`` with another face-down stock (the same cards in another order)."""
    return QuiltState(
        state.deal,
        state.redeals,
        state.round_the_corner,
        state.quilt,
        stock,
        state.waste,
        state.up,
        state.down,
        state.redeals_left,
    )


def honest_moves(state: QuiltState, limit: int = 400) -> list[str]:
    """The honest player's moves from ``state`` (it is shown only the views)."""
    game = get_game("crazy-quilt", state.variant)
    player = HonestPlayer(node_budget=2_000)
    moves: list[str] = []
    while game.status(state) is Status.PLAYING and len(moves) < limit:
        move = player.choose(game.view_for(state, 0))
        assert move is not None
        state = game.play(state, move)
        moves.append(move)
    return moves


def test_the_view_the_honest_player_sees_holds_no_stock_order() -> None:
    view = get_game("crazy-quilt", "classic").view_for(get_game("crazy-quilt").start(5), 0)
    assert "stock" not in view
    assert view["stock_count"] == 32


def test_the_honest_player_sees_the_quilt_waste_and_foundations_the_engine_shows() -> None:
    """What the view shows, the player's state holds, card for card (the cards are looked up
    by their notation, not parsed: a wrong table would show it other cards): a whole honest
    game of a deal with a second redeal, every position but the unseen stock."""
    game = get_game("crazy-quilt", "second-redeal+round-the-corner")
    state = game.start(7)
    for move in play_honestly(7, state.variant, node_budget=0).moves:
        seen = visible_state(game.view_for(state, 0))
        assert seen == dataclasses.replace(state, stock=())
        state = game.play(state, move)


@pytest.mark.parametrize("deal", [3, 11, 29])
def test_the_honest_player_decides_alike_until_the_stocks_show_a_difference(deal: int) -> None:
    first = get_game("crazy-quilt", "second-redeal").start(deal)
    rng = random.Random(deal)
    stock = list(first.stock)
    rng.shuffle(stock)
    second = with_stock(first, tuple(stock))
    one, other = honest_moves(first), honest_moves(second)
    # The k-th card turned in the first pass is stock[k-1]; up to the first turn that shows a
    # different card, the two games look the same to the player, so its moves must agree.
    differ = next(k for k in range(32) if first.stock[k] != second.stock[k])
    turns = 0
    for index, (a, b) in enumerate(zip(one, other, strict=False)):
        assert a == b, f"move {index} differs before the stocks showed a difference"
        turns += a == "s"
        if turns == differ + 1:
            break
    assert turns == differ + 1


def first_pass(deal: int, variant: str = "classic") -> list[QuiltState]:
    """The positions of the honest player's game of ``deal`` before its first redeal."""
    game = get_game("crazy-quilt", variant)
    state, out = game.start(deal), []
    for move in honest_moves(state):
        out.append(state)
        if move == "r":
            break
        state = game.play(state, move)
    return out


@pytest.mark.parametrize("deal", [4, 12])
def test_the_stock_samples_hold_the_stocks_cards_in_orders_drawn_without_looking_at_it(deal: int):
    # The guard's stock orders come from the view alone: the same cards as the real stock, and
    # the same orders (so the same move) whatever order the real stock is in.
    rng = random.Random(deal)
    compared = 0
    for state in first_pass(deal)[::6]:
        stock = list(state.stock)
        rng.shuffle(stock)
        other = with_stock(state, tuple(stock))
        game = get_game("crazy-quilt", state.variant)
        view, other_view = game.view_for(state, 0), game.view_for(other, 0)
        samples = stock_samples(view)
        assert all(sorted(sample) == sorted(state.stock) for sample in samples)
        assert stock_samples(other_view) == samples
        assert guarded_move(other_view) == guarded_move(view)
        compared += 1
    assert compared >= 5


def relaxed_count(state: QuiltState, move: str, samples: list[tuple[Card, ...]]) -> int:
    """For how many stock orders the relaxed game across the redeal clears after ``move``."""
    game = get_game("crazy-quilt", state.variant)
    count = 0
    for sample in samples:
        after = game.play(with_stock(state, sample), move)
        waste = bytes(encode_card(card) for card in after.waste)
        stock = bytes(encode_card(card) for card in after.stock)
        count += clearable(waste, stock, (*after.up, *after.down), after.redeals_left, 5)[0]
    return count


def test_the_guard_leaves_the_rule_of_thumb_only_for_a_move_that_keeps_the_redeal_open_more():
    # A failed relaxed check proves the game lost for that stock order; the guard trades the rule
    # of thumb's move for another only when the other fails for fewer of the orders it drew.
    changed = 0
    for deal in range(1, 4):
        for state in first_pass(deal):
            view = get_game("crazy-quilt", state.variant).view_for(state, 0)
            guarded, plain = guarded_move(view), rule_of_thumb(view)
            assert guarded is not None and plain is not None
            if guarded != plain:
                samples = stock_samples(view)
                assert relaxed_count(state, guarded, samples) > relaxed_count(state, plain, samples)
                changed += 1
    assert changed > 0


def test_after_a_redeal_the_honest_player_knows_the_stock_it_turned_over() -> None:
    game = get_game("crazy-quilt", "classic")
    state = game.start(7)
    player = HonestPlayer(node_budget=2_000)
    while True:
        move = player.choose(game.view_for(state, 0))
        assert move is not None
        state = game.play(state, move)
        if move == "r":
            break
    assert player.known_stock == list(state.stock)


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_honest_game_is_played_to_its_end_with_legal_moves(variant: str) -> None:
    played = play_honestly(2, variant, node_budget=2_000)
    game = get_game("crazy-quilt", variant)
    assert played.status in (Status.WON, Status.LOST)
    assert game.status(game.replay(2, played.moves)) is played.status


def test_the_rule_of_thumb_sends_the_wastes_top_card_to_a_foundation_first() -> None:
    checked = 0
    for seed in range(200):
        state = crossing_end_position(seed)
        view = get_game("crazy-quilt", state.variant).view_for(state, 0)
        legal = view["legal"]
        if ("wu" in legal or "wd" in legal) and not any(m[2:] in ("u", "d") for m in legal):
            assert rule_of_thumb(view) in ("wu", "wd")
            checked += 1
    assert checked > 0


def test_the_rule_of_thumb_turns_a_stock_card_when_nothing_else_is_worth_doing() -> None:
    game = get_game("crazy-quilt", "classic")
    state = game.start(1)
    view = game.view_for(state, 0)
    assert view["waste"] == []
    founding = [move for move in view["legal"] if move[-1] in "ud"]
    assert (rule_of_thumb(view) == "s") == (not founding)


def test_the_rule_of_thumb_builds_onto_the_waste_only_a_card_that_frees_another() -> None:
    """Rule 4: a quilt card goes onto the waste only when that frees a quilt card (while the
    stock can still be turned or redealt instead; with neither left any legal move is taken)."""
    game = get_game("crazy-quilt", "classic")
    declined = 0
    for deal in range(1, 11):
        state = game.start(deal)
        for move in play_honestly(deal, "classic", node_budget=0).moves:
            view = game.view_for(state, 0)
            chosen = rule_of_thumb(view)
            quilt = visible_state(view).quilt
            can_turn = "s" in view["legal"] or "r" in view["legal"]
            if chosen is not None and chosen.endswith("w") and can_turn:
                assert cards_freed(quilt, CELL_INDEX[chosen[:2]]) > 0, (deal, chosen)
            builds = [m for m in view["legal"] if len(m) == 3 and m.endswith("w")]
            if chosen == "s" and builds and view["redeals_left"] > 0:
                assert all(cards_freed(quilt, CELL_INDEX[m[:2]]) == 0 for m in builds)
                declined += 1
            state = game.play(state, move)
    assert declined > 0


def test_the_rule_of_thumb_has_no_move_when_none_is_legal() -> None:
    state = constructed_end_position(3)
    game = get_game("crazy-quilt", state.variant)
    view = game.view_for(state, 0)
    view["legal"] = []
    assert rule_of_thumb(view) is None


# -- the command line ----------------------------------------------------------------------


def test_spielcenter_solve_answers_for_crazy_quilt_with_a_line_that_replays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from spielcenter.cli import main

    game = get_game("crazy-quilt", "second-redeal")
    deal = next(
        deal
        for deal in range(1, 40)
        if solve(deal, "second-redeal", node_budget=2_000).result == "won"
    )
    argv = ["solve", "crazy-quilt", "--variant", "second-redeal", "--deal", str(deal)]
    assert main([*argv, "--budget", "2000", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["result"] == "won"
    assert game.status(game.replay(deal, answer["moves"])) is Status.WON
