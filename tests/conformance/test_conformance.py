"""The one conformance suite every game passes (OpenSpiel's random-playout test).

It walks the registry — every game × every variant (``game_names`` / ``variants_of`` /
``get_game``), so a new game or variant is tested the day it is registered. From seeded deals,
random players pick a seat that may act and one of its legal moves, to the end of the game. On
the way:

* every position is sound: every card where it should be (52 cards once / 104 cards twice in the
  patience games), the JSON codec round-trips, every seat's view and the spectator's are plain JSON
  and, where the deal keys hidden things (Speedquilt), never carry the deal number or the secret;
  a seat's view that lists legal moves or a status agrees with the engine's;
  a finished game has no seat to act and no legal move;
* every legal move applies; every other move is refused with ``IllegalMoveError`` and changes
  nothing: the patience games' whole move space, and in every game the moves of seats that are not
  asked and moves that were legal a moment ago but are not now;
* every position played is recorded, and replaying the log from the deal gives each of them;
* undo equals replay and redo restores, for every one-seat engine (its log is a ``Record``),
  and for every engine through the one log every game keeps (``GameLog``: a table of two to four
  seats takes back its last entries, by the seats that made them, through the positions played);
  Speedquilt's own ``undo`` move gives back what the seat's last sewing, buying or adjustment took;
* text that is no move is a syntax error, not an illegal move; every move offered fits in a
  socket message.
(Block accounting, the 3 × 3 limit and per-seat privacy of Speedquilt are checked at every step of
the engine's own playout test, tests/unit/speedquilt/test_playout.py.)
"""

from __future__ import annotations

import json
import random
import string
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from spielcenter.games import (
    IllegalMoveError,
    MoveSyntaxError,
    Record,
    Status,
    UnknownGameError,
    game_names,
    get_game,
    variants_of,
)
from spielcenter.games.base import RECORD_CHECKPOINT, Game
from spielcenter.games.cards import RANKS, SUITS
from spielcenter.games.log import REDO, UNDO, GameLog
from spielcenter.server.websocket import MOVE_TEXT_MAX

SECRET = b"conformance-secret"
MOVE_LIMIT = {"cruel": 300, "crazy-quilt": 3000, "speedquilt": 4000}
"""Moves after which a random player stops (Cruel's redeals can go round for ever). Every random
Cruel game of ``DEALS`` that ends does so within 91 moves; each of the others has its last
choice by move 76 and then goes round with one legal move at a time (a card onto the next pile,
the redeal that brings it back, the same card …). 300 moves go round that more than a hundred
times; 3 000 went round it some 1 500 times, 97 % of the positions played, 20 s per variant."""

OPTIONS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("speedquilt", "table"): [{"players": k} for k in (1, 2, 3, 4)],
    ("speedquilt", "solo"): [{}, {"target": 30, "rounds": 8, "top_shelf": 3}],
    ("speedquilt", "daily"): [{"day": "2026-11-29", "secret": SECRET}],
}
"""The option sets each variant is played with; a variant not named here plays its defaults.
Speedquilt's table is played by every number of seats, the solo also as a campaign stage, and the
daily quilt needs its day and key."""

DEALS: dict[str, Sequence[int]] = {"cruel": range(1, 41), "crazy-quilt": range(1, 13)}
"""Deals of the random playouts per game: patience games are short, so many of them."""
UNDO_DEALS: dict[str, Sequence[int]] = {"cruel": (3, 77, 1000), "crazy-quilt": (3, 77, 1000)}
"""Deals whose first moves are taken back one by one; Speedquilt uses its playout deals."""
SPEEDQUILT_DEALS = {"table": 10, "solo": 14, "daily": 16}
SECRET_DEALS = frozenset({"speedquilt"})
"""Games whose deal number keys hidden things (dice stream, deck orders): no view may show it."""
TURN_UNDO = {"speedquilt": frozenset({"sew", "buy", "thimble", "dye"})}
"""Moves that a game's own ``undo`` move takes back within the turn."""


@dataclass(frozen=True)
class Engine:
    """One game and variant with one option set, and the deals it is played from."""

    name: str
    variant: str
    options: dict[str, Any]
    deals: Sequence[int]

    def game(self) -> Game[Any, Any]:
        return get_game(self.name, self.variant, **self.options)

    def __str__(self) -> str:
        options = ",".join(f"{k}={v}" for k, v in self.options.items() if k != "secret")
        return f"{self.name}/{self.variant}" + (f"[{options}]" if options else "")


def registered_engines() -> list[Engine]:
    """Every game × every variant of the registry, each with its option sets."""
    engines = []
    for name in game_names():
        for variant in variants_of(name):
            for number, options in enumerate(OPTIONS.get((name, variant), [{}])):
                deals = DEALS.get(name) or [SPEEDQUILT_DEALS[variant] + 10 * number]
                engines.append(Engine(name, variant, options, deals))
    return engines


ENGINES = registered_engines()
ONE_SEAT = [engine for engine in ENGINES if engine.game().seats == 1]
PATIENCE = [engine for engine in ENGINES if engine.name in DEALS]
PATIENCE_VARIANTS = [(engine.name, engine.variant) for engine in PATIENCE]
"""The patience games and variants, for tests that draw from their move space."""
engines = pytest.mark.parametrize("engine", ENGINES, ids=str)


# -- what the patience games hold ------------------------------------------------------------


def move_space(name: str) -> list[str] | None:
    """Every syntactically possible move text of a patience game (``None``: too many to list)."""
    if name == "cruel":
        piles = range(1, 13)
        return (
            [f"{p}f" for p in piles] + [f"{a}>{b}" for a in piles for b in piles if a != b] + ["r"]
        )
    if name == "crazy-quilt":
        cells = [f"{c}{r}" for c in "abcdefgh" for r in range(1, 9)]
        return [f"{cell}{t}" for cell in cells for t in "udw"] + ["wu", "wd", "s", "r"]
    return None


def foundation_cards(top: str | None, suit: str, downwards: bool = False) -> list[str]:
    """The cards on a foundation with top rank ``top`` (up from the ace, or down from the king)."""
    if top is None:
        return []
    index = RANKS.index(top)
    ranks = RANKS[index:] if downwards else RANKS[: index + 1]
    return [rank + suit for rank in ranks]


def cards_in_play(game: Game[Any, Any], state: Any) -> Counter[str]:
    """Count every card of the position, wherever it lies, from the documented view shapes."""
    view = game.view_for(state, 0)
    seen: Counter[str] = Counter()
    if game.name == "cruel":
        for pile in view["piles"]:
            seen.update(pile)
        for suit in SUITS:
            seen.update(foundation_cards(view["foundations"][suit], suit))
        return seen
    for row in view["quilt"]:
        seen.update(card for card in row if card is not None)
    seen.update(view["waste"])
    module = sys.modules[type(game).__module__]
    seen.update(str(card) for card in module.reveal(state))
    for suit in SUITS:
        seen.update(foundation_cards(view["foundations"]["up"][suit], suit))
        seen.update(foundation_cards(view["foundations"]["down"][suit], suit, downwards=True))
    return seen


def expected_cards(name: str) -> Counter[str]:
    copies = 1 if name == "cruel" else 2
    return Counter({rank + suit: copies for rank in RANKS for suit in SUITS})


# -- the checks made along a playout ---------------------------------------------------------


def assert_position_is_sound(game: Game[Any, Any], state: Any, deal: int) -> None:
    if move_space(game.name) is not None:
        assert cards_in_play(game, state) == expected_cards(game.name)
    encoded = game.encode(state)
    decoded = game.decode(json.loads(json.dumps(encoded)))
    assert decoded == state
    assert game.encode(decoded) == encoded
    status = game.status(state)
    for seat in [*range(game.seats), None]:
        seen = game.view_for(state, seat)
        view = json.dumps(seen)
        if game.name in SECRET_DEALS:
            assert f'"deal": {deal}' not in view
            assert SECRET.decode() not in view
        if seat is not None:
            assert_view_agrees_with_the_engine(game, state, seat, seen, status)
    if status is not Status.PLAYING:
        assert game.to_act(state) == frozenset()
        assert all(game.legal_moves(state, seat) == [] for seat in range(game.seats))


def assert_view_agrees_with_the_engine(
    game: Game[Any, Any], state: Any, seat: int, view: dict[str, Any], status: Status
) -> None:
    """Game.view_for: a view that says ``legal`` lists the seat's legal moves in their notation
    and order (the server sends that list as it is), and one that says ``status`` says the
    engine's status."""
    if "legal" in view:
        assert view["legal"] == [game.format_move(m) for m in game.legal_moves(state, seat)]
    if "status" in view:
        assert view["status"] == str(status)


def assert_moves_partition(game: Game[Any, Any], state: Any) -> None:
    """Legal moves apply and change the position; every other move of the move space is refused
    and changes nothing."""
    space = move_space(game.name)
    if space is None:
        return
    legal = {game.format_move(m) for m in game.legal_moves(state)}
    before = game.encode(state)
    for text in space:
        if text in legal:
            after = game.play(state, text)
            assert game.encode(after) != before, f"{text} changed nothing"
        else:
            with pytest.raises(IllegalMoveError):
                game.play(state, text)
    assert game.encode(state) == before


def assert_refusals(game: Game[Any, Any], state: Any, stale: list[tuple[int, str]]) -> None:
    """Moves of seats not asked, and stale moves, are refused and change nothing."""
    before = game.encode(state)
    acting = game.to_act(state)
    for seat, text in stale:
        legal_now = {game.format_move(m) for m in game.legal_moves(state, seat)}
        if seat in acting and text in legal_now:
            continue
        with pytest.raises(IllegalMoveError):
            game.play(state, text, seat)
    for seat in set(range(game.seats)) - acting:
        for move in game.legal_moves(state, min(acting))[:3] if acting else []:
            with pytest.raises(IllegalMoveError):
                game.play(state, game.format_move(move), seat)
    assert game.encode(state) == before


def assert_turn_undo_takes_back(game: Game[Any, Any], before: Any, seat: int, after: Any) -> None:
    """docs/speedquilt-engine.md, Undo: the active seat's ``undo`` right after a sewing, buying,
    thimble or dye gives back her quilt, the shop, the decks, the dice used and her adjustments
    (rolling stays over, so the turn as a whole is not the one before)."""
    undone = game.encode(game.play(after, "undo", seat))
    played = game.encode(before)
    for part in ("decks", "shelves", "seats"):
        assert undone[part] == played[part], part
    assert undone["turn"]["used"] == played["turn"]["used"]
    for part in ("adjustments", "kit_uses"):
        # A seat with none left is stored as an empty entry or none at all: the same.
        assert _nonempty(undone["turn"][part]) == _nonempty(played["turn"][part]), part


def _nonempty(per_seat: dict[str, Any]) -> dict[str, Any]:
    return {seat: held for seat, held in per_seat.items() if held}


@dataclass
class Playout:
    """A random game: its log, every position played (encoded, the start first) and the longest
    move text that was offered on the way."""

    deal: int
    log: list[tuple[int, str]] = field(default_factory=list)
    positions: list[dict[str, Any]] = field(default_factory=list)
    longest_offer: str = ""
    final: Any = None


def random_playout(game: Game[Any, Any], deal: int, rng: random.Random) -> Playout:
    """Play random legal moves from ``deal`` to the end, checking every position on the way."""
    played = Playout(deal)
    state = game.start(deal)
    played.positions.append(game.encode(state))
    for step in range(MOVE_LIMIT[game.name]):
        assert_position_is_sound(game, state, deal)
        if step % 7 == 0:
            assert_moves_partition(game, state)
        if step % 5 == 0:
            assert_refusals(game, state, played.log[-6:])
        choices = {s: game.legal_moves(state, s) for s in sorted(game.to_act(state))}
        choices = {s: moves for s, moves in choices.items() if moves}
        if not choices:
            break
        offered = (game.format_move(m) for moves in choices.values() for m in moves)
        played.longest_offer = max([played.longest_offer, *offered], key=len)
        seat = rng.choice(sorted(choices))
        text = game.format_move(rng.choice(choices[seat]))
        before, state = state, game.play(state, text, seat)
        if text.split()[0] in TURN_UNDO.get(game.name, ()) and _active(game, before) == seat:
            assert_turn_undo_takes_back(game, before, seat, state)
        played.log.append((seat, text))
        played.positions.append(game.encode(state))
    played.final = state
    return played


_PLAYED: dict[tuple[str, int], Playout] = {}


def playout_of(engine: Engine, deal: int) -> Playout:
    """The random playout of ``deal`` (each deal its own seeded random player), played once per
    test process: several tests read the same playout."""
    key = (str(engine), deal)
    if key not in _PLAYED:
        _PLAYED[key] = random_playout(engine.game(), deal, random.Random(f"{engine}/{deal}"))
    return _PLAYED[key]


def _active(game: Game[Any, Any], state: Any) -> int | None:
    """The seat whose own turn it is in a Speedquilt position (the others only give, and the
    solo giving turn has no undo)."""
    turn = game.encode(state)["turn"]
    return int(turn["seat"]) if turn is not None and turn["kind"] == "own" else None


def assert_replay_gives_every_position(game: Game[Any, Any], played: Playout) -> None:
    """Replaying the log from the deal passes through every position that was played."""
    state = game.start(played.deal)
    assert game.encode(state) == played.positions[0]
    for k, (seat, text) in enumerate(played.log, start=1):
        state = game.play(state, text, seat)
        assert game.encode(state) == played.positions[k], f"after move {k}: {text}"
    assert game.encode(game.replay(played.deal, played.log)) == game.encode(played.final)


def solo_moves(played: Playout) -> list[str]:
    """The log of a one-seat game as a :class:`Record` holds it: the texts."""
    assert all(seat == 0 for seat, _ in played.log)
    return [text for _, text in played.log]


# -- the tests ---------------------------------------------------------------------------------


def test_the_suite_plays_every_registered_game_and_variant() -> None:
    registered = {(name, variant) for name in game_names() for variant in variants_of(name)}
    assert {(e.name, e.variant) for e in ENGINES} == registered
    assert set(OPTIONS) <= registered, "options for a variant the registry no longer has"
    assert {"cruel", "crazy-quilt", "speedquilt"} <= set(game_names())


@pytest.mark.parametrize("name", ["cruel", "crazy-quilt", "speedquilt"])
def test_an_unknown_variant_is_refused_by_name(name: str) -> None:
    with pytest.raises(UnknownGameError, match="no-such-variant"):
        get_game(name, "no-such-variant")


@engines
def test_random_playouts_keep_every_rule_and_replay_through_every_position(
    engine: Engine,
) -> None:
    game = engine.game()
    finished = 0
    for deal in engine.deals:
        played = playout_of(engine, deal)
        assert_replay_gives_every_position(game, played)
        status = game.status(played.final)
        finished += status is not Status.PLAYING
        if engine.name == "speedquilt":
            # A campaign stage is won or lost against its target; other games simply finish.
            won_or_lost = "target" in engine.options
            assert status in ({Status.WON, Status.LOST} if won_or_lost else {Status.FINISHED})
        else:
            assert status in {Status.PLAYING, Status.WON, Status.LOST}
    assert finished > 0, "no random playout reached the end of a game"


@pytest.mark.parametrize("engine", ONE_SEAT, ids=str)
def test_undo_equals_the_position_played_and_redo_restores(engine: Engine) -> None:
    game = engine.game()
    rng = random.Random(f"undo/{engine}")
    for deal in UNDO_DEALS.get(engine.name, engine.deals):
        played = playout_of(engine, deal)
        moves = solo_moves(played)[:60]
        for k in sorted(rng.sample(range(1, len(moves) + 1), min(8, len(moves)))):
            record = Record(game, deal, moves[:k])
            after = record.state
            assert game.encode(after) == played.positions[k]
            assert record.undo()
            assert game.encode(record.state) == played.positions[k - 1]
            assert record.state == game.replay(deal, moves[: k - 1])
            assert record.redo()
            assert record.state == after


@pytest.mark.parametrize("engine", ONE_SEAT, ids=str)
def test_undo_all_the_way_back_passes_through_every_position_played(engine: Engine) -> None:
    """Undo across the record's checkpoints (it keeps only every 16th position) still gives,
    step by step, the positions played; redo brings every step back."""
    game = engine.game()
    long_enough = (
        played
        for played in (playout_of(engine, deal) for deal in (31, *engine.deals))
        if len(played.log) > 2 * RECORD_CHECKPOINT
    )
    played = next(long_enough, None)
    assert played is not None, "no playout passes two checkpoints"
    moves = solo_moves(played)[:50]
    record = Record(game, played.deal, moves)
    for k in range(len(moves) - 1, -1, -1):
        assert record.undo()
        assert game.encode(record.state) == played.positions[k]
    assert not record.undo()
    for k in range(1, len(moves) + 1):
        assert record.redo()
        assert game.encode(record.state) == played.positions[k]
    assert not record.redo()


@engines
def test_the_log_takes_back_entries_of_every_seat_through_the_positions_played(
    engine: Engine,
) -> None:
    """The one log of every game (games/log.py), a table of several seats as much as a solo
    game: its undo entries take back the last moves, each by the seat that made it, through the
    positions actually played; redo plays them again; and the entries as a store keeps them
    (``kind``, ``seat``, ``move``) replay to the same position."""
    game = engine.game()
    played = playout_of(engine, engine.deals[0])
    steps = played.log[:40]
    log: GameLog[Any, Any] = GameLog(game, played.deal)
    for seat, text in steps:
        log.play(text, seat)
    assert game.encode(log.state) == played.positions[len(steps)]
    back = min(20, len(steps))
    for k in range(len(steps) - 1, len(steps) - 1 - back, -1):
        entry = log.undo()
        assert entry is not None and entry.kind == UNDO
        assert (entry.seat, entry.move) == steps[k]
        assert game.encode(log.state) == played.positions[k]
    for k in range(len(steps) - back + 1, len(steps) + 1):
        entry = log.redo()
        assert entry is not None and entry.kind == REDO
        assert (entry.seat, entry.move) == steps[k - 1]
        assert game.encode(log.state) == played.positions[k]
    assert log.redo() is None
    assert [entry.seq for entry in log.entries] == list(range(1, len(steps) + 2 * back + 1))
    stored = [(entry.kind, entry.seat, entry.move) for entry in log.entries]
    again: GameLog[Any, Any] = GameLog.replay(game, played.deal, stored)
    assert game.encode(again.state) == played.positions[len(steps)]


@pytest.mark.parametrize("engine", PATIENCE, ids=str)
def test_text_that_is_no_move_is_a_syntax_error_not_an_illegal_move(engine: Engine) -> None:
    game = engine.game()
    state = game.start(1)
    rng = random.Random(5)
    space = set(move_space(engine.name) or ())
    alphabet = string.ascii_letters + string.digits + "<>-+ "
    refused = 0
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
        try:
            move = game.parse_move(text)
        except MoveSyntaxError:
            refused += 1
            with pytest.raises(MoveSyntaxError):
                game.play(state, text)
            continue
        # Whatever parses is a move of the game's move space, in its canonical form.
        assert game.format_move(move) in space
    assert refused > 300


@pytest.mark.parametrize("engine", [e for e in ENGINES if e.name == "speedquilt"], ids=str)
def test_speedquilt_text_that_is_no_move_is_a_syntax_error(engine: Engine) -> None:
    game = engine.game()
    state = game.start(engine.deals[0])
    for text in ["", "rol", "sew", "buy P01 at x,y", "keep orange", "give red to", "choose"]:
        with pytest.raises(MoveSyntaxError):
            game.play(state, text, 0)


@engines
def test_every_move_the_engine_offers_fits_in_a_socket_message(engine: Engine) -> None:
    """docs/protocol.md: a move travels as text of at most MOVE_TEXT_MAX characters, so every
    legal move of every seat, at every step of a random game, must fit (five-dice sewings of
    the eight-patch blocks and four-dice purchases are the longest)."""
    longest = playout_of(engine, engine.deals[0]).longest_offer
    assert len(longest) <= MOVE_TEXT_MAX, longest
    if engine.name == "speedquilt":
        assert len(longest) > 32  # the old limit of the game protocol, too short for these moves
