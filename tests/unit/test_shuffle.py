"""The deal shuffle of docs/shuffle.md: SplitMix64 + unbiased Fisher–Yates, frozen forever."""

import pytest

from spielcenter.games.cards import Card, CardSyntaxError, standard_deck
from spielcenter.games.shuffle import MAX_DEAL, DealNumberError, SplitMix64, check_deal, shuffled


def test_splitmix64_gives_the_published_reference_outputs_from_state_zero():
    rng = SplitMix64(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_the_same_deal_number_gives_the_same_order():
    deck = standard_deck()
    assert shuffled(deck, 12345) == shuffled(deck, 12345)
    assert shuffled(deck, 12345) != shuffled(deck, 12346)


def test_a_shuffle_is_a_permutation_of_its_input():
    deck = standard_deck()
    assert sorted(shuffled(deck, 99)) == sorted(deck)


def test_the_deck_is_the_52_cards_in_order_in_a_list_of_its_own_each_time():
    deck = standard_deck()
    assert deck == [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]
    deck.reverse()  # a caller's list: changing it changes no other deck
    assert standard_deck()[0] == Card(1, "S")


def test_below_never_reaches_its_bound():
    rng = SplitMix64(7)
    assert all(0 <= rng.below(n) < n for n in range(1, 200) for _ in range(5))


@pytest.mark.parametrize("deal", [1, 2, 1000, MAX_DEAL])
def test_deal_numbers_run_from_1_to_2_63_minus_1(deal):
    assert check_deal(deal) == deal


@pytest.mark.parametrize("deal", [0, -1, MAX_DEAL + 1, "7", 2.0, True])
def test_other_deal_numbers_are_refused_with_a_clear_error(deal):
    with pytest.raises(DealNumberError):
        check_deal(deal)


def test_the_unshuffled_deck_runs_spades_hearts_diamonds_clubs_each_ace_to_king():
    deck = standard_deck()
    assert len(deck) == 52
    assert [str(c) for c in deck[:3]] == ["AS", "2S", "3S"]
    assert str(deck[12]) == "KS" and str(deck[13]) == "AH" and str(deck[-1]) == "KC"


def test_a_card_is_written_rank_then_suit():
    assert Card.parse("TS") == Card(10, "S")
    assert str(Card(1, "D")) == "AD"
    assert Card.parse("QH").pretty == "Q♥"


@pytest.mark.parametrize("text", ["", "T", "1S", "TX", "TSS", "ts"])
def test_text_that_is_not_a_card_is_a_syntax_error(text):
    with pytest.raises(CardSyntaxError):
        Card.parse(text)
