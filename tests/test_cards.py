import pytest

from pocha.errors import PochaError
from pocha.game.cards import card_name, cards_of, mask_of, parse_card, parse_cards
from pocha.game.rules import RANK_ORDERS, deck_ranks

ACE_THREE_40 = deck_ranks("ace-three", 40)
NATURAL_40 = deck_ranks("natural", 40)


def test_notation_round_trips_and_is_case_insensitive():
    for text in ("1O", "3C", "7E", "10B", "11O", "12C", "2B"):
        assert card_name(parse_card(text.lower(), ACE_THREE_40), ACE_THREE_40) == text


def test_ids_follow_strength_in_the_rank_order():
    assert ACE_THREE_40 == (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
    assert parse_card("1O", ACE_THREE_40) == 9  # strongest oros
    assert parse_card("3O", ACE_THREE_40) == 8
    assert parse_card("2O", ACE_THREE_40) == 0
    assert parse_card("3C", ACE_THREE_40) == 16 + 8
    assert parse_card("3C", NATURAL_40) == 16 + 1  # three is low in the natural order
    assert parse_card("12C", NATURAL_40) > parse_card("7C", NATURAL_40)


def test_eights_and_nines_exist_only_in_the_48_card_deck():
    with pytest.raises(PochaError, match="not in this deck"):
        parse_card("8O", ACE_THREE_40)
    assert card_name(parse_card("9e", RANK_ORDERS["ace-three"]), RANK_ORDERS["ace-three"]) == "9E"


@pytest.mark.parametrize("text", ["13O", "1X", "O1", "", "10", "AO"])
def test_bad_notation_is_refused(text):
    with pytest.raises(PochaError):
        parse_card(text, ACE_THREE_40)


def test_hands_show_by_suit_strongest_first():
    hand = parse_cards("2O 3E, 1O 12C", ACE_THREE_40)
    assert [card_name(c, ACE_THREE_40) for c in cards_of(mask_of(hand))] == ["1O", "2O", "12C", "3E"]
