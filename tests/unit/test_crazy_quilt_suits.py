"""Crazy Quilt's suits alone: a smaller game whose loss proves the real deal lost.

The rules of the smaller game (docstring of :mod:`spielcenter.solvers.crazy_quilt_suits`) are read
again here, independently of the solver, as a referee: the kept suits' cards play by the seed's
rules; a card of another suit leaves the quilt as soon as a short end is free; the stock and the
waste hold the kept suits' cards only. The referee checks the two claims a proof rests on:
every real winning line, its other suits' moves dropped, wins the smaller game (so a lost smaller
game means a lost deal), and the solver's verdicts on the smaller game agree with an exhaustive
search that tries every legal move and remembers positions, nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

import pytest

from spielcenter.cli import main
from spielcenter.cli.solve import EXIT_LOST
from spielcenter.games import Status, get_game
from spielcenter.games.cards import ACE, KING, SUITS, Card
from spielcenter.games.crazy_quilt import (
    CELL_INDEX,
    CELL_NAMES,
    OUTSIDE,
    SHORT_ENDS,
    QuiltState,
    apply_move,
    is_won,
    make,
    parse_move,
    ranks_touch,
)
from spielcenter.solvers.crazy_quilt import solve
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.crazy_quilt_search import decide
from spielcenter.solvers.crazy_quilt_suits import alone, decide_alone, lost_alone
from spielcenter.solvers.winnable import winnable_deals

from .exhaustive import some_line_wins
from .test_crazy_quilt_solver import (
    brute_force_wins,
    constructed_end_position,
    crossing_end_position,
    replay_from,
)

PROOF_175 = "the diamonds alone cannot all be founded, even with every other card out of their way"
"""The proof of deal 175's loss, as `solve` and the command line give it."""

ALL_KINGS = (KING,) * len(SUITS)
ALL_ACES = (ACE,) * len(SUITS)
"""The foundation tops of a won game (the left-out suits' stand there from the start)."""

SUIT_SETS = ["".join(kept) for size in (1, 2, 3) for kept in combinations(SUITS, size)]


# -- the referee ---------------------------------------------------------------------------


def code(card: Card) -> int:
    """A card as a small number (suit × 16 + rank): a node holds numbers, cheap to hash."""
    return SUITS.index(card.suit) * 16 + card.rank


class Node(NamedTuple):
    """A position of the smaller game: the quilt (other suits' ghosts already gone; its number
    in :attr:`Referee.quilts`), the kept stock (top first) and waste (bottom to top) as card
    numbers (:func:`code`), foundation tops, redeals left."""

    quilt: int
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    up: tuple[int, ...]
    down: tuple[int, ...]
    left: int


class Referee:
    """The smaller game of ``state`` with only the cards of ``suits``."""

    def __init__(self, state: QuiltState, suits: str) -> None:
        self.suits = suits
        self.round_the_corner = state.round_the_corner
        keep = self.keeps
        self.kept_cells = [c for c, card in enumerate(state.quilt) if card and keep(card)]
        self.ghost_cells = [c for c, card in enumerate(state.quilt) if card and not keep(card)]
        self.codes = [code(card) if card else 0 for card in state.quilt]
        # Deal 175's diamonds make 1.3 million nodes over far fewer quilts: each quilt is
        # numbered once (a node holds its number, cheap to hash and compare), with its free
        # cards of the kept suits and the quilt after each of them left.
        self.quilts: list[tuple[Card | None, ...]] = []
        self.numbers: dict[tuple[Card | None, ...], int] = {}
        self.playable: dict[int, list[int]] = {}
        self.taken: dict[tuple[int, int], int] = {}
        self.start = Node(
            self.number(self.vanish(state.quilt)),
            tuple(code(card) for card in state.stock if keep(card)),
            tuple(code(card) for card in state.waste if keep(card)),
            tuple(top if s in suits else KING for s, top in zip(SUITS, state.up, strict=True)),
            tuple(top if s in suits else ACE for s, top in zip(SUITS, state.down, strict=True)),
            state.redeals_left,
        )

    def keeps(self, card: Card) -> bool:
        return card.suit in self.suits

    @staticmethod
    def free(quilt: tuple[Card | None, ...], cell: int) -> bool:
        """A card with a short end beyond the edge or at a gap (seed 000)."""
        return quilt[cell] is not None and any(
            end == OUTSIDE or quilt[end] is None for end in SHORT_ENDS[cell]
        )

    def vanish(self, quilt: tuple[Card | None, ...]) -> tuple[Card | None, ...]:
        """Let every free card of another suit go, until none is free."""
        while True:
            ghosts = [cell for cell in self.ghost_cells if self.free(quilt, cell)]
            if not ghosts:
                return quilt
            cells = list(quilt)
            for cell in ghosts:
                cells[cell] = None
            quilt = tuple(cells)

    def number(self, quilt: tuple[Card | None, ...]) -> int:
        """The number of ``quilt`` (a new one for a quilt not met before)."""
        number = self.numbers.get(quilt)
        if number is None:
            number = self.numbers[quilt] = len(self.quilts)
            self.quilts.append(quilt)
        return number

    def free_cells(self, quilt: int) -> list[int]:
        """The free cards of the kept suits in quilt ``quilt`` (remembered; looked for only when
        the quilt's moves are asked: a replay meets many quilts whose moves it never asks)."""
        cells = self.playable.get(quilt)
        if cells is None:
            cells = self.playable[quilt] = [
                c for c in self.kept_cells if self.free(self.quilts[quilt], c)
            ]
        return cells

    def take(self, quilt: int, cell: int) -> int:
        """The quilt after the card at ``cell`` left quilt ``quilt`` and the ghosts it freed
        vanished (remembered: a search meets the same few quilts under every stock and waste)."""
        after = self.taken.get((quilt, cell))
        if after is None:
            cells = self.quilts[quilt]
            after = self.number(self.vanish((*cells[:cell], None, *cells[cell + 1 :])))
            self.taken[quilt, cell] = after
        return after

    @staticmethod
    def homes(
        card: int, up: tuple[int, ...], down: tuple[int, ...]
    ) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
        """The foundations ``card`` (:func:`code`) follows on, with the foundation tops after it
        went there (a list, not a generator: asked four million times for deal 175)."""
        suit, rank = divmod(card, 16)
        found = []
        if up[suit] == rank - 1:
            found.append(("u", (*up[:suit], rank, *up[suit + 1 :]), down))
        if down[suit] == rank + 1:
            found.append(("d", up, (*down[:suit], rank, *down[suit + 1 :])))
        return found

    def moves(self, node: Node) -> Iterator[tuple[str, Node]]:
        """Every legal move of ``node`` in the engine's notation, with the node after it.

        Deal 175's diamonds make 1.3 million nodes, so each is built at once from its parts
        (not ``_replace``d field by field) and the quilt after a card left comes from ``take``.
        """
        quilt, stock, waste, up, down, left = node
        top = waste[-1] if waste else 0
        if top:
            for mark, ups, downs in self.homes(top, up, down):
                yield "w" + mark, Node(quilt, stock, waste[:-1], ups, downs, left)
        for cell in self.free_cells(quilt):
            card = self.codes[cell]
            rest = self.take(quilt, cell)
            for mark, ups, downs in self.homes(card, up, down):
                yield CELL_NAMES[cell] + mark, Node(rest, stock, waste, ups, downs, left)
            if (
                top
                and top >> 4 == card >> 4
                and ranks_touch(card & 15, top & 15, self.round_the_corner)
            ):
                yield CELL_NAMES[cell] + "w", Node(rest, stock, (*waste, card), up, down, left)
        if stock:
            yield "s", Node(quilt, stock[1:], (*waste, stock[0]), up, down, left)
        elif waste and left:
            yield "r", Node(quilt, waste, (), up, down, left - 1)

    @staticmethod
    def won(node: Node) -> bool:
        """Every up foundation at its king, every down foundation at its ace."""
        return node.up == ALL_KINGS and node.down == ALL_ACES

    def replay(self, line: list[str]) -> Node:
        """The node after ``line``; an illegal move fails the test."""
        node = self.start
        for text in line:
            after = next((there for move, there in self.moves(node) if move == text), None)
            assert after is not None, f"{text} is not legal in the {self.suits} game"
            node = after
        return node

    def wins(self) -> bool:
        """Exhaustive: every legal move tried, positions remembered, nothing else."""
        return some_line_wins(self.start, self.won, self.moves)


def projected(state: QuiltState, line: tuple[str, ...], suits: str) -> list[str]:
    """The moves of a real line that move a card of ``suits``, and its redeals of a waste that
    holds one (a redeal of other suits' cards alone turns nothing of the smaller game)."""
    kept = []
    for text in line:
        move = parse_move(text)
        if move.source == "r":
            cards = list(state.waste)
        elif move.source == "s":
            cards = [state.stock[0]]
        elif move.source == "w":
            cards = [state.waste[-1]]
        else:
            cards = [state.quilt[CELL_INDEX[move.source]]]
        if any(card is not None and card.suit in suits for card in cards):
            kept.append(text)
        state = apply_move(state, move)
    assert is_won(state)
    return kept


def proofs(variant: str) -> dict[int, tuple[str, ...]]:
    from spielcenter.solvers.winnable import list_path, read_proofs

    return dict(read_proofs(list_path("crazy-quilt", variant)))


# -- a real win is a win of every smaller game -----------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "round-the-corner", "second-redeal"])
def test_every_real_winning_line_wins_each_smaller_game(variant: str) -> None:
    """Rule: dropping the other suits' moves from a real win leaves a win of the kept suits."""
    game = make(variant)
    lines = proofs(variant)
    for deal in list(lines)[:12]:
        for suits in SUIT_SETS:
            referee = Referee(game.start(deal), suits)
            end = referee.replay(projected(game.start(deal), lines[deal], suits))
            assert referee.won(end), f"deal {deal}, {suits} alone"


def test_the_referee_refuses_a_move_of_a_left_out_suit() -> None:
    state = make("classic").start(1)
    suit = next(card.suit for card in state.quilt if card is not None)
    other = next(s for s in SUITS if s != suit)
    referee = Referee(state, other)
    assert all(
        text[:2] not in CELL_NAMES or state.quilt[CELL_INDEX[text[:2]]].suit == other
        for text, _ in referee.moves(referee.start)
    )


# -- the solver's smaller game is the referee's ----------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_the_solver_decides_a_smaller_end_position_as_an_exhaustive_search_does(seed: int) -> None:
    """Rule: ``lost`` only when no line of the smaller game founds every kept card."""
    for state in (constructed_end_position(seed), crossing_end_position(seed)):
        for suits in SUITS:
            verdict = decide_alone(position_of(state), suits, 10**6)
            referee = Referee(state, suits)
            assert verdict.result == ("won" if referee.wins() else "lost"), (seed, suits)
            if verdict.result == "won":
                assert referee.won(referee.replay(verdict.moves)), (seed, suits)


def test_the_solvers_wins_of_smaller_games_replay_under_the_referee() -> None:
    game = make("classic")
    for deal in range(1, 6):
        for suits in SUIT_SETS[:10]:
            verdict = decide_alone(position_of(game.start(deal)), suits, 10**5)
            if verdict.result == "won":
                referee = Referee(game.start(deal), suits)
                assert referee.won(referee.replay(verdict.moves)), (deal, suits)


# -- deal 175 is lost -------------------------------------------------------------------------


def test_the_diamonds_of_deal_175_alone_cannot_be_founded_in_two_passes() -> None:
    """Rule: with one redeal, no order of play founds deal 175's diamonds (18 of them in the
    stock), even with every other card out of their way: the referee's exhaustive search."""
    referee = Referee(make("classic").start(175), "D")
    assert len(referee.start.stock) == 18
    assert not referee.wins()


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
def test_solve_proves_deal_175_lost_by_its_diamonds(variant: str) -> None:
    verdict = solve(175, variant, node_budget=100_000)
    assert verdict.result == "lost"
    assert verdict.proof == PROOF_175


def test_with_a_second_redeal_deal_175_is_won() -> None:
    """The second pass the variant adds is what the diamonds lack (the relaxation is not a
    shortcut to "lost": it proves nothing where the real game can be won)."""
    assert lost_alone(position_of(make("second-redeal").start(175)), 100_000).suits == ""
    assert 175 in winnable_deals("crazy-quilt", "second-redeal")


def test_no_deal_the_lists_hold_as_won_has_a_suit_that_is_lost_alone() -> None:
    game = make("classic")
    for deal in [d for d in winnable_deals("crazy-quilt", "classic") if d <= 150]:
        assert lost_alone(position_of(game.start(deal)), 20_000).suits == "", deal


def test_the_command_line_names_the_proof(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "crazy-quilt", "--deal", "175"]) == EXIT_LOST
    out = capsys.readouterr().out
    assert "deal 175: lost" in out
    assert f"no winning line exists: {PROOF_175}" in out


def test_the_json_answer_carries_the_proof(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "crazy-quilt", "--deal", "175", "--json"]) == EXIT_LOST
    answer = json.loads(capsys.readouterr().out)
    assert answer["result"] == "lost"
    assert answer["moves"] == []
    assert answer["proof"] == PROOF_175


def test_a_bad_suit_gets_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no suit 'X'"):
        alone(position_of(make("classic").start(1)), "X")


# -- a position is lost when one of its suits alone is lost -----------------------------------


class WallReferee(Referee):
    """A deliberately broken smaller game: the other suits' quilt cards stay where they lie for
    good (walls) instead of leaving as soon as a short end is free (ghosts)."""

    def vanish(self, quilt: tuple[Card | None, ...]) -> tuple[Card | None, ...]:
        return quilt


def open_suits(state: QuiltState) -> str:
    """The suits whose foundations are not complete."""
    return "".join(
        suit
        for suit, up, down in zip(SUITS, state.up, state.down, strict=True)
        if up != KING or down != ACE
    )


def test_in_a_won_position_every_suit_alone_is_won_and_walls_would_lose_some() -> None:
    """Rule: from any position, a winning line with the other suits' moves dropped wins each
    suit alone, so a position with a suit lost alone is lost. The broken smaller game, where the
    other suits' cards never get out of the way, loses suits of positions that can be won: a
    search that dropped positions by it would turn wins into losses, and the test below would
    catch it."""
    walls_lose = 0
    for seed in range(120):
        state = constructed_end_position(seed)
        if not brute_force_wins(state) or len(open_suits(state)) < 2:
            continue
        for suit in open_suits(state):
            assert Referee(state, suit).wins(), (seed, suit)
            walls_lose += not WallReferee(state, suit).wins()
    assert walls_lose >= 5


def test_a_search_dropping_positions_whose_suit_alone_is_lost_agrees_with_brute_force() -> None:
    """Rule: dropping a position whose suit alone is lost never turns a win into a loss; the
    verdicts equal the brute force over the engine's own moves, and every win replays. (The
    won positions among these are the ones where the broken smaller game above loses a suit.)"""
    dropped = 0
    for seed in range(120):
        state = constructed_end_position(seed)
        splits: dict[bytes, bool] = {}
        verdict, _ = decide(position_of(state), 10**6, None, False, set(), None, 10**5, splits)
        assert verdict.result == ("won" if brute_force_wins(state) else "lost"), seed
        if verdict.result == "won":
            game = get_game("crazy-quilt", state.variant)
            assert game.status(replay_from(state, verdict.moves)) is Status.WON, seed
        dropped += sum(splits.values())
    assert dropped >= 5  # the rule dropped positions, so the comparison tested it


@pytest.mark.parametrize("suits", ["SH", "DC", "SDC"])
def test_a_smaller_game_searched_with_its_suits_split_agrees_with_the_referee(suits: str) -> None:
    """The same rule inside a smaller game (how the pairs of the hard deals are searched): a
    suit of the kept ones, alone, is a smaller game of the smaller game."""
    for seed in range(60):
        state = constructed_end_position(seed)
        position = alone(position_of(state), suits)
        verdict, _ = decide(position, 10**6, None, True, set(), None, 10**5)
        referee = Referee(state, suits)
        assert verdict.result == ("won" if referee.wins() else "lost"), (seed, suits)
        if verdict.result == "won":
            assert referee.won(referee.replay(verdict.moves)), (seed, suits)
