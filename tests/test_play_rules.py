"""Every play rule on positions built by hand (default deck: 1 3 12 11 10 7 6 5 4 2, strongest first)."""

from dataclasses import replace

import pytest
import reference
from conftest import LUDOTEKA, ids, mask, play_hand_built

from pocha.engine.chunk import PLAY_CODES
from pocha.game.cards import cards_of
from pocha.game.presets import make_rules
from pocha.game.scoring import SCORINGS, Scoring
from pocha.kernels.trick import legal_mask


def legal(hand: str, trick: str, trump: str | None, play_rule: str = "pocha") -> set[str]:
    """Names of the legal cards of ``hand`` on ``trick`` (cards in play order) with trump suit ``trump`` (or None)."""
    trump_suit = None if trump is None else LUDOTEKA.notation.pack.suits.index(trump)
    trick_masks = reference.trick_masks(ids(trick), trump_suit)
    result = legal_mask(mask(hand), *trick_masks, PLAY_CODES[play_rule])
    return {LUDOTEKA.notation.name(c) for c in cards_of(result)}


# The strict Pocha rule, its four cases.
def test_pocha_following_must_beat_the_led_suit_when_it_can():
    assert legal("4C 12C 3C 1E", "5C", trump="O") == {"12C", "3C"}
    assert legal("4C 12C 3C 1E", "5C 11C", trump="O") == {"12C", "3C"}  # beat the highest, not the first


def test_pocha_following_that_cannot_beat_plays_any_card_of_the_suit():
    assert legal("4C 12C 1E", "1C", trump="O") == {"4C", "12C"}


def test_pocha_following_after_a_trump_on_the_trick_plays_any_card_of_the_suit():
    assert legal("4C 12C 7O", "5C 2O", trump="O") == {"4C", "12C"}


def test_pocha_void_must_trump_over_the_trumps_on_the_trick():
    assert legal("2O 1O 7E", "5C", trump="O") == {"2O", "1O"}  # no trump yet: any trump
    assert legal("2O 1O 7E", "5C 7O", trump="O") == {"1O"}  # only the trumps that beat the 7


def test_pocha_void_without_a_higher_trump_plays_any_card():
    assert legal("7O 4E", "5C 1O", trump="O") == {"7O", "4E"}  # a lower trump included
    assert legal("7E 4B", "5C", trump="O") == {"7E", "4B"}


def test_leading_is_free():
    assert legal("7O 4E 1C", "", trump="O") == {"7O", "4E", "1C"}


def test_led_suit_is_trump():
    assert legal("7O 2O 1C", "5O", trump="O") == {"7O"}
    assert legal("2O 4O 1C", "5O", trump="O") == {"2O", "4O"}
    assert legal("1C 4E", "5O", trump="O") == {"1C", "4E"}


def test_trump_lead_free_reading_frees_the_followers_of_a_trump_lead():
    """003/004 literally: "unless someone has trumped" also covers a trump lead."""
    assert legal("7O 2O 1C", "5O", trump="O", play_rule="pocha-trump-lead-free") == {"7O", "2O"}
    assert legal("7O 2O 1C", "5O", trump="O") == {"7O"}  # the usual reading: beat the trump lead


def test_trump_lead_free_reading_keeps_every_other_duty():
    rule = "pocha-trump-lead-free"
    assert legal("4C 12C 3C 1E", "5C", trump="O", play_rule=rule) == {"12C", "3C"}  # beat a plain lead
    assert legal("4C 12C 7O", "5C 2O", trump="O", play_rule=rule) == {"4C", "12C"}  # trumped: any of the suit
    assert legal("2O 1O 7E", "5C 7O", trump="O", play_rule=rule) == {"1O"}  # void: over-trump
    assert legal("1C 4E", "5O", trump="O", play_rule=rule) == {"1C", "4E"}


def test_always_beat_reading_binds_the_followers_of_a_trumped_trick():
    """000 and 001 literally: beat the led suit ("montando") with no exception once a trump is on the trick."""
    rule = "pocha-always-beat"
    assert legal("4C 12C 7O", "5C 2O", trump="O", play_rule=rule) == {"12C"}  # beat the 5 of copas, though trumped
    assert legal("4C 12C 7O", "5C 2O", trump="O") == {"4C", "12C"}  # pocha: any copa
    assert legal("7C 12C", "5C 2O 10C", trump="O", play_rule=rule) == {"12C"}  # the best copa, not the lead
    assert legal("4C 11C", "5C 2O 12C", trump="O", play_rule=rule) == {"4C", "11C"}  # none beats it: any copa


def test_always_beat_reading_keeps_every_other_duty():
    rule = "pocha-always-beat"
    assert legal("4C 12C 3C 1E", "5C", trump="O", play_rule=rule) == {"12C", "3C"}  # beat a plain lead
    assert legal("7O 2O 1C", "5O", trump="O", play_rule=rule) == {"7O"}  # beat a trump lead
    assert legal("3O 2O", "5O 7O", trump="O", play_rule=rule) == {"3O"}  # and the trump that beat it
    assert legal("2O 1O 7E", "5C 7O", trump="O", play_rule=rule) == {"1O"}  # void: over-trump
    assert legal("7O 4E", "5C 1O", trump="O", play_rule=rule) == {"7O", "4E"}  # void, no higher trump: any card


def test_the_play_loop_keeps_the_always_beat_duty():
    # seat 0 leads the 5 of copas, seat 1 ruffs; seat 2, short of its bid, follows with its weakest copa
    # where it may (pocha) and must beat the 5 with the rey where the duty holds on (pocha-always-beat)
    hands = ["5C 6C", "2O 4E", "4C 12C", "7E 10E"]
    for rule, follows in (("pocha", "4C"), ("pocha-always-beat", "12C")):
        rules = replace(LUDOTEKA, play_rule=rule)
        _, _, plays, _ = play_hand_built(hands, "7O", dealer=3, bids=[0, 1, 1, 1], rules=rules)
        assert [LUDOTEKA.notation.name(card) for card in plays[0]] == ["5C", "2O", follows, "7E"]


def test_trump_rule_follows_without_duty_to_beat_but_must_trump():
    assert legal("4C 12C 1O", "5C", trump="O", play_rule="trump") == {"4C", "12C"}
    assert legal("2O 1O 7E", "5C 7O", trump="O", play_rule="trump") == {"1O"}
    assert legal("7O 4E", "5C 1O", trump="O", play_rule="trump") == {"7O", "4E"}


def test_follow_rule_only_follows_suit():
    assert legal("4C 12C 1O", "5C", trump="O", play_rule="follow") == {"4C", "12C"}
    assert legal("1O 4E", "5C", trump="O", play_rule="follow") == {"1O", "4E"}


@pytest.mark.parametrize("play_rule", sorted(PLAY_CODES))
def test_without_trump_a_void_hand_plays_any_card_and_followers_keep_their_duty(play_rule):
    assert legal("2O 1O 7E", "5C", trump=None, play_rule=play_rule) == {"2O", "1O", "7E"}
    following = {"12C", "3C"} if play_rule.startswith("pocha") else {"4C", "12C", "3C"}  # beat the lead if bound to
    assert legal("4C 12C 3C 1E", "5C", trump=None, play_rule=play_rule) == following


TRUMPLESS = make_rules(players=4, deck="8", full_deal_trump="none")  # 1s and 3s: two cards each is the whole deck
HANDS = ["3O 3C", "1E 1C", "3E 3B", "1O 1B"]  # dealer 3: under dealer-card its last card, 1B, names bastos


def test_a_full_deal_without_trump_goes_to_the_led_suits_best_card():
    won, _, plays, leaders = play_hand_built(HANDS, None, dealer=3, bids=[0] * 4, rules=TRUMPLESS)
    assert [[TRUMPLESS.notation.name(c) for c in trick] for trick in plays] == [
        ["3O", "1C", "3E", "1O"],  # the void hands play any card: nobody ruffs, the ace of oros wins
        ["1B", "3C", "1E", "3B"],
    ]
    assert leaders.tolist() == [0, 3, 3] and won == [0, 0, 0, 2]
    dealer_card = replace(TRUMPLESS, full_deal_trump="dealer-card")
    won, _, plays, _ = play_hand_built(HANDS, "1B", dealer=3, bids=[0] * 4, rules=dealer_card)
    assert TRUMPLESS.notation.name(plays[0][2]) == "3B" and won == [0, 0, 1, 1]  # the same deal with trump: 3B ruffs


@pytest.mark.parametrize(
    ("hands", "trump_card", "winner"),
    [
        (["5C", "1C", "3O", "12C"], "7O", 2),  # the only trump wins
        (["5C", "1C", "3E", "12C"], "7O", 1),  # no trump: highest of the led suit
        (["5C", "4C", "1E", "2C"], "7O", 0),  # an off-suit card never wins, even the ace
        (["2O", "1O", "3O", "12C"], "7O", 1),  # trump led: highest trump
        (["5C", "2O", "4O", "1C"], "7O", 2),  # over-trumped
    ],
)
def test_trick_winner(hands, trump_card, winner):
    # dealer 3, so seat 0 leads and the cards fall in seat order
    won, *_ = play_hand_built(hands, trump_card, dealer=3, bids=[0, 0, 0, 0])
    assert won == [int(s == winner) for s in range(4)]


def test_the_winner_leads_the_next_trick():
    # Bids made, seat 0 leads its weakest card, 4C; each must beat it: 5C, 6C, 7C, so seat 3 wins and
    # leads 4E; seat 0, void in espadas, must trump with 1O and wins the last trick.
    won, _, plays, leaders = play_hand_built(["1O 4C", "2O 5C", "3E 6C", "4E 7C"], "10O", dealer=3, bids=[0] * 4)
    assert [[LUDOTEKA.notation.name(c) for c in trick] for trick in plays] == [
        ["4C", "5C", "6C", "7C"],
        ["4E", "1O", "2O", "3E"],
    ]
    assert leaders.tolist() == [0, 3, 0]
    assert won == [1, 0, 0, 1]


def test_the_mano_bids_first_and_leads_the_first_trick():
    *_, leaders = play_hand_built(["1O", "2O", "3E", "4E"], "7O", dealer=1, bids=[0] * 4)
    assert leaders[0] == 2


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [(0, 0, 10), (3, 3, 25), (2, 4, -10), (4, 1, -15), (1, 0, -5)],
)
def test_scoring(bid, won, points):
    assert Scoring().points(bid, won) == points
    assert Scoring().points_grid(5)[bid, won] == points


def test_scoring_numbers_are_options():
    assert Scoring(exact=20, per_trick=2, miss_per_trick=-10).points(2, 2) == 24
    assert Scoring(exact=20, per_trick=2, miss_per_trick=-10).points(2, 5) == -30


@pytest.mark.parametrize("scoring", [SCORINGS["tricks+10"][0], Scoring(exact=20, per_trick=2, miss_per_trick=-10)])
def test_the_kernels_score_with_the_rules_table(scoring):
    rules = replace(LUDOTEKA, scoring=scoring)
    won, points, *_ = play_hand_built(["1O", "2O", "3E", "4E"], "7O", dealer=3, bids=[1, 1, 0, 0], rules=rules)
    assert won == [1, 0, 0, 0]
    assert points == [scoring.points(b, w) for b, w in zip([1, 1, 0, 0], won, strict=True)]
