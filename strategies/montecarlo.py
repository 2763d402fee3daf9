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
WHOLE_ROLLOUTS = ("pimc", "learned")  # play-outs played whole for every bid: the costly ones a shortlist saves


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
    hand of the sampled world open (``kernels.solve``). With ``shortlist`` above 0 (pimc or learned
    play-outs, each bid played out whole) only that many bids are, the best of a greedy pass over the
    same worlds (``shortlisted``).
    """

    name: ClassVar[str] = "montecarlo"
    samples: int = MONTECARLO_SAMPLES  # play-outs per deal and candidate bid
    assume: Strategy = TableStrategy()  # how the others bid (read before, predicted after), as a strategy spec
    rollout: str = "greedy"  # how every seat plays in the play-outs: greedy, random, pimc (slow) or learned
    sharpness: float = MONTECARLO_SHARPNESS  # how sharply the earlier bids are read: 0 ignores them
    oversample: int = DEFAULT_OVERSAMPLE  # reading: worlds drawn and weighed per play-out, the likeliest played
    solve: int = 0  # the last tricks of each greedy play-out solved exactly, every hand open (0: none)
    shortlist: int = 0  # pimc or learned play-outs: only the best bids of a greedy pass played out (0: every bid)

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise PochaError(f"montecarlo: samples must be at least 1, not {self.samples}")
        if self.rollout not in ROLLOUTS:
            raise PochaError(f"montecarlo: rollout must be {ROLLOUT_NAMES}, not '{self.rollout}'")
        if self.oversample < 1:
            raise PochaError(f"montecarlo: oversample must be at least 1, not {self.oversample}")
        check_solve(self.solve, self.rollout, "montecarlo", "rollout=")
        if self.shortlist < 0:
            raise PochaError(f"montecarlo: shortlist must be 0 (every bid) or more, not {self.shortlist}")
        if self.shortlist and self.rollout not in WHOLE_ROLLOUTS:
            raise PochaError(
                f"montecarlo: shortlist=N saves play-outs of rollout=pimc or learned; greedy and random ones"
                f" play every bid at little cost, so it needs rollout=pimc or learned, not '{self.rollout}'"
            )
        if not self.sharpness >= 0:
            raise PochaError(f"montecarlo: sharpness must be 0 or more, not {self.sharpness}")

    def trick_counts(self, ctx: BidContext, considered: np.ndarray | None = None) -> np.ndarray:
        """float64[deal, bid, tricks]: the (weighted) play-out counts of each candidate bid (see ``play_outs``).

        considered: bool[deal, bid], the bids played out (None: every bid).
        """
        return play_outs(
            ctx,
            self.samples,
            self.assume,
            self.rollout,
            self.sharpness,
            self.oversample,
            self.solve,
            considered=considered,
        ).counts

    def bid(self, ctx: BidContext) -> np.ndarray:
        considered = self.shortlisted(ctx) if self.shortlist else None
        return best_legal(expected_points(self.trick_counts(ctx, considered), ctx.rules, ctx.cards), ctx.forbidden)

    def shortlisted(self, ctx: BidContext) -> np.ndarray:
        """bool[deal, bid]: the ``shortlist`` legal bids with the most points over greedy play-outs of the same worlds.

        A greedy play-out costs a fraction of a pimc or learned one (the bids share its lines of play), and
        the best bid of the costly play-outs is nearly always among the greedy ones' best few.
        """
        greedy = replace(self, rollout="greedy", shortlist=0)
        points = expected_points(greedy.trick_counts(ctx), ctx.rules, ctx.cards)
        hooked = ctx.forbidden >= 0
        points[hooked, ctx.forbidden[hooked]] = -np.inf
        best = np.argsort(-points, axis=1, kind="stable")[:, : self.shortlist]
        considered = np.zeros(points.shape, np.bool_)
        np.put_along_axis(considered, best, True, axis=1)
        return considered

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        """The mean tricks and points of the chosen bids over play-outs of their own, not those that chose them.

        The chosen bid's estimate from the choice's play-outs is the largest of noisy estimates, so
        it is biased upwards (the winner's curse); fresh play-outs of the same deal are not.
        """
        chosen = None
        if self.shortlist:  # the chosen bids alone: the others' counts are not read
            chosen = np.zeros((ctx.size, ctx.cards + 1), np.bool_)
            chosen[np.arange(ctx.size), bids] = True
        counts = self.trick_counts(replace(ctx, seed=ctx.seed ^ PREDICTION_SALT), chosen)
        return Prediction(*bid_outcome(counts[np.arange(ctx.size), bids], bids, ctx))
