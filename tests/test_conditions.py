"""Deal conditions read and checked: predealt hands, the turned card and conditions, each mistake one line.

Every rule set (every preset at every player count, both packs, both full-deal rules) and play rule.
"""

from dataclasses import replace

import pytest
from conftest import EVERY_RULE_SET, rule_id

from pocha.errors import PochaError
from pocha.game.conditions import DealConditions, read_conditions, written_sizes
from pocha.game.presets import make_rules
from pocha.game.rules import PLAY_RULES, Rules

LUDOTEKA = make_rules("ludoteka", 4)


def strongest_cards(rules: Rules) -> list[str]:
    """The deck's cards in notation, the strongest of each suit first (ace of each suit, then the next rank)."""
    ids = sorted((int(c) for c in rules.deck()), key=lambda c: (-(c % 16), c >> 4))
    return [rules.notation.name(c) for c in ids]


@pytest.mark.parametrize("play_rule", sorted(PLAY_RULES))
@pytest.mark.parametrize("rules", EVERY_RULE_SET, ids=rule_id)
def test_every_rule_set_takes_hands_a_trump_and_a_condition(rules, play_rule):
    rules = replace(rules, play_rule=play_rule)
    cards, dealer = strongest_cards(rules), rules.players - 1
    hands = [f"1={cards[0]}", f"dealer={cards[1]}", f"seat{dealer}={cards[2]}"]
    where = [f"top(1, trump, 1) + trumps(dealer) >= 0 and not has(2, '{cards[0]}')"]
    conditions = read_conditions(rules, hands, cards[3], where)
    assert conditions.positions[0] == (rules.notation.parse(cards[0]),)
    assert conditions.positions[dealer] == (rules.notation.parse(cards[1]),)
    assert conditions.seats[dealer] == (rules.notation.parse(cards[2]),)
    assert conditions.trump_card == rules.notation.parse(cards[3])
    assert DealConditions.from_dict(conditions.to_dict(), rules) == conditions
    trumped = [size for size in range(1, rules.full_deal + 1) if rules.has_trump(size)]
    fits = [size for size in trumped if size >= 2 + (size * rules.players == rules.deck_size)]
    conditions.check_sizes(fits)  # a seat and a position hold two cards when they meet, the dealer one more
    with pytest.raises(PochaError, match="^(hand|trump): .* at 1 card;"):
        conditions.check_sizes([1])
    other = "1O" if rules.pack == "french" else "AS"
    with pytest.raises(PochaError, match=f"^hand: position 1: '{other}' is not a card"):
        read_conditions(rules, [f"1={other}"])


def test_the_record_keeps_the_options_as_written_and_reads_them_back():
    conditions = read_conditions(
        LUDOTEKA,
        {"1": "1o 3o", "dealer": "7C", "seat2": "12E"},
        "7o",
        ["trumps(dealer) >= 3", "hcp(1) > 4"],
    )
    data = conditions.to_dict()
    assert data == {
        "hands": ["1=1O 3O", "dealer=7C", "seat2=12E"],
        "trump": "7O",
        "where": ["trumps(dealer) >= 3", "hcp(1) > 4"],
    }
    assert DealConditions.from_dict(data, LUDOTEKA) == conditions
    assert conditions.in_words() == (
        "position 1 holds 1O 3O; the dealer holds 7C; seat 2 holds 12E; trump 7O; "
        "where trumps(dealer) >= 3; where hcp(1) > 4"
    )
    assert not conditions.free and conditions.conditional
    free = DealConditions(LUDOTEKA)
    assert free.free and not free.conditional and free.to_dict() == {"hands": [], "trump": None, "where": []}
    assert read_conditions(LUDOTEKA).free and free.in_words() == "any deal"
    with pytest.raises(PochaError, match="^conditions: unknown field"):
        DealConditions.from_dict({"hand": []}, LUDOTEKA)


def test_a_plug_in_is_kept_by_its_absolute_path(tmp_path, monkeypatch):
    (tmp_path / "cond.py").write_text("def fn(ctx):\n    return ctx.numbers >= 0\n")
    monkeypatch.chdir(tmp_path)
    conditions = read_conditions(LUDOTEKA, where=["./cond.py:fn", "cards > 0"])
    assert conditions.plug_ins == (f"{tmp_path / 'cond.py'}:fn",)
    assert conditions.to_dict()["where"] == ["cards > 0", f"{tmp_path / 'cond.py'}:fn"]
    with pytest.raises(PochaError, match="^where './other.py:fn': no file 'other.py'$"):
        read_conditions(LUDOTEKA, where="./other.py:fn")


MISTAKES = [  # (hands, trump, the line's start)
    (["1=1O 3O 1O"], None, "hand: 1O is given twice; a card is dealt once"),
    (["1=1O", "3=3C 1O"], None, "hand: 1O is given to position 1 and to position 3; a card is dealt once"),
    (["1=1O", "seat1=1o"], None, "hand: 1O is given to position 1 and to seat 1"),
    (["1=8O"], None, "hand: position 1: '8O' is not in this deck: its ranks are 1 3 12 11 10 7 6 5 4 2"),
    (["1=AS"], None, "hand: position 1: 'AS' is not a card"),
    (["5=1O"], None, "hand: '5' is not a place at 4 players; a bidding position 1..4 (1 bids first, 4 deals)"),
    (["north=1O"], None, "hand: 'north' is not a place at 4 players"),
    (["seat4=1O"], None, "hand: 'seat4' is not a place at 4 players"),
    (["1O 3O"], None, "hand: '1O 3O' gives no place; write PLACE=CARDS"),
    (["1="], None, 'hand: no cards given for position 1; write cards like "1=1O 3O 12C 5E 2B"'),
    (["1=1O", "1=3O"], None, "hand: position 1 is given twice; give all its cards at once (1=CARDS)"),
    (["4=1O", "dealer=3O"], None, "hand: position 4 is given twice"),
    (["seat1=1O", "seat 1=3O"], None, "hand: seat 1 is given twice"),
    ([], "13O", "trump: '13O' is not a card: '13' is not a rank of the Spanish pack"),
    ([], "none", "trump: 'none' is not a card"),
    (
        ["2=7O"],
        "7O",
        "trump: 7O is predealt to position 2; the turned card is nobody's, or in a full deal the dealer's",
    ),
    (["seat3=7O"], "7O", "trump: 7O is predealt to seat 3"),
]


@pytest.mark.parametrize(("hands", "trump", "message"), MISTAKES, ids=[m[2][:40] for m in MISTAKES])
def test_each_mistake_is_one_line(hands, trump, message):
    with pytest.raises(PochaError) as caught:
        read_conditions(LUDOTEKA, hands, trump)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


SIZE_MISTAKES = [  # (rules, hands, trump, sizes, the whole line)
    (
        LUDOTEKA,
        ["1=1O 3O 12O"],
        None,
        range(1, 11),
        "hand: position 1 is given 3 cards, more than a hand holds at 1-2 cards; these conditions fit hand sizes 3-10",
    ),
    (
        LUDOTEKA,
        ["1=1O 3O", "seat2=12O"],
        None,
        [2, 5],
        "hand: seat 2 and position 1 are given 3 cards when the seat is at the position, more than a hand holds at "
        "2 cards; these conditions fit hand sizes 3-10",
    ),
    (
        LUDOTEKA,
        ["dealer=1O 7O"],
        "7O",
        [9, 10],
        "trump: 7O is predealt to the dealer, but the turned card is nobody's in a deal that leaves cards over at "
        "9 cards; these conditions fit hand sizes 10",
    ),
    (
        LUDOTEKA,
        ["dealer=1O 3O 12O 11O 10O 7C 6C 5C 4C 2C"],
        "7O",
        [10],
        "hand: position 4 (the dealer, who holds the trump card) is given 11 cards, more than a hand holds at 10 cards",
    ),
    (
        make_rules("oh-hell", 4),
        [],
        "7H",
        [12, 13],
        "trump: 7H is fixed, but a full deal under full-deal-trump none has no trump at 13 cards; these conditions "
        "fit hand sizes 1-12",
    ),
]


@pytest.mark.parametrize(("rules", "hands", "trump", "sizes", "message"), SIZE_MISTAKES)
def test_hand_sizes_no_deal_can_meet_are_refused_in_one_line(rules, hands, trump, sizes, message):
    conditions = read_conditions(rules, hands, trump)
    with pytest.raises(PochaError) as caught:
        conditions.check_sizes(sizes)
    assert str(caught.value) == message


def test_the_full_deal_turns_the_dealers_predealt_trump_card():
    conditions = read_conditions(LUDOTEKA, ["dealer=7O 1C"], "7O")
    conditions.check_sizes([10])
    read_conditions(LUDOTEKA, ["dealer=1O 3O 12O 11O 10O 7C 6C 5C 4C"], "7O").check_sizes([10])  # 9 and the trump


def test_sizes_are_written_as_the_cards_option_takes_them():
    assert written_sizes([1, 2, 3, 5, 7, 8]) == "1-3,5,7-8"
    assert written_sizes([4]) == "4"
