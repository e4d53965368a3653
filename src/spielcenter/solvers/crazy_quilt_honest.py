"""An honest Crazy Quilt player: it never looks at the face-down stock.

:class:`HonestPlayer` is given only what a player sees — the engine's view
(:func:`spielcenter.games.crazy_quilt.view`, which holds the stock's size but never its order) —
and its own memory of what it has seen. The one thing it remembers is the waste it turned over
at a redeal: unshuffled, that is the new stock, top card first. From then on it knows the whole
stock order, as an attentive player does, and asks the thoughtful solver
(:mod:`spielcenter.solvers.crazy_quilt_search`) for a winning line from what it knows.

Before the first redeal (and whenever the solver finds no win in its budget) it plays by
:func:`guarded_move`: the move of :func:`rule_of_thumb`, unless another legal move keeps the
relaxed game across the redeal clearable for more of the stock orders it cannot tell apart
(:func:`stock_samples`, drawn from the cards it has not seen, seeded by what it sees).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from spielcenter.games.base import JSON, Status
from spielcenter.games.cards import RANKS, SUITS, Card, standard_deck
from spielcenter.games.crazy_quilt import (
    CELL_INDEX,
    CELLS,
    ROUND_THE_CORNER,
    SECOND_REDEAL,
    SHORT_ENDS,
    QuiltState,
    apply_move,
    auto_moves,
    is_available,
    make,
    parse_move,
)
from spielcenter.solvers.codes import encode_card
from spielcenter.solvers.crazy_quilt_last_pass import buried
from spielcenter.solvers.crazy_quilt_position import Position
from spielcenter.solvers.crazy_quilt_relaxed import clearable
from spielcenter.solvers.crazy_quilt_search import solve_position

HONEST_NODE_BUDGET: Final = 50_000
"""Positions the solver may search each time the player comes to know the whole stock."""

STOCK_SAMPLES: Final = 8
"""Stock orders :func:`guarded_move` draws from the unseen cards to weigh its moves."""

GUARD_CHECK_BUDGET: Final = 5
"""Assignment nodes one relaxed check of :func:`guarded_move` may use (then: benefit of the
doubt). The long piles early in a deal are nearly all clearable and dear to decide; the checks
that change a move are those near the redeal, decided at the first node or two."""


_CARD_OF_TEXT: Final = {str(card): card for card in standard_deck()}
"""Each card by its notation: the views' cards looked up, not parsed (the trial reads the whole
quilt at every move); the objects are the deck's own, as the engine's deal uses."""


def _card(text: str) -> Card:
    """The card written ``text`` (:meth:`Card.parse`'s answer, its error for text that is not a
    card)."""
    card = _CARD_OF_TEXT.get(text)
    return Card.parse(text) if card is None else card


def visible_state(view: JSON) -> QuiltState:
    """The engine state of what the player sees, with the unseen stock left out (empty).

    Good for every question that does not touch the stock: available cards, foundation and
    waste moves, the auto-move rule.
    """
    cells = tuple(None if text is None else _card(text) for row in view["quilt"] for text in row)
    tops = view["foundations"]
    up = [RANKS.index(tops["up"][suit]) + 1 for suit in SUITS]
    down = [RANKS.index(tops["down"][suit]) + 1 for suit in SUITS]
    variant = str(view["variant"])
    return QuiltState(
        deal=int(view["deal"]),
        redeals=2 if SECOND_REDEAL in variant else 1,
        round_the_corner=ROUND_THE_CORNER in variant,
        quilt=cells,
        stock=(),
        waste=tuple(_card(text) for text in view["waste"]),
        up=(up[0], up[1], up[2], up[3]),
        down=(down[0], down[1], down[2], down[3]),
        redeals_left=int(view["redeals_left"]),
    )


def cards_freed(quilt: Sequence[Card | None], cell: int) -> int:
    """How many quilt cards become available when the card at ``cell`` leaves."""
    after = list(quilt)
    after[cell] = None
    return sum(
        1
        for other, ends in enumerate(SHORT_ENDS)
        if cell in ends
        and quilt[other] is not None
        and not is_available(quilt, other)
        and is_available(after, other)
    )


def rule_of_thumb(view: JSON) -> str | None:
    """The honest player's move from the view alone; ``None`` when no move is legal.

    In this order:

    1. a foundation move that can never spoil the game (the engine's auto-move rule);
    2. the waste's top card to a foundation;
    3. an available quilt card to a foundation, the one that frees the most quilt cards;
    4. a quilt card onto the waste when that frees a quilt card, the one that frees the most;
       with no redeal left, never a card that would be stuck above a card it needs;
    5. turning a stock card; then the redeal.
    """
    legal: list[str] = list(view["legal"])
    if not legal:
        return None
    state = visible_state(view)
    safe = auto_moves(state)
    if safe:
        return str(safe[0])
    for move in ("wu", "wd"):
        if move in legal:
            return move
    quilt = state.quilt
    founding = [move for move in legal if len(move) == 3 and move[2] in "ud"]
    if founding:
        return max(founding, key=lambda move: cards_freed(quilt, CELL_INDEX[move[:2]]))
    builds = [move for move in legal if len(move) == 3 and move[2] == "w"]
    useful = [move for move in builds if _worth_building(state, CELL_INDEX[move[:2]])]
    if useful:
        return max(useful, key=lambda move: cards_freed(quilt, CELL_INDEX[move[:2]]))
    for move in ("s", "r"):
        if move in legal:
            return move
    return legal[0]


def unseen_cards(state: QuiltState) -> list[Card]:
    """The cards of the face-down stock as a set (sorted): both decks less every card in sight.

    Every card not in the quilt, on the waste or on a foundation is in the stock; which card
    lies where in it is exactly what the player does not know.
    """
    pool = Counter(standard_deck()) + Counter(standard_deck())
    pool.subtract(card for card in state.quilt if card is not None)
    pool.subtract(state.waste)
    for index, suit in enumerate(SUITS):
        pool.subtract(Card(rank, suit) for rank in range(1, state.up[index] + 1))
        pool.subtract(Card(rank, suit) for rank in range(state.down[index], 14))
    return sorted(pool.elements())


def stock_samples(view: JSON, count: int = STOCK_SAMPLES) -> list[tuple[Card, ...]]:
    """``count`` stock orders the player cannot tell from the true one, drawn from the unseen
    cards by a generator seeded with the view alone: the same view gives the same samples,
    whatever order the stock really is in."""
    state = visible_state(view)
    cards = unseen_cards(state)
    seed = repr((view["deal"], view["quilt"], view["waste"], view["foundations"], len(cards)))
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        rng.shuffle(cards)
        samples.append(tuple(cards))
    return samples


def guarded_move(
    view: JSON, known_stock: Sequence[Card] | None = None, samples: int = STOCK_SAMPLES
) -> str | None:
    """The rule of thumb's move, unless another move keeps the redeal's game open more often.

    For each legal move, count the stock orders (``known_stock`` once the player knows it, else
    :func:`stock_samples`) after which the relaxed game across the redeal
    (:func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable`: every quilt card free, only
    the stock and the waste binding) can still found every card. A failed check proves the game
    lost for that order, so a move that fails for fewer orders is kept from a cheap but wrong
    trade: a card founded on the foundation its twin in the stock needed, a card built onto the
    waste over cards the last pass must reach. Ties go to :func:`rule_of_thumb`; safe foundation
    moves and positions without a redeal left are the rule's alone.
    """
    chosen = rule_of_thumb(view)
    legal: list[str] = list(view["legal"])
    state = visible_state(view)
    if chosen is None or len(legal) <= 1 or state.redeals_left == 0 or auto_moves(state):
        return chosen
    stocks = [tuple(known_stock)] if known_stock is not None else stock_samples(view, samples)
    score = {move: _clearable_after(state, move, stocks) for move in legal}
    best = max(score.values())
    if score[chosen] == best:
        return chosen
    kept = [move for move in legal if score[move] == best]
    return kept[0] if len(kept) == 1 else rule_of_thumb({**view, "legal": kept})


def _clearable_after(state: QuiltState, move: str, stocks: Sequence[tuple[Card, ...]]) -> int:
    """For how many of ``stocks`` the relaxed game is clearable after ``move``."""
    played = parse_move(move)
    count = 0
    for stock in stocks:
        after = apply_move(replace(state, stock=stock), played)
        fnd = (*after.up, *after.down)
        waste = bytes(encode_card(card) for card in after.waste)
        pile = bytes(encode_card(card) for card in after.stock)
        count += clearable(waste, pile, fnd, after.redeals_left, GUARD_CHECK_BUDGET)[0]
    return count


def _worth_building(state: QuiltState, cell: int) -> bool:
    """A quilt card goes onto the waste only when that frees another quilt card.

    Building a card only because another of its suit could follow it buries the stock's next
    cards under a run the last pass may not be able to clear, and the honest player won fewer
    deals with that rule than without it (measured in docs/winrates-crazy-quilt.md, "The honest
    player", "Building only what frees a card").
    """
    card = state.quilt[cell]
    assert card is not None
    if state.redeals_left == 0:
        fnd = (*state.up, *state.down)
        if buried(encode_card(card), bytes(encode_card(c) for c in state.waste), fnd):
            return False
    return cards_freed(state.quilt, cell) > 0


def known_position(view: JSON, stock: Sequence[Card]) -> Position:
    """The solver's position from the view and the stock order the player remembers."""
    state = visible_state(view)
    return Position(
        cards=bytes(0 if card is None else encode_card(card) for card in state.quilt),
        gone=sum(1 << cell for cell in range(CELLS) if state.quilt[cell] is None),
        stock=bytes(encode_card(card) for card in stock),
        waste=bytes(encode_card(card) for card in state.waste),
        up=state.up,
        down=state.down,
        redeals_left=state.redeals_left,
        round_the_corner=state.round_the_corner,
    )


@dataclass
class HonestPlayer:
    """A player fed the views of one game, move after move, who remembers what it saw.

    Call :meth:`choose` with the view of the current position; play the move it returns (and
    nothing else) before calling it again.
    """

    node_budget: int = HONEST_NODE_BUDGET
    known_stock: list[Card] | None = None
    """The stock order, top card first, once the player has turned the waste over."""
    plan: list[str] = field(default_factory=list)
    """The rest of a winning line the solver found from what the player knows."""
    solved: bool = False
    """Whether the solver was asked since the stock became known."""
    nodes: int = 0
    """Positions the solver searched for this player so far."""
    guarded: bool = True
    """Whether it weighs its moves before the redeal (:func:`guarded_move`) or plays the bare
    :func:`rule_of_thumb`, some 50 times quicker (the solver's first trial)."""

    def choose(self, view: JSON) -> str | None:
        """The next move for the position shown in ``view``; ``None`` when none is legal."""
        if self.known_stock is not None and len(self.known_stock) != view["stock_count"]:
            self.known_stock, self.plan = None, []  # not our own game any more: forget
        guess = guarded_move(view, self.known_stock) if self.guarded else rule_of_thumb(view)
        move = self._planned(view) or guess
        self._remember(view, move)
        return move

    def _planned(self, view: JSON) -> str | None:
        if self.known_stock is not None and not self.solved:
            self.solved = True
            # It saw the stock it now knows, so the check across the redeal (which reads the
            # stock) is as honest as the rest of the search; with a second redeal it pays most.
            verdict = solve_position(
                known_position(view, self.known_stock),
                node_budget=self.node_budget,
                across_redeal=True,
            )
            self.nodes += verdict.nodes
            self.plan = list(verdict.moves) if verdict.result == "won" else []
        if self.plan and self.plan[0] in view["legal"]:
            return self.plan.pop(0)
        self.plan = []
        return None

    def _remember(self, view: JSON, move: str | None) -> None:
        if move == "r":
            # Turned over unshuffled: the waste's bottom card is the new stock's top card.
            self.known_stock = [Card.parse(text) for text in view["waste"]]
            self.solved = False
        elif move == "s" and self.known_stock:
            self.known_stock.pop(0)


@dataclass(frozen=True)
class HonestGame:
    """How one game of the honest player went."""

    status: Status
    moves: list[str]
    nodes: int
    """Positions its solver searched."""


def play_honestly(
    deal: int, variant: str = "classic", node_budget: int = HONEST_NODE_BUDGET
) -> HonestGame:
    """Play ``deal`` to its end with a fresh :class:`HonestPlayer`, showing it only the views."""
    return play_from(make(variant).start(deal), node_budget)


def play_from(
    state: QuiltState, node_budget: int = HONEST_NODE_BUDGET, guarded: bool = True
) -> HonestGame:
    """Play on from ``state`` to the end with a fresh :class:`HonestPlayer` (views only;
    ``guarded``: see :attr:`HonestPlayer.guarded`)."""
    game = make(state.variant)
    player = HonestPlayer(node_budget=node_budget, guarded=guarded)
    moves: list[str] = []
    while game.status(state) is Status.PLAYING:
        move = player.choose(game.view_for(state, 0))
        assert move is not None  # a game still playing has a legal move
        state = game.play(state, move)
        moves.append(move)
    return HonestGame(game.status(state), moves, player.nodes)
