import pytest

from pocha.errors import PochaError
from pocha.game.cards import PACKS, Notation, cards_of, deck_ids, mask_of
from pocha.game.presets import make_rules

SPANISH, FRENCH = PACKS["spanish"], PACKS["french"]
ACE_THREE_40 = Notation(SPANISH, SPANISH.deck_ranks("ace-three", 40))
NATURAL_40 = Notation(SPANISH, SPANISH.deck_ranks("natural", 40))
SPANISH_48 = Notation(SPANISH, SPANISH.deck_ranks("ace-three", 48))
FRENCH_52 = Notation(FRENCH, FRENCH.deck_ranks("natural", 52))


def test_notation_round_trips_and_is_case_insensitive():
    for text in ("1O", "3C", "7E", "10B", "11O", "12C", "2B"):
        assert ACE_THREE_40.name(ACE_THREE_40.parse(text.lower())) == text
    for text in ("AS", "KH", "QD", "JC", "10S", "9H", "2C"):
        assert FRENCH_52.name(FRENCH_52.parse(text.lower())) == text


def test_ids_follow_strength_in_the_rank_order():
    assert ACE_THREE_40.ranks == (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
    assert ACE_THREE_40.parse("1O") == 9  # strongest oros
    assert ACE_THREE_40.parse("3O") == 8
    assert ACE_THREE_40.parse("2O") == 0
    assert ACE_THREE_40.parse("3C") == 16 + 8
    assert NATURAL_40.parse("3C") == 16 + 1  # three is low in the natural order
    assert NATURAL_40.parse("12C") > NATURAL_40.parse("7C")


def test_the_french_pack_runs_ace_high_to_two_in_spades_hearts_diamonds_clubs():
    assert FRENCH_52.ranks == (14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
    assert FRENCH_52.parse("AS") == 12 and FRENCH_52.parse("2S") == 0
    assert FRENCH_52.parse("KH") == 16 + 11
    assert FRENCH_52.parse("10D") == 2 * 16 + 8
    assert FRENCH_52.parse("2C") == 3 * 16
    assert sorted(deck_ids(FRENCH_52.ranks)) == [16 * s + r for s in range(4) for r in range(13)]


def test_ten_may_be_written_t_and_suits_as_symbols():
    assert FRENCH_52.parse("TD") == FRENCH_52.parse("10d") == FRENCH_52.parse("10\u2666")
    assert FRENCH_52.parse("q\u2665") == FRENCH_52.parse("QH")
    assert FRENCH_52.name(FRENCH_52.parse("QH"), symbols=True) == "Q\u2665"
    assert ACE_THREE_40.name(ACE_THREE_40.parse("12C"), symbols=True) == "12C"  # Spanish suits have no symbols


def test_eights_and_nines_exist_only_in_the_48_card_deck():
    with pytest.raises(PochaError, match="not in this deck"):
        ACE_THREE_40.parse("8O")
    assert SPANISH_48.name(SPANISH_48.parse("9e")) == "9E"


def test_stripped_french_decks_drop_whole_ranks_weakest_first():
    assert FRENCH.deck_ranks("natural", 48)[-1] == 3
    assert FRENCH.deck_ranks("natural", 32) == (14, 13, 12, 11, 10, 9, 8, 7)
    with pytest.raises(PochaError, match="no 50-card French deck"):
        FRENCH.deck_ranks("natural", 50)
    with pytest.raises(PochaError, match="not in this deck"):
        Notation(FRENCH, FRENCH.deck_ranks("natural", 48)).parse("2C")


@pytest.mark.parametrize("text", ["13O", "1X", "O1", "", "10", "AO"])
def test_bad_spanish_notation_is_refused(text):
    with pytest.raises(PochaError):
        ACE_THREE_40.parse(text)


@pytest.mark.parametrize("text", ["1S", "11H", "AO", "KX", "", "A", "T", "1OS"])
def test_bad_french_notation_is_refused(text):
    with pytest.raises(PochaError):
        FRENCH_52.parse(text)


def test_hands_show_by_suit_strongest_first():
    hand = ACE_THREE_40.parse_list("2O 3E, 1O 12C")
    assert [ACE_THREE_40.name(c) for c in cards_of(mask_of(hand))] == ["1O", "2O", "12C", "3E"]
    hand = FRENCH_52.parse_list("2C TS KH, AS")
    assert FRENCH_52.names(cards_of(mask_of(hand))) == "AS 10S KH 2C"


@pytest.mark.parametrize(
    ("deck", "pack", "size"),
    [(None, "french", 52), ("48", "french", 48), ("spanish", "spanish", 40), ("spanish:48", "spanish", 48)],
)
def test_the_oh_hell_preset_deals_french_cards_and_keeps_the_spanish_form_a_deck_option(deck, pack, size):
    rules = make_rules("oh-hell", 4, deck)
    assert (rules.pack, rules.deck_size) == (pack, size)


def test_a_spanish_preset_can_play_french_cards():
    rules = make_rules("ludoteka", 4, "french:32")
    assert rules.notation.describe().startswith("32 cards (French pack): ranks A K Q J 10 9 8 7")
    assert make_rules("ludoteka", 4, "french:A,K,Q,J,T").ranks == (14, 13, 12, 11, 10)


@pytest.mark.parametrize(
    ("deck", "rank_order", "message"),
    [
        ("german", None, "neither a pack"),
        ("german:32", None, "unknown pack 'german'"),
        ("french:33", None, "no 33-card French deck"),
        ("french", "ace-three", "unknown 'ace-three' for the french pack"),
        ("french:A,K,X", None, "not a rank of the French pack"),
    ],
)
def test_bad_decks_are_refused_in_one_line(deck, rank_order, message):
    with pytest.raises(PochaError, match=message):
        make_rules("ludoteka", 4, deck, rank_order)
