import itertools
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import pytest
import reference
from conftest import LUDOTEKA, ids, lineup, numbers
from exact_one_card import best_bids, evaluate, strategy_policy
from test_strategies import context

from pocha.engine.advice import advise, read_situation
from pocha.engine.chunk import deal_chunk
from pocha.engine.simulate import Deals, simulate
from pocha.errors import PochaError
from pocha.game.cards import cards_of
from pocha.game.presets import make_rules
from pocha.game.rules import Rules, forbidden_bids
from pocha.kernels.codes import NO_TRUMP, STREAM_ROLLOUT, STREAM_SAMPLE
from pocha.kernels.play import Chunk, DealRules
from pocha.kernels.playouts import rollout_counts, sample_completions, unseen_cards, whole_rollout_counts
from pocha.kernels.streams import stream_states
from pocha.reports.stats import summary
from pocha.strategies import registry
from pocha.strategies.base import BidContext, Strategy, best_legal
from pocha.strategies.heuristics import Expected, FairShare
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.play_models import run_models
from pocha.strategies.playouts import expected_points, play_outs, rollout_policies, systematic_resample
from pocha.strategies.table import TableStrategy

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier


def completed(seed, rules, cards, chunk, position, own, samples):
    """uint64[deal * samples, seat]: ``sample_completions`` of the chunk's deals from the start of their streams."""
    hands = np.empty((len(own) * samples, rules.players), np.uint64)
    states = stream_states(seed, cards, chunk.numbers, STREAM_SAMPLE)
    unseen = unseen_cards(own, chunk.trump_card, rules.deck())
    sample_completions(states, unseen, cards, chunk.numbers, position, own, chunk.trump_card, hands)
    return hands


@pytest.mark.parametrize("full_deal_trump", ["dealer-card", "none"])
@pytest.mark.parametrize(("players", "cards", "position"), [(4, 5, 0), (4, 10, 1), (4, 10, 3), (3, 12, 2), (5, 1, 4)])
def test_sampled_deals_keep_what_the_bidder_knows(players, cards, position, full_deal_trump):
    rules = make_rules(players=players, full_deal_trump=full_deal_trump)
    chunk = deal_chunk(rules, 1, cards, numbers(0, 20))
    seat = (chunk.numbers + 1 + position) % players
    own = chunk.hands[np.arange(20), seat]
    samples = 8
    hands = completed(3, rules, cards, chunk, position, own, samples)
    deck = set(int(c) for c in rules.deck())
    full = cards * players == rules.deck_size
    for row in range(20 * samples):
        d = row // samples
        held = [set(cards_of(h)) for h in hands[row]]
        assert held[seat[d]] == set(cards_of(own[d]))
        assert all(len(h) == cards for h in held) and sum(map(len, held)) == len(set().union(*held))
        assert set().union(*held) <= deck
        trump = int(chunk.trump_card[d])
        if trump == NO_TRUMP:  # every card is dealt, none held back for a shown card
            assert full and sum(map(len, held)) == rules.deck_size
        elif full:
            assert trump in held[chunk.numbers[d] % players]  # the dealer's shown card stays with the dealer
        else:
            assert not any(trump in h for h in held)


def test_samples_dealt_and_played_in_pieces_are_those_of_one_call():
    """The stream states and the unseen cards, left where a call ends, are where the next call goes on from."""
    rules, cards, position, samples = make_rules(players=4), 6, 1, 9
    chunk = deal_chunk(rules, 1, cards, numbers(0, 3))
    own = chunk.hands[np.arange(3), (chunk.numbers + 1 + position) % 4]
    at_once = completed(5, rules, cards, chunk, position, own, samples)
    states = stream_states(5, cards, chunk.numbers, STREAM_SAMPLE)
    unseen = unseen_cards(own, chunk.trump_card, rules.deck())
    pieces = []
    for width in (4, 1, 4):
        hands = np.empty((3 * width, 4), np.uint64)
        sample_completions(states, unseen, cards, chunk.numbers, position, own, chunk.trump_card, hands)
        pieces.append(hands.reshape(3, width, 4))
    assert np.array_equal(np.concatenate(pieces, axis=1).reshape(-1, 4), at_once)
    random, deal_rules, bids = rollout_policies("random", 4), DealRules.of(rules, cards), np.ones((3 * samples, 1, 4))
    counts = [np.zeros((3, cards + 1, cards + 1)) for _ in range(2)]
    states = stream_states(5, cards, chunk.numbers, STREAM_ROLLOUT)
    whole = Chunk(cards, np.repeat(chunk.numbers, samples), at_once, np.repeat(chunk.trump_card, samples), bids)
    rollout_counts(states.copy(), whole, position, deal_rules, random, np.ones(3 * samples), counts[0])
    for first, last in ((0, 4), (4, 5), (5, 9)):
        rows = (np.arange(3)[:, None] * samples + np.arange(first, last)).ravel()
        piece = Chunk(cards, whole.numbers[rows], at_once[rows], whole.trump_card[rows], bids[rows])
        rollout_counts(states, piece, position, deal_rules, random, np.ones(len(rows)), counts[1])
    assert np.array_equal(counts[0], counts[1]) and counts[0].sum() == 3 * samples * (cards + 1)


EXPECTED = ("expected", Expected())


def test_play_outs_count_every_sample_for_every_bid():
    rules = make_rules(players=4)
    chunk = deal_chunk(rules, 1, 4, numbers(0, 6))
    samples = 10
    own = chunk.hands[np.arange(6), (chunk.numbers + 1) % 4]
    hands = completed(1, rules, 4, chunk, 0, own, samples)
    bids = np.ones((6 * samples, 1, 4), np.int64)
    sampled = Chunk(4, np.repeat(chunk.numbers, samples), hands, np.repeat(chunk.trump_card, samples), bids)
    deal_rules, weights = DealRules.of(rules, 4), np.ones(6 * samples)
    for policy in ("greedy", "pimc", "learned", "random"):
        counts = np.zeros((6, 5, 5))
        states = stream_states(1, 4, chunk.numbers, STREAM_ROLLOUT)
        if policy in ("pimc", "learned"):
            models = run_models(rules, ("",))
            every = np.ones((6, 5), np.bool_)
            policies = rollout_policies(policy, 4)
            whole_rollout_counts(states, sampled, 0, deal_rules, policies, models, weights, every, counts)
        else:
            rollout_counts(states, sampled, 0, deal_rules, rollout_policies(policy, 4), weights, counts)
        assert np.all(counts.sum(axis=2) == samples)
    assert np.all(counts == counts[:, :1])  # random play ignores the bid: one play-out serves every bid


@pytest.mark.parametrize("answered", [False, True])
@pytest.mark.parametrize(
    ("players", "cards", "position", "play_rule"),
    [
        (4, 10, 1, "pocha"),
        (3, 12, 2, "trump"),
        (5, 3, 0, "follow"),
        (6, 6, 5, "pocha-trump-lead-free"),
        (4, 8, 3, "pocha-always-beat"),
    ],
)
def test_greedy_play_outs_are_one_whole_play_out_per_bid(players, cards, position, play_rule, answered):
    """The shared lines of play with their branches count what one greedy play-out per bid (the reference) counts.

    answered: the table's bids depend on the candidate (later bidders answer it), drawn from 0..1 so that
    some candidates share their table's bids and others do not; else one set of bids for every candidate.
    Every third sample repeats the one before it, as resampling repeats a world: played once, counted twice.
    """
    rules = make_rules(players=players, play_rule=play_rule)
    deals, samples = 12, 6
    chunk = deal_chunk(rules, 3, cards, numbers(0, deals))
    bidders = (chunk.numbers + 1 + position) % players
    own = chunk.hands[np.arange(deals), bidders]
    hands = completed(3, rules, cards, chunk, position, own, samples)
    rng = np.random.default_rng(0)
    bids = (
        rng.integers(0, 2, (deals * samples, cards + 1, players))
        if answered
        else rng.integers(0, cards + 1, (deals * samples, 1, players))
    )
    hands[2::3], bids[2::3] = hands[1::3], bids[1::3]
    counts = np.zeros((deals, cards + 1, cards + 1))
    sampled = Chunk(cards, np.repeat(chunk.numbers, samples), hands, np.repeat(chunk.trump_card, samples), bids)
    rollout_counts(
        stream_states(3, cards, chunk.numbers, STREAM_ROLLOUT),
        sampled,
        position,
        DealRules.of(rules, cards),
        rollout_policies("greedy", players),
        np.ones(deals * samples),
        counts,
    )
    expected = np.zeros_like(counts)
    for row in range(deals * samples):
        d, bidder = row // samples, int(bidders[row // samples])
        held = [cards_of(h) for h in hands[row]]
        for bid in range(cards + 1):
            row_bids = [int(b) for b in bids[row, bid if answered else 0]]
            row_bids[bidder] = bid
            mano = (int(chunk.numbers[d]) + 1) % players
            tricks = reference.play_greedy(held, int(chunk.trump_card[d]) >> 4, mano, row_bids, play_rule)
            winners = [leader for leader, _ in tricks[1:]] + [last_winner(tricks, int(chunk.trump_card[d]) >> 4)]
            expected[d, bid, winners.count(bidder)] += 1
    assert np.array_equal(counts, expected)


@dataclass(frozen=True)
class Asked:
    """Bids as the strategy it holds without being it: ``play_outs`` asks it position by position."""

    inner: Strategy
    name: ClassVar[str] = "asked"

    def bid(self, ctx: BidContext) -> np.ndarray:
        return self.inner.bid(ctx)


def bidder_context(rules: Rules, cards: int, position: int, deals: int, seed: int) -> BidContext:
    """The bidder at ``position`` in ``deals`` dealt deals, after random legal bids of the earlier bidders."""
    chunk = deal_chunk(rules, seed, cards, numbers(0, deals))
    rng = np.random.default_rng(seed)
    earlier = np.zeros((deals, position), np.int64)
    for p in range(position):
        forbidden = forbidden_bids(rules, cards, earlier[:, :p])
        earlier[:, p] = rng.integers(0, cards + 1, deals)
        earlier[earlier[:, p] == forbidden, p] = (forbidden[earlier[:, p] == forbidden] + 1) % (cards + 1)
    return BidContext(
        rules=rules,
        cards=cards,
        position=position,
        hands=chunk.hands[np.arange(deals), (chunk.numbers + 1 + position) % rules.players],
        trump_card=chunk.trump_card,
        earlier_bids=earlier,
        forbidden=forbidden_bids(rules, cards, earlier),
        seed=seed,
        numbers=chunk.numbers,
    )


@pytest.mark.parametrize(("sharpness", "oversample"), [(1.5, 4), (0.7, 1), (0.0, 1)])
@pytest.mark.parametrize(
    ("players", "cards", "hook", "small"),
    [(4, 10, "except-one-card", False), (3, 5, "always", False), (5, 4, "always", False), (4, 6, "always", True)],
)
def test_play_outs_bid_for_the_table_in_the_kernels_as_the_table_bids(
    small_table, players, cards, hook, small, sharpness, oversample
):
    """The table read and answering in the kernels (``TableModel``) plays out what asking the strategy plays out.

    small: a table of 300 deals a hand size, whose thin cells bid as ``expected``.
    """
    rules = make_rules(players=players, hook=hook)
    table = TableStrategy(str(small_table[1])) if small else TableStrategy()
    if small:
        assert not table.model(bidder_context(rules, cards, 0, 1, 0)).found.all()
    for position in range(players):
        ctx = bidder_context(rules, cards, position, 12, 7 + position)
        fast, asked = (play_outs(ctx, 6, assumed, "greedy", sharpness, oversample) for assumed in (table, Asked(table)))
        assert np.array_equal(fast.counts, asked.counts) and np.array_equal(fast.effective, asked.effective)


def last_winner(tricks: list[tuple[int, list[int]]], trump: int) -> int:
    leader, trick = tricks[-1]
    return (leader + reference.trick_winner(trick, trump)) % len(trick)


def test_systematic_resampling_picks_each_world_about_as_often_as_its_weight_says():
    weights = np.array([[0.0, 1.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0], [5.0, 0.0, 0.0, 0.0]])
    picked = systematic_resample(weights, 4, np.array([0.1, 0.5, 0.99]))
    assert picked.tolist() == [1, 3, 3, 3, 4, 5, 6, 7, 8, 8, 8, 8]  # flat indices: deal d's worlds are 4 d ..
    rng = np.random.default_rng(0)
    weights = rng.random((50, 40)) ** 4
    picked = systematic_resample(weights, 16, rng.random(50))
    times = np.bincount(picked, minlength=weights.size).reshape(weights.shape)
    share = 16 * weights / weights.sum(axis=1, keepdims=True)
    assert np.all(np.abs(times - share) < 1) and np.all(times.sum(axis=1) == 16)


def test_best_bid_skips_the_forbidden_one():
    points = np.array([[1.0, 5.0, 3.0], [2.0, 1.0, 0.0]])
    assert best_legal(points, np.array([-1, -1])).tolist() == [1, 0]
    assert best_legal(points, np.array([1, 0])).tolist() == [2, 1]


def test_points_grid():
    grid = LUDOTEKA.scoring.points_grid(2)
    assert grid.tolist() == [[10, -5, -10], [-5, 15, -5], [-10, -5, 20]]


def test_montecarlo_on_clear_hands():
    all_trumps = "1O 3O 12O 11O 10O 7O 6O 5O 4O 2O"
    assert MonteCarlo(samples=8).bid(context([all_trumps], "2O")).tolist() == [10]
    weakest = "2C 2E 2B 4C 4E 4B 5C 5E 5B 6C"
    assert MonteCarlo(samples=8).bid(context([weakest], "2O")).tolist() == [0]
    # as the dealer after bids of 4, 3, 3 with nothing: 0 would be best but the hook forbids it
    assert MonteCarlo(samples=8).bid(context([weakest], "2O", [4, 3, 3])).tolist() == [1]


def test_montecarlo_parameters():
    with pytest.raises(PochaError, match="samples must be at least 1"):
        MonteCarlo(samples=0)
    with pytest.raises(PochaError, match="oversample must be at least 1"):
        MonteCarlo(oversample=0)
    with pytest.raises(PochaError, match="solve must be a whole number of tricks from 0 to 20"):
        MonteCarlo(solve=21)
    with pytest.raises(PochaError, match="it needs rollout=greedy, not 'pimc'"):
        MonteCarlo(solve=2, rollout="pimc")
    with pytest.raises(PochaError, match="sharpness must be 0 or more"):
        MonteCarlo(sharpness=-1)
    with pytest.raises(PochaError, match="shortlist must be 0 .every bid. or more, not -1"):
        MonteCarlo(shortlist=-1, rollout="pimc")
    with pytest.raises(PochaError, match="it needs rollout=pimc or learned, not 'greedy'"):
        MonteCarlo(shortlist=3)
    with pytest.raises(PochaError, match="unknown name 'psychic'"):
        registry.load("montecarlo:assume=psychic")
    assert isinstance(MonteCarlo().assume, TableStrategy)
    label, strategy = registry.load("montecarlo:assume=fair-share,samples=8")
    assert label == "montecarlo:samples=8,assume=fair-share"
    assert strategy == MonteCarlo(samples=8, assume=FairShare())


@pytest.mark.parametrize(("cards", "position"), [(6, 3), (8, 1)])
def test_a_shortlist_plays_out_only_the_best_bids_of_the_greedy_pass(cards, position):
    """Only the shortlisted bids (the greedy pass's best legal ones) are played out, and the bid is one of them;
    a shortlist of every bid plays out what no shortlist does, and so bids the same."""
    rules = make_rules(players=4)
    ctx = bidder_context(rules, cards, position, 40, 5)
    full = MonteCarlo(samples=8, rollout="learned")
    short = replace(full, shortlist=2)
    considered = short.shortlisted(ctx)
    assert np.all(considered.sum(axis=1) == 2)
    hooked = ctx.forbidden >= 0
    assert not considered[hooked, ctx.forbidden[hooked]].any()
    greedy = expected_points(replace(full, rollout="greedy").trick_counts(ctx), rules, cards)
    greedy[hooked, ctx.forbidden[hooked]] = -np.inf
    assert np.all(np.where(considered, greedy, np.inf).min(axis=1) >= np.where(considered, -np.inf, greedy).max(axis=1))
    counts = short.trick_counts(ctx, considered)
    assert np.all(counts.sum(axis=2)[considered] == 8) and not counts[~considered].any()
    assert considered[np.arange(ctx.size), short.bid(ctx)].all()
    every = replace(full, shortlist=cards + 1)
    assert np.array_equal(every.trick_counts(ctx, every.shortlisted(ctx)), full.trick_counts(ctx))
    assert np.array_equal(every.bid(ctx), full.bid(ctx))


def test_montecarlo_runs_do_not_depend_on_the_chunk_size():
    rules = make_rules(players=4)
    seats = lineup("montecarlo:samples=4", "expected", "montecarlo:samples=4", "zero")
    one, two = (
        simulate(Deals(rules=rules, lineup=seats, cards=[3, 6], deals_per_size=40, seed=2, chunk_size=size)).total
        for size in (7, 64)
    )
    assert summary(one).equals(summary(two))


def exact_one_card_win(hand: str, trump_card: str, position: int, players: int = 4) -> float:
    """P(the one card wins its trick), counting every way the other players' cards can fall."""
    rules = make_rules(players=players)
    mine, turned = ids(hand)[0], ids(trump_card)[0]
    unseen = [int(c) for c in rules.deck() if c not in (mine, turned)]
    wins = total = 0
    for others in itertools.permutations(unseen, players - 1):
        trick = [*others[:position], mine, *others[position:]]  # the bidder plays in its position
        wins += reference.trick_winner(trick, turned >> 4) == position
        total += 1
    return wins / total


@pytest.mark.parametrize(
    ("hand", "trump", "position", "bids"),
    [("1C", "7O", 3, "0,1,0"), ("12O", "7O", 0, ""), ("3E", "1B", 1, "1"), ("5O", "4O", 2, "0,0")],
)
def test_one_card_advice_matches_the_exact_chance(hand, trump, position, bids):
    """In one-card deals play is forced: the chance of the trick, not reading the bids, is counted exactly.

    Tolerance 4.5 MC errors."""
    situation = read_situation(LUDOTEKA, hand, trump, position, bids)
    advice = advise(situation, samples=20_000, seed=1, rollout="greedy", assume=EXPECTED, sharpness=0)
    exact = exact_one_card_win(hand, trump, position)
    assert abs(advice.tricks[1] - exact) < 4.5 * np.sqrt(exact * (1 - exact) / 20_000)
    assert advice.points[1] == pytest.approx(15 * advice.exact[1] - 5 * (1 - advice.exact[1]))
    assert advice.recommended == (1 if exact > 0.5 else 0) or abs(exact - 0.5) < 0.02


def test_advice_never_recommends_the_forbidden_bid():
    situation = read_situation(LUDOTEKA, "1O 3O 12C 5E 2B", "7O", 3, "1,0,1")
    advice = advise(situation, samples=2000, seed=0, rollout="random", assume=EXPECTED, sharpness=3)
    assert situation.forbidden == 3 and np.isnan(advice.points[3])
    assert advice.recommended != 3


@pytest.mark.parametrize("hook", ["never", "always"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_reading_the_earlier_bids_reaches_the_exact_one_card_best_response(players, hook):
    """At one card, at a table that bids ``expected``: the dealer bidding by montecarlo reaches, reading the bids
    (through ``expected``, sharply: the table is exactly that), the exact value of the best response that reads them;
    not reading them (sharpness 0, the montecarlo of before), only the best response that does not.

    Exact values of its bids, no simulation noise; tolerance 0.05 points (its 256 samples a decision). With one
    card no bid changes a trick, so the gap between the two best responses is all that reading can give.
    """
    rules = make_rules("ludoteka", players, hook=hook)
    table = strategy_policy(rules, Expected())
    dealer = players - 1

    def value(bids: np.ndarray) -> float:
        return evaluate(rules, [*table[:dealer], bids])[dealer]

    without, reading = (value(best_bids(rules, table[:dealer], inference)) for inference in (False, True))
    plain, read = (
        value(strategy_policy(rules, MonteCarlo(samples=256, assume=Expected(), sharpness=sharpness), [dealer])[dealer])
        for sharpness in (0, 8)
    )
    assert abs(plain - without) < 0.05 and abs(read - reading) < 0.05
    if players > 3:  # at three players the earlier bids do not change the dealer's best bid
        assert reading > without + 0.1 and read > plain + 0.1
