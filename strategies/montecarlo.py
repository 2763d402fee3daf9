"""Monte Carlo bidding: play the deal out many times and bid what scores best on average.

For each deal the bidder's unseen cards are dealt to the other seats ``samples`` ways (consistent
with its hand and the visible trump card); the later bidders' bids come from the ``assume``
strategy on their sampled hands; then every sample is played out once per candidate bid with the
run's card-play policy (the greedy policy plays to its bid, so the bid changes the play). The
distribution of the bidder's tricks under each bid gives each bid's expected points under the
rule set's scoring; the best legal bid is chosen, so the hook rule is handled by expected value.
Sampling and play-outs run in numba; numpy works on whole batches (the assumed bids).
"""

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from simulator import PochaError, kernels
from simulator.rules import Rules, forbidden_bids
from strategies.base import BidContext, Strategy

DEFAULT_SAMPLES = 32
BLOCK = 512  # deals sampled at once: memory stays at BLOCK * samples sampled deals
ASSUMED_SEED_SALT = 0x5EED_A55E  # the assumed bidders draw from their own streams, not the real bidders'


def score_table(rules: Rules, cards: int) -> np.ndarray:
    """float64[bid, tricks]: the points of each bid and trick count under the scoring."""
    bid, won = np.meshgrid(np.arange(cards + 1), np.arange(cards + 1), indexing="ij")
    points = rules.scoring
    return np.where(bid == won, points.exact + points.per_trick * won, points.miss_per_trick * np.abs(won - bid))


def trick_counts(ctx: BidContext, samples: int, assumed: Strategy) -> np.ndarray:
    """int64[deal, bid, tricks]: per deal and bid 0..k, how often the bidder took each number of tricks.

    There are ``samples`` play-outs per deal and bid.
    """
    rules, k, position, players = ctx.rules, ctx.cards, ctx.position, ctx.rules.players
    counts = np.zeros((ctx.size, k + 1, k + 1), np.int64)
    for start in range(0, ctx.size, BLOCK):
        block = ctx.subset(slice(start, start + BLOCK))
        rows = np.repeat(np.arange(block.size), samples)  # sampled deal -> its deal in the block
        hands = np.empty((len(rows), players), np.uint64)
        kernels.sample_completions(
            ctx.seed, k, block.deals, position, block.hands, block.trump_card, rules.deck(), hands
        )
        by_position = np.zeros((len(rows), players), np.int64)
        by_position[:, :position] = block.earlier_bids[rows]
        by_position[:, position] = assumed.bid(block)[rows]  # what the later bidders see of this bidder
        dealer = block.deals[rows] % players
        sampled_deals = block.deals[rows] * samples + np.tile(np.arange(samples), block.size)
        for later in range(position + 1, players):
            seat = (dealer + 1 + later) % players
            earlier = by_position[:, :later]
            later_ctx = BidContext(
                rules, k, later, hands[np.arange(len(rows)), seat], block.trump_card[rows], earlier,
                forbidden_bids(rules, k, earlier), ctx.seed ^ ASSUMED_SEED_SALT, sampled_deals, ctx.policy,
            )  # fmt: skip
            by_position[:, later] = assumed.bid(later_ctx)
        bids = np.empty_like(by_position)
        for q in range(players):
            bids[np.arange(len(rows)), (dealer + 1 + q) % players] = by_position[:, q]
        kernels.rollout_counts(
            ctx.seed, k, block.deals, position, hands, block.trump_card, bids,
            kernels.PLAY_CODES[rules.play], kernels.POLICIES[ctx.policy], counts[start : start + block.size],
        )  # fmt: skip
    return counts


def expected_points(counts: np.ndarray, rules: Rules, cards: int) -> np.ndarray:
    """float64[deal, bid]: the mean points of each bid over the play-outs."""
    totals = counts.sum(axis=2)
    return (counts * score_table(rules, cards)).sum(axis=2) / totals


def best_bids(points: np.ndarray, forbidden: np.ndarray) -> np.ndarray:
    """int64[deal]: the bid with the most expected points, never the forbidden one (the lower bid on ties)."""
    bids = np.empty(len(points), np.int64)
    kernels.best_legal_bids(np.ascontiguousarray(points, np.float64), forbidden, bids)
    return bids


@dataclass(frozen=True)
class MonteCarlo:
    """Bids the legal value with the most expected points over ``samples`` play-outs of the deal.

    The unseen cards are dealt at random ``samples`` ways; later bidders bid as the ``assume``
    strategy would on their sampled hands; every sample is played out with the run's play policy
    once per bid 0..k (so the bidder plays to the bid it considers). See the module docstring.
    """

    name: ClassVar[str] = "montecarlo"
    samples: int = DEFAULT_SAMPLES  # play-outs per deal and candidate bid
    assume: str = "expected"  # how the bidder expects later bidders to bid
    assumed: Strategy = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from strategies.registry import load

        if self.samples < 1:
            raise PochaError(f"montecarlo: samples must be at least 1, not {self.samples}")
        object.__setattr__(self, "assumed", load(self.assume)[1])

    def bid(self, ctx: BidContext) -> np.ndarray:
        counts = trick_counts(ctx, self.samples, self.assumed)
        return best_bids(expected_points(counts, ctx.rules, ctx.cards), ctx.forbidden)
