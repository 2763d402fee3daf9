"""Monte Carlo bidding: play the deal out many times and bid what scores best on average.

See ``pocha.strategies.playouts`` for the sampling and play-outs. The best legal bid is chosen,
so the hook rule is handled by expected value.
"""

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from pocha.errors import PochaError
from pocha.strategies.base import BidContext, Prediction, Strategy, best_legal, bid_outcome
from pocha.strategies.catalog import MONTECARLO_SHARPNESS
from pocha.strategies.playouts import check_solve, expected_points, play_outs
from pocha.strategies.table import TableStrategy

MONTECARLO_SAMPLES = 32
DEFAULT_OVERSAMPLE = 4  # measured (README)
PREDICTION_SALT = 0x0DD5_EED5  # the prediction's play-outs come from other seeds than the choice's
ROLLOUTS = ("greedy", "random", "pimc", "learned")  # play-out policies (pimc: slow; learned: the table's model)
ROLLOUT_NAMES = "greedy, random, pimc or learned"  # as messages name them


@dataclass(frozen=True)
class MonteCarlo:
    """Bids the legal value with the most expected points over ``samples`` play-outs of the deal.

    The unseen cards are dealt at random ``samples`` ways; with ``sharpness`` above 0 each sampled
    world counts as much as it makes the earlier bids likely, were those bidders to bid about as the
    ``assume`` strategy would (inference from the bids), and the later bidders bid as ``assume`` would
    on their sampled hands, answering each candidate bid (0: the montecarlo of before, which ignores
    the earlier bids and shows the later ones ``assume``'s bid in its place). Reading, it draws
    ``oversample`` worlds per play-out and plays out the ones the bids make likely (``play_outs``).
    Every sample is played out once per bid 0..k with every seat playing ``rollout`` (greedy, random,
    pimc or learned; the bidder plays to the bid it considers), whatever policy the seat itself plays with;
    with ``solve`` above 0 the last ``solve`` tricks of each greedy play-out are solved exactly, every
    hand of the sampled world open (``kernels.solve``).
    """

    name: ClassVar[str] = "montecarlo"
    samples: int = MONTECARLO_SAMPLES  # play-outs per deal and candidate bid
    assume: Strategy = TableStrategy()  # how the others bid (read before, predicted after), as a strategy spec
    rollout: str = "greedy"  # how every seat plays in the play-outs: greedy, random, pimc (slow) or learned
    sharpness: float = MONTECARLO_SHARPNESS  # how sharply the earlier bids are read: 0 ignores them
    oversample: int = DEFAULT_OVERSAMPLE  # reading: worlds drawn and weighed per play-out, the likeliest played
    solve: int = 0  # the last tricks of each greedy play-out solved exactly, every hand open (0: none)

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise PochaError(f"montecarlo: samples must be at least 1, not {self.samples}")
        if self.rollout not in ROLLOUTS:
            raise PochaError(f"montecarlo: rollout must be {ROLLOUT_NAMES}, not '{self.rollout}'")
        if self.oversample < 1:
            raise PochaError(f"montecarlo: oversample must be at least 1, not {self.oversample}")
        check_solve(self.solve, self.rollout, "montecarlo", "rollout=")
        if not self.sharpness >= 0:
            raise PochaError(f"montecarlo: sharpness must be 0 or more, not {self.sharpness}")

    def trick_counts(self, ctx: BidContext) -> np.ndarray:
        """float64[deal, bid, tricks]: the (weighted) play-out counts of each candidate bid (see ``play_outs``)."""
        return play_outs(
            ctx, self.samples, self.assume, self.rollout, self.sharpness, self.oversample, self.solve
        ).counts

    def bid(self, ctx: BidContext) -> np.ndarray:
        return best_legal(expected_points(self.trick_counts(ctx), ctx.rules, ctx.cards), ctx.forbidden)

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        """The mean tricks and points of the chosen bids over play-outs of their own, not those that chose them.

        The chosen bid's estimate from the choice's play-outs is the largest of noisy estimates, so
        it is biased upwards (the winner's curse); fresh play-outs of the same deal are not.
        """
        counts = self.trick_counts(replace(ctx, seed=ctx.seed ^ PREDICTION_SALT))
        return Prediction(*bid_outcome(counts[np.arange(ctx.size), bids], bids, ctx))
