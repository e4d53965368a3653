"""Crazy Quilt, rule by rule (seeds 000/002 and design/patience.md).

Positions are built by hand where a rule needs one; the quilt around the cells a test is about
is filled from deal 1 so that neighbours touch as on the table.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from spielcenter.games import (
    IllegalMoveError,
    MoveSyntaxError,
    Record,
    StateFormatError,
    Status,
    UnknownGameError,
    get_game,
)
from spielcenter.games import crazy_quilt as cq
from spielcenter.games.cards import Card, standard_deck
from spielcenter.games.crazy_quilt import CELL_INDEX, CrazyQuilt, QuiltState, make

CLASSIC = make("classic")
EVERY_MOVE_TEXT = [f"{cell}{t}" for cell in CELL_INDEX for t in "udw"] + ["wu", "wd", "s", "r"]


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(Card.parse(text) for text in texts)


def position(
    cells: dict[str, str | None] | None = None,
    *,
    empty_quilt: bool = False,
    stock: tuple[str, ...] = (),
    waste: tuple[str, ...] = (),
    up: dict[str, str] | None = None,
    down: dict[str, str] | None = None,
    redeals: int = 1,
    redeals_left: int | None = None,
    round_the_corner: bool = False,
) -> QuiltState:
    """A hand-made position: deal 1's quilt (or an empty one) with ``cells`` put in."""
    quilt = [None] * 64 if empty_quilt else list(cq.start(1).quilt)
    for name, text in (cells or {}).items():
        quilt[CELL_INDEX[name]] = None if text is None else Card.parse(text)
    tops_up = {"S": "A", "H": "A", "D": "A", "C": "A", **(up or {})}
    tops_down = {"S": "K", "H": "K", "D": "K", "C": "K", **(down or {})}
    return QuiltState(
        deal=1,
        redeals=redeals,
        round_the_corner=round_the_corner,
        quilt=tuple(quilt),
        stock=cards(*stock),
        waste=cards(*waste),
        up=tuple(Card.parse(tops_up[s] + s).rank for s in "SHDC"),
        down=tuple(Card.parse(tops_down[s] + s).rank for s in "SHDC"),
        redeals_left=redeals if redeals_left is None else redeals_left,
    )


def legal(state: QuiltState, game: CrazyQuilt = CLASSIC) -> set[str]:
    return {game.format_move(move) for move in game.legal_moves(state)}


def play(state: QuiltState, *moves: str, game: CrazyQuilt = CLASSIC) -> QuiltState:
    for text in moves:
        state = game.play(state, text)
    return state


def illegal_reason(state: QuiltState, text: str, game: CrazyQuilt = CLASSIC) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        game.play(state, text)
    return str(caught.value)


def available(state: QuiltState) -> set[str]:
    return {cq.CELL_NAMES[cell] for cell in cq.available_cells(state)}


# -- setup ----------------------------------------------------------------------------------


def test_the_eight_foundations_start_with_an_ace_and_a_king_of_each_suit():
    view = CLASSIC.view_for(CLASSIC.start(1), 0)
    assert view["foundations"] == {
        "up": {"S": "A", "H": "A", "D": "A", "C": "A"},
        "down": {"S": "K", "H": "K", "D": "K", "C": "K"},
    }


def test_64_cards_are_dealt_face_up_into_8_rows_of_8():
    view = CLASSIC.view_for(CLASSIC.start(7), 0)
    assert len(view["quilt"]) == 8
    assert all(len(row) == 8 and None not in row for row in view["quilt"])


def test_the_remaining_32_cards_stay_face_down_as_the_stock_beside_an_empty_waste():
    state = CLASSIC.start(7)
    view = CLASSIC.view_for(state, 0)
    assert view["stock_count"] == 32 and view["waste"] == []
    assert len(cq.reveal(state)) == 32


def test_the_game_uses_two_decks_so_every_card_is_there_twice():
    state = CLASSIC.start(3)
    dealt = Counter(card for card in state.quilt if card is not None) + Counter(state.stock)
    bases = Counter(Card(rank, suit) for suit in "SHDC" for rank in (1, 13))
    assert dealt + bases == Counter(standard_deck() * 2)


def test_the_two_copies_of_a_card_are_the_same_card():
    state = CLASSIC.start(3)
    dealt = [card for card in state.quilt if card is not None] + list(state.stock)
    twins = [card for card, n in Counter(dealt).items() if n == 2]
    assert len(twins) == 44  # every card but the eight foundation bases, dealt twice


def test_the_same_deal_number_gives_the_same_layout():
    assert CLASSIC.start(1000) == CLASSIC.start(1000)
    assert CLASSIC.start(1000) != CLASSIC.start(1001)


# -- the quilt ------------------------------------------------------------------------------


def test_cells_are_named_like_a_chess_board_seen_from_above_a1_top_left():
    assert cq.cell_name(0, 0) == "a1"
    assert cq.cell_name(0, 7) == "h1"
    assert cq.cell_name(7, 0) == "a8"
    assert cq.cell_name(3, 4) == "e4"


def test_the_first_card_of_the_first_row_is_upright_and_the_second_sideways():
    assert cq.is_upright(CELL_INDEX["a1"])
    assert not cq.is_upright(CELL_INDEX["b1"])
    assert cq.is_upright(CELL_INDEX["c1"])


def test_the_next_row_starts_with_a_sideways_card():
    assert not cq.is_upright(CELL_INDEX["a2"])
    assert cq.is_upright(CELL_INDEX["b2"])


def test_upright_and_sideways_cards_alternate_like_a_chessboard():
    upright = {name for name, cell in CELL_INDEX.items() if cq.is_upright(cell)}
    assert len(upright) == 32
    for name in upright:
        column, row = "abcdefgh".index(name[0]), int(name[1]) - 1
        assert (row + column) % 2 == 0


@pytest.mark.parametrize("deal", [1, 2, 1000])
def test_at_the_start_exactly_the_16_edge_cards_with_an_outward_short_end_are_available(deal):
    upright_top_and_bottom = {"a1", "c1", "e1", "g1", "b8", "d8", "f8", "h8"}
    sideways_left_and_right = {"a2", "a4", "a6", "a8", "h1", "h3", "h5", "h7"}
    state = CLASSIC.start(deal)
    assert available(state) == upright_top_and_bottom | sideways_left_and_right
    assert CLASSIC.view_for(state, 0)["available"] == sorted(
        available(state), key=CELL_INDEX.__getitem__
    )


def test_an_upright_card_is_available_when_the_cell_above_or_below_is_empty():
    assert "d4" not in available(position())  # d4 is upright: d3 above, d5 below
    assert "d4" in available(position({"d3": None}))
    assert "d4" in available(position({"d5": None}))


def test_a_sideways_card_is_available_when_the_cell_left_or_right_is_empty():
    assert "e4" not in available(position())  # e4 is sideways: d4 left, f4 right
    assert "e4" in available(position({"d4": None}))
    assert "e4" in available(position({"f4": None}))


def test_a_gap_beside_a_long_side_frees_nothing():
    # e4 is sideways: its long sides face e3 and e5.
    assert "e4" not in available(position({"e3": None, "e5": None}))


def test_a_card_whose_short_ends_both_touch_cards_may_not_move():
    state = position({"e4": "9S"}, up={"S": "8"})
    assert illegal_reason(state, "e4u") == "e4u: e4 is not available: both short ends touch cards"


def test_every_card_removed_frees_the_neighbours_whose_short_ends_pointed_at_it():
    # h7 is sideways (available: its right end is the edge). The upright h6 and h8 point their
    # short ends at it; the upright g7 beside it points at g6 and g8 instead.
    state = position({"h7": "2D"}, waste=("3D",))
    before = available(state)
    after = available(play(state, "h7w"))
    pointing_at_h7 = {
        cq.CELL_NAMES[cell] for cell, ends in enumerate(cq.SHORT_ENDS) if CELL_INDEX["h7"] in ends
    }
    assert pointing_at_h7 == {"h6", "h8"}
    assert "h6" not in before and "h8" in before
    assert after == (before - {"h7"}) | {"h6"}
    assert "h7" not in after


def test_removing_a_card_frees_a_sideways_neighbour_left_of_it():
    # c1 is upright and available (top row); b1 and d1 are sideways and point at c1.
    state = position({"c1": "2S"})
    assert "b1" not in available(state) and "d1" not in available(state)
    after = play(state, "c1u")
    assert {"b1", "d1"} <= available(after)


def test_gaps_in_the_quilt_are_never_filled():
    state = play(position({"c1": "2S"}, stock=("5H", "6H")), "c1u", "s", "s")
    assert state.quilt[CELL_INDEX["c1"]] is None
    assert CLASSIC.view_for(state, 0)["quilt"][0][2] is None


# -- the foundations ------------------------------------------------------------------------


def test_an_ace_foundation_takes_the_next_higher_card_of_its_suit():
    state = position({"c1": "2S"})
    assert "c1u" in legal(state)
    assert CLASSIC.view_for(play(state, "c1u"), 0)["foundations"]["up"]["S"] == "2"


def test_a_king_foundation_takes_the_next_lower_card_of_its_suit():
    state = position({"c1": "QH"})
    assert "c1d" in legal(state)
    assert CLASSIC.view_for(play(state, "c1d"), 0)["foundations"]["down"]["H"] == "Q"


def test_an_ace_foundation_builds_up_to_the_king():
    state = position({"c1": "KS"}, up={"S": "Q"})
    after = play(state, "c1u")
    assert CLASSIC.view_for(after, 0)["foundations"]["up"]["S"] == "K"


def test_a_king_foundation_builds_down_to_the_ace():
    state = position({"c1": "AS"}, down={"S": "2"})
    after = play(state, "c1d")
    assert CLASSIC.view_for(after, 0)["foundations"]["down"]["S"] == "A"


def test_a_card_that_does_not_follow_on_its_foundation_is_refused_with_the_reason():
    state = position({"c1": "7S"}, up={"S": "4"})
    assert illegal_reason(state, "c1u") == "c1u: 7S does not follow 4S on the up foundation"
    state = position({"c1": "9S"}, down={"S": "J"})
    assert illegal_reason(state, "c1d") == "c1d: 9S does not follow JS on the down foundation"


def test_each_foundation_is_built_in_a_single_suit():
    state = position({"c1": "2H"})
    assert "c1u" in legal(state)
    after = play(state, "c1u")
    assert CLASSIC.view_for(after, 0)["foundations"]["up"] == {
        "S": "A",
        "H": "2",
        "D": "A",
        "C": "A",
    }


def test_foundations_never_go_round_the_corner_even_in_the_round_the_corner_variant():
    game = make("round-the-corner")
    state = position({"c1": "AS"}, up={"S": "K"}, round_the_corner=True)
    reason = illegal_reason(state, "c1u", game)
    assert reason == "c1u: AS does not follow KS on the up foundation: it is complete"


def test_foundation_cards_never_leave_their_foundation():
    rng = random.Random(11)
    state = CLASSIC.start(5)
    for _ in range(300):
        moves = CLASSIC.legal_moves(state)
        if not moves:
            break
        after = CLASSIC.apply(state, rng.choice(moves))
        assert all(a >= b for a, b in zip(after.up, state.up, strict=True))
        assert all(a <= b for a, b in zip(after.down, state.down, strict=True))
        state = after


# -- the stock and the waste ----------------------------------------------------------------


def test_the_stock_turns_onto_the_waste_one_card_at_a_time_top_card_first():
    state = CLASSIC.start(2)
    stock = cq.reveal(state)
    after = play(state, "s")
    assert after.waste == (stock[0],)
    assert len(after.stock) == 31
    after = play(after, "s")
    assert after.waste == (stock[0], stock[1])


def test_the_first_stock_card_turned_is_card_64_of_the_shuffle():
    assert play(CLASSIC.start(2), "s").waste[0] == cq.deal_order(2)[64]


def test_the_stock_may_be_turned_whenever_you_like():
    state = position({"c1": "2S"}, stock=("5H",))
    assert {"c1u", "s"} <= legal(state)


def test_an_empty_stock_cannot_be_turned():
    state = position(waste=("5H",))
    assert "s" not in legal(state)
    assert illegal_reason(state, "s") == "s: the stock is empty"


def test_the_top_card_of_the_waste_may_go_onto_a_foundation():
    state = position(waste=("9C", "2D"))
    assert "wu" in legal(state)
    after = play(state, "wu")
    assert after.waste == cards("9C")
    assert CLASSIC.view_for(after, 0)["foundations"]["up"]["D"] == "2"


def test_only_the_top_card_of_the_waste_may_go_onto_a_foundation():
    state = position(waste=("2D", "9C"))
    assert "wu" not in legal(state)
    assert illegal_reason(state, "wu") == "wu: 9C does not follow AC on the up foundation"


def test_nothing_moves_from_an_empty_waste():
    assert illegal_reason(position(), "wd") == "wd: the waste is empty"


def test_an_available_quilt_card_may_go_onto_the_waste_one_rank_higher_in_suit():
    state = position({"c1": "8H"}, waste=("7H",))
    assert "c1w" in legal(state)
    assert play(state, "c1w").waste == cards("7H", "8H")


def test_an_available_quilt_card_may_go_onto_the_waste_one_rank_lower_in_suit():
    state = position({"c1": "6H"}, waste=("7H",))
    assert "c1w" in legal(state)
    assert play(state, "c1w").waste == cards("7H", "6H")


@pytest.mark.parametrize("card", ["9H", "7H", "8S", "6D"])
def test_a_card_not_of_the_same_suit_and_one_rank_apart_does_not_fit_on_the_waste(card):
    state = position({"c1": card}, waste=("7H",))
    assert "c1w" not in legal(state)
    assert illegal_reason(state, "c1w").startswith(
        f"c1w: {card} does not fit on the waste's 7H: same suit and one rank apart"
    )


def test_a_quilt_card_needs_a_waste_card_to_go_onto():
    state = position({"c1": "6H"})
    assert "c1w" not in legal(state)
    assert "the waste is empty" in illegal_reason(state, "c1w")


def test_the_seeds_example_9s_and_then_10s_onto_the_waste_8s_and_later_10s_to_jack_of_spades():
    # 9S at a1 (upright, top row: available); 10S at b1 (sideways between a1 and c1).
    state = position({"a1": "9S", "b1": "TS"}, waste=("8S",), down={"S": "Q"})
    assert "b1" not in available(state)
    state = play(state, "a1w")
    assert state.waste == cards("8S", "9S")
    assert "b1" in available(state)  # putting the 9S on the waste freed the 10S
    state = play(state, "b1w")
    assert state.waste == cards("8S", "9S", "TS")
    assert "wd" not in legal(state)  # the king foundation has only reached the queen
    state = play(replace(state, down=(11, 13, 13, 13)), "wd")  # later: it has reached JS
    assert CLASSIC.view_for(state, 0)["foundations"]["down"]["S"] == "T"


def test_the_waste_does_not_go_round_the_corner_an_ace_and_a_king_are_not_neighbours():
    on_ace = position({"c1": "KS"}, waste=("AS",))
    on_king = position({"c1": "AS"}, waste=("KS",))
    assert "c1w" not in legal(on_ace) and "c1w" not in legal(on_king)
    assert "king and ace are no neighbours" in illegal_reason(on_ace, "c1w")


def test_round_the_corner_lets_the_waste_run_from_king_to_ace_and_from_ace_to_king():
    game = make("round-the-corner")
    on_ace = position({"c1": "KS"}, waste=("AS",), round_the_corner=True)
    on_king = position({"c1": "AS"}, waste=("KS",), round_the_corner=True)
    assert "c1w" in legal(on_ace, game) and "c1w" in legal(on_king, game)
    assert play(on_king, "c1w", game=game).waste == cards("KS", "AS")


def test_cards_on_the_waste_never_go_back_into_the_quilt():
    state = play(position({"c1": "8H"}, waste=("7H",)), "c1w")
    assert {move for move in legal(state) if move.startswith("w")} <= {"wu", "wd"}
    with pytest.raises(MoveSyntaxError):
        CLASSIC.parse_move("wc1")
    assert state.quilt[CELL_INDEX["c1"]] is None


def test_only_an_available_quilt_card_may_move():
    state = position({"e4": "2S"}, waste=("3S",))
    assert not {"e4u", "e4d", "e4w"} & legal(state)
    assert "not available" in illegal_reason(state, "e4w")


def test_an_empty_cell_has_no_card_to_move():
    state = position({"c1": None})
    assert illegal_reason(state, "c1u") == "c1u: c1 is empty"


# -- the redeal -----------------------------------------------------------------------------


def test_when_the_stock_is_empty_the_waste_turned_over_unshuffled_is_the_new_stock():
    state = CLASSIC.start(4)
    first_pass = cq.reveal(state)
    state = play(state, *["s"] * 32)
    state = play(state, "r")
    assert cq.reveal(state) == first_pass  # the card turned first is turned first again
    assert state.waste == ()


def test_the_new_stock_also_holds_the_quilt_cards_placed_on_the_waste():
    state = position({"a1": "9S"}, stock=("5H", "8S", "2C"))
    state = play(state, "s", "s", "a1w", "s", "r")
    assert cq.reveal(state) == list(cards("5H", "8S", "9S", "2C"))
    assert play(state, "s").waste == cards("5H")


def test_a_redeal_is_allowed_only_when_the_stock_is_empty():
    state = position(stock=("5H",), waste=("2C",))
    assert "r" not in legal(state)
    assert illegal_reason(state, "r") == "r: the stock is not empty yet: redeal only when it is"


def test_a_redeal_needs_cards_on_the_waste():
    state = position()
    assert "r" not in legal(state)
    assert illegal_reason(state, "r") == "r: the waste is empty: nothing to redeal"


def test_the_classic_game_allows_one_redeal():
    state = play(position(stock=("5H", "2C")), "s", "s", "r", "s", "s")
    assert state.redeals_left == 0
    assert illegal_reason(state, "r") == "r: no redeal left"


def test_the_second_redeal_variant_allows_a_second_redeal():
    game = make("second-redeal")
    state = position(stock=("5H", "2C"), redeals=2)
    state = play(state, "s", "s", "r", "s", "s", "r", game=game)
    assert cq.reveal(state) == list(cards("5H", "2C"))
    state = play(state, "s", "s", game=game)
    assert illegal_reason(state, "r", game) == "r: no redeal left"


def test_a_redeal_can_be_undone():
    game = make("classic")
    record = Record(game, 4, moves=["s"] * 32)
    before = record.state
    record.play("r")
    assert record.undo()
    assert record.state == before and game.legal_moves(record.state)[-1] == cq.REDEAL_MOVE


# -- the end --------------------------------------------------------------------------------


def test_the_game_is_won_when_all_104_cards_lie_on_the_foundations():
    almost = position(
        {"a1": "KC"},
        empty_quilt=True,
        up={"S": "K", "H": "K", "D": "K", "C": "Q"},
        down={"S": "A", "H": "A", "D": "A", "C": "A"},
    )
    assert CLASSIC.status(almost) is Status.PLAYING
    won = play(almost, "a1u")
    assert CLASSIC.status(won) is Status.WON
    assert CLASSIC.to_act(won) == frozenset()


def test_the_game_is_lost_when_the_stock_has_run_out_after_the_redeal_and_no_move_is_left():
    stuck = position({"a1": "5S", "h8": "9H"}, empty_quilt=True, waste=("9C",), redeals_left=0)
    assert legal(stuck) == set()
    assert CLASSIC.status(stuck) is Status.LOST
    assert CLASSIC.to_act(stuck) == frozenset()


def test_the_game_is_not_lost_while_a_redeal_is_left():
    waiting = position({"a1": "5S"}, empty_quilt=True, waste=("9C",), redeals_left=1)
    assert legal(waiting) == {"r"}
    assert CLASSIC.status(waiting) is Status.PLAYING


def test_the_game_is_not_lost_while_the_stock_has_cards():
    assert CLASSIC.status(position({"a1": "5S"}, empty_quilt=True, stock=("2C",))) is Status.PLAYING


def test_the_game_is_lost_when_the_waste_is_empty_and_nothing_can_move_even_with_a_redeal_left():
    stuck = position({"a1": "5S"}, empty_quilt=True, redeals_left=1)
    assert CLASSIC.status(stuck) is Status.LOST


def test_every_random_game_ends_won_or_lost_with_no_legal_move():
    rng = random.Random(3)
    for deal in (1, 2, 3):
        state = CLASSIC.start(deal)
        while CLASSIC.status(state) is Status.PLAYING:
            state = CLASSIC.apply(state, rng.choice(CLASSIC.legal_moves(state)))
        assert CLASSIC.legal_moves(state) == []


# -- notation and errors --------------------------------------------------------------------


@pytest.mark.parametrize("text", EVERY_MOVE_TEXT)
def test_every_move_has_one_canonical_notation(text):
    assert CLASSIC.format_move(CLASSIC.parse_move(text)) == text


@pytest.mark.parametrize(
    "text", ["i4u", "e9u", "e0u", "e4x", "e4", "w", "ww", "ws", "", " ", "s4", "rr", "e44u", "4eu"]
)
def test_text_that_is_not_a_move_is_a_syntax_error(text):
    with pytest.raises(MoveSyntaxError):
        CLASSIC.parse_move(text)


def test_a_syntax_error_is_not_an_illegal_move():
    with pytest.raises(MoveSyntaxError) as caught:
        CLASSIC.play(CLASSIC.start(1), "e9u")
    assert not isinstance(caught.value, IllegalMoveError)


def test_a_well_formed_move_the_rules_forbid_is_an_illegal_move_not_a_syntax_error():
    with pytest.raises(IllegalMoveError) as caught:
        CLASSIC.play(CLASSIC.start(1), "e4u")
    assert not isinstance(caught.value, MoveSyntaxError)


def test_bad_input_changes_nothing():
    record = Record(CLASSIC, 1, moves=["s"])
    before = (record.state, list(record.moves))
    for text in ("e9u", "e4u", "r", "zz"):
        with pytest.raises((MoveSyntaxError, IllegalMoveError)):
            record.play(text)
    assert (record.state, record.moves) == before


def test_check_says_a_move_is_legal_exactly_when_legal_moves_lists_it():
    rng = random.Random(8)
    state = CLASSIC.start(6)
    for _ in range(60):
        listed = legal(state)
        for text in EVERY_MOVE_TEXT:
            move = CLASSIC.parse_move(text)
            if text in listed:
                CLASSIC.check(state, move)
            else:
                with pytest.raises(IllegalMoveError):
                    CLASSIC.check(state, move)
        if not listed:
            break
        state = CLASSIC.play(state, rng.choice(sorted(listed)))


def test_only_seat_0_plays_a_patience():
    with pytest.raises(IllegalMoveError):
        CLASSIC.play(CLASSIC.start(1), "s", seat=1)
    assert CLASSIC.legal_moves(CLASSIC.start(1), 1) == []


# -- variants and the registry --------------------------------------------------------------


def test_the_variants_are_classic_second_redeal_round_the_corner_and_both():
    assert cq.VARIANTS == (
        "classic",
        "second-redeal",
        "round-the-corner",
        "second-redeal+round-the-corner",
    )
    options = [(g.redeals, g.round_the_corner) for g in map(make, cq.VARIANTS)]
    assert options == [(1, False), (2, False), (1, True), (2, True)]


def test_the_two_variant_options_combine_in_either_order():
    game = make("round-the-corner+second-redeal")
    assert (game.variant, game.redeals, game.round_the_corner) == (
        "second-redeal+round-the-corner",
        2,
        True,
    )


@pytest.mark.parametrize(
    "variant", ["", "easy", "second-redeal+second-redeal", "classic+round-the-corner", "Classic"]
)
def test_an_unknown_variant_is_refused(variant):
    with pytest.raises(UnknownGameError):
        make(variant)


def test_the_registry_knows_crazy_quilt_and_its_variants():
    game = get_game("crazy-quilt", "second-redeal")
    assert isinstance(game, CrazyQuilt) and game.redeals == 2
    assert get_game("crazy_quilt").variant == "classic"


# -- codec and views ------------------------------------------------------------------------


def test_encode_and_decode_give_back_the_same_state_stock_order_included():
    for game in map(make, cq.VARIANTS):
        state = play(game.start(9), "s", "s", game=game)
        data = json.loads(json.dumps(game.encode(state)))
        assert game.decode(data) == state


def test_every_position_of_a_game_keeps_both_decks_and_survives_encode_and_decode():
    rng = random.Random(4)
    game = make("second-redeal+round-the-corner")
    state = game.start(21)
    while game.status(state) is Status.PLAYING:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        assert game.decode(json.loads(json.dumps(game.encode(state)))) == state


def bad_states() -> list[tuple[str, object]]:
    good = CLASSIC.encode(CLASSIC.start(1))
    third_copy = json.loads(json.dumps(good))
    third_copy["stock"][0] = third_copy["quilt"][0][0]
    one_short = json.loads(json.dumps(good))
    one_short["stock"].pop()
    founded_twice = json.loads(json.dumps(good))
    founded_twice["foundations"]["up"]["S"] = "2"
    return [
        ("not an object", [1, 2]),
        ("missing field", {k: v for k, v in good.items() if k != "waste"}),
        ("another game", {**good, "game": "cruel"}),
        ("another variant", {**good, "variant": "second-redeal"}),
        ("bad deal", {**good, "deal": 0}),
        ("bad card", {**good, "waste": ["XX"]}),
        ("card not text", {**good, "waste": [7]}),
        ("seven rows", {**good, "quilt": good["quilt"][:7]}),
        ("redeals out of range", {**good, "redeals_left": 2}),
        ("redeals not a number", {**good, "redeals_left": "1"}),
        ("a third copy of a card", third_copy),
        ("a card missing", one_short),
        ("a card on a foundation and still dealt", founded_twice),
        ("bad foundation rank", {**good, "foundations": {"up": {"S": "1"}, "down": {}}}),
    ]


@pytest.mark.parametrize(("why", "data"), bad_states(), ids=[why for why, _ in bad_states()])
def test_decode_refuses_json_that_is_not_a_position_with_a_clear_error(why, data):
    with pytest.raises(StateFormatError):
        CLASSIC.decode(data)


def test_the_view_has_exactly_the_documented_shape():
    state = play(CLASSIC.start(1), "s")
    view = CLASSIC.view_for(state, 0)
    assert list(view) == [
        "game",
        "variant",
        "deal",
        "quilt",
        "available",
        "stock_count",
        "waste",
        "foundations",
        "redeals_left",
        "status",
        "legal",
    ]
    assert (view["game"], view["variant"], view["deal"]) == ("crazy-quilt", "classic", 1)
    assert view["quilt"][0][0] == str(state.quilt[0])
    assert view["stock_count"] == 31 and view["waste"] == [str(state.waste[0])]
    assert view["redeals_left"] == 1 and view["status"] == "playing"
    assert view["legal"] == [str(move) for move in CLASSIC.legal_moves(state)]
    json.dumps(view)


def test_the_view_never_contains_the_stock_order():
    state = play(CLASSIC.start(1), "s", "s")
    reordered = replace(state, stock=tuple(reversed(state.stock)))
    assert state != reordered
    for seat in (0, None):
        assert CLASSIC.view_for(state, seat) == CLASSIC.view_for(reordered, seat)
    assert CLASSIC.render(state) == CLASSIC.render(reordered)


def test_reveal_gives_the_stock_top_card_first():
    state = CLASSIC.start(2)
    assert cq.reveal(state) == cq.deal_order(2)[64:]


def test_render_shows_cell_names_available_cards_foundations_waste_stock_and_redeals():
    state = play(position({"c1": "2S"}, stock=("5H", "6H")), "c1u", "s")
    text = CLASSIC.render(state)
    assert "  a     b     c" in text and "\n  8 " in text
    assert "[" + str(state.quilt[CELL_INDEX["a1"]]) + "↕]" in text  # a1 available, upright
    assert " " + str(state.quilt[CELL_INDEX["e4"]]) + "↔ " in text  # e4 sideways, not available
    assert "2♠" in text and "K♥" in text
    assert "waste: 5♥" in text and "stock: 1 cards" in text and "redeals left: 1" in text


# -- auto moves -----------------------------------------------------------------------------


def test_a_card_whose_twin_is_founded_and_that_can_base_nothing_moves_automatically():
    # The other 5S is on the down foundation (at 5); no 4S or 6S is left in the quilt.
    state = position({"c1": "5S"}, empty_quilt=True, up={"S": "4"}, down={"S": "5"})
    assert [str(move) for move in cq.auto_moves(state)] == ["c1u"]


def test_a_card_whose_twin_is_still_out_is_not_moved_automatically():
    state = position({"c1": "5S"}, empty_quilt=True, up={"S": "4"})
    assert "c1u" in legal(state)
    assert cq.auto_moves(state) == []


def test_a_card_that_a_quilt_card_could_still_be_built_on_is_not_moved_automatically():
    state = position({"c1": "5S", "h8": "6S"}, empty_quilt=True, up={"S": "4"}, down={"S": "5"})
    assert cq.auto_moves(state) == []


def test_round_the_corner_a_king_can_base_an_ace_so_it_is_not_moved_automatically():
    cells = {"c1": "KS", "h8": "AS"}
    kwargs = {"empty_quilt": True, "up": {"S": "Q"}, "down": {"S": "3"}}
    assert [str(m) for m in cq.auto_moves(position(cells, **kwargs))] == ["c1u"]
    assert cq.auto_moves(position(cells, round_the_corner=True, **kwargs)) == []


def test_the_waste_top_goes_to_its_foundation_automatically_under_the_same_conditions():
    state = position(empty_quilt=True, waste=("9C", "AD"), up={"D": "A"}, down={"D": "2"})
    assert [str(move) for move in cq.auto_moves(state)] == ["wd"]


def test_auto_moves_are_legal_moves():
    rng = random.Random(2)
    state = CLASSIC.start(12)
    while CLASSIC.status(state) is Status.PLAYING:
        assert set(cq.auto_moves(state)) <= set(CLASSIC.legal_moves(state))
        state = CLASSIC.apply(state, rng.choice(CLASSIC.legal_moves(state)))


@pytest.mark.parametrize("deal", [0, -5, 2**63, "7"])
def test_a_deal_number_outside_1_to_2_63_minus_1_is_refused(deal):
    with pytest.raises(ValueError, match="deal number"):
        CLASSIC.start(deal)
