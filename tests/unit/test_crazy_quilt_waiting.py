"""Crazy Quilt's waiting game: a smaller game whose loss proves the real deal lost (deal 728).

The rules of the waiting game (docstring of :mod:`spielcenter.solvers.crazy_quilt_waiting`) are
read again here, independently of the solver, as a referee: the kept suits' cards play by the
seed's rules; a card of another suit turned from the stock is *released*; a quilt card of another
suit leaves (released) once a short end is free and either its suit's *loose* foundations (a
released copy lets both pass its rank) have reached a neighbouring rank or a card of its suit one
rank away has been released. The referee checks the two claims a proof rests on: every real
winning line, mapped onto the waiting game, wins it (so a lost waiting game means a lost deal),
and the solver's verdicts agree with an exhaustive search that tries every legal move and
remembers positions, nothing else. A deliberately broken referee, whose waiting cards forget the
waste (they wait for a foundation only), fails the first claim.

A pruned referee, the independent check of deal 728's loss, drops the nodes whose kept cards
cannot all be founded even with every quilt card free (the *loose game*, decided by its own
exhaustive search, nothing shared with the solver): it keeps every node of the real winning
lines, agrees with the plain referee on the end positions, and finds the diamonds of deal 728
lost in both variants with one redeal. A broken version whose loose game forgets the redeal
drops nodes of real wins and "proves" won games lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import combinations, pairwise
from typing import NamedTuple

import pytest
from bench.crazy_quilt_summary import LOST_WAITING, proven_lost

from spielcenter.cli import main
from spielcenter.cli.solve import DEFAULT_BUDGETS, EXIT_LOST
from spielcenter.games.base import Status
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
from spielcenter.solvers.crazy_quilt import (
    BEAM_PARTS,
    BEAM_SHARE,
    SUITS_SHARE,
    WAITING_SHARE,
    solve,
)
from spielcenter.solvers.crazy_quilt_beam import run_beams
from spielcenter.solvers.crazy_quilt_honest import play_from
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.crazy_quilt_relaxed import clearable_left
from spielcenter.solvers.crazy_quilt_suits import lost_alone
from spielcenter.solvers.crazy_quilt_waiting import (
    FIRST_ROUND,
    LOOSE_ASSIGNMENTS,
    LOOSE_BUDGET,
    PAIR_ASSIGNMENTS,
    PAIR_SUITS_FIRST,
    LooseGame,
    WaitingSearch,
    behind,
    decide_waiting,
    loose_answer,
    loose_clears,
    lost_waiting,
    lost_waiting_in_rounds,
)
from spielcenter.solvers.verdict import OutOfBudget, Verdict
from spielcenter.solvers.winnable import list_path, read_proofs, winnable_deals

from .exhaustive import some_line_wins
from .test_crazy_quilt_solver import constructed_end_position, crossing_end_position

PROOF_728 = (
    "the diamonds cannot all be founded, even if every other card leaves the quilt as soon as "
    "a foundation or a card one rank away could take it"
)
PROOF_9 = (
    "the diamonds and clubs cannot all be founded, even if every other card leaves the quilt "
    "as soon as a foundation or a card one rank away could take it"
)
SUIT_SETS = ["".join(kept) for size in (1, 2) for kept in combinations(SUITS, size)]


def code(card: Card) -> int:
    return SUITS.index(card.suit) * 16 + card.rank


class Node(NamedTuple):
    """A position of the waiting game: the empty cells (a bit each), the stock (every card on
    the first pass, top first), the waste (kept cards, bottom to top), the kept suits'
    foundation tops, the released copies of the other suits' cards (their numbers, sorted),
    redeals left. Bytes and numbers: the exhaustive search of deal 728 keeps millions."""

    empty: int
    stock: bytes
    waste: bytes
    up: tuple[int, ...]
    down: tuple[int, ...]
    released: bytes
    left: int


class Referee:
    """The waiting game of ``state`` with the cards of ``suits`` kept."""

    def __init__(self, state: QuiltState, suits: str) -> None:
        self.suits = suits
        self.round_the_corner = state.round_the_corner
        self.codes = [code(card) if card else 0 for card in state.quilt]
        self.waiting = [
            cell for cell, card in enumerate(state.quilt) if card and card.suit not in suits
        ]
        self.base_up = state.up
        self.base_down = state.down
        others = bytes(sorted(code(card) for card in state.waste if card.suit not in suits))
        self.start = self.settle(
            Node(
                sum(1 << cell for cell, card in enumerate(state.quilt) if card is None),
                bytes(code(card) for card in state.stock),
                bytes(code(card) for card in state.waste if card.suit in suits),
                tuple(top if s in suits else KING for s, top in zip(SUITS, state.up, strict=True)),
                tuple(top if s in suits else ACE for s, top in zip(SUITS, state.down, strict=True)),
                others,
                state.redeals_left,
            )
        )

    def kept(self, card: int) -> bool:
        return SUITS[card >> 4] in self.suits

    @staticmethod
    def free(empty: int, cell: int) -> bool:
        """A card with a short end beyond the edge or at a gap (seed 000)."""
        return not empty >> cell & 1 and any(
            end == OUTSIDE or empty >> end & 1 for end in SHORT_ENDS[cell]
        )

    def loose(self, released: bytes, suit: int) -> tuple[int, int]:
        """The loose foundations of another suit: each passes every rank a released copy has."""
        ranks = {card & 15 for card in released if card >> 4 == suit}
        up, down = self.base_up[suit], self.base_down[suit]
        while up < KING and up + 1 in ranks:
            up += 1
        while down > ACE and down - 1 in ranks:
            down -= 1
        return up, down

    def may_leave(self, card: int, released: bytes) -> bool:
        suit, rank = card >> 4, card & 15
        up, down = self.loose(released, suit)
        if up >= rank - 1 or down <= rank + 1:
            return True
        return any(
            other >> 4 == suit and ranks_touch(other & 15, rank, self.round_the_corner)
            for other in released
        )

    def settle(self, node: Node) -> Node:
        """Every waiting card that may leave leaves, until none may."""
        empty, released = node.empty, node.released
        while True:
            leaving = [
                cell
                for cell in self.waiting
                if self.free(empty, cell) and self.may_leave(self.codes[cell], released)
            ]
            if not leaving:
                return node._replace(empty=empty, released=released)
            for cell in leaving:
                empty |= 1 << cell
            released = bytes(sorted(released + bytes(self.codes[cell] for cell in leaving)))

    def homes(self, card: int, node: Node) -> Iterator[tuple[str, Node]]:
        suit, rank = card >> 4, card & 15
        if node.up[suit] == rank - 1:
            yield "u", node._replace(up=(*node.up[:suit], rank, *node.up[suit + 1 :]))
        if node.down[suit] == rank + 1:
            yield "d", node._replace(down=(*node.down[:suit], rank, *node.down[suit + 1 :]))

    def moves(self, node: Node) -> Iterator[tuple[str, Node]]:
        """Every legal move of ``node`` in the engine's notation, with the node after it."""
        top = node.waste[-1] if node.waste else 0
        if top:
            for mark, there in self.homes(top, node._replace(waste=node.waste[:-1])):
                yield "w" + mark, self.settle(there)
        for cell, card in enumerate(self.codes):
            if not card or not self.kept(card) or not self.free(node.empty, cell):
                continue
            rest = node._replace(empty=node.empty | 1 << cell)
            for mark, there in self.homes(card, rest):
                yield CELL_NAMES[cell] + mark, self.settle(there)
            if (
                top
                and top >> 4 == card >> 4
                and ranks_touch(card & 15, top & 15, self.round_the_corner)
            ):
                yield (
                    CELL_NAMES[cell] + "w",
                    self.settle(rest._replace(waste=node.waste + bytes((card,)))),
                )
        if node.stock:
            card, stock = node.stock[0], node.stock[1:]
            if self.kept(card):
                yield "s", node._replace(stock=stock, waste=node.waste + bytes((card,)))
            else:
                released = bytes(sorted(node.released + bytes((card,))))
                yield "s", self.settle(node._replace(stock=stock, released=released))
        elif node.left:
            yield "r", node._replace(stock=node.waste, waste=b"", left=node.left - 1)

    def won(self, node: Node) -> bool:
        return (
            not node.stock
            and not node.waste
            and node.up == (KING,) * 4
            and node.down == (ACE,) * 4
            and all(
                self.loose(node.released, s) == (KING, ACE)
                for s in range(4)
                if SUITS[s] not in self.suits
            )
        )

    def replay(self, line: list[str]) -> Node:
        return self.walk(line)[-1]

    def walk(self, line: list[str]) -> list[Node]:
        """The nodes ``line`` passes through, the start first; each move must be legal."""
        nodes = [self.start]
        for text in line:
            after = next((there for move, there in self.moves(nodes[-1]) if move == text), None)
            assert after is not None, f"{text} is not legal in the {self.suits} waiting game"
            nodes.append(after)
        return nodes

    def wins(self) -> bool:
        """Exhaustive: every legal move tried, positions remembered, nothing else."""
        return some_line_wins(self.start, self.won, self.moves)


class ForgetfulReferee(Referee):
    """Deliberately broken: a waiting card forgets the waste and waits for a loose foundation
    only (a real card may leave onto a card of its suit one rank away on the waste)."""

    def may_leave(self, card: int, released: bytes) -> bool:
        suit, rank = card >> 4, card & 15
        up, down = self.loose(released, suit)
        return up >= rank - 1 or down <= rank + 1


class Loose(NamedTuple):
    """A position of the kept cards' game with every quilt card free: the kept quilt cards
    still in the quilt (sorted codes), the kept cards of the stock (top first), the waste, the
    kept suits' foundation tops (up, then down), redeals left."""

    quilt: bytes
    stock: bytes
    waste: bytes
    up: tuple[int, ...]
    down: tuple[int, ...]
    left: int


class PrunedReferee(Referee):
    """The referee with a pruning of its own: a node is dropped when the kept cards cannot all
    be founded even if every kept quilt card were free at once (:class:`Loose`; the other
    suits' cards left out: their foundations count as complete).

    Sound: a line of the waiting game from the node, its turns of other suits' cards and its
    waiting cards dropped, is a line of the loose game (a free card may do whatever an
    available one may; the waste and the stock hold the same kept cards in the same order), and
    a won waiting game founds every kept card. A free card never goes onto the waste in the
    loose game: a winning line that puts one there still wins with that card left free (it is
    founded from where it lies when the line founds it from the waste; the waste and the stock
    are then the line's without it, whose tops, when a card of the stock leaves the waste, are
    the line's tops, and turning a card onto the waste asks nothing of its top). The loose game
    is decided by its own exhaustive search, each position remembered with its answer (every
    move founds or turns a card or spends a redeal, so no line comes back). It shares nothing
    with the solver's relaxed check (``clearable``, an assignment search within a budget)."""

    def __init__(self, state: QuiltState, suits: str) -> None:
        super().__init__(state, suits)
        self.cleared: dict[Loose, bool] = {}
        self.dropped = 0

    def loosened(self, node: Node) -> Loose:
        quilt = bytes(
            sorted(
                card
                for cell, card in enumerate(self.codes)
                if card and self.kept(card) and not node.empty >> cell & 1
            )
        )
        stock = bytes(card for card in node.stock if self.kept(card))
        return Loose(quilt, stock, node.waste, node.up, node.down, node.left)

    def loose_moves(self, at: Loose) -> Iterator[Loose]:
        def homes(card: int, there: Loose) -> Iterator[Loose]:
            suit, rank = card >> 4, card & 15
            if there.up[suit] == rank - 1:
                yield there._replace(up=(*there.up[:suit], rank, *there.up[suit + 1 :]))
            if there.down[suit] == rank + 1:
                yield there._replace(down=(*there.down[:suit], rank, *there.down[suit + 1 :]))

        top = at.waste[-1] if at.waste else 0
        if top:
            yield from homes(top, at._replace(waste=at.waste[:-1]))
        for index, card in enumerate(at.quilt):
            if index and at.quilt[index - 1] == card:
                continue  # the twin of the card before: the same moves
            yield from homes(card, at._replace(quilt=at.quilt[:index] + at.quilt[index + 1 :]))
        if at.stock:
            yield at._replace(stock=at.stock[1:], waste=at.waste + at.stock[:1])
        elif at.left:
            yield at._replace(stock=at.waste, waste=b"", left=at.left - 1)

    def clears(self, at: Loose) -> bool:
        """Whether some line of the loose game founds every kept card (exhaustive)."""
        known = self.cleared.get(at)
        if known is None:
            known = (not at.quilt and not at.stock and not at.waste) or any(
                self.clears(after) for after in self.loose_moves(at)
            )
            self.cleared[at] = known
        return known

    def pruned_moves(self, node: Node) -> Iterator[tuple[str, Node]]:
        for move, after in self.moves(node):
            if self.clears(self.loosened(after)):
                yield move, after
            else:
                self.dropped += 1

    def wins_pruned(self) -> bool:
        """The exhaustive search of :meth:`Referee.wins`, dead nodes dropped."""
        if not self.clears(self.loosened(self.start)):
            return False
        return some_line_wins(self.start, self.won, self.pruned_moves)


class RedeallessReferee(PrunedReferee):
    """Deliberately broken: its loose game forgets the redeals left (the waste is never turned
    over again), so it drops nodes a second pass would win."""

    def loosened(self, node: Node) -> Loose:
        return super().loosened(node)._replace(left=0)


class LazyLoose:
    """The loose game of :class:`PrunedReferee` decided another way, for questions too large for
    its exhaustive search: a free card is founded only when a card of the waste needs it, on
    the way of its foundation to that card (or never: once the stock and the waste are empty,
    the free copies left are exactly what the foundations still need, each rank once per
    foundation that needs it, so they complete them). Exact: a line that founds a free card
    sooner wins with that card founded later, right before the foundation next takes a card of
    the waste (a foundation's top matters only then), since no other move asks for it and the
    other foundation did not take that copy in the line either. So the moves are the waste's
    top onto a foundation that its free copies can carry to the rank below (above, for a down
    one), a turn, and a redeal; each position is remembered with its answer. Nothing is shared
    with the solver or with :class:`PrunedReferee`'s loose game."""

    def __init__(self, suits: str) -> None:
        self.kept = [SUITS.index(suit) for suit in suits]
        self.known: dict[tuple[bytes, bytes, tuple[int, ...], tuple[int, ...], int], bool] = {}

    def free(self, pile: bytes, up: tuple[int, ...], down: tuple[int, ...]) -> dict[int, int]:
        """Free copies of each kept card: one for each foundation that still needs it, less
        the copies in the stock and the waste (negative: a card no foundation takes)."""
        counts = {
            suit * 16 + rank: int(rank > up[suit]) + int(rank < down[suit])
            for suit in self.kept
            for rank in range(ACE, KING + 1)
        }
        for card in pile:
            counts[card] -= 1
        return counts

    def clears(
        self, waste: bytes, stock: bytes, up: tuple[int, ...], down: tuple[int, ...], left: int
    ) -> bool:
        key = (waste, stock, up, down, left)
        known = self.known.get(key)
        if known is not None:
            return known
        counts = self.free(waste + stock, up, down)
        if min(counts.values()) < 0:
            known = False
        elif not waste and not stock:
            known = True
        else:
            known = False
            if waste:
                card = waste[-1]
                suit, rank = card >> 4, card & 15
                if up[suit] < rank and all(
                    counts[card - rank + r] for r in range(up[suit] + 1, rank)
                ):
                    after = (*up[:suit], rank, *up[suit + 1 :])
                    known = self.clears(waste[:-1], stock, after, down, left)
                if (
                    not known
                    and down[suit] > rank
                    and all(counts[card - rank + r] for r in range(rank + 1, down[suit]))
                ):
                    after = (*down[:suit], rank, *down[suit + 1 :])
                    known = self.clears(waste[:-1], stock, up, after, left)
            if not known and stock:
                known = self.clears(waste + stock[:1], stock[1:], up, down, left)
            elif not known and left and waste:
                known = self.clears(b"", waste, up, down, left - 1)
        self.known[key] = known
        return known


class LazyReferee(Referee):
    """The referee's exhaustive search of the waiting game, each node dropped whose loose game
    :class:`LazyLoose` finds not clearable: the pruning of :class:`PrunedReferee` (sound for the
    reasons given there) decided by the lazy search, which finishes questions of two suits that
    the referee's own loose game cannot (deal 348's spades and clubs,
    ``bench/crazy_quilt_waiting_check.py``). Nothing is shared with the solver."""

    def __init__(self, state: QuiltState, suits: str) -> None:
        super().__init__(state, suits)
        self.lazy = LazyLoose(suits)
        self.dropped = 0
        self.expanded = 0

    def loose_clears(self, node: Node) -> bool:
        stock = bytes(card for card in node.stock if self.kept(card))
        return self.lazy.clears(node.waste, stock, node.up, node.down, self.redeals(node))

    def redeals(self, node: Node) -> int:
        return node.left

    def pruned_moves(self, node: Node) -> Iterator[tuple[str, Node]]:
        self.expanded += 1
        for move, after in self.moves(node):
            if self.loose_clears(after):
                yield move, after
            else:
                self.dropped += 1

    def wins_pruned(self) -> bool:
        """The exhaustive search of :meth:`Referee.wins`, dead nodes dropped."""
        if not self.loose_clears(self.start):
            return False
        return some_line_wins(self.start, self.won, self.pruned_moves)


class RedeallessLazyReferee(LazyReferee):
    """Deliberately broken: its loose game forgets the redeals left."""

    def redeals(self, node: Node) -> int:
        return 0


class FewerLazyReferee(LazyReferee):
    """:class:`LazyReferee` for three kept suits or more, each node dropped whose loose game of
    some set of the kept suits but one (:class:`LazyLoose` of those suits, the others' cards out
    of the waste and the stock, their foundations complete) cannot be cleared; the loose game of
    all the kept suits is not asked (a search that drops fewer nodes is as sound, and those
    questions are too large for the lazy search). Sound: a line clearing the loose game of all
    the kept suits, the cards of one dropped, clears that of the others; a card of theirs leaves
    the waste from its top, where the dropped cards only sat above it. Nothing is shared with the
    solver (whose questions of fewer suits are :class:`WaitingSearch`'s ``projections``)."""

    def __init__(self, state: QuiltState, suits: str) -> None:
        super().__init__(state, suits)
        self.fewer = [LazyLoose("".join(kept)) for kept in combinations(suits, len(suits) - 1)]

    def loose_clears(self, node: Node) -> bool:
        stock = bytes(card for card in node.stock if self.kept(card))
        for lazy in self.fewer:
            theirs = [SUITS[suit] for suit in lazy.kept]

            def mine(cards: bytes, theirs: list[str] = theirs) -> bytes:
                return bytes(card for card in cards if SUITS[card >> 4] in theirs)

            up = tuple(top if s in theirs else KING for s, top in zip(SUITS, node.up, strict=True))
            down = tuple(
                top if s in theirs else ACE for s, top in zip(SUITS, node.down, strict=True)
            )
            if not lazy.clears(mine(node.waste), mine(stock), up, down, self.redeals(node)):
                return False
        return True

    def questions(self) -> int:
        """Loose positions met by the lazy searches of fewer suits."""
        return sum(len(lazy.known) for lazy in self.fewer)


class CarelessLazyReferee(FewerLazyReferee):
    """Deliberately broken: the loose games of fewer suits keep the dropped suit's cards in the
    stock (the others' foundations complete all the same), so a card no foundation needs any
    more sits there and every such question looks lost."""

    def loose_clears(self, node: Node) -> bool:
        stock = bytes(card for card in node.stock if self.kept(card))
        for lazy in self.fewer:
            theirs = [SUITS[suit] for suit in lazy.kept]
            up = tuple(top if s in theirs else KING for s, top in zip(SUITS, node.up, strict=True))
            down = tuple(
                top if s in theirs else ACE for s, top in zip(SUITS, node.down, strict=True)
            )
            waste = bytes(card for card in node.waste if SUITS[card >> 4] in theirs)
            lazy_all = LazyLoose(self.suits)
            if not lazy_all.clears(waste, stock, up, down, self.redeals(node)):
                return False
        return True


def mapped(state: QuiltState, line: tuple[str, ...], suits: str) -> list[str]:
    """A real line as a line of the waiting game: the kept suits' moves, every turn of the first
    pass (later passes turn the kept cards only) and every redeal."""
    kept: list[str] = []
    first_pass = state.redeals_left
    for text in line:
        move = parse_move(text)
        if move.source == "r":
            kept.append(text)
        elif move.source == "s":
            if state.redeals_left == first_pass or state.stock[0].suit in suits:
                kept.append(text)
        else:
            card = state.waste[-1] if move.source == "w" else state.quilt[CELL_INDEX[move.source]]
            assert card is not None
            if card.suit in suits:
                kept.append(text)
        state = apply_move(state, move)
    assert is_won(state)
    return kept


def proofs(variant: str) -> dict[int, tuple[str, ...]]:
    return dict(read_proofs(list_path("crazy-quilt", variant)))


# -- a real win is a win of every waiting game -----------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "round-the-corner", "second-redeal"])
def test_every_real_winning_line_wins_each_waiting_game(variant: str) -> None:
    """Rule: a real win, mapped onto the waiting game (kept suits' moves, the first pass's
    turns, the redeals), wins it: the waiting cards of the other suits are out of the way
    whenever the real line needs their cells."""
    game = make(variant)
    lines = proofs(variant)
    for deal in list(lines)[:8]:
        for suits in SUIT_SETS:
            referee = Referee(game.start(deal), suits)
            end = referee.replay(mapped(game.start(deal), lines[deal], suits))
            assert referee.won(end), f"deal {deal}, {suits} kept"


def test_a_referee_whose_waiting_cards_forget_the_waste_loses_real_wins() -> None:
    """The broken rule (a waiting card leaves only for a loose foundation) fails the claim
    above: some real winning lines have a card of another suit leave onto the waste before any
    foundation could take it, and the kept cards behind it are then stuck."""
    game = make("classic")
    lines = proofs("classic")
    failures = 0
    for deal in list(lines)[:8]:
        for suits in SUITS:
            referee = ForgetfulReferee(game.start(deal), suits)
            try:
                failures += not referee.won(
                    referee.replay(mapped(game.start(deal), lines[deal], suits))
                )
            except AssertionError:
                failures += 1
    assert failures >= 3


# -- the solver's waiting game is the referee's ------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_the_solver_decides_a_waiting_end_position_as_an_exhaustive_search_does(seed: int) -> None:
    """Rule: ``lost`` only when no line of the waiting game wins; wins replay under the referee."""
    for state in (constructed_end_position(seed), crossing_end_position(seed)):
        for suits in ("S", "H", "D", "C", "SD", "HC"):
            verdict = decide_waiting(position_of(state), suits, 10**6)
            referee = Referee(state, suits)
            assert verdict.result == ("won" if referee.wins() else "lost"), (seed, suits)
            if verdict.result == "won":
                assert referee.won(referee.replay(verdict.moves)), (seed, suits)


END_GAMES = [(seed, suits) for seed in range(30) for suits in ("S", "H", "D", "C", "SD", "HC")]


@pytest.mark.parametrize("batch", range(3))
def test_the_pruned_referee_decides_every_end_position_as_the_plain_one(batch: int) -> None:
    """Rule (the referee's own pruning, for an independent check of a deal's loss): dropping
    the nodes whose kept cards cannot all be founded even with every quilt card free changes no
    verdict of the exhaustive search; on these positions it drops nodes."""
    dropped = 0
    for seed, suits in END_GAMES[batch::3]:
        for state in (constructed_end_position(seed), crossing_end_position(seed)):
            pruned = PrunedReferee(state, suits)
            assert pruned.wins_pruned() == Referee(state, suits).wins(), (seed, suits)
            dropped += pruned.dropped
    assert dropped > 50


def test_a_pruning_that_forgets_the_redeal_changes_verdicts() -> None:
    """The deliberately broken pruning (its loose game never turns the waste over again)
    drops nodes that a second pass wins: on the end positions above it answers ``lost`` where
    the plain referee wins (29 of the 360 games when written; the test asserts at least 10)."""
    wrong = 0
    for seed, suits in END_GAMES:
        for state in (constructed_end_position(seed), crossing_end_position(seed)):
            broken = RedeallessReferee(state, suits).wins_pruned()
            wrong += broken != Referee(state, suits).wins()
    assert wrong >= 10


def test_the_pruned_referee_keeps_every_node_of_a_real_win() -> None:
    """Rule (the pruning's soundness on real deals): along every stored real winning line of
    the first 8 classic deals, mapped onto each suit's waiting game, the loose game of every
    node can be cleared, so the pruned referee drops none of them. The broken pruning (no
    redeal in its loose game) drops a node of most of them (30 of the 32 when written)."""
    game = make("classic")
    lines = proofs("classic")
    broken_drops = 0
    for deal in list(lines)[:8]:
        for suits in SUITS:
            pruned = PrunedReferee(game.start(deal), suits)
            broken = RedeallessReferee(game.start(deal), suits)
            node = pruned.start
            kept = [pruned.clears(pruned.loosened(node))]
            broken_kept = [broken.clears(broken.loosened(node))]
            for text in mapped(game.start(deal), lines[deal], suits):
                node = next(after for move, after in pruned.moves(node) if move == text)
                kept.append(pruned.clears(pruned.loosened(node)))
                broken_kept.append(broken.clears(broken.loosened(node)))
            assert all(kept), (deal, suits)
            broken_drops += not all(broken_kept)
    assert broken_drops >= 10


def test_a_pruning_that_forgets_the_redeal_proves_a_won_deal_lost() -> None:
    """The broken pruning's search answers ``lost`` for the spades of classic deal 1, a deal
    with a stored winning line (so its waiting games are won: the rule above); the right
    pruning wins them."""
    state = make("classic").start(1)
    assert 1 in winnable_deals("crazy-quilt", "classic")
    assert not RedeallessReferee(state, "S").wins_pruned()
    assert PrunedReferee(state, "S").wins_pruned()


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
def test_the_pruned_referee_finds_the_diamonds_of_deal_728_lost(variant: str) -> None:
    """The independent check of deal 728's loss: the referee's exhaustive search of the
    diamonds' waiting game, with its own pruning only, finds no win; it wins the other three
    suits (as the solver does)."""
    state = make(variant).start(728)
    assert not PrunedReferee(state, "D").wins_pruned()
    assert all(PrunedReferee(state, suits).wins_pruned() for suits in "SHC")


def test_the_solvers_wins_of_whole_deals_replay_under_the_referee() -> None:
    game = make("classic")
    for deal in (1, 2, 9):
        for suits in SUITS:
            verdict = decide_waiting(position_of(game.start(deal)), suits, 10**6)
            assert verdict.result == "won", (deal, suits)
            referee = Referee(game.start(deal), suits)
            assert referee.won(referee.replay(verdict.moves)), (deal, suits)


# -- the solver's loose game is the pruned referee's -------------------------------------------


def kept_part(referee: Referee, node: Node) -> tuple[bytes, bytes, tuple[int, ...], int]:
    """What :meth:`LooseGame.clears` is asked at ``node``: the waste, the kept cards of the stock
    (top first), the eight foundation tops (the other suits' complete), redeals left."""
    stock = bytes(card for card in node.stock if referee.kept(card))
    return node.waste, stock, node.up + node.down, node.left


def some_nodes(referee: Referee, count: int) -> list[Node]:
    """The first ``count`` nodes of the referee's search, breadth first."""
    nodes = [referee.start]
    seen = {referee.start}
    for node in nodes:
        if len(nodes) >= count:
            break
        for _, after in referee.moves(node):
            if after not in seen:
                seen.add(after)
                nodes.append(after)
    return nodes[:count]


@pytest.mark.parametrize("batch", range(3))
def test_the_solvers_loose_game_answers_as_the_referees_exhaustive_one(batch: int) -> None:
    """Rule (the waiting search's pruning is exact): at the nodes of the waiting games of the end
    positions, the solver's :class:`LooseGame` (its reductions, its remembered answers shared
    across questions, as in a search) answers exactly what the pruned referee's own exhaustive
    loose game answers; some of them cannot be cleared. Out of its budget (none at all) it
    never answers ``False`` where the game can be cleared, and gives the benefit of the doubt
    where it cannot."""
    lost = doubted = 0
    for seed, suits in END_GAMES[batch::3]:
        for state in (constructed_end_position(seed), crossing_end_position(seed)):
            pruned = PrunedReferee(state, suits)
            loose = LooseGame()
            for node in some_nodes(pruned, 60):
                exact = pruned.clears(pruned.loosened(node))
                question = kept_part(pruned, node)
                assert loose.clears(*question) == exact, (seed, suits, node)
                no_budget = LooseGame(budget=0).clears(*question)
                assert no_budget or not exact, (seed, suits, node)
                lost += not exact
                doubted += no_budget and not exact
    assert lost > 20
    assert doubted > 0


def trusting(question: tuple[bytes, bytes, tuple[int, ...], int], assignments: int) -> bool:
    """Deliberately broken: the assignment search's answer taken as it is, also when it ran out
    of its budget (its benefit of the doubt read as a no where no complete assignment was run
    to the end, as though ``True`` needed a proof)."""
    known, _, cards_left = clearable_left(*question, assignments)
    return known and not cards_left


@pytest.mark.parametrize("batch", range(3))
def test_the_waiting_searchs_loose_question_answers_as_the_referees_exhaustive_one(
    batch: int,
) -> None:
    """Rule (the waiting search's pruning is exact, assignments first): at the nodes of the
    waiting games of the end positions, :func:`loose_clears` (the assignment search within its
    budget, then the solver's :class:`LooseGame`, its answers shared across questions) answers
    exactly what the pruned referee's own exhaustive loose game answers, with the assignment
    search's budget large (it decides nearly all) and tiny (the loose game decides); out of
    every budget it never answers ``False`` where the game can be cleared. A deliberately
    broken question that takes the assignment search's running out for a no answers ``False``
    where the game can be cleared."""
    lost = by_loose = broken = 0
    for seed, suits in END_GAMES[batch::3]:
        for state in (constructed_end_position(seed), crossing_end_position(seed)):
            pruned = PrunedReferee(state, suits)
            loose = LooseGame()
            small = LooseGame()
            for node in some_nodes(pruned, 60):
                exact = pruned.clears(pruned.loosened(node))
                question = kept_part(pruned, node)
                assert loose_clears(*question, loose)[0] == exact, (seed, suits, node)
                before = small.nodes
                assert loose_clears(*question, small, assignments=1)[0] == exact, (seed, node)
                by_loose += small.nodes > before
                spent = loose_clears(*question, LooseGame(), budget=0)
                assert spent[0] or not exact, (seed, suits, node)
                lost += not exact
                broken += trusting(question, 1) != exact
    assert lost > 20
    assert by_loose >= 5
    assert broken > 0


def test_the_loose_game_keeps_every_node_of_a_real_win() -> None:
    """Rule (the pruning's soundness on real deals): along every stored real winning line of
    the first 8 classic deals, mapped onto the waiting game of each suit (and each pair, for
    the first 3), the solver's loose game (and :func:`loose_clears`, the assignment search
    first) can be cleared at every node, so the waiting search drops none of them. A
    deliberately broken question (the redeals left forgotten) drops a node of many of the
    single suits' lines; another (the assignment search's running out taken for a no) drops
    nodes of them too."""
    game = make("classic")
    lines = proofs("classic")
    broken_drops = trusted_drops = 0
    for index, deal in enumerate(list(lines)[:8]):
        for suits in SUIT_SETS if index < 3 else SUITS:
            referee = Referee(game.start(deal), suits)
            loose = LooseGame()
            nodes = referee.walk(mapped(game.start(deal), lines[deal], suits))
            for node in nodes:
                assert loose.clears(*kept_part(referee, node)), (deal, suits, node)
                assert loose_clears(*kept_part(referee, node), loose)[0], (deal, suits, node)
                trusted_drops += not trusting(kept_part(referee, node), 1)
            if len(suits) == 1:
                broken = LooseGame()
                broken_drops += not all(
                    broken.clears(*kept_part(referee, node)[:3], 0) for node in nodes
                )
    assert broken_drops >= 10
    assert trusted_drops > 100


# -- loose answers drawn from others', and questions of fewer suits ------------------------


class Forgetful:
    """Deliberately broken: a loose question's answer drawn from the proven answers to others
    as :meth:`WaitingSearch.dominated` draws them, but forgetting the cards turned (a question
    with fewer cards turned is taken to reach one with more, and one with more to reach one with
    fewer), as though turning were free both ways."""

    def __init__(self) -> None:
        self.loose = LooseGame()
        self.answers: dict[bytes, list[tuple[tuple[int, ...], int, bool]]] = {}

    def clears(self, waste: bytes, pile: bytes, fnd: tuple[int, ...], left: int) -> bool:
        tops = int("".join(f"{top:x}" for top in fnd), 16)
        for other, other_left, known in self.answers.get(waste + pile, []):
            other_tops = int("".join(f"{top:x}" for top in other), 16)
            if not known and other_left >= left and behind(other_tops, tops):
                return False
            if known and left >= other_left and behind(tops, other_tops):
                return True
        known, proven, _ = loose_answer(waste, pile, fnd, left, self.loose)
        if proven:
            self.answers.setdefault(waste + pile, []).append((fnd, left, known))
        return known


DRAWN_GAMES = [(seed, suits) for seed in range(30) for suits in ("SD", "HC", "SHD", "HDC", "SHDC")]


@pytest.mark.parametrize("batch", range(3))
def test_answers_drawn_from_other_questions_are_the_referees(batch: int) -> None:
    """Rule (the waiting search may draw a loose answer from others: a question that reaches
    another by turning cards and founding free ones is clearable when that one is, and that one
    is not when it is not; and a question of fewer suits bounds one of more): at the nodes of
    the waiting games of the end positions (sets of two, three and four suits), the search's
    loose question with answers drawn and the kept suits but one asked first answers exactly
    what the pruned referee's own exhaustive loose game answers; answers are drawn and
    questions of fewer suits answer no. A deliberately broken drawing that forgets the cards
    turned (:class:`Forgetful`) answers some of them wrongly."""
    drawn = projected = wrong = 0
    for seed, suits in DRAWN_GAMES[batch::3]:
        for state in (constructed_end_position(seed), crossing_end_position(seed)):
            pruned = PrunedReferee(state, suits)
            kept = frozenset(SUITS.index(suit) for suit in suits)
            search = WaitingSearch(
                position_of(state), kept, 10**7, dominance=True, projections=1 << 10
            )
            broken = Forgetful()
            for node in some_nodes(pruned, 60):
                exact = pruned.clears(pruned.loosened(node))
                question = kept_part(pruned, node)
                assert search.clears(*question) == exact, (seed, suits, node)
                wrong += broken.clears(*question) != exact
            drawn += search.drawn
            projected += search.projected
    assert drawn > 20
    assert projected > 5
    assert wrong > 0


@pytest.mark.parametrize("seed", range(0, 30, 3))
def test_drawn_answers_and_fewer_suits_decide_end_positions_as_an_exhaustive_search_does(
    seed: int,
) -> None:
    """Rule: drawing loose answers from others and asking the kept suits but one first change
    no verdict of the waiting game (``lost`` only when no line wins, as the exhaustive
    referee finds); their wins replay under the referee."""
    for state in (constructed_end_position(seed), crossing_end_position(seed)):
        for suits in ("SD", "HC", "SHD", "SHDC"):
            verdict = decide_waiting(position_of(state), suits, 10**6, dominance=True)
            projected = decide_waiting(
                position_of(state),
                suits,
                10**6,
                dominance=True,
                projections=1 << 10,
                assignments=1 << 10,
                loose_budget=0,
            )
            referee = Referee(state, suits)
            wins = referee.wins()
            assert verdict.result == ("won" if wins else "lost"), (seed, suits)
            assert projected.result in (verdict.result, "unknown"), (seed, suits)
            for found in (verdict, projected):
                if found.result == "won":
                    assert referee.won(referee.replay(found.moves)), (seed, suits)


@pytest.mark.parametrize("seed", range(0, 30, 3))
def test_the_stock_first_order_decides_end_positions_as_an_exhaustive_search_does(
    seed: int,
) -> None:
    """Rule: the order of the moves changes no verdict (``lost`` only when no line of the
    waiting game wins); the stock-first order's wins replay under the referee."""
    for state in (constructed_end_position(seed), crossing_end_position(seed)):
        for suits in ("S", "H", "D", "C", "SD", "HC"):
            verdict = decide_waiting(position_of(state), suits, 10**6, last_first=True)
            first = decide_waiting(position_of(state), suits, 10**6, last_first=False)
            referee = Referee(state, suits)
            assert verdict.result == first.result == ("won" if referee.wins() else "lost")
            if verdict.result == "won":
                assert referee.won(referee.replay(verdict.moves)), (seed, suits)


def test_the_stock_first_order_wins_what_the_first_order_cannot_finish() -> None:
    """Classic deal 862's diamonds: the stock-first order (the referee's) wins their waiting
    game within 20 000 positions, with a line the referee replays to a win; the first order
    does not finish within them. Deal 728's diamonds are lost in both orders."""
    state = make("classic").start(862)
    verdict = decide_waiting(position_of(state), "D", 20_000, last_first=True)
    assert verdict.result == "won"
    referee = Referee(state, "D")
    assert referee.won(referee.replay(verdict.moves))
    assert decide_waiting(position_of(state), "D", 20_000, last_first=False).result == "unknown"
    lost_728 = position_of(make("classic").start(728))
    assert decide_waiting(lost_728, "D", 20_000, last_first=False).result == "lost"
    assert decide_waiting(lost_728, "D", 20_000, last_first=True).result == "lost"


# -- deal 728 is lost ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
def test_the_solver_proves_the_diamonds_of_deal_728_lost_while_each_suit_alone_is_won(
    variant: str,
) -> None:
    """Deal 728: every suit alone is won (the ghosts leave at once), but with the other suits'
    cards waiting for a foundation or a card beside them, the diamonds cannot all be founded."""
    position = position_of(make(variant).start(728))
    assert lost_alone(position, 100_000).suits == ""
    proof = lost_waiting(position, 4_000_000)
    assert proof.suits == "D"
    assert str(proof) == PROOF_728


def test_the_second_round_gives_an_undecided_suit_what_the_others_left() -> None:
    """Rule (``lost_waiting_in_rounds``): each suit first gets 1/16 of the budget, then the
    suits still undecided share half of what is left. Deal 728's diamonds need 4 275 positions
    (4 277 in the first order): within 16 000 in all the rounds prove them lost, an even share
    (4 000 a suit) does not."""
    position = position_of(make("classic").start(728))
    assert decide_waiting(position, "D", 16_000 // FIRST_ROUND, last_first=False).result == (
        "unknown"
    )
    rounds = lost_waiting_in_rounds(position, 16_000)
    assert rounds.suits == "D"
    assert str(rounds) == PROOF_728
    assert 4_275 < rounds.nodes <= 16_000
    assert lost_waiting(position, 16_000).suits == ""


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
def test_the_diamonds_and_clubs_of_deal_9_are_lost_while_each_suit_is_won(variant: str) -> None:
    """Deal 9 (decided by no search before): each suit alone and each suit's waiting game is
    won, but the waiting game of its diamonds and clubs is lost at its first node: their loose
    game (every diamond and club of the quilt free, the 20 of the stock in its order, the other
    suits gone) cannot be cleared, which the assignment search proves in 20 863 nodes and the
    exact loose game too (within its budget of more than 3 500 000 positions)."""
    position = position_of(make(variant).start(9))
    assert lost_alone(position, 100_000).suits == ""
    for suit in SUITS:
        assert decide_waiting(position, suit, 100_000).result == "won", suit
    verdict = decide_waiting(position, "DC", 100_000)
    assert verdict.result == "lost"
    assert verdict.nodes == 20_864  # one node of the search and its loose question
    stock = bytes(card for card in position.stock if SUITS[card >> 4] in "DC")
    tops = (KING, KING, ACE, ACE, ACE, ACE, KING, KING)
    assert (position.up[2:], position.down[2:], position.waste) == ((ACE, ACE), (KING, KING), b"")
    assert len(stock) == 20
    assert clearable_left(b"", stock, tops, 1, 10**6)[:2] == (False, 20_863)
    assert not LooseGame(budget=4_000_000).clears(b"", stock, tops, 1)
    assert LooseGame().clears(b"", stock, tops, 1)  # its default budget: the benefit of the doubt


@pytest.mark.parametrize("batch", range(3))
def test_the_lazy_loose_game_answers_as_the_referees_exhaustive_one(batch: int) -> None:
    """Rule (the independent check of deal 9 is exact): at the first 60 nodes of each waiting
    game of the end positions, :class:`LazyLoose` answers what the pruned referee's exhaustive
    loose game answers, many of them ``False``."""
    lost = 0
    for seed, suits in END_GAMES[batch::3]:
        for state in (constructed_end_position(seed), crossing_end_position(seed)):
            pruned = PrunedReferee(state, suits)
            lazy = LazyLoose(suits)
            for node in some_nodes(pruned, 60):
                exact = pruned.clears(pruned.loosened(node))
                stock = bytes(card for card in node.stock if pruned.kept(card))
                assert lazy.clears(node.waste, stock, node.up, node.down, node.left) == exact
                lost += not exact
    assert lost > 500


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
def test_the_lazy_loose_game_finds_the_diamonds_and_clubs_of_deal_9_lost(variant: str) -> None:
    """The independent check of deal 9: the loose game of its diamonds and clubs at the start
    of their waiting game (the referee's), decided by :class:`LazyLoose`, cannot be cleared
    (1 102 752 positions, about 12 s of plain Python)."""
    referee = Referee(make(variant).start(9), "DC")
    start = referee.start
    stock = bytes(card for card in start.stock if referee.kept(card))
    lazy = LazyLoose("DC")
    assert not lazy.clears(start.waste, stock, start.up, start.down, start.left)
    assert len(lazy.known) == 1_102_752


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
def test_the_lazy_referee_finds_the_diamonds_of_deal_728_lost(variant: str) -> None:
    """The referee pruned by :class:`LazyLoose` (the check that finishes deal 348's spades and
    clubs in ``bench/crazy_quilt_waiting_check.py``) proves what the pruned referee proves:
    728's diamonds lost in 55 expanded nodes, its other suits won."""
    state = make(variant).start(728)
    referee = LazyReferee(state, "D")
    assert not referee.wins_pruned()
    assert referee.expanded == 55
    assert all(LazyReferee(state, suits).wins_pruned() for suits in "SHC")


def test_the_lazy_referee_keeps_every_node_of_a_real_win() -> None:
    """Rule (the pruning is sound): the loose game of every node of the stored real wins of
    classic deals 1-8, mapped onto each suit's waiting game, is clearable for :class:`LazyLoose`
    too (2 214 nodes); the broken pruning that forgets the redeals drops 888 of them."""
    kept = dropped = 0
    for deal, line in sorted(proofs("classic").items())[:8]:
        state = make("classic").start(deal)
        for suits in SUITS:
            right, broken = LazyReferee(state, suits), RedeallessLazyReferee(state, suits)
            node = right.start
            for text in mapped(state, line, suits):
                node = next(there for move, there in right.moves(node) if move == text)
                assert right.loose_clears(node), (deal, suits, text)
                kept += 1
                dropped += not broken.loose_clears(node)
    assert kept > 2_000
    assert dropped > 500


def test_a_lazy_pruning_that_forgets_the_redeal_proves_a_won_deal_lost() -> None:
    """The broken lazy pruning's search answers ``lost`` for the spades of classic deal 1, a
    deal with a stored winning line; the right one wins them."""
    state = make("classic").start(1)
    assert 1 in winnable_deals("crazy-quilt", "classic")
    assert not RedeallessLazyReferee(state, "S").wins_pruned()
    assert LazyReferee(state, "S").wins_pruned()


@pytest.mark.parametrize("seed", range(0, 30, 3))
def test_the_lazy_referee_of_fewer_suits_decides_end_positions_as_the_plain_one(
    seed: int,
) -> None:
    """Rule (the independent check of a loss of three suits): dropping the nodes where the
    loose game of the kept suits but one cannot be cleared changes no verdict of the exhaustive
    search of the waiting game. A deliberately broken version that keeps the dropped suit's
    cards in the stock "proves" won games lost."""
    wrong = 0
    for state in (constructed_end_position(seed), crossing_end_position(seed)):
        for suits in ("SHD", "HDC"):
            plain = Referee(state, suits).wins()
            assert FewerLazyReferee(state, suits).wins_pruned() == plain, (seed, suits)
            wrong += CarelessLazyReferee(state, suits).wins_pruned() != plain
    assert wrong > 0


def test_the_lazy_referee_of_fewer_suits_keeps_every_node_of_a_real_win() -> None:
    """Rule (its pruning's soundness on real deals): along every stored real winning line of the
    first 3 classic deals, mapped onto the waiting games of ♠♥♦ and ♥♦♣, the loose games of
    every pair of them can be cleared at every node; the deliberately broken version drops
    nearly all of those nodes."""
    game = make("classic")
    lines = proofs("classic")
    nodes_seen = dropped = 0
    for deal in list(lines)[:3]:
        for suits in ("SHD", "HDC"):
            referee = FewerLazyReferee(game.start(deal), suits)
            broken = CarelessLazyReferee(game.start(deal), suits)
            nodes = referee.walk(mapped(game.start(deal), lines[deal], suits))
            for node in nodes:
                assert referee.loose_clears(node), (deal, suits, node)
                dropped += not broken.loose_clears(node)
            nodes_seen += len(nodes)
    assert dropped > nodes_seen // 2


def test_the_pairs_round_proves_deal_9_lost_within_the_waiting_share() -> None:
    """Rule (``lost_waiting_in_rounds``, its third round): after the suits, the first node of
    each pair, the pair whose suits' first rounds cost the most first (deal 9: ♣ and ♦), each
    gets half of what is left. At the command line's budget (5 000 000 positions, 125 000 of
    them for the waiting game) that proves deal 9 lost; at 40 000 the half left for ♦♣ is short
    of its 20 864 (and the pairs' whole games of the last round prove nothing)."""
    position = position_of(make("classic").start(9))
    budget = DEFAULT_BUDGETS["crazy-quilt"] // WAITING_SHARE
    proof = lost_waiting_in_rounds(position, budget)
    assert proof.suits == "DC"
    assert str(proof) == PROOF_9
    assert 20_864 < proof.nodes <= budget
    assert lost_waiting_in_rounds(position, 40_000).suits == ""


@pytest.mark.parametrize("variant", ["classic", "round-the-corner"])
@pytest.mark.parametrize("deal", [348, 2655])
def test_the_pairs_whole_games_prove_the_spades_and_clubs_lost_within_the_waiting_share(
    variant: str, deal: int
) -> None:
    """Rule (``lost_waiting_in_rounds``, its last round): each pair's whole waiting game, its
    answers drawn from others' and its single suits asked first, each with half of what is
    left, the pair whose suits' first rounds cost the most first. Deals 348 and 2655: every
    suit's waiting game is won and the spades and clubs' first node is not lost, so the first
    three rounds prove nothing; the spades' and clubs' first rounds cost the most, so their
    whole game comes first and is lost within the command line's waiting share (125 000
    positions). The pair the stock holds most cards of (the order of the third round until
    session 13) is not lost within that half (348's diamonds and clubs: unknown)."""
    position = position_of(make(variant).start(deal))
    budget = DEFAULT_BUDGETS["crazy-quilt"] // WAITING_SHARE
    cost: dict[str, int] = {}
    for suit in SUITS:
        verdict = decide_waiting(position, suit, budget // FIRST_ROUND, last_first=False)
        assert verdict.result == "won", suit
        cost[suit] = verdict.nodes
    pairs = ["".join(pair) for pair in combinations(SUITS, 2)]
    assert max(pairs, key=lambda pair: cost[pair[0]] + cost[pair[1]]) == "SC"
    assert not WaitingSearch(position, frozenset({0, 3}), budget).dead_at_start()

    def whole(suits: str, node_budget: int) -> Verdict:
        return decide_waiting(
            position,
            suits,
            node_budget,
            dominance=True,
            projections=PAIR_SUITS_FIRST,
            assignments=PAIR_ASSIGNMENTS,
            loose_budget=0,
        )

    alone = whole("SC", budget)
    assert alone.result == "lost"
    proof = lost_waiting_in_rounds(position, budget)
    assert proof.suits == "SC"
    assert alone.nodes < proof.nodes <= budget
    piled = position.stock + position.waste
    most_kept = max(pairs, key=lambda pair: sum(SUITS[card >> 4] in pair for card in piled))
    if deal == 348:
        assert most_kept == "DC"
        assert whole(most_kept, budget // 2).result == "unknown"


@pytest.mark.parametrize(("variant", "as_json"), [("classic", False), ("round-the-corner", True)])
def test_solve_proves_deal_728_lost_by_the_waiting_game_of_its_diamonds(
    variant: str, as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule (``solve``, step 5): when every search before it leaves a deal undecided, ``solve``
    asks each suit's waiting game with the last 1/40 of its budget (``WAITING_SHARE``), within
    the budget. At the command line's budget (3 000 000 positions, 75 000 of them left for the
    waiting game) it answers deal 728 ``lost``, the waiting game of its diamonds the proof, in
    both variants with one redeal (the text answer in one, the JSON one in the other: each run
    costs some 2 930 000 positions)."""
    argv = ["solve", "crazy-quilt", "--variant", variant, "--deal", "728"]
    if not as_json:
        assert main(argv) == EXIT_LOST
        out = capsys.readouterr().out
        assert f"crazy-quilt {variant} deal 728: lost" in out
        assert f"no winning line exists: {PROOF_728}" in out
        return
    assert main([*argv, "--json"]) == EXIT_LOST
    answer = json.loads(capsys.readouterr().out)
    assert answer["result"] == "lost"
    assert answer["moves"] == []
    assert answer["proof"] == PROOF_728
    budget = DEFAULT_BUDGETS["crazy-quilt"]
    assert budget - budget // WAITING_SHARE < answer["nodes"] <= budget


def test_a_waiting_search_stopped_by_its_progress_answers_unknown() -> None:
    """Rule (how ``solve`` keeps a time budget in the waiting game): a search whose
    ``progress`` raises ``OutOfBudget`` stops and answers ``unknown``, and the rounds then
    prove nothing; a spent time budget makes ``solve`` answer ``unknown`` for deal 728."""

    def stop(_nodes: int) -> None:
        raise OutOfBudget

    position = position_of(make("classic").start(728))
    verdict = decide_waiting(position, "D", 1_000_000, stop, every=1_000)
    assert verdict.result == "unknown"
    assert 1_000 <= verdict.nodes < 2_000
    assert lost_waiting_in_rounds(position, 500_000, stop, every=1_000).suits == ""
    assert solve(728, "classic", node_budget=3_000_000, time_budget=0.2).result == "unknown"


def test_solve_asks_no_waiting_game_of_a_deal_its_beams_win() -> None:
    """Rule (``solve``, step 5): the waiting game is asked last, so a deal the beams win
    costs what the honest trial, the suits alone and the beams cost, not a position more, and
    its line replays."""
    game = make("classic")
    budget = 3_000_000
    verdict = solve(2, "classic", node_budget=budget)
    assert verdict.result == "won"
    assert is_won(game.replay(2, verdict.moves))
    state = game.start(2)
    trial = play_from(state, budget // 20, guarded=False)
    alone = lost_alone(position_of(state), budget // SUITS_SHARE)
    beams = run_beams("thrifty", position_of(state), node_budget=budget * BEAM_SHARE // BEAM_PARTS)
    assert trial.status is not Status.WON and beams.result == "won"
    assert verdict.nodes == trial.nodes + alone.nodes + beams.nodes


@pytest.mark.parametrize("variant", sorted(LOST_WAITING))
def test_the_summarys_waiting_losses_are_proven_again(variant: str) -> None:
    """The figure's upper bound (bench/crazy_quilt_summary.py) counts the deals of its list of
    waiting-game losses without searching them; each is searched again here, its loose answers
    drawn from others' and the kept suits but one asked first (4 096 assignment nodes each), at
    most 3 000 000 positions (deal 714's hearts, diamonds and clubs need 2 428 243 round the
    corner, with the question of all three given 1 024 assignment nodes and no loose game: a
    larger share there stops the search before it ends), so the list cannot claim a loss the
    waiting game does not prove."""
    assert LOST_WAITING[variant]
    game = make(variant)
    for deal, suits in LOST_WAITING[variant].items():
        triple = len(suits) > 2
        verdict = decide_waiting(
            position_of(game.start(deal)),
            suits,
            3_000_000,
            dominance=True,
            projections=4_096,
            assignments=1_024 if triple else LOOSE_ASSIGNMENTS,
            loose_budget=0 if triple else LOOSE_BUDGET,
        )
        assert verdict.result == "lost", (variant, deal, suits)


def test_the_summarys_upper_bound_counts_the_waiting_games_losses() -> None:
    """Rule (the figure's red mark, *not proven lost*): a deal is proven lost by a suit alone,
    by a ``lost`` record (a proof of ``solve``) or by a suit's waiting game. Deal 728, unknown in
    the records of the thrifty beams at 3 000 000 positions, counts as lost; deal 175 (its
    diamonds alone) too, and deal 83 (every suit's games won) does not."""
    records = [
        {"deal": 83, "result": "unknown"},
        {"deal": 175, "result": "lost"},
        {"deal": 728, "result": "unknown"},
    ]
    assert proven_lost("classic", records) == [175, 728]
    assert proven_lost("classic", [{**records[1], "result": "unknown"}]) == [175]
    assert proven_lost("classic", [{"deal": 1, "result": "lost"}]) == [1]
    assert proven_lost("second-redeal", records[2:]) == []


def test_waiting_games_of_listed_wins_are_not_lost() -> None:
    """No deal the lists hold as won has a lost waiting game (a soundness check on real deals:
    each listed deal has a winning line that replays)."""
    game = make("classic")
    for deal in [d for d in winnable_deals("crazy-quilt", "classic") if d <= 40]:
        assert lost_waiting(position_of(game.start(deal)), 200_000).suits == "", deal


def test_a_long_search_reports_its_positions_as_it_goes() -> None:
    """Long commands show progress: a search reports its count of positions each time another
    ``every`` have been searched (a million by default), rising, never past its total."""
    counts: list[int] = []
    position = position_of(make("classic").start(862))
    verdict = decide_waiting(position, "D", 20_000, counts.append, every=3_000, last_first=False)
    assert verdict.result == "unknown"
    assert len(counts) >= 5
    assert all(later - earlier >= 3_000 for earlier, later in pairwise(counts))
    assert counts[0] >= 3_000
    assert counts[-1] <= verdict.nodes


def test_a_bad_suit_gets_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no suit 'X'"):
        decide_waiting(position_of(make("classic").start(1)), "X", 10)
