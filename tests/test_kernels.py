"""The kernels against the slow reference in ``reference.py``, on many random positions and deals."""

import numpy as np
import pytest
import reference
from conftest import LUDOTEKA, numbers
from hypothesis import given, settings
from hypothesis import strategies as st

from pocha.engine.chunk import PLAY_CODES, SeatPolicies, deal_chunk, play_chunk, same_policy
from pocha.engine.policies import parse_policy
from pocha.game.cards import cards_of, mask_of
from pocha.game.presets import PRESETS, make_rules
from pocha.kernels.bits import highest_bit, lowest_bit, nth_card, nth_card_by_loop, popcount
from pocha.kernels.codes import NO_TRUMP, POLICY_GREEDY, POLICY_LEARNED, POLICY_PIMC, POLICY_RANDOM
from pocha.kernels.play import DealRules, Outcome, Policies, play_batch_plain
from pocha.kernels.streams import uniform_batch
from pocha.kernels.trick import legal_mask

DECK = [int(c) for c in LUDOTEKA.deck()]


@settings(max_examples=600, deadline=None)
@given(
    order=st.permutations(DECK),
    hand_size=st.integers(1, 10),
    trick_size=st.integers(0, 3),
    trump=st.one_of(st.none(), st.integers(0, 3)),
    play_rule=st.sampled_from(sorted(PLAY_CODES)),
)
def test_legal_mask_matches_the_reference(order, hand_size, trick_size, trump, play_rule):
    hand, trick = order[:hand_size], order[hand_size : hand_size + trick_size]
    got = legal_mask(np.uint64(mask_of(hand)), *reference.trick_masks(trick, trump), PLAY_CODES[play_rule])
    assert sorted(cards_of(got)) == sorted(reference.legal_cards(hand, trick, trump, play_rule))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, (1 << 64) - 1), st.data())
def test_bit_helpers(x, data):
    bits = [i for i in range(64) if x >> i & 1]
    value = np.uint64(x)
    assert popcount(value) == len(bits)
    assert lowest_bit(value) == bits[0]
    assert highest_bit(value) == bits[-1]
    n = data.draw(st.integers(0, len(bits) - 1))
    assert nth_card(value, n) == nth_card_by_loop(value, n) == bits[n]


def replay_deal(rules, chunk, d, played, greedy):
    """Check recorded deal ``d`` of a chunk (``played``: what ``play_chunk`` gives) with the reference: every card
    legal, winners, tricks, points; greedy plays exact."""
    hands, trump_card, bids = chunk.hands[d], chunk.trump_card[d], chunk.bids[d]
    won, points, plays, leaders = (array[d] for array in played)
    dealer = chunk.numbers[d] % len(hands)
    trump = None if trump_card == NO_TRUMP else int(trump_card) >> 4
    assert (trump is not None) == reference.has_trump(rules, len(cards_of(hands[0])))
    held = [cards_of(h) for h in hands]
    players, cards = len(held), len(held[0])
    if greedy:
        expected = reference.play_greedy(held, trump, (dealer + 1) % players, list(bids), rules.play_rule)
        assert [(leader, trick) for leader, trick in expected] == [
            (int(leaders[t]), [int(c) for c in plays[t]]) for t in range(cards)
        ]
    counted = [0] * players
    leader = (dealer + 1) % players
    for t in range(cards):
        assert leaders[t] == leader
        trick: list[int] = []
        for j in range(players):
            seat = (leader + j) % players
            card = int(plays[t, j])
            assert card in reference.legal_cards(held[seat], trick, trump, rules.play_rule)
            held[seat].remove(card)
            trick.append(card)
        leader = (leader + reference.trick_winner(trick, trump)) % players
        counted[leader] += 1
    assert leaders[cards] == leader
    assert list(won) == counted and sum(counted) == cards
    assert list(points) == [reference.score(b, w, rules.scoring) for b, w in zip(bids, counted, strict=True)]


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize(
    ("preset", "players", "full_deal_trump"),
    [
        ("ludoteka", 4, "dealer-card"),
        ("turkish", 3, "dealer-card"),
        ("oh-hell", 5, "dealer-card"),
        ("italian", 8, "dealer-card"),
        ("ludoteka", 4, "none"),
        ("turkish", 3, "none"),
    ],
)
def test_whole_deals_match_the_reference(preset, players, full_deal_trump, policy):
    rules = make_rules(preset, players, full_deal_trump=full_deal_trump)
    rng = np.random.default_rng(players)
    for cards in (1, 2, rules.full_deal // 2, rules.full_deal):
        chunk = deal_chunk(rules, seed=11, cards=cards, numbers=numbers(0, 60))
        chunk.bids[:] = rng.integers(0, cards + 1, chunk.bids.shape)
        played = play_chunk(rules, 11, chunk, same_policy(parse_policy(policy), chunk), traced=True)
        for d in range(len(chunk.hands)):
            replay_deal(rules, chunk, d, played, greedy=policy == "greedy")


@pytest.mark.slow
@pytest.mark.parametrize("play_rule", sorted(PLAY_CODES))
@pytest.mark.parametrize("players", range(3, 9))
def test_plain_play_is_the_recorded_play(players, play_rule):
    """The loop without a trace or pimc seats (``play_batch_plain``) plays every card as the recorded one.

    Every seat random, every seat greedy, and the two taking turns round the table.
    """
    rules = make_rules("italian", players=players, play_rule=play_rule)  # a deck for every count
    turns = np.where(np.arange(players) % 2 == 0, POLICY_RANDOM, POLICY_GREEDY)
    rows = [np.full(players, POLICY_RANDOM), np.full(players, POLICY_GREEDY), turns]
    for cards in (1, rules.full_deal):
        chunk = deal_chunk(rules, seed=5, cards=cards, numbers=numbers(0, 300))
        chunk.bids[:] = np.random.default_rng(players).integers(0, cards + 1, chunk.bids.shape)
        for row in rows:
            none = np.zeros((1, players), np.int64)
            codes = row[None, :].astype(np.int64)
            policies = SeatPolicies(codes, none, np.zeros((1, players)), none, none, none, none - 1, none + 1, none)
            plain = play_chunk(rules, 5, chunk, policies)[:2]
            recorded = play_chunk(rules, 5, chunk, policies, traced=True)[:2]
            assert all(np.array_equal(a, b) for a, b in zip(plain, recorded, strict=True))


@pytest.mark.parametrize("policy", [POLICY_PIMC, POLICY_LEARNED])
def test_the_plain_play_refuses_a_pimc_or_learned_seat(policy):
    """``play_batch_plain`` has no pimc or model in it: given such a seat it raises instead of playing it as greedy."""
    rules = make_rules()
    chunk = deal_chunk(rules, seed=1, cards=3, numbers=numbers(0, 4))
    codes = np.array([[POLICY_GREEDY, policy, POLICY_GREEDY, POLICY_RANDOM]])
    policies = Policies(codes, np.full_like(codes, 10), *(np.zeros_like(codes) for _ in range(6)))
    outcome = Outcome(*np.empty((2, 4, 4), np.int64))
    with pytest.raises(ValueError, match="pimc or learned seat needs play_batch"):
        play_batch_plain(1, chunk, DealRules.of(rules, 3), policies, outcome)


@pytest.mark.parametrize("full_deal_trump", ["dealer-card", "none"])
@pytest.mark.parametrize(("players", "cards"), [(4, 10), (4, 9), (3, 12), (8, 6), (5, 1)])
def test_dealing(players, cards, full_deal_trump):
    rules = make_rules(players=players, full_deal_trump=full_deal_trump)
    chunk = deal_chunk(rules, seed=3, cards=cards, numbers=numbers(0, 500))
    deck = set(DECK if players == 4 else (int(c) for c in rules.deck()))
    full = cards * players == rules.deck_size
    for d, (hands, trump_card) in enumerate(zip(chunk.hands, chunk.trump_card, strict=True)):
        held = [set(cards_of(h)) for h in hands]
        assert all(len(h) == cards for h in held)
        assert set().union(*held) <= deck and sum(map(len, held)) == cards * players
        dealer = d % players
        if full and full_deal_trump == "none":  # no card names trump
            assert trump_card == NO_TRUMP
        elif full:  # the dealer's last card names trump and stays in the dealer's hand
            assert trump_card in held[dealer]
        else:  # the next card is turned up and belongs to nobody
            assert trump_card in deck and not any(trump_card in h for h in held)


def test_without_trump_the_same_cards_are_dealt():
    """Under full-deal-trump none a full deal holds the same hands, only no trump card; other deals are the same."""
    rules = make_rules(players=4)
    trumpless = make_rules(players=4, full_deal_trump="none")
    for cards in (9, 10):
        dealt, bare = (deal_chunk(r, seed=4, cards=cards, numbers=numbers(0, 50)) for r in (rules, trumpless))
        assert np.array_equal(dealt.hands, bare.hands)
        assert np.array_equal(bare.trump_card, dealt.trump_card if cards < 10 else np.full(50, NO_TRUMP))


def test_deals_are_uniform():
    """Each card lands in each seat with chance k / deck, and every suit is trump a quarter of the time.

    Tolerance: 5 standard deviations of a binomial count, per cell.
    """
    rules = make_rules(players=4)
    deals, cards = 40_000, 3
    chunk = deal_chunk(rules, seed=5, cards=cards, numbers=numbers(0, deals))
    bits = (chunk.hands[:, :, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    counts = bits.sum(axis=0)[:, DECK]  # [seat, card]
    p = cards / 40
    assert np.all(np.abs(counts - deals * p) < 5 * np.sqrt(deals * p * (1 - p)))
    trumps = np.bincount(chunk.trump_card >> 4, minlength=4)
    assert np.all(np.abs(trumps - deals / 4) < 5 * np.sqrt(deals * 0.25 * 0.75))


def test_a_deal_depends_only_on_seed_size_and_number():
    rules = make_rules(players=4)
    whole = deal_chunk(rules, seed=9, cards=7, numbers=numbers(0, 20))
    part = deal_chunk(rules, seed=9, cards=7, numbers=numbers(5, 10))
    assert np.array_equal(whole.hands[5:15], part.hands)
    assert np.array_equal(whole.trump_card[5:15], part.trump_card)
    other = deal_chunk(rules, seed=10, cards=7, numbers=numbers(0, 20))
    assert not np.array_equal(whole.hands, other.hands)


def test_uniforms_are_per_deal():
    out_all = np.empty((10, 3))
    uniform_batch(1, 5, np.arange(10, dtype=np.int64), 7, out_all)
    out_some = np.empty((2, 3))
    uniform_batch(1, 5, np.array([3, 8], dtype=np.int64), 7, out_some)
    assert np.array_equal(out_all[[3, 8]], out_some)
    assert out_all.min() >= 0 and out_all.max() < 1


def test_every_preset_has_kernel_codes():
    assert {make_rules(name).play_rule for name in PRESETS} <= set(PLAY_CODES)
