"""Dealing under conditions: predealt cards where they belong, conditions met, the draws honest and reproducible.

Exact checks: a card fixed to a position at one card takes the trick as often as the exact count says
(``exact_one_card``); the trumps of a position under a condition follow the hypergeometric law cut
to the condition; the dealer's turned card in a full deal is any of its cards alike. A condition's
deals are those of a run without it that meet it (attempt 0 is the plain deal), and a statistic
measured under it matches the one measured by filtering a plain run's deals.
"""

from math import comb

import numpy as np
import pytest
from conftest import EVERY_RULE_SET, lineup, numbers, rule_id
from exact_one_card import counts

from pocha.engine import dealing
from pocha.engine.chunk import collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.dealing import condition_sizes, deal, met, probe
from pocha.engine.policies import GREEDY
from pocha.errors import PochaError
from pocha.game.cards import cards_of
from pocha.game.conditions import read_conditions
from pocha.game.presets import make_rules
from pocha.kernels.codes import NO_TRUMP
from pocha.kernels.seats import seats_to_positions

LUDOTEKA = make_rules("ludoteka", 4)


def by_position(chunk) -> np.ndarray:
    """uint64[deal, position] of a chunk's hands."""
    out = np.empty((chunk.hands.shape[1], len(chunk.numbers)), np.uint64)
    seats_to_positions(chunk.hands, chunk.numbers, out)
    return out.T


def trump_count(hands: np.ndarray, trump_card: np.ndarray) -> np.ndarray:
    """int64[deal, place]: the trumps of each hand (0 without trump)."""
    suits = np.maximum(trump_card, 0) >> 4
    lanes = (hands >> (16 * suits[:, None]).astype(np.uint64)) & np.uint64(0xFFFF)
    count = np.array([[bin(int(x)).count("1") for x in row] for row in lanes])
    return np.where(trump_card[:, None] >= 0, count, 0)


@pytest.mark.parametrize("rules", EVERY_RULE_SET, ids=rule_id)
def test_every_rule_set_deals_the_predealt_cards_and_meets_the_condition(rules):
    players, dealer = rules.players, rules.players - 1
    names = [rules.notation.name(int(c)) for c in rules.deck()]
    conditions = read_conditions(rules, [f"1={names[0]}", f"seat{dealer}={names[1]}"], where="voids(dealer) <= 3")
    for cards in sorted({2, rules.full_deal}):
        full = cards * players == rules.deck_size
        dealt = deal(rules, 7, cards, numbers(0, 200), conditions)
        chunk = dealt.chunk
        positions = by_position(chunk)
        assert dealt.attempts == 200  # the condition always holds: every first attempt is kept
        for d in range(200):
            held = [set(cards_of(h)) for h in chunk.hands[d]]
            assert all(len(h) == cards for h in held) and len(set().union(*held)) == cards * players
            assert set().union(*held) <= set(int(c) for c in rules.deck())
            assert names[0] in rules.notation.names(cards_of(positions[d, 0])).split()
            assert names[1] in rules.notation.names(cards_of(chunk.hands[d, dealer])).split()
            trump = int(chunk.trump_card[d])
            if not rules.has_trump(cards):
                assert trump == NO_TRUMP
            elif full:
                assert trump in set(cards_of(positions[d, dealer]))
            else:
                assert trump not in set().union(*held)


@pytest.mark.parametrize(("players", "cards"), [(4, 5), (4, 10), (3, 12), (5, 8)])
def test_predealt_cards_and_a_fixed_trump_leave_the_rest_to_chance(players, cards):
    """Every other card lands in each place with its share of the places left; 5 binomial deviations a cell."""
    rules = make_rules("ludoteka", players)
    full = cards * players == rules.deck_size
    hands = ["1=1O 3O", "seat1=12C"]
    conditions = read_conditions(rules, hands, "7B" if not full else None)
    deals = 20_000
    chunk = deal(rules, 3, cards, numbers(0, deals), conditions).chunk
    positions = by_position(chunk)
    fixed = {int(c) for c in rules.notation.parse_list("1O 3O 12C")} | (
        {rules.notation.parse("7B")} if not full else set()
    )
    free = [int(c) for c in rules.deck() if int(c) not in fixed]
    bits = (positions[:, :, None] >> np.array(free, np.uint64)) & np.uint64(1)
    share = bits.sum(axis=0)  # [position, card]
    seat_one_at = -numbers(0, deals) % players  # the position seat 1 holds in each deal (its dealer's left)
    slots = cards - 2 * (np.arange(players) == 0) - (seat_one_at[:, None] == np.arange(players))  # [deal, position]
    expected = slots.sum(axis=0) / len(free)
    assert np.all(np.abs(share - expected[:, None]) < 5 * np.sqrt(expected[:, None]) + 1)
    if not full:
        assert (chunk.trump_card == rules.notation.parse("7B")).all()


def test_the_dealers_turned_card_is_any_of_its_cards_alike_when_some_are_predealt():
    rules = LUDOTEKA
    chunk = deal(rules, 5, 10, numbers(0, 40_000), read_conditions(rules, ["dealer=1O 3O"])).chunk
    turned = np.bincount(np.isin(chunk.trump_card, rules.notation.parse_list("1O 3O")), minlength=2)
    p = 2 / 10  # two of the dealer's ten cards
    assert abs(turned[1] - 40_000 * p) < 5 * np.sqrt(40_000 * p * (1 - p))


def test_a_conditions_deals_are_the_plain_deals_that_meet_it():
    """Attempt 0 is the plain deal: the deals that meet the condition at once are the plain run's, untouched."""
    rules, cards = LUDOTEKA, 5
    plain = deal_chunk(rules, 11, cards, numbers(0, 3000))
    conditions = read_conditions(rules, where="trumps(dealer) >= 2")
    dealt = deal(rules, 11, cards, numbers(0, 3000), conditions).chunk
    meets = trump_count(by_position(plain), plain.trump_card)[:, 3] >= 2
    assert np.array_equal(dealt.hands[meets], plain.hands[meets])
    assert np.array_equal(dealt.trump_card[meets], plain.trump_card[meets])
    assert (trump_count(by_position(dealt), dealt.trump_card)[:, 3] >= 2).all()
    assert not np.array_equal(dealt.hands[~meets], plain.hands[~meets])


def test_a_deal_depends_only_on_the_seed_and_its_number():
    rules = LUDOTEKA
    conditions = read_conditions(rules, ["1=1O"], where="hcp(dealer) >= 6")
    whole = deal(rules, 9, 6, numbers(0, 400), conditions).chunk
    part = deal(rules, 9, 6, numbers(150, 100), conditions).chunk
    assert np.array_equal(whole.hands[150:250], part.hands) and np.array_equal(
        whole.trump_card[150:250], part.trump_card
    )
    other = deal(rules, 10, 6, numbers(0, 400), conditions).chunk
    assert not np.array_equal(whole.hands, other.hands)


def test_the_trumps_under_a_condition_follow_the_hypergeometric_law_cut_to_it():
    """trumps(1) >= 2 at 5 cards: P(j trumps) is C(9, j) C(30, 5-j) / C(39, 5), renormalised over j >= 2."""
    rules, cards, deals = LUDOTEKA, 5, 40_000
    chunk = deal(rules, 2, cards, numbers(0, deals), read_conditions(rules, where="trumps(1) >= 2")).chunk
    seen = np.bincount(trump_count(by_position(chunk), chunk.trump_card)[:, 0], minlength=cards + 1)
    law = np.array([comb(9, j) * comb(30, cards - j) for j in range(cards + 1)], float)
    law[:2] = 0
    law /= law.sum()
    assert seen[:2].sum() == 0
    assert np.all(np.abs(seen - deals * law) < 5 * np.sqrt(deals * law * (1 - law)) + 1)
    found, dealt = probe(rules, 2, cards, read_conditions(rules, where="trumps(1) >= 2"))
    exact = sum(comb(9, j) * comb(30, cards - j) for j in range(2, cards + 1)) / comb(39, cards)
    assert found >= dealing.PROBE_MET and dealt < dealing.PROBE_DEALS  # a common condition: a few rounds
    assert abs(found / dealt - exact) < 5 * np.sqrt(exact * (1 - exact) / dealt)


ONE_CARD = [  # (players, position from 0, card, trump card or None)
    (4, 0, "1O", None),
    (4, 3, "3C", None),
    (3, 1, "7B", None),
    (5, 2, "12E", None),
    (4, 1, "1C", "5O"),
    (4, 0, "2E", "4E"),
]


@pytest.mark.parametrize(("players", "position", "card", "trump"), ONE_CARD)
def test_a_fixed_card_takes_the_trick_as_often_as_the_exact_count_says(players, position, card, trump):
    """At one card play is forced: the card's chance is ``exact_one_card.counts`` over every deal it is in."""
    rules = make_rules("ludoteka", players)
    index = {int(c): i for i, c in enumerate(rules.deck())}
    zeros = [np.zeros((rules.deck_size, rules.deck_size, 2**k), np.int64) for k in range(position)]
    wins, deals_in = counts(rules, zeros, position)
    own = index[rules.notation.parse(card)]
    turned = slice(None) if trump is None else index[rules.notation.parse(trump)]
    exact = wins[turned, own].sum() / deals_in[turned, own].sum()
    deals = 60_000
    chunk = deal(rules, 4, 1, numbers(0, deals), read_conditions(rules, [f"{position + 1}={card}"], trump)).chunk
    played = np.array([[cards_of(h)[0] for h in row] for row in by_position(chunk)])  # [deal, position]
    suits, strengths = played >> 4, played % 16
    key = np.where(suits == (chunk.trump_card >> 4)[:, None], 32 + strengths, -1)
    key = np.where((key < 0) & (suits == suits[:, :1]), 16 + strengths, key)
    rate = (key.argmax(axis=1) == position).mean()
    assert abs(rate - exact) < 4.5 * np.sqrt(exact * (1 - exact) / deals), (rate, exact)


def test_a_statistic_under_a_condition_matches_the_plain_runs_deals_filtered():
    """Points of the dealer bidding ``expected`` with three trumps at 6 cards: two estimates of one mean."""
    rules, cards, deals = LUDOTEKA, 6, 12_000
    players = lineup(*["expected"] * rules.players).competitors(GREEDY)
    seating = np.zeros((deals, rules.players), np.int64)

    def dealer_points(chunk):
        collect_bids(rules, players, seating, 1, chunk)
        points = play_chunk(rules, 1, chunk, seat_policies(players, seating[:1]))[1]
        return points[np.arange(len(chunk.numbers)), chunk.numbers % rules.players]

    plain = deal_chunk(rules, 1, cards, numbers(0, deals))
    kept = trump_count(by_position(plain), plain.trump_card)[:, 3] >= 3
    filtered = dealer_points(plain)[kept]
    conditioned = dealer_points(
        deal(rules, 1, cards, numbers(0, deals), read_conditions(rules, where="trumps(4) >= 3")).chunk
    )
    error = np.sqrt(filtered.var() / len(filtered) + conditioned.var() / len(conditioned))
    assert abs(filtered.mean() - conditioned.mean()) < 4 * error


def test_a_plug_in_deals_what_the_same_expression_deals(tmp_path, monkeypatch):
    """Attempts kept depend on the deal alone: the rounds a plug-in is asked in change nothing."""
    (tmp_path / "cond.py").write_text(
        "import numpy as np\n\n\ndef fn(ctx):\n"
        "    held = ctx.by_position[:, -1] & ctx.trumps\n"
        "    return np.array([bin(int(h)).count('1') >= 2 for h in held])\n"
    )
    rules = LUDOTEKA
    expression = deal(rules, 6, 4, numbers(0, 500), read_conditions(rules, where="trumps(dealer) >= 2"))
    plug_in = read_conditions(rules, where=str(tmp_path / "cond.py:fn"))
    asked = deal(rules, 6, 4, numbers(0, 500), plug_in)
    assert np.array_equal(asked.chunk.hands, expression.chunk.hands) and asked.attempts == expression.attempts
    monkeypatch.setattr(dealing, "ROUND_ROWS", 7)  # rounds of a few attempts
    again = deal(rules, 6, 4, numbers(0, 500), plug_in)
    assert np.array_equal(again.chunk.hands, expression.chunk.hands)
    both = read_conditions(rules, ["1=1O"], where=[str(tmp_path / "cond.py:fn"), "has(1, '1O')"])
    chunk = deal(rules, 6, 4, numbers(0, 100), both).chunk
    assert (trump_count(by_position(chunk), chunk.trump_card)[:, 3] >= 2).all()
    expressed = read_conditions(rules, where="trumps(dealer) >= 2")
    assert met(rules, 6, 4, plug_in, numbers(0, 20_000)) == met(rules, 6, 4, expressed, numbers(0, 20_000))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("def fn(ctx):\n    return (ctx.numbers >= 0) * 1\n", ""),  # whole numbers 0 and 1 are truths too
        ("def fn(ctx):\n    return [True]\n", r"returned bool of shape \(1,\); expected one truth per deal"),
        ("def fn(ctx):\n    return 1 / 0\n", "failed: ZeroDivisionError: division by zero"),
        ("fn = 3\n", "fn is not a function"),
        ("def other(ctx):\n    return True\n", "has no 'fn'"),
        ("def fn(ctx)\n", r"failed to load \(line 1\): SyntaxError"),
    ],
)
def test_a_broken_plug_in_is_one_line(tmp_path, body, message):
    path = tmp_path / f"cond{abs(hash(body))}.py"
    path.write_text(body)
    conditions = read_conditions(LUDOTEKA, where=f"{path}:fn")
    if not message:
        assert deal(LUDOTEKA, 1, 3, numbers(0, 10), conditions).attempts == 10
        return
    with pytest.raises(PochaError, match=message) as caught:
        deal(LUDOTEKA, 1, 3, numbers(0, 10), conditions)
    assert str(caught.value).startswith(f"where '{path}:fn'") and "\n" not in str(caught.value)


def test_too_rare_a_condition_stops_with_the_deals_found(monkeypatch):
    rules = LUDOTEKA
    three = read_conditions(rules, ["dealer=7C"], "7O", "trumps(dealer) >= 3")
    with pytest.raises(PochaError, match="^where: 0 of 100,000 deals of 3 cards meet the conditions; too few"):
        condition_sizes(rules, 1, three, [3, 4], every=False)
    assert probe(rules, 1, 3, three) == (0, dealing.PROBE_DEALS)
    conditioned, left_out = condition_sizes(rules, 1, three, [3, 4], every=True)
    assert conditioned.sizes == (4,) and left_out == {3: "0 of 100,000 deals meet the conditions"}
    assert condition_sizes(rules, 1, read_conditions(rules, where="trumps(1) >= 1"), [4], False)[0].shares[0][1] > 0.5
    monkeypatch.setattr(dealing, "MOST_ATTEMPTS", 50)
    rare = read_conditions(rules, where="trumps(1) == 5")
    with pytest.raises(
        PochaError, match=r"^where: deal \d+ of 5 cards met the conditions in none of 50 attempts, after"
    ):
        deal(rules, 1, 5, numbers(0, 200), rare)
