"""The Cruel solver: won lines replay through the engine, lost is proven, budgets give unknown.

The cross-check is an independent brute force written plainly on the engine's own API (every
legal move from every reachable state, no pruning at all) over many small random positions of
each variant, so that every shortcut of the solver is checked against the rules themselves.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from spielcenter.games import get_game
from spielcenter.games.base import Status
from spielcenter.games.cards import RANKS, SUITS, Card
from spielcenter.games.cruel import VARIANTS, CruelState
from spielcenter.games.shuffle import DealNumberError
from spielcenter.solvers.codes import decode_card, encode_card
from spielcenter.solvers.cruel import solve
from spielcenter.solvers.cruel_dead import frozen_prefix, prefix_frozen
from spielcenter.solvers.cruel_rules import UNLIMITED
from spielcenter.solvers.cruel_search import BEST_FIRST, Search
from spielcenter.solvers.cruel_start import start_never_clears


def brute_force_winnable(state: CruelState) -> bool:
    """Whether any sequence of legal moves wins: a plain search of every reachable state.

    States are told apart by everything but the count of redeals made when the variant allows any
    number of them (the count changes no rule there, and would make the space endless).
    """
    game = get_game("cruel", state.variant)

    def key(here: CruelState) -> CruelState:
        return here if game.redeals_left(here) is not None else replace(here, redeals=0)

    seen = {key(state)}
    todo = [state]
    while todo:
        here = todo.pop()
        if game.status(here) is Status.WON:
            return True
        for move in game.legal_moves(here):
            after = game.apply(here, move)
            if key(after) not in seen:
                seen.add(key(after))
                todo.append(after)
    return False


def position(
    variant: str,
    piles: list[list[str]],
    foundations: dict[str, str],
    moved: bool = True,
    redeals: int = 0,
) -> CruelState:
    """A constructed position, validated by the engine's own decoder."""
    game = get_game("cruel", variant)
    piles = piles + [[] for _ in range(12 - len(piles))]
    data = {
        "variant": variant,
        "deal": 1,
        "piles": piles,
        "foundations": foundations,
        "redeals": redeals,
        "moved": moved,
    }
    state: CruelState = game.decode(data)
    return state


def top_ranks(rng: random.Random, left: int, suits: int) -> tuple[list[int], list[str]]:
    """``left`` cards left out of the foundations, each suit's top ranks, spread at random over
    the first ``suits`` suits: how many per suit (all four), and the cards in shuffled order."""
    left_per_suit = [0, 0, 0, 0]
    for _ in range(left):
        left_per_suit[rng.randrange(suits)] += 1
    cards = [
        f"{RANKS[rank - 1]}{suit}"
        for suit, count in zip(SUITS, left_per_suit, strict=True)
        for rank in range(14 - count, 14)
    ]
    rng.shuffle(cards)
    return left_per_suit, cards


def random_small_position(rng: random.Random, variant: str, most: int = 9) -> CruelState:
    """A position with 2 to ``most`` cards left: the top ranks of each suit, in random piles."""
    left_per_suit, cards = top_ranks(rng, rng.randint(2, most), suits=4)
    piles: list[list[str]] = [[] for _ in range(12)]
    if rng.random() < 0.3:
        for index, card in enumerate(cards):  # as a deal leaves them: fours from pile 1
            piles[index // 4].append(card)
    else:
        for card in cards:
            piles[rng.randrange(rng.randint(1, 5))].append(card)
        if len(piles[0]) > 6:  # keep the piles short enough to be dealt again in fours
            piles[1], piles[0] = piles[0][6:] + piles[1], piles[0][:6]
    foundations = {
        suit: RANKS[12 - count] for suit, count in zip(SUITS, left_per_suit, strict=True)
    }
    redeals = rng.randint(0, 2) if variant == "perseverance" else rng.randint(0, 3)
    return position(variant, piles, foundations, moved=rng.random() < 0.8, redeals=redeals)


def replays_to_won(state: CruelState, moves: list[str]) -> bool:
    game = get_game("cruel", state.variant)
    for text in moves:
        state = game.play(state, text)
    return game.status(state) is Status.WON


# -- the two answers agree with the rules ------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deal", range(1, 9))
def test_a_winning_line_replays_through_the_engine_to_won(variant, deal):
    game = get_game("cruel", variant)
    verdict = solve(deal, variant)
    assert verdict.result in ("won", "lost")
    if verdict.result == "won":
        assert game.status(game.replay(deal, verdict.moves)) is Status.WON


@pytest.mark.parametrize("variant", VARIANTS)
def test_won_and_lost_agree_with_a_brute_force_search_of_small_positions(variant):
    rng = random.Random(f"cruel-solver-{variant}")
    answers = {"won": 0, "lost": 0}
    for number in range(200):
        state = random_small_position(rng, variant, most=9 if number < 150 else 16)
        verdict = solve(state)
        assert verdict.result != "unknown"
        assert (verdict.result == "won") == brute_force_winnable(state), state
        if verdict.result == "won":
            assert replays_to_won(state, verdict.moves)
        answers[verdict.result] += 1
    # Both answers occur, so that neither direction of the check is empty.
    assert answers["won"] >= 10 and answers["lost"] >= 10, answers


@pytest.mark.parametrize(
    ("variant", "most"),
    # Perseverance shared its proofs first; classic has no loops once merges are skipped, so
    # its trials pass their proofs on too.
    [("perseverance", 20), ("classic", 14)],
)
def test_losses_proven_in_short_trials_carry_over_correctly(variant: str, most: int) -> None:
    # A small budget cuts the move-order trials short, so that later searches start from the
    # positions the earlier ones finished; every answer must still match the brute force.
    rng = random.Random(f"cruel-solver-carry-over/{variant}")
    decided = 0
    for _ in range(120):
        state = random_small_position(rng, variant, most=most)
        verdict = solve(state, node_budget=400)
        if verdict.result == "unknown":
            continue
        decided += 1
        assert (verdict.result == "won") == brute_force_winnable(state), state
        if verdict.result == "won":
            assert replays_to_won(state, verdict.moves)
    assert decided >= 100


def test_once_no_redeal_is_left_any_building_move_is_safe_in_perseverance():
    # The solver makes the last phase's building moves without branching: on positions with
    # both redeals spent, its verdict must still be the brute force's, both ways.
    rng = random.Random("cruel-solver-last-phase")
    answers = {"won": 0, "lost": 0}
    for _ in range(150):
        state = replace(random_small_position(rng, "perseverance", most=20), redeals=2)
        verdict = solve(state)
        assert verdict.result != "unknown"
        assert (verdict.result == "won") == brute_force_winnable(state), state
        if verdict.result == "won":
            assert replays_to_won(state, verdict.moves)
        answers[verdict.result] += 1
    assert answers["won"] >= 10 and answers["lost"] >= 10, answers


def test_a_line_found_in_the_middle_of_a_game_continues_it_to_won():
    game = get_game("cruel", "classic")
    line = solve(2).moves
    middle = game.replay(2, line[:20])
    verdict = solve(middle)
    assert verdict.result == "won"
    assert replays_to_won(middle, verdict.moves)


# -- the dead positions of the rules -----------------------------------------------------------


def test_a_king_above_a_lower_card_of_its_suit_among_pile_1s_bottom_four_is_lost_at_once():
    # Pile 1 always starts with the same cards: the king can never go up before the five.
    state = position(
        "classic",
        [["5S", "KS"], ["6S", "7S"], ["8S", "9S"], ["TS", "JS", "QS"]],
        {"S": "4", "H": "K", "D": "K", "C": "K"},
    )
    verdict = solve(state)
    assert verdict.result == "lost"
    assert verdict.nodes <= 1
    assert not brute_force_winnable(state)


def test_a_king_above_a_lower_card_that_a_redeal_can_separate_is_not_lost():
    # The king lies fifth in pile 1: a redeal puts it into pile 2, away from the queen.
    state = position(
        "classic",
        [["QS", "9H", "TH", "JH", "KS"], ["KH", "QH"]],
        {"S": "J", "H": "8", "D": "K", "C": "K"},
    )
    verdict = solve(state)
    assert verdict.result == "won"
    assert replays_to_won(state, verdict.moves)
    assert brute_force_winnable(state)


QUEENS_FREED_BY_A_REDEAL = [["KD", "QC", "KS"], ["QD", "QS", "KH", "QH", "KC"]]
"""No card can move here; a redeal (eight cards: two piles of four) frees the queens."""
JACKS_UP = {"S": "J", "H": "J", "D": "J", "C": "J"}


def test_a_redeal_needs_a_card_moved_since_the_last_deal():
    moved = position("classic", QUEENS_FREED_BY_A_REDEAL, JACKS_UP, moved=True)
    fresh = position("classic", QUEENS_FREED_BY_A_REDEAL, JACKS_UP, moved=False)
    verdict = solve(moved)
    assert verdict.result == "won"
    assert verdict.moves[0] == "r"
    assert solve(fresh).result == "lost"
    assert brute_force_winnable(moved)
    assert not brute_force_winnable(fresh)


def test_perseverance_allows_two_redeals_and_no_third():
    # This position needs two redeals: possible from the start, not once one is spent.
    none_made = position("perseverance", QUEENS_FREED_BY_A_REDEAL, JACKS_UP, redeals=0)
    one_made = position("perseverance", QUEENS_FREED_BY_A_REDEAL, JACKS_UP, redeals=1)
    verdict = solve(none_made)
    assert verdict.result == "won"
    assert verdict.moves.count("r") == 2
    assert replays_to_won(none_made, verdict.moves)
    assert solve(one_made).result == "lost"
    assert brute_force_winnable(none_made)
    assert not brute_force_winnable(one_made)


# -- budgets and bad input ---------------------------------------------------------------------


def test_a_spent_node_budget_gives_unknown():
    verdict = solve(1, "classic", node_budget=10)
    assert verdict.result == "unknown"
    assert verdict.moves == []
    assert verdict.nodes == 10


def test_a_spent_time_budget_gives_unknown():
    verdict = solve(1, "classic", time_budget=0.0)
    assert verdict.result == "unknown"


@pytest.mark.parametrize("budget", [0.2, 0.5])
def test_the_solver_answers_within_its_time_limit(budget: float) -> None:
    # Deal 3254 stays undecided at 10 s, and its first trial is cut short, so every step runs:
    # the trials, the start-of-the-packet test (which spends its whole limit, about 0.3 s, on
    # this deal) and the final search. The answer must come within the budget; the tolerance
    # only covers a busy machine's scheduling.
    started = time.perf_counter()
    verdict = solve(3254, "classic", time_budget=budget)
    took = time.perf_counter() - started
    assert verdict.result == "unknown"
    assert took <= budget + 0.25, took


def test_the_start_of_the_packet_test_proves_nothing_once_the_time_is_up() -> None:
    # Deal 618's start can never clear; once the time is up the test gives up (not proven)
    # rather than finish its search past the time limit.
    state = deal_position_state(618)
    assert start_never_clears(piles_of(state), state.foundations, expired=lambda: False)
    assert not start_never_clears(piles_of(state), state.foundations, expired=lambda: True)


def test_a_state_of_another_variant_is_refused():
    state = get_game("cruel", "stuck").start(3)
    with pytest.raises(ValueError, match="variant"):
        solve(state, "classic")


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="no variant"):
        solve(3, "spider")


@pytest.mark.parametrize("deal", [0, -5, 2**63])
def test_a_deal_number_outside_the_range_is_refused(deal):
    with pytest.raises(DealNumberError):
        solve(deal)


def test_the_same_position_gives_the_same_verdict():
    assert solve(7, "perseverance") == solve(7, "perseverance")


def test_cards_have_a_compact_code_that_round_trips():
    codes = {encode_card(Card(rank, suit)) for suit in SUITS for rank in range(1, 14)}
    assert len(codes) == 52
    assert all(encode_card(decode_card(code)) == code for code in codes)
    # The card a card is built on is the next code: a king's next code is no card.
    assert encode_card(Card.parse("5H")) + 1 == encode_card(Card.parse("6H"))
    assert encode_card(Card.parse("KH")) + 1 not in codes


# -- a frozen start of the packet that chains can be built into (classic, "stuck") ----------


def random_dealt_position(rng: random.Random, variant: str) -> CruelState:
    """A freshly dealt position of 6 to 12 cards (the top ranks of three suits), fours a pile."""
    left_per_suit, cards = top_ranks(rng, rng.randint(6, 12), suits=3)
    piles = [cards[start : start + 4] for start in range(0, len(cards), 4)]
    foundations = {
        suit: RANKS[12 - count] for suit, count in zip(SUITS, left_per_suit, strict=True)
    }
    return position(variant, piles, foundations, moved=False)


def packet_of(state: CruelState) -> bytes:
    return b"".join(bytes(encode_card(card) for card in pile) for pile in state.piles)


@pytest.mark.parametrize("variant", ["classic", "stuck"])
def test_a_frozen_start_of_the_packet_stays_frozen_though_chains_are_built_into_it(variant):
    # The start of the packet may take chains (Y-1, Y-2, ... built onto a card Y of it lying on
    # top), which shift its later cards into other piles. The test allows for every shift; a
    # "lost" it gives must be the brute force's, and the solver, which applies it after every
    # deal, must agree with the brute force both ways. Some of the positions must be ones that
    # the test without chains (tops that take no card) does not decide, so that the chains count.
    rng = random.Random(f"cruel-solver-frozen-chains/{variant}")
    frozen = with_chains_only = 0
    answers = {"won": 0, "lost": 0}
    for _ in range(400):
        state = random_dealt_position(rng, variant)
        packet = packet_of(state)
        winnable = brute_force_winnable(state)
        if frozen_prefix(packet, runs=False):
            frozen += 1
            assert not winnable, state
            if not any(prefix_frozen(packet, m, runs=False) for m in range(1, len(packet) + 1)):
                with_chains_only += 1
        verdict = solve(state)
        assert (verdict.result == "won") == winnable, state
        if verdict.result == "won":
            assert replays_to_won(state, verdict.moves)
        answers[verdict.result] += 1
    assert frozen >= 100 and with_chains_only >= 3, (frozen, with_chains_only)
    assert answers["won"] >= 50 and answers["lost"] >= 50, answers


def test_a_chain_built_onto_the_start_of_the_packet_can_free_it():
    # Pile 1's J♠ lies on 9♠ and can only go onto Q♠ (covered in pile 2), and K♠ lies on Q♠:
    # frozen as dealt. But 10♠ goes onto J♠, and the redeal then shifts J♥ to the top of pile 2,
    # from where it goes up: the game is won, so the start is not frozen.
    state = position(
        "classic",
        [["KH", "9S", "QH", "JS"], ["KD", "QS", "JH", "KS"], ["TS"]],
        {"S": "8", "H": "T", "D": "Q", "C": "K"},
        moved=False,
    )
    assert not frozen_prefix(packet_of(state), runs=False)
    assert brute_force_winnable(state)
    verdict = solve(state)
    assert verdict.result == "won"
    assert replays_to_won(state, verdict.moves)


@pytest.mark.parametrize("deal", [863, 1664])
def test_a_start_frozen_whatever_chains_come_in_loses_the_deal_at_once(deal: int) -> None:
    # 863: 6♣ 2♥ 8♣ 5♣ | 2♣ K♣ …: 5♣ waits for 2♣, under K♣, which waits for 2♣ too; 4♣ and 3♣
    # may come onto 5♣, but then 2♣ and K♣ still share pile 2. 1664: 9♦ (pile 1's top) waits
    # for 8♦ in pile 3, under K♣, which waits for 10♣ under 9♦; Q♦ onto K♦ keeps K♣ in pile 3.
    verdict = solve(deal, "classic")
    assert verdict.result == "lost"
    assert verdict.nodes <= 1


# -- the start of the packet as a game of its own (classic) ----------------------------------------


def piles_of(state: CruelState) -> tuple[bytes, ...]:
    return tuple(bytes(encode_card(card) for card in pile) for pile in state.piles)


@pytest.mark.parametrize("variant", ["classic", "stuck"])
def test_a_start_of_the_packet_that_can_never_clear_loses_the_game(variant: str) -> None:
    # The test follows only the first cards of the packet and lets the rest of the layout do
    # anything; when even then the start can never clear, no line wins. Every "lost" it gives
    # must be the brute force's, and some must be positions that the frozen start (which allows
    # no card of the start to move) does not decide. In classic the solver runs the test once
    # its first trial is cut short (as it is under a budget of 400), and must still agree with
    # the brute force both ways.
    rng = random.Random(f"cruel-solver-start-clears/{variant}")
    never_clears = not_frozen = decided = 0
    for number in range(600):
        if number % 2:
            state = random_small_position(rng, variant, most=12)
        else:
            state = random_dealt_position(rng, variant)
        winnable = brute_force_winnable(state)
        if start_never_clears(piles_of(state), state.foundations):
            never_clears += 1
            assert not winnable, state
            not_frozen += number % 2 == 0 and not frozen_prefix(packet_of(state), runs=False)
        if variant == "classic":
            verdict = solve(state, node_budget=400)
            if verdict.result != "unknown":
                decided += 1
                assert (verdict.result == "won") == winnable, state
                if verdict.result == "won":
                    assert replays_to_won(state, verdict.moves)
    assert never_clears >= 200 and not_frozen >= 10, (never_clears, not_frozen)
    assert variant != "classic" or decided >= 500, decided


def test_a_start_that_can_move_but_freezes_again_is_lost():
    # Q♠ lies on top and goes up, so the start is not frozen. But then either Q♥ goes onto K♥
    # (10♥ and K♠ follow it up, and J♥ stays under K♥ Q♥ for good), or a redeal lays J♥ onto
    # Q♥ in pile 1 (J♥ waits for 10♥, beneath it; K♥ in pile 2 waits for J♥): lost either way.
    state = position(
        "classic",
        [["KS", "TH", "QH", "QS"], ["JH", "KH"]],
        {"S": "J", "H": "9", "D": "K", "C": "K"},
        moved=False,
    )
    assert not frozen_prefix(packet_of(state), runs=False)
    assert start_never_clears(piles_of(state), state.foundations)
    assert not brute_force_winnable(state)


@pytest.mark.parametrize("deal", [618, 1901])
def test_deals_whose_start_of_the_packet_can_never_clear_are_lost(deal: int) -> None:
    # 618: K♦ J♠ 3♠ K♥ | K♣ K♠ J♥ Q♠: Q♥ may come onto K♥ and J♥ go up, but K♥ then waits for
    # Q♥, under K♠, which waits for 3♠, under K♥. Both stayed undecided at 2 000 000 positions
    # before; the frozen start alone does not decide them.
    assert not frozen_prefix(packet_of(deal_position_state(deal)), runs=False)
    verdict = solve(deal, "classic")
    assert verdict.result == "lost"
    assert verdict.nodes <= 20_000


def deal_position_state(deal: int) -> CruelState:
    return get_game("cruel", "classic").start(deal)


# -- best-first trials (classic) ---------------------------------------------------------------


@pytest.mark.parametrize("order", BEST_FIRST)
def test_a_best_first_search_wins_exactly_when_the_brute_force_does(order: int) -> None:
    # Each best-first trial expands the positions in its own order of closeness to a win; run to
    # the end it must search the same positions as the depth-first search, so its answer (a line
    # that replays to won, or none) must be the brute force's, both ways.
    rng = random.Random(f"cruel-solver-best-first/{order}")
    answers = {"won": 0, "lost": 0}
    for _ in range(60):
        state = random_small_position(rng, "classic", most=12)
        piles = tuple(bytes(encode_card(card) for card in pile) for pile in state.piles)
        search = Search(runs=False, stuck=False, budget=10**6, coarse_prune=True, order=order)
        line = search.best_first(piles, state.foundations, UNLIMITED, not state.moved)
        assert (line is not None) == brute_force_winnable(state), state
        if line is not None:
            assert replays_to_won(state, line)
        answers["won" if line is not None else "lost"] += 1
    assert answers["won"] >= 10 and answers["lost"] >= 10, answers


@pytest.mark.parametrize("deal", [1030, 7722, 9507])
def test_hard_classic_wins_that_every_depth_first_order_misses_are_found(deal: int) -> None:
    # These deals stayed undecided at 2 000 000 positions with the depth-first trials alone; a
    # best-first trial wins each within a few thousand positions.
    game = get_game("cruel", "classic")
    verdict = solve(deal, "classic", node_budget=100_000)
    assert verdict.result == "won"
    assert game.status(game.replay(deal, verdict.moves)) is Status.WON
