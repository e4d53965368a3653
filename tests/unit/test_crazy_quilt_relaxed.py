"""The relaxed Crazy Quilt game (every quilt card free, only stock and waste bind), decided by
choosing each waiting card's foundation, read against the exhaustive relaxed search.

Both answer the same question: can every card be founded when the stock is pushed onto the
waste in its order, cards leave the waste only from the top, and a redeal turns it over? The
exhaustive search (``relaxed_possible``) tries every move of that game; the assignment search
(``clearable``) chooses a foundation for each card of the pile and pops greedily.
"""

from __future__ import annotations

import random

from spielcenter.games.cards import ACE, KING, Card
from spielcenter.solvers.codes import encode_card
from spielcenter.solvers.crazy_quilt_last_pass import relaxed_possible
from spielcenter.solvers.crazy_quilt_relaxed import clearable, clearable_left

RelaxedPosition = tuple[bytes, bytes, bytes, tuple[int, ...]]
HEARTS, SPADES = 1, 0


def codes(*cards: str) -> bytes:
    return bytes(encode_card(Card.parse(card)) for card in cards)


def foundations(**open_suits: tuple[int, int]) -> tuple[int, ...]:
    """Every suit finished but the named ones (``H=(up, down)``)."""
    up, down = [KING] * 4, [ACE] * 4
    for letter, (top_up, top_down) in open_suits.items():
        suit = "SHDC".index(letter)
        up[suit], down[suit] = top_up, top_down
    return (*up, *down)


def free_cards(waste: bytes, stock: bytes, fnd: tuple[int, ...]) -> bytes:
    """Every card the foundations still need that lies neither on the waste nor in the stock."""
    pile = waste + stock
    free = []
    for suit in range(4):
        for rank in range(ACE, KING + 1):
            code = suit * 16 + rank
            need = (rank > fnd[suit]) + (rank < fnd[4 + suit])
            free += [code] * (need - pile.count(code))
    return bytes(free)


def relaxed_turnings(seed: int) -> list[RelaxedPosition]:
    """A relaxed position (waste, stock, free cards, foundations) at several points of turning
    the same stock: one or two suits wait at a rank on both foundations, a few of their loose
    cards are free, the rest lie in the stock and the waste in a shuffled order."""
    rng = random.Random(seed)
    up, down = [KING] * 4, [ACE] * 4
    loose: list[int] = []
    for suit in rng.sample(range(4), rng.randint(1, 2)):
        rank = rng.randint(ACE + 2, KING - 2)
        up[suit], down[suit] = rank - 1, rank + 1
        loose += [suit * 16 + r for r in (*range(rank, KING + 1), *range(ACE, rank + 1))]
    rng.shuffle(loose)
    free = rng.randint(6, 16)
    quilt, rest = bytes(loose[:free]), loose[free:]
    fnd = (*up, *down)
    return [(bytes(rest[:k]), bytes(rest[k:]), quilt, fnd) for k in range(0, len(rest) + 1, 3)]


def test_the_assignment_search_answers_as_the_exhaustive_relaxed_search() -> None:
    # The same relaxed game, decided two ways, on the last pass and with one redeal left.
    answers = {True: 0, False: 0}
    for seed in range(150):
        for waste, stock, quilt, fnd in relaxed_turnings(seed):
            for redeals_left in (0, 1):
                assert sorted(free_cards(waste, stock, fnd)) == sorted(quilt)
                exhaustive, searched = relaxed_possible(
                    waste, stock, quilt, fnd, redeals_left, 20_000
                )
                if searched > 20_000:
                    continue  # undecided: nothing to compare
                decided, nodes = clearable(waste, stock, fnd, redeals_left, 10**6)
                assert nodes <= 10**6
                assert decided == exhaustive, (seed, waste, stock, fnd, redeals_left)
                answers[exhaustive] += 1
    assert answers[True] >= 100 and answers[False] >= 100  # both answers were compared


def test_a_foundation_that_passed_a_rank_could_have_waited_for_it() -> None:
    # Hearts: up at 7, down at 9, so both still need an 8; one 8H is free, the other lies on
    # the waste. The optimistic first run lets both foundations take the free 8H and run on to
    # the end; the 8H on the waste must still count as one of them could have waited for it.
    fnd = foundations(H=(7, 9))
    assert clearable(codes("8H"), b"", fnd, 0) == (True, 1)
    assert relaxed_possible(codes("8H"), b"", free_cards(codes("8H"), b"", fnd), fnd, 0)[0]


def test_each_copy_popped_is_there_for_either_foundation() -> None:
    # Spades: up at A, down at 3, both 2S on the waste above the last AS. One 2S goes up, the
    # other down, then AS follows it down. An optimistic run that let up take both copies must
    # not leave the down foundation waiting for a 2 that has gone.
    fnd = foundations(S=(ACE, 3))
    assert clearable(codes("AS", "2S", "2S"), b"", fnd, 0)[0]


def test_a_card_covering_the_copy_its_foundation_needs_first_cannot_leave() -> None:
    # Spades: up at 4, down at 5 (one 5S founded). 7S can only go up, after the last 5S and a
    # 6S (free); the 5S lies beneath it on the last pass: lost. With a redeal left the turned
    # waste brings the 5S first.
    fnd = foundations(S=(4, 5))
    assert not clearable(codes("5S", "7S"), b"", fnd, 0)[0]
    assert clearable(codes("5S", "7S"), b"", fnd, 1)[0]


def test_which_copy_goes_up_is_searched() -> None:
    # Spades: up at 4, down at 6: both need a 5, both 5S are in the pile. The stock turns 5S,
    # then 9S (which only up takes, after 5-8: the 6-8 are free) onto a waste holding the other
    # 5S. With no redeal the top 5S must go up at once so the 9S can follow it; the one beneath
    # then goes down. Only one of the two assignments clears.
    fnd = foundations(S=(4, 6))
    waste, stock = codes("5S"), codes("5S", "9S")
    assert clearable(waste, stock, fnd, 0)[0]
    assert relaxed_possible(waste, stock, free_cards(waste, stock, fnd), fnd, 0)[0]


def test_a_card_no_foundation_needs_any_more_is_never_founded() -> None:
    # Both foundations of spades have passed the 5: a 5S still in the pile can never leave.
    fnd = foundations(S=(6, 4))
    assert clearable(codes("5S"), b"", fnd, 1) == (False, 0)


def test_out_of_nodes_it_gives_the_benefit_of_the_doubt() -> None:
    fnd = foundations(S=(4, 5))
    assert clearable(codes("5S", "7S"), b"", fnd, 0, budget=0) == (True, 1)


def test_the_graded_check_answers_as_the_check_and_grades_only_what_it_did_not_prove() -> None:
    # clearable_left is clearable with a grade: the same answer in the same nodes at every
    # budget (the beams that rank by the grade must prune exactly as the others do), 0 cards
    # left where it proved the pile clearable, never more cards than the pile, and out of nodes
    # the cards its best greedy run left, fewer than the whole pile on many questions.
    graded = {0: 0, "some": 0}
    for seed in range(60):
        for waste, stock, _quilt, fnd in relaxed_turnings(seed):
            for redeals_left in (0, 1):
                for budget in (0, 1, 2, 100):
                    answer = clearable(waste, stock, fnd, redeals_left, budget)
                    clears, nodes, left = clearable_left(waste, stock, fnd, redeals_left, budget)
                    assert (clears, nodes) == answer
                    assert 0 <= left <= len(waste) + len(stock)
                    if clears and 0 < left < len(waste) + len(stock):
                        graded["some"] += 1  # out of nodes: the benefit of the doubt, graded
                    elif clears:
                        graded[0] += 1
    assert graded[0] >= 100 and graded["some"] >= 20


def test_the_grade_counts_the_cards_the_best_greedy_run_left() -> None:
    # Spades: up at 4, down at 5. 7S can only go up, after the 5S beneath it: with no redeal
    # the only assignment leaves both cards on the waste (lost, 2 left); with a redeal left it
    # clears (0 left). Out of nodes before any assignment was run, the grade is the pile's size.
    fnd = foundations(S=(4, 5))
    pile = codes("5S", "7S")
    assert clearable_left(pile, b"", fnd, 0) == (False, 1, 2)
    assert clearable_left(pile, b"", fnd, 1)[0::2] == (True, 0)
    assert clearable_left(codes("5S", "7S", "9S"), b"", foundations(S=(2, 5)), 1, budget=0) == (
        True,
        1,
        3,
    )
