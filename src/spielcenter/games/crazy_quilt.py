"""Crazy Quilt: a two-deck patience with a chessboard quilt of 64 cards (seeds 000 and 002).

Eight foundations start with one ace and one king of each suit: four build *up* in suit
(A, 2 … K), four build *down* in suit (K, Q … A). The other 96 cards are shuffled
(``docs/shuffle.md``): 64 lie face up in the 8 × 8 quilt, 32 are the face-down stock.

The quilt is named like a chess board seen from above: columns ``a``–``h`` left to right, rows
``1``–``8`` top to bottom, so ``a1`` is the top-left cell. A cell (row r, column c, 0-based) is
*upright* when r + c is even, *sideways* otherwise. A quilt card is *available* when one of its
short ends touches no card: an upright card's short ends face the cells above and below, a
sideways card's the cells left and right; outside the quilt counts as no card. Gaps stay gaps.

Moves, written in the canonical notation of ``docs/notation-crazy-quilt.md``:

* ``e4u`` / ``e4d`` — the available card at e4 to its suit's up / down foundation;
* ``e4w`` — the available card at e4 onto the waste (same suit, one rank apart from its top);
* ``wu`` / ``wd`` — the waste's top card to its suit's up / down foundation;
* ``s`` — turn the stock's top card onto the waste;
* ``r`` — redeal: with the stock empty, the waste turned over unshuffled becomes the stock.

The variants combine two options: ``second-redeal`` (two redeals instead of one) and
``round-the-corner`` (on the waste, king and ace are neighbours). One class,
:class:`CrazyQuilt`, holds both as attributes; the state carries them too, so the module
functions (:func:`legal_moves`, :func:`auto_moves` …) need nothing but the state.

>>> game = make("classic")
>>> state = game.start(1)
>>> len(available_cells(state)), len(state.stock), game.status(state).value
(16, 32, 'playing')
>>> game.format_move(game.parse_move("e4u"))
'e4u'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, NamedTuple

from .base import (
    JSON,
    Deal,
    Game,
    IllegalMoveError,
    MoveSyntaxError,
    Seat,
    StateFormatError,
    Status,
    UnknownGameError,
)
from .cards import (
    ACE,
    KING,
    RANKS,
    SUITS,
    Card,
    CardSyntaxError,
    decode_foundations,
    encode_foundations,
    standard_deck,
)
from .shuffle import DealNumberError, check_deal, shuffled

NAME = "crazy-quilt"
SECOND_REDEAL = "second-redeal"
ROUND_THE_CORNER = "round-the-corner"
VARIANTS = (
    "classic",
    SECOND_REDEAL,
    ROUND_THE_CORNER,
    f"{SECOND_REDEAL}+{ROUND_THE_CORNER}",
)

# -- the quilt's geometry -------------------------------------------------------------------

SIZE: Final = 8
CELLS: Final = SIZE * SIZE
COLUMNS = "abcdefgh"
QUILT_CARDS: Final = 64

CELL_NAMES: tuple[str, ...] = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
"""The name of each cell index: index = 8 × row + column, so ``a1`` = 0, ``h1`` = 7, ``a2`` = 8."""
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}

OUTSIDE: Final = -1
"""Stands for "beyond the quilt's edge" among a cell's short-end neighbours."""


def cell_name(row: int, column: int) -> str:
    """The name of the cell at 0-based ``row`` (top = 0) and ``column`` (left = 0): ``a1`` …"""
    return CELL_NAMES[row * SIZE + column]


def is_upright(cell: int) -> bool:
    """Whether the card at cell index ``cell`` stands upright (↕) rather than sideways (↔).

    >>> is_upright(CELL_INDEX["a1"]), is_upright(CELL_INDEX["b1"]), is_upright(CELL_INDEX["a2"])
    (True, False, False)
    """
    row, column = divmod(cell, SIZE)
    return (row + column) % 2 == 0


def _short_end_neighbours(cell: int) -> tuple[int, int]:
    row, column = divmod(cell, SIZE)
    if is_upright(cell):
        ends = ((row - 1, column), (row + 1, column))
    else:
        ends = ((row, column - 1), (row, column + 1))
    first, second = (r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else OUTSIDE for r, c in ends)
    return first, second


SHORT_ENDS: tuple[tuple[int, int], ...] = tuple(_short_end_neighbours(i) for i in range(CELLS))
"""For each cell, the two cells its short ends face (:data:`OUTSIDE` beyond the edge)."""

# -- moves ----------------------------------------------------------------------------------

UP = "u"
DOWN = "d"
WASTE = "w"
STOCK = "s"
REDEAL = "r"
FOUNDATIONS = (UP, DOWN)
FOUNDATION_WORDS = {UP: "up", DOWN: "down"}


class QuiltMove(NamedTuple):
    """One move: where the card comes from and where it goes.

    ``source`` is a cell name (``"e4"``), ``"w"`` (the waste's top card), ``"s"`` (turn a stock
    card) or ``"r"`` (redeal); ``target`` is ``"u"`` / ``"d"`` (the up / down foundation of the
    card's suit), ``"w"`` (onto the waste) or ``""`` for ``s`` and ``r``.

    >>> str(QuiltMove("e4", "u")), str(QuiltMove("s", ""))
    ('e4u', 's')
    """

    source: str
    target: str = ""

    def __str__(self) -> str:
        return self.source + self.target


TURN = QuiltMove(STOCK)
REDEAL_MOVE = QuiltMove(REDEAL)


def parse_move(text: str) -> QuiltMove:
    """Read a move in the canonical notation (case and surrounding blanks do not matter).

    >>> parse_move("E4u")
    QuiltMove(source='e4', target='u')
    >>> [str(parse_move(text)) for text in ("wd", " s ", "R")]
    ['wd', 's', 'r']
    """
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move is text, not {text!r}")
    word = text.strip().lower()
    if word in (STOCK, REDEAL):
        return QuiltMove(word)
    if len(word) == 2 and word[0] == WASTE and word[1] in FOUNDATIONS:
        return QuiltMove(WASTE, word[1])
    if len(word) == 3 and word[:2] in CELL_INDEX and word[2] in (UP, DOWN, WASTE):
        return QuiltMove(word[:2], word[2])
    raise MoveSyntaxError(
        f"{text!r} is not a Crazy Quilt move: write a cell a1…h8 then u, d or w (e.g. 'e4u'), "
        "'wu' or 'wd' for the waste's top card, 's' to turn a stock card, 'r' to redeal"
    )


# -- the state ------------------------------------------------------------------------------

Foundation = tuple[int, int, int, int]
"""The top rank of one kind of foundation for each suit, in the order ``S H D C``."""

SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}


@dataclass(frozen=True, slots=True)
class QuiltState:
    """A Crazy Quilt position: plain, immutable data.

    ``quilt`` holds the 64 cells row by row (index = 8 × row + column, ``a1`` first), a card or
    ``None`` for a gap. ``stock`` is face down with its **top card first** (``stock[0]`` is turned
    next), so a redeal makes the waste, read bottom to top, the new stock as it is. ``waste`` runs
    bottom → top. ``up`` and ``down`` hold each suit's foundation top rank (``S H D C``): an up
    foundation at rank u holds A … u, a down foundation at rank d holds K … d.
    """

    deal: int
    redeals: int
    """Redeals the variant allows in all: 1, or 2 with second-redeal."""
    round_the_corner: bool
    """Whether king and ace are neighbours on the waste."""
    quilt: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    up: Foundation
    down: Foundation
    redeals_left: int

    @property
    def variant(self) -> str:
        """The variant name of this state's options, one of :data:`VARIANTS`."""
        return variant_name(self.redeals, self.round_the_corner)


def variant_name(redeals: int, round_the_corner: bool) -> str:
    """The name in :data:`VARIANTS` for the two options."""
    parts = [SECOND_REDEAL] * (redeals == 2) + [ROUND_THE_CORNER] * round_the_corner
    return "+".join(parts) or "classic"


def deal_order(deal: int) -> list[Card]:
    """The 96 shuffled cards of ``deal``: 0–63 fill the quilt, 64–95 are the stock (64 on top).

    Two decks one after the other; one ace and one king of each suit leave the first copy to
    start the foundations (``docs/shuffle.md``, "Crazy Quilt").
    """
    first = [card for card in standard_deck() if card.rank not in (ACE, KING)]
    return shuffled(first + standard_deck(), check_deal(deal))


def start(deal: int, redeals: int = 1, round_the_corner: bool = False) -> QuiltState:
    """The start position of ``deal`` with the given options."""
    cards = deal_order(deal)
    return QuiltState(
        deal=deal,
        redeals=redeals,
        round_the_corner=round_the_corner,
        quilt=tuple(cards[:QUILT_CARDS]),
        stock=tuple(cards[QUILT_CARDS:]),
        waste=(),
        up=(ACE, ACE, ACE, ACE),
        down=(KING, KING, KING, KING),
        redeals_left=redeals,
    )


# -- the rules as predicates ----------------------------------------------------------------


def is_available(quilt: Sequence[Card | None], cell: int) -> bool:
    """Whether the card at ``cell`` may move: one of its short ends touches no card."""
    if quilt[cell] is None:
        return False
    first, second = SHORT_ENDS[cell]
    return first == OUTSIDE or second == OUTSIDE or quilt[first] is None or quilt[second] is None


def available_cells(state: QuiltState) -> list[int]:
    """The indices of the cells whose cards are available, in cell order (a1, b1 … h8)."""
    quilt = state.quilt
    return [cell for cell in range(CELLS) if is_available(quilt, cell)]


def follows_on_foundation(card: Card, state: QuiltState, foundation: str) -> bool:
    """Whether ``card`` is next on its suit's up (``"u"``) or down (``"d"``) foundation."""
    if foundation == UP:
        return card.rank == state.up[SUIT_INDEX[card.suit]] + 1
    return card.rank == state.down[SUIT_INDEX[card.suit]] - 1


def ranks_touch(first: int, second: int, round_the_corner: bool) -> bool:
    """Whether two ranks are one apart on the waste (king–ace only round the corner)."""
    gap = abs(first - second)
    return gap == 1 or (round_the_corner and gap == KING - ACE)


def fits_on_waste(card: Card, state: QuiltState) -> bool:
    """Whether ``card`` may go onto the waste's top card: same suit, one rank higher or lower."""
    if not state.waste:
        return False
    top = state.waste[-1]
    return card.suit == top.suit and ranks_touch(card.rank, top.rank, state.round_the_corner)


def can_redeal(state: QuiltState) -> bool:
    """Whether ``r`` is legal: the stock is empty, the waste is not, and a redeal is left."""
    return not state.stock and bool(state.waste) and state.redeals_left > 0


def is_won(state: QuiltState) -> bool:
    """Whether all 104 cards lie on the foundations (every up at K, every down at A)."""
    return state.up == (KING,) * 4 and state.down == (ACE,) * 4


def legal_moves(state: QuiltState) -> list[QuiltMove]:
    """Every legal move, in a stable order: quilt cells a1 … h8 (u, d, w), then wu, wd, s, r."""
    moves: list[QuiltMove] = []
    quilt, up, down = state.quilt, state.up, state.down
    top = state.waste[-1] if state.waste else None
    for cell in range(CELLS):
        card = quilt[cell]
        if card is None or not is_available(quilt, cell):
            continue
        rank, suit = card
        name = CELL_NAMES[cell]
        s = SUIT_INDEX[suit]
        if rank == up[s] + 1:
            moves.append(QuiltMove(name, UP))
        if rank == down[s] - 1:
            moves.append(QuiltMove(name, DOWN))
        if (
            top is not None
            and suit == top.suit
            and ranks_touch(rank, top.rank, state.round_the_corner)
        ):
            moves.append(QuiltMove(name, WASTE))
    if top is not None:
        moves.extend(
            QuiltMove(WASTE, f) for f in FOUNDATIONS if follows_on_foundation(top, state, f)
        )
    if state.stock:
        moves.append(TURN)
    if can_redeal(state):
        moves.append(REDEAL_MOVE)
    return moves


def has_legal_move(state: QuiltState) -> bool:
    """Whether any move is legal (cheaper than :func:`legal_moves` when the stock is not empty)."""
    return bool(state.stock) or can_redeal(state) or bool(legal_moves(state))


def status(state: QuiltState) -> Status:
    """Won with every card on the foundations; lost when no move is left; playing otherwise."""
    if is_won(state):
        return Status.WON
    return Status.PLAYING if has_legal_move(state) else Status.LOST


def illegality(state: QuiltState, move: QuiltMove) -> str | None:
    """Why ``move`` is not allowed now, or ``None`` when it is legal."""
    if move.source == STOCK:
        return None if state.stock else "the stock is empty"
    if move.source == REDEAL:
        return _why_no_redeal(state)
    if move.source == WASTE:
        if not state.waste:
            return "the waste is empty"
        return _why_not_on_foundation(state.waste[-1], state, move.target)
    cell = CELL_INDEX[move.source]
    card = state.quilt[cell]
    if card is None:
        return f"{move.source} is empty"
    if not is_available(state.quilt, cell):
        return f"{move.source} is not available: both short ends touch cards"
    if move.target == WASTE:
        return _why_not_on_waste(card, state)
    return _why_not_on_foundation(card, state, move.target)


def _why_no_redeal(state: QuiltState) -> str | None:
    if state.redeals_left <= 0:
        return "no redeal left"
    if state.stock:
        return "the stock is not empty yet: redeal only when it is"
    if not state.waste:
        return "the waste is empty: nothing to redeal"
    return None


def _why_not_on_foundation(card: Card, state: QuiltState, foundation: str) -> str | None:
    if follows_on_foundation(card, state, foundation):
        return None
    s = SUIT_INDEX[card.suit]
    top = Card(state.up[s] if foundation == UP else state.down[s], card.suit)
    word = FOUNDATION_WORDS[foundation]
    complete = top.rank == (KING if foundation == UP else ACE)
    why = ": it is complete" if complete else ""
    return f"{card} does not follow {top} on the {word} foundation{why}"


def _why_not_on_waste(card: Card, state: QuiltState) -> str | None:
    if not state.waste:
        return "the waste is empty: a quilt card goes onto the waste's top card only"
    if fits_on_waste(card, state):
        return None
    rule = "same suit and one rank apart"
    if not state.round_the_corner:
        rule += " (not round the corner: king and ace are no neighbours)"
    return f"{card} does not fit on the waste's {state.waste[-1]}: {rule}"


def apply_move(state: QuiltState, move: QuiltMove) -> QuiltState:
    """The position after the legal ``move``. Trusts its caller: no checking here."""
    source, target = move
    quilt, stock, waste, up, down = state.quilt, state.stock, state.waste, state.up, state.down
    redeals_left = state.redeals_left
    if source == STOCK:
        stock, waste = stock[1:], (*waste, stock[0])
    elif source == REDEAL:
        # Turned over unshuffled: the waste's bottom card (turned first) is turned first again.
        stock, waste, redeals_left = waste, (), redeals_left - 1
    else:
        card = _card_of(state, move)
        if source == WASTE:
            waste = waste[:-1]
        else:
            cell = CELL_INDEX[source]
            quilt = (*quilt[:cell], None, *quilt[cell + 1 :])
        if target == WASTE:
            waste = (*waste, card)
        elif target == UP:
            up = _raised(up, SUIT_INDEX[card.suit], card.rank)
        else:
            down = _raised(down, SUIT_INDEX[card.suit], card.rank)
    return QuiltState(
        state.deal,
        state.redeals,
        state.round_the_corner,
        quilt,
        stock,
        waste,
        up,
        down,
        redeals_left,
    )


def _raised(tops: Foundation, suit: int, rank: int) -> Foundation:
    new = list(tops)
    new[suit] = rank
    return (new[0], new[1], new[2], new[3])


# -- safe moves for the auto-move setting ---------------------------------------------------


def auto_moves(state: QuiltState) -> list[QuiltMove]:
    """The foundation moves that can never spoil a game; apply the first, then ask again.

    A card X (an available quilt card or the waste's top card) goes to a foundation
    automatically only when both hold:

    1. **X has one home left**: the other copy of X already lies on a foundation. Each rank of a
       suit is needed once on its up and once on its down foundation; while both copies are
       out, a player may want the *other* copy on this foundation first (it may block quilt
       cards, or cover the waste), and X later on the other one. The dealt ace and king of each
       suit always qualify, as their twins are foundation bases.
    2. **X can never serve as a base on the waste**: no card of X's suit one rank away (king and
       ace too, round the corner) is left in the quilt. Only quilt cards are ever built onto the
       waste, and cards never go back into the quilt, so this stays true for the rest of the game.

    Then every continuation of the game that keeps X back can be followed without X: X's only
    remaining uses are to wait in the quilt (its gap frees neighbours, never blocks them), to
    lie on the waste where nothing can be built on it (the card under it is at least as good),
    and to go to this very foundation, which takes no other card until X arrives.
    """
    moves = []
    for move in legal_moves(state):
        if move.target in FOUNDATIONS and _is_safe_to_found(state, _card_of(state, move)):
            moves.append(move)
    return moves


def _card_of(state: QuiltState, move: QuiltMove) -> Card:
    if move.source == WASTE:
        return state.waste[-1]
    card = state.quilt[CELL_INDEX[move.source]]
    assert card is not None
    return card


def _is_safe_to_found(state: QuiltState, card: Card) -> bool:
    s = SUIT_INDEX[card.suit]
    twin_founded = card.rank <= state.up[s] or card.rank >= state.down[s]
    if not twin_founded:
        return False
    return not any(
        other is not None
        and other.suit == card.suit
        and ranks_touch(other.rank, card.rank, state.round_the_corner)
        for other in state.quilt
    )


# -- the codec and the views ----------------------------------------------------------------


def rank_char(rank: int) -> str:
    """The rank as one character of ``A23456789TJQK``."""
    return RANKS[rank - 1]


def _foundations_json(state: QuiltState) -> JSON:
    return {"up": encode_foundations(state.up), "down": encode_foundations(state.down)}


def _quilt_rows(state: QuiltState) -> list[list[str | None]]:
    cells = [None if card is None else str(card) for card in state.quilt]
    return [cells[row * SIZE : (row + 1) * SIZE] for row in range(SIZE)]


def reveal(state: QuiltState) -> list[Card]:
    """The face-down stock, top card first (for the CLI's ``--reveal``; never in a view)."""
    return list(state.stock)


def encode(state: QuiltState) -> JSON:
    """The full state as JSON-ready data, stock order included (top card first)."""
    return {
        "game": NAME,
        "variant": state.variant,
        "deal": state.deal,
        "quilt": _quilt_rows(state),
        "stock": [str(card) for card in state.stock],
        "waste": [str(card) for card in state.waste],
        "foundations": _foundations_json(state),
        "redeals_left": state.redeals_left,
    }


def view(state: QuiltState) -> JSON:
    """What the player sees: everything but the stock order (only its size)."""
    return {
        "game": NAME,
        "variant": state.variant,
        "deal": state.deal,
        "quilt": _quilt_rows(state),
        "available": [CELL_NAMES[cell] for cell in available_cells(state)],
        "stock_count": len(state.stock),
        "waste": [str(card) for card in state.waste],
        "foundations": _foundations_json(state),
        "redeals_left": state.redeals_left,
        "status": status(state).value,
        "legal": [str(move) for move in legal_moves(state)],
    }


def decode(data: Any, redeals: int, round_the_corner: bool) -> QuiltState:
    """The state from :func:`encode`'s output for a game with the given options.

    Raises :class:`StateFormatError` when anything is missing, malformed, of another variant,
    or when the cards are not the two decks (each card exactly twice across quilt, stock,
    waste and foundations).
    """
    try:
        state = _decode(data, redeals, round_the_corner)
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise StateFormatError(f"not a Crazy Quilt state: {_reason(error)}") from None
    _check_card_counts(state)
    return state


def _reason(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing field {error}"
    return str(error) or type(error).__name__


def _decode(data: Any, redeals: int, round_the_corner: bool) -> QuiltState:
    if not isinstance(data, Mapping):
        raise StateFormatError(f"not a Crazy Quilt state: expected a JSON object, not {data!r}")
    if data["game"] != NAME:
        raise StateFormatError(f"not a Crazy Quilt state: game is {data['game']!r}")
    expected = variant_name(redeals, round_the_corner)
    if data["variant"] != expected:
        raise StateFormatError(f"state of variant {data['variant']!r}, not {expected!r}")
    try:
        deal = check_deal(data["deal"])
    except DealNumberError as error:
        raise StateFormatError(str(error)) from None
    redeals_left = data["redeals_left"]
    if not isinstance(redeals_left, int) or isinstance(redeals_left, bool):
        raise StateFormatError(f"redeals_left must be a whole number, not {redeals_left!r}")
    if not 0 <= redeals_left <= redeals:
        raise StateFormatError(f"redeals_left must be 0 … {redeals}, not {redeals_left}")
    foundations = data["foundations"]
    return QuiltState(
        deal=deal,
        redeals=redeals,
        round_the_corner=round_the_corner,
        quilt=_decode_quilt(data["quilt"]),
        stock=tuple(_decode_cards(data["stock"], "stock")),
        waste=tuple(_decode_cards(data["waste"], "waste")),
        up=decode_foundations(foundations["up"], "the up foundations"),
        down=decode_foundations(foundations["down"], "the down foundations"),
        redeals_left=redeals_left,
    )


def _decode_card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise StateFormatError(f"{where}: a card is text like 'TS', not {text!r}")
    try:
        return Card.parse(text)
    except CardSyntaxError as error:
        raise StateFormatError(f"{where}: {error}") from None


def _decode_cards(items: Any, where: str) -> list[Card]:
    if not isinstance(items, list):
        raise StateFormatError(f"{where} must be a list of cards, not {items!r}")
    return [_decode_card(item, where) for item in items]


def _decode_quilt(rows: Any) -> tuple[Card | None, ...]:
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise StateFormatError("quilt must be a list of 8 rows")
    cells: list[Card | None] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != SIZE:
            raise StateFormatError(f"quilt row {r + 1} must be a list of 8 cells")
        for c, text in enumerate(row):
            cells.append(None if text is None else _decode_card(text, cell_name(r, c)))
    return tuple(cells)


def _founded_cards(state: QuiltState) -> Iterable[Card]:
    for s, suit in enumerate(SUITS):
        yield from (Card(rank, suit) for rank in range(ACE, state.up[s] + 1))
        yield from (Card(rank, suit) for rank in range(state.down[s], KING + 1))


def _check_card_counts(state: QuiltState) -> None:
    counts = dict.fromkeys(standard_deck(), 0)
    placed = [card for card in state.quilt if card is not None]
    for card in (*placed, *state.stock, *state.waste, *_founded_cards(state)):
        counts[card] += 1
    wrong = [f"{card} ×{n}" for card, n in counts.items() if n != 2]
    if wrong:
        raise StateFormatError(
            "the cards must be two decks, each card exactly twice across quilt, stock, waste "
            f"and foundations; found {', '.join(wrong)}"
        )


# -- the text picture -----------------------------------------------------------------------


def render(state: QuiltState) -> str:
    """The position as text for people: the quilt with cell names, available cards in [ ]."""
    free = set(available_cells(state))
    lines = [f"Crazy Quilt, deal {state.deal} ({state.variant}) — {status(state).value}"]
    lines.append("     " + "".join(f"  {letter}   " for letter in COLUMNS))
    for row in range(SIZE):
        cells = "".join(_render_cell(state, row * SIZE + column, free) for column in range(SIZE))
        lines.append(f" {row + 1:>2}  {cells}")
    lines.append("     [ ] available   ↕ upright   ↔ sideways   · gap")
    for word, tops in (("up  ", state.up), ("down", state.down)):
        piles = "  ".join(
            f"{Card(rank, suit).pretty:>3}" for suit, rank in zip(SUITS, tops, strict=True)
        )
        lines.append(f" foundations {word}: {piles}")
    top = state.waste[-1].pretty if state.waste else "—"
    lines.append(
        f" waste: {top} ({len(state.waste)} cards)   stock: {len(state.stock)} cards   "
        f"redeals left: {state.redeals_left}"
    )
    return "\n".join(lines)


def _render_cell(state: QuiltState, cell: int, free: set[int]) -> str:
    card = state.quilt[cell]
    if card is None:
        return "  ·   "
    face = f"{card}{'↕' if is_upright(cell) else '↔'}"
    return f"[{face}] " if cell in free else f" {face}  "


# -- the Game object ------------------------------------------------------------------------


class CrazyQuilt(Game[QuiltState, QuiltMove]):
    """Crazy Quilt, classic: one redeal, kings and aces do not touch. Each variant is a subclass
    that sets its options (:data:`redeals`, :data:`round_the_corner`), as Cruel's variants do;
    the state carries the options too, so the rules below read them from the state."""

    name = NAME
    variant = "classic"
    redeals: ClassVar[int] = 1
    """Redeals allowed in a game."""
    round_the_corner: ClassVar[bool] = False
    """Whether a king and an ace of a suit touch (build on each other)."""

    def start(self, deal: Deal) -> QuiltState:
        """The start position of ``deal``: 64 cards in the quilt, 32 in the stock."""
        return start(check_deal(deal), self.redeals, self.round_the_corner)

    def legal_moves(self, state: QuiltState, seat: Seat = 0) -> list[QuiltMove]:
        """Every legal move (none for a seat other than 0)."""
        return legal_moves(state) if seat == 0 else []

    def parse_move(self, text: str) -> QuiltMove:
        """Read a move: ``e4u``, ``e4d``, ``e4w``, ``wu``, ``wd``, ``s`` or ``r``."""
        return parse_move(text)

    def format_move(self, move: QuiltMove) -> str:
        """The canonical notation of ``move``."""
        return str(move)

    def check(self, state: QuiltState, move: QuiltMove, seat: Seat = 0) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is not allowed now."""
        if seat != 0:
            raise IllegalMoveError(f"{move}: Crazy Quilt has the single seat 0, not {seat}")
        if is_won(state):
            raise IllegalMoveError(f"{move}: the game is over, every card is on a foundation")
        reason = illegality(state, move)
        if reason is not None:
            raise IllegalMoveError(f"{move}: {reason}")

    def apply(self, state: QuiltState, move: QuiltMove, seat: Seat = 0) -> QuiltState:
        """The position after the legal ``move``."""
        return apply_move(state, move)

    def status(self, state: QuiltState) -> Status:
        """``won``, ``lost`` or ``playing``."""
        return status(state)

    def encode(self, state: QuiltState) -> JSON:
        """The full state as JSON-ready data (stock order included)."""
        return encode(state)

    def decode(self, data: JSON) -> QuiltState:
        """The state from :meth:`encode`'s output; :class:`StateFormatError` if malformed."""
        return decode(data, self.redeals, self.round_the_corner)

    def view_for(self, state: QuiltState, seat: Seat | None) -> JSON:
        """The view of every seat and spectator alike: the stock order is never in it."""
        return view(state)

    def render(self, state: QuiltState, seat: Seat | None = 0) -> str:
        """The quilt, foundations, waste top, stock count and redeals left, as text."""
        return render(state)


class SecondRedeal(CrazyQuilt):
    """Crazy Quilt with a second redeal."""

    variant = SECOND_REDEAL
    redeals = 2


class RoundTheCorner(CrazyQuilt):
    """Crazy Quilt where a king and an ace of a suit touch."""

    variant = ROUND_THE_CORNER
    round_the_corner = True


class SecondRedealRoundTheCorner(CrazyQuilt):
    """Crazy Quilt with both options."""

    variant = f"{SECOND_REDEAL}+{ROUND_THE_CORNER}"
    redeals = 2
    round_the_corner = True


_VARIANT_CLASSES: dict[str, type[CrazyQuilt]] = {
    cls.variant: cls
    for cls in (CrazyQuilt, SecondRedeal, RoundTheCorner, SecondRedealRoundTheCorner)
}


def make(variant: str = "classic", **options: Any) -> CrazyQuilt:
    """The game for a variant name; the two options may be joined by ``+`` in either order.

    >>> make("round-the-corner+second-redeal").variant
    'second-redeal+round-the-corner'
    """
    if options:
        raise UnknownGameError(f"Crazy Quilt takes no options besides its variant: {options}")
    if variant == "classic":
        return CrazyQuilt()
    parts = variant.split("+") if isinstance(variant, str) else []
    known = {SECOND_REDEAL, ROUND_THE_CORNER}
    if not parts or len(set(parts)) != len(parts) or not known.issuperset(parts):
        raise UnknownGameError(
            f"unknown Crazy Quilt variant {variant!r}; known variants: {', '.join(VARIANTS)}"
        )
    name = variant_name(2 if SECOND_REDEAL in parts else 1, ROUND_THE_CORNER in parts)
    return _VARIANT_CLASSES[name]()
