"""Cruel, rule by rule, as seed 001 and design/patience.md give them.

Positions are written as piles of cards, bottom card first: ``pos("5H 3D", "9S")`` is pile 1 with
3D on 5H and pile 2 holding 9S; foundations are given by their top cards.
"""

import random

import pytest

from spielcenter.games.base import (
    IllegalMoveError,
    MoveSyntaxError,
    Record,
    StateFormatError,
    Status,
    UnknownGameError,
    get_game,
    variants_of,
)
from spielcenter.games.cards import Card, standard_deck
from spielcenter.games.cruel import (
    REDEAL,
    VARIANTS,
    CruelMove,
    CruelState,
    CruelStuck,
    Perseverance,
    auto_moves,
    make,
)
from spielcenter.games.shuffle import DealNumberError, shuffled

CLASSIC = make("classic")
STUCK = make("stuck")
PERSEVERANCE = make("perseverance")


def pos(*piles, foundations="AS AH AD AC", variant="classic", moved=True, redeals=0):
    """A position from piles written bottom to top; missing piles are empty."""
    cards = [tuple(Card.parse(text) for text in pile.split()) for pile in piles]
    cards += [()] * (12 - len(cards))
    tops = {card.suit: card.rank for card in map(Card.parse, foundations.split())}
    return CruelState(
        deal=1,
        variant=variant,
        piles=tuple(cards),
        foundations=(tops["S"], tops["H"], tops["D"], tops["C"]),
        redeals=redeals,
        moved=moved,
    )


def piles_of(state):
    return [" ".join(map(str, pile)) for pile in state.piles]


def legal(game, state):
    return [str(move) for move in game.legal_moves(state)]


def layout_order(state):
    return [card for pile in state.piles for card in pile]


# -- Vorbereitung: dealing ------------------------------------------------------------------------


def test_the_four_aces_start_the_foundations():
    state = CLASSIC.start(7)
    assert CLASSIC.view_for(state, 0)["foundations"] == {"S": "A", "H": "A", "D": "A", "C": "A"}
    assert all(card.rank != 1 for card in layout_order(state))


def test_the_other_48_cards_lie_face_up_in_12_piles_of_4():
    state = CLASSIC.start(7)
    assert [len(pile) for pile in state.piles] == [4] * 12
    aceless = [card for card in standard_deck() if card.rank != 1]
    assert sorted(layout_order(state)) == sorted(aceless)


def test_four_cards_go_on_the_first_pile_then_the_next_four_on_the_second_and_so_on():
    aceless = [card for card in standard_deck() if card.rank != 1]
    dealt = shuffled(aceless, 7)
    state = CLASSIC.start(7)
    assert state.piles[0] == tuple(dealt[0:4])
    assert state.piles[1] == tuple(dealt[4:8])
    assert state.piles[11] == tuple(dealt[44:48])


def test_the_first_card_a_pile_receives_is_its_bottom_card():
    dealt = shuffled([card for card in standard_deck() if card.rank != 1], 7)
    state = CLASSIC.start(7)
    assert state.piles[0][0] == dealt[0]
    assert state.top(1) == dealt[3]


def test_pile_1_lies_top_left_and_pile_12_bottom_right():
    state = CLASSIC.start(3)
    lines = [line.split() for line in CLASSIC.render(state).splitlines()]
    top_row = lines.index(["1", "2", "3", "4", "5", "6"])
    bottom_row = lines.index(["7", "8", "9", "10", "11", "12"])
    assert top_row < bottom_row
    assert lines[top_row + 1][0] == str(state.piles[0][0])
    assert lines[bottom_row + 1][-1] == str(state.piles[11][0])


def test_the_same_deal_number_gives_the_same_layout_and_another_number_another():
    assert CLASSIC.start(42) == CLASSIC.start(42)
    assert CLASSIC.start(42).piles != CLASSIC.start(43).piles


def test_every_variant_deals_the_same_layout():
    layouts = {make(variant).start(99).piles for variant in VARIANTS}
    assert len(layouts) == 1


@pytest.mark.parametrize("deal", [0, -5, 2**63])
def test_a_deal_number_outside_1_to_2_63_minus_1_is_refused(deal):
    with pytest.raises(DealNumberError):
        CLASSIC.start(deal)


def test_nothing_is_hidden_every_card_is_in_the_view():
    state = CLASSIC.start(5)
    assert CLASSIC.view_for(state, None) == CLASSIC.view_for(state, 0)
    assert sum(len(pile) for pile in CLASSIC.view_for(state, None)["piles"]) == 48


def test_the_view_shows_every_pile_bottom_to_top_in_the_notation_of_its_cards(monkeypatch):
    # The view keeps each pile's notation by the pile (games/cruel.py, _PILE_TEXTS): along a
    # game, and when that table starts afresh, every pile is still written as its cards are,
    # and each view's piles are lists of its own (changing one changes no later view).
    from spielcenter.games import cruel

    monkeypatch.setattr(cruel, "PILE_TEXTS_KEPT", 5)
    rng = random.Random(40)
    for deal in (1, 2, 3):
        state = CLASSIC.start(deal)
        for _ in range(30):
            view = CLASSIC.view_for(state, 0)
            assert view["piles"] == [[str(card) for card in pile] for pile in state.piles]
            view["piles"][0].append("XX")
            assert CLASSIC.view_for(state, 0)["piles"][0] == [str(c) for c in state.piles[0]]
            moves = CLASSIC.legal_moves(state)
            if not moves:
                break
            state = CLASSIC.apply(state, rng.choice(moves))


# -- Spielablauf: moving cards --------------------------------------------------------------------


def test_only_the_top_card_of_a_pile_moves():
    state = pos("2D 9C", "3S 4S")
    assert legal(CLASSIC, state) == ["r"]
    with pytest.raises(IllegalMoveError, match="9C cannot go to its foundation"):
        CLASSIC.play(state, "1f")


def test_a_card_goes_to_its_foundation_when_it_is_next():
    state = CLASSIC.play(pos("2H"), "1f")
    assert state.foundation("H") == 2
    assert state.piles[0] == ()


def test_a_card_that_is_not_next_stays_off_its_foundation():
    with pytest.raises(IllegalMoveError, match="hearts foundation takes 2H next"):
        CLASSIC.play(pos("3H"), "1f")


def test_the_foundations_build_up_in_suit_from_ace_to_king():
    state = pos("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H")
    for rank in range(2, 14):
        assert "1f" in legal(CLASSIC, state)
        state = CLASSIC.play(state, "1f")
        assert state.foundation("H") == rank


def test_5c_goes_on_6c():
    state = CLASSIC.play(pos("5C", "6C"), "1>2")
    assert piles_of(state)[:2] == ["", "6C 5C"]


@pytest.mark.parametrize("target", ["6S", "6H"])
def test_5c_does_not_go_on_6s_or_6h(target):
    message = f"5C does not fit on {target}: a card goes on the next higher card of its suit"
    with pytest.raises(IllegalMoveError, match=message):
        CLASSIC.play(pos("5C", target), "1>2")


@pytest.mark.parametrize("target", ["4C", "7C"])
def test_a_card_goes_only_on_the_card_one_rank_higher(target):
    with pytest.raises(IllegalMoveError, match="next higher card of its suit"):
        CLASSIC.play(pos("5C", target), "1>2")


def test_several_cards_never_move_at_once():
    state = pos("6C 5C", "7C")
    assert "1>2" not in legal(CLASSIC, state)
    with pytest.raises(IllegalMoveError, match="5C does not fit on 7C"):
        CLASSIC.play(state, "1>2")


def test_an_emptied_pile_stays_empty_no_card_may_go_there():
    state = CLASSIC.play(pos("2S", "9D"), "1f")
    assert legal(CLASSIC, state) == ["r"]
    with pytest.raises(IllegalMoveError, match="pile 1 is empty, and empty piles stay empty"):
        CLASSIC.play(state, "2>1")


def test_an_empty_pile_has_no_card_to_move():
    with pytest.raises(IllegalMoveError, match="pile 3 is empty"):
        CLASSIC.play(pos("9D", "8D"), "3f")


def test_the_seed_example_2d_and_3d_go_up_and_8s_on_9s_frees_the_card_beneath():
    state = pos("5H 3D", "7C 8S", "9S", "2D", foundations="AS AH AD AC")
    state = CLASSIC.play(state, "4f")
    state = CLASSIC.play(state, "1f")
    assert state.foundation("D") == 3
    state = CLASSIC.play(state, "2>3")
    assert piles_of(state)[:4] == ["5H", "7C", "9S 8S", ""]
    assert state.top(2) == Card.parse("7C")


def bouncing(variant="classic"):
    """5H goes onto 6H, and every redeal puts it back on a pile of its own (pile 2)."""
    return pos("TS JS QS 6H", "5H", variant=variant, moved=False)


# -- Neu verteilen: the redeal --------------------------------------------------------------------


def test_the_seed_redeal_example():
    state = pos("5C 9H", "KD 3S 8C", "JH 4D 6S 2C")
    state = CLASSIC.play(state, "r")
    assert piles_of(state)[:3] == ["5C 9H KD 3S", "8C JH 4D 6S", "2C"]


def test_a_redeal_keeps_the_cards_in_exactly_the_same_order():
    state = CLASSIC.start(11)
    for text in legal(CLASSIC, state)[:1]:
        state = CLASSIC.play(state, text)
    after = CLASSIC.play(state, "r")
    assert layout_order(after) == layout_order(state)


def test_a_redeal_leaves_the_bottom_card_of_pile_1_where_it_is():
    rng = random.Random(2)
    state = CLASSIC.start(9)
    while state.redeals < 5 and CLASSIC.legal_moves(state):
        moves = CLASSIC.legal_moves(state)
        if REDEAL in moves and state.piles[0]:
            after = CLASSIC.apply(state, REDEAL)
            assert after.piles[0][0] == state.piles[0][0]
            state = after
        else:
            state = CLASSIC.apply(state, rng.choice(moves))
    assert state.redeals == 5


def test_a_redeal_deals_fours_from_pile_1_and_the_last_pile_may_have_fewer():
    state = pos("2S 3S 4S", "KH QH JH TH 9H", "5D 6D 7D 8D 9D TD", "2C")
    after = CLASSIC.play(state, "r")
    assert [len(pile) for pile in after.piles] == [4, 4, 4, 3] + [0] * 8


def test_a_redeal_refills_emptied_piles_from_the_following_ones():
    state = pos("", "KH QH", "JD")
    after = CLASSIC.play(state, "r")
    assert piles_of(after)[:2] == ["KH QH JD", ""]


def test_you_may_redeal_at_any_time_even_while_cards_can_move():
    state = CLASSIC.play(pos("2S", "9D 5H", "6H"), "1f")
    assert "2>3" in legal(CLASSIC, state)
    assert CLASSIC.play(state, "r").redeals == 1


def test_you_may_redeal_as_often_as_you_like():
    state = bouncing()
    for _ in range(5):
        state = CLASSIC.play(state, "2>1")
        state = CLASSIC.play(state, "r")
    assert state.redeals == 5
    assert piles_of(state) == piles_of(bouncing())


def test_a_redeal_without_a_card_moved_since_the_last_deal_is_refused():
    message = "nothing has moved since the last deal: a redeal would give the same layout"
    with pytest.raises(IllegalMoveError, match=message):
        CLASSIC.play(CLASSIC.start(1), "r")
    state = CLASSIC.play(CLASSIC.play(bouncing(), "2>1"), "r")
    assert legal(CLASSIC, state) == ["2>1"]
    with pytest.raises(IllegalMoveError, match=message):
        CLASSIC.play(state, "r")


# -- Gewonnen oder verloren -----------------------------------------------------------------------


def test_the_game_is_won_when_all_52_cards_are_on_the_foundations():
    state = pos("KS", foundations="QS KH KD KC", moved=False)
    assert CLASSIC.status(state) is Status.PLAYING
    won = CLASSIC.play(state, "1f")
    assert CLASSIC.status(won) is Status.WON
    assert CLASSIC.view_for(won, 0)["foundations"] == {"S": "K", "H": "K", "D": "K", "C": "K"}
    assert CLASSIC.to_act(won) == frozenset()
    assert CLASSIC.legal_moves(won) == []


def dead_layout(moved, variant="classic", redeals=0):
    """A full 52-card position where no card can move: QS lies on KS which lies on JS."""
    return make(variant).decode(
        {
            "game": "cruel",
            "variant": variant,
            "deal": 1,
            "piles": [["JS", "KS", "QS"]] + [[] for _ in range(11)],
            "foundations": {"S": "T", "H": "K", "D": "K", "C": "K"},
            "redeals": redeals,
            "moved": moved,
        }
    )


def test_the_game_is_lost_when_no_card_can_move_and_none_has_moved_since_the_last_deal():
    state = dead_layout(moved=False)
    assert CLASSIC.status(state) is Status.LOST
    assert CLASSIC.legal_moves(state) == []
    assert CLASSIC.to_act(state) == frozenset()


def test_a_player_with_no_card_to_move_may_still_redeal_if_a_card_moved_since_the_last_deal():
    state = dead_layout(moved=True)
    assert CLASSIC.status(state) is Status.PLAYING
    assert legal(CLASSIC, state) == ["r"]
    assert CLASSIC.status(CLASSIC.play(state, "r")) is Status.LOST


def test_a_finished_game_takes_no_more_moves():
    with pytest.raises(IllegalMoveError, match="the game is over"):
        CLASSIC.play(dead_layout(moved=False), "1f")


def test_a_won_game_takes_no_more_moves_and_says_so():
    # A card move that fits the layout is allowed without asking the status (it shows that the
    # game goes on); a won game has no card left to fit, and its refusal names the end.
    won = CLASSIC.decode(
        {
            "variant": "classic",
            "deal": 1,
            "piles": [[]] * 12,
            "foundations": {"S": "K", "H": "K", "D": "K", "C": "K"},
            "redeals": 0,
            "moved": True,
        }
    )
    for text in ("1f", "1>2", "r"):
        with pytest.raises(IllegalMoveError, match=r"the game is over \(won\)"):
            CLASSIC.play(won, text)


def test_every_refusal_of_a_lost_game_names_the_end_before_the_layout():
    # Whether or not the move would fit the layout (none can: no card moves).
    moves = [CruelMove(1, None), CruelMove(2, 3), CruelMove(1, 1), CruelMove(13, None), REDEAL]
    for move in moves:
        with pytest.raises(IllegalMoveError, match=r"the game is over \(lost\)"):
            CLASSIC.check(dead_layout(moved=False), move)


# -- Variant: redeal only when stuck --------------------------------------------------------------


def test_stuck_a_redeal_is_refused_while_a_card_can_move():
    state = STUCK.play(pos("2S", "9D 5H", "6H", variant="stuck"), "1f")
    assert "r" not in legal(STUCK, state)
    with pytest.raises(IllegalMoveError, match="redeal only when no card can move, and 2>3"):
        STUCK.play(state, "r")


def test_stuck_a_redeal_is_allowed_once_no_card_can_move():
    state = STUCK.play(pos("2S", "9D 5H", "6H", variant="stuck"), "1f")
    state = STUCK.play(state, "2>3")
    assert legal(STUCK, state) == ["r"]
    assert piles_of(STUCK.play(state, "r"))[:2] == ["9D 6H 5H", ""]


def test_stuck_a_redeal_still_needs_a_move_since_the_last_deal():
    state = dead_layout(moved=False, variant="stuck")
    assert STUCK.status(state) is Status.LOST
    assert STUCK.status(dead_layout(moved=True, variant="stuck")) is Status.PLAYING


# -- Variant: Perseverance ------------------------------------------------------------------------


def test_perseverance_a_descending_run_of_one_suit_moves_as_a_unit():
    state = pos("9D 6C 5C 4C", "7C", variant="perseverance")
    after = PERSEVERANCE.play(state, "1>2")
    assert piles_of(after)[:2] == ["9D", "7C 6C 5C 4C"]


def test_perseverance_a_run_stops_at_a_card_of_another_suit():
    state = pos("6S 5C 4C", "6C", variant="perseverance")
    after = PERSEVERANCE.play(state, "1>2")
    assert piles_of(after)[:2] == ["6S", "6C 5C 4C"]


def test_perseverance_a_run_goes_only_on_the_next_higher_card_of_its_suit():
    with pytest.raises(IllegalMoveError, match="4C does not fit on 8C"):
        PERSEVERANCE.play(pos("6C 5C 4C", "8C", variant="perseverance"), "1>2")


def test_perseverance_a_single_top_card_still_moves_alone():
    after = PERSEVERANCE.play(pos("9D 4C", "5C", variant="perseverance"), "1>2")
    assert piles_of(after)[:2] == ["9D", "5C 4C"]


def test_perseverance_allows_only_two_redeals():
    state = bouncing("perseverance")
    for _ in range(2):
        state = PERSEVERANCE.play(state, "2>1")
        state = PERSEVERANCE.play(state, "r")
    assert PERSEVERANCE.view_for(state, 0)["redeals_left"] == 0
    assert legal(PERSEVERANCE, state) == ["2>1"]
    with pytest.raises(IllegalMoveError, match="no redeals left: Perseverance allows 2"):
        PERSEVERANCE.play(state, "r")


def test_perseverance_refuses_a_third_redeal_even_after_a_move():
    state = pos("TS JS QS 6H", "5H", "9C 2C", variant="perseverance", redeals=2)
    assert legal(PERSEVERANCE, state) == ["2>1", "3f"]
    with pytest.raises(IllegalMoveError, match="no redeals left"):
        PERSEVERANCE.play(state, "r")


def test_perseverance_is_lost_when_no_card_can_move_and_no_redeal_is_left():
    state = dead_layout(moved=True, variant="perseverance", redeals=2)
    assert PERSEVERANCE.status(state) is Status.LOST
    assert PERSEVERANCE.status(dead_layout(True, "perseverance", 1)) is Status.PLAYING


def test_only_perseverance_limits_the_redeals():
    state = CLASSIC.start(1)
    assert CLASSIC.view_for(state, 0)["redeals_left"] is None
    assert STUCK.view_for(state, 0)["redeals_left"] is None
    assert PERSEVERANCE.view_for(state, 0)["redeals_left"] == 2


# -- Notation and errors --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["3f", "3>7", "12>1", "r"])
def test_every_move_has_one_notation_that_reads_back(text):
    move = CLASSIC.parse_move(text)
    assert CLASSIC.format_move(move) == text
    assert eval(repr(move)) == move  # the repr can be pasted back


def test_the_notation_names_source_and_target_piles():
    assert CLASSIC.parse_move("3>7") == CruelMove.onto(3, 7)
    assert CLASSIC.parse_move("3f") == CruelMove.to_foundation(3)
    assert CLASSIC.parse_move("r") == REDEAL


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3>3", "cannot move onto itself"),
        ("13f", "there is no pile 13"),
        ("3>0", "not a Cruel move"),
        ("x", "not a Cruel move"),
        ("", "not a Cruel move"),
        ("3>", "not a Cruel move"),
        ("f3", "not a Cruel move"),
        ("3f7", "not a Cruel move"),
    ],
)
def test_text_that_is_not_a_move_is_a_syntax_error(text, message):
    with pytest.raises(MoveSyntaxError, match=message):
        CLASSIC.parse_move(text)


def test_a_well_formed_move_the_rules_forbid_is_an_illegal_move_not_a_syntax_error():
    with pytest.raises(IllegalMoveError) as caught:
        CLASSIC.play(pos("5C", "6S"), "1>2")
    assert not isinstance(caught.value, MoveSyntaxError)


@pytest.mark.parametrize("text", ["x", "13f", "3>5", "r"])
def test_bad_input_changes_nothing(text):
    record = Record(CLASSIC, 1)
    before = CLASSIC.encode(record.state)
    with pytest.raises((MoveSyntaxError, IllegalMoveError)):
        record.play(text)
    assert record.moves == []
    assert CLASSIC.encode(record.state) == before


# -- Codec, view, registry ------------------------------------------------------------------------


def test_encode_then_decode_gives_back_the_same_state():
    rng = random.Random(3)
    for game in (CLASSIC, STUCK, PERSEVERANCE):
        state = game.start(8)
        for _ in range(30):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
            assert game.decode(game.encode(state)) == state


def good_json():
    return CLASSIC.encode(CLASSIC.start(1))


def spoiled(**changes):
    data = good_json()
    data.update(changes)
    return data


def without(key):
    data = good_json()
    del data[key]
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "a Cruel state is a JSON object"),
        (without("piles"), "needs piles"),
        (spoiled(game="crazy-quilt"), "not of 'cruel'"),
        (spoiled(variant="stuck"), "this state is of variant 'stuck'"),
        (spoiled(variant="easy"), "this state is of variant 'easy'"),
        (spoiled(deal=0), "outside"),
        (spoiled(piles=good_json()["piles"][:11]), "list of 12 piles"),
        (spoiled(piles=[["1X"], *good_json()["piles"][1:]]), "'1X' is not a card"),
        (spoiled(piles=[["JS"], *good_json()["piles"][1:]]), "missing 5C 6S KD"),
        (
            spoiled(piles=[["JS", "5C", "6S", "KD", "KD"], *good_json()["piles"][1:]]),
            "KD appears twice",
        ),
        (spoiled(foundations={"S": "A", "H": "A", "D": "A"}), "foundations must map each suit"),
        (spoiled(foundations={"S": "2", "H": "A", "D": "A", "C": "A"}), "2S appears twice"),
        (spoiled(foundations={"S": "X", "H": "A", "D": "A", "C": "A"}), "'X' is not a rank"),
        (spoiled(redeals=-1), "redeals must be a whole number"),
        (spoiled(moved="yes"), "moved must be true or false"),
    ],
)
def test_decoding_bad_json_fails_with_a_clear_message(data, message):
    with pytest.raises(StateFormatError, match=message):
        CLASSIC.decode(data)


def test_perseverance_decodes_no_more_than_two_redeals():
    data = PERSEVERANCE.encode(PERSEVERANCE.start(1)) | {"redeals": 3}
    with pytest.raises(StateFormatError, match="3 redeals made, but perseverance allows 2"):
        PERSEVERANCE.decode(data)


def test_the_view_has_exactly_the_documented_shape():
    state = CLASSIC.play(CLASSIC.start(1), "2f")
    view = CLASSIC.view_for(state, 0)
    assert list(view) == [
        "game",
        "variant",
        "deal",
        "piles",
        "foundations",
        "status",
        "redeals",
        "redeals_left",
        "legal",
    ]
    assert view["game"] == "cruel" and view["variant"] == "classic" and view["deal"] == 1
    assert view["piles"][1] == ["4D", "QS", "KC"]
    assert view["foundations"] == {"S": "A", "H": "2", "D": "A", "C": "A"}
    assert view["status"] == "playing" and view["redeals"] == 0
    assert view["legal"] == [str(move) for move in CLASSIC.legal_moves(state)]
    assert "r" in view["legal"]


def test_the_registry_gives_each_variant_of_cruel():
    assert tuple(variants_of("cruel")) == ("classic", "stuck", "perseverance")
    assert type(get_game("cruel")) is type(CLASSIC)
    assert isinstance(get_game("cruel", "stuck"), CruelStuck)
    assert isinstance(get_game("cruel", "perseverance"), Perseverance)


def test_an_unknown_variant_is_refused_naming_the_variants():
    with pytest.raises(UnknownGameError, match="classic, stuck, perseverance"):
        make("easy")


def test_the_rendering_shows_foundations_and_redeals():
    text = PERSEVERANCE.render(PERSEVERANCE.start(1))
    assert "Foundations: AS  AH  AD  AC" in text
    assert "Redeals: 0 (2 left)" in text


# -- Auto-moves -----------------------------------------------------------------------------------


def test_auto_moves_in_stuck_send_up_every_card_that_can_go():
    state = pos("5H 3D", "7C 8S", "9S", "2D", variant="stuck")
    assert [str(move) for move in auto_moves(state)] == ["4f", "1f"]


def test_auto_moves_in_classic_keep_back_a_card_whose_leaving_would_shift_the_next_redeal():
    state = pos("5H 2D", "7C 8S", "9S")
    assert auto_moves(state) == []


def test_auto_moves_in_classic_take_the_last_card_when_the_packet_ends_with_its_run_from_the_king():
    state = pos("5H 8S", "7C KD QD", "JD", foundations="AS AH TD AC")
    moves = auto_moves(state)
    # JD goes up, then the run behind it follows: QD, then KD
    assert [str(move) for move in moves] == ["3f", "2f", "2f"]
    after = CLASSIC.apply(state, moves[0])
    # the next redeal deals every other card exactly as before
    redeal_with = CLASSIC.apply(state, REDEAL)
    redeal_without = CLASSIC.apply(after, REDEAL)
    assert layout_order(redeal_with)[:-1] == layout_order(redeal_without)
    assert redeal_with.piles[0] == redeal_without.piles[0]


def test_auto_moves_keep_back_a_last_card_that_only_lies_on_its_next_higher_card():
    # After a redeal 3D and 2D may be split; 3D could move on and 2D follow it elsewhere.
    state = pos("5H 8S", "7C 3D 2D")
    assert auto_moves(state) == []


def test_auto_moves_take_a_king_that_is_the_last_card():
    state = pos("9S 8S", "KH", foundations="AS QH AD AC", variant="perseverance")
    assert [str(move) for move in auto_moves(state)] == ["2f"]


def test_auto_moves_in_perseverance_take_every_card_once_no_redeal_is_left():
    state = pos("5H 2D", "7C 3D", variant="perseverance", redeals=2)
    assert [str(move) for move in auto_moves(state)] == ["1f", "2f"]
    assert auto_moves(pos("5H 2D", "7C 3D", variant="perseverance", redeals=1)) == []


def test_auto_moves_are_legal_one_after_the_other():
    rng = random.Random(11)
    for game in (CLASSIC, STUCK, PERSEVERANCE):
        state = game.start(21)
        for _ in range(40):
            for move in auto_moves(state):
                game.check(state, move)
                state = game.apply(state, move)
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))


def test_the_quick_question_whether_a_card_can_move_agrees_with_the_list_of_card_moves():
    rng = random.Random(5)
    for game in (CLASSIC, STUCK, PERSEVERANCE):
        for deal in range(1, 15):
            state = game.start(deal)
            while game.legal_moves(state):
                assert game.can_move_a_card(state) == bool(game.card_moves(state))
                state = game.apply(state, rng.choice(game.legal_moves(state)))
                if state.redeals > 6:
                    break
            assert game.can_move_a_card(state) == bool(game.card_moves(state))
