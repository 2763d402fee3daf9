"""A user strategy outside the package, loaded by spec in the tests."""

from dataclasses import dataclass

import numpy as np

from pocha.strategies.base import BidContext, Prediction, bid_outcome, nearest_legal
from pocha.strategies.montecarlo import MonteCarlo


@dataclass(frozen=True)
class Cautious:
    """Bids ``level`` whatever the hand."""

    name = "cautious"
    level: int = 0

    def bid(self, ctx: BidContext) -> np.ndarray:
        return nearest_legal(np.full(ctx.size, float(self.level)), ctx)


@dataclass(frozen=True)
class Broken:
    """Returns whatever it was told to, to test the engine's checks."""

    name = "broken"
    value: int = 99
    as_float: bool = False

    def bid(self, ctx: BidContext) -> np.ndarray:
        bids = np.full(ctx.size, self.value)
        return bids.astype(float) if self.as_float else bids


@dataclass(frozen=True)
class Noisy:
    """The ``expected`` estimate plus uniform noise in [-1, 1); ``salt`` picks which of the context's draws."""

    name = "noisy"
    salt: int = 0

    def bid(self, ctx: BidContext) -> np.ndarray:
        from pocha.strategies.heuristics import expected_tricks

        noise = ctx.uniform(self.salt + 1)[:, self.salt]
        return nearest_legal(expected_tricks(ctx) + 2 * noise - 1, ctx)


class Interrupting:
    """Bids 0 (1 when forbidden), and raises KeyboardInterrupt on its ``after``-th call, as Ctrl-C would."""

    name = "interrupting"

    def __init__(self, after: int = 10) -> None:
        self.after, self.calls = after, 0

    def bid(self, ctx: BidContext) -> np.ndarray:
        self.calls += 1
        if self.calls == self.after:
            raise KeyboardInterrupt
        return nearest_legal(np.zeros(ctx.size), ctx)


@dataclass(frozen=True)
class InSample(MonteCarlo):
    """``montecarlo`` predicting from the play-outs that chose its bid: the winner's curse left in."""

    name = "in-sample"

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        counts = self.trick_counts(ctx)
        return Prediction(*bid_outcome(counts[np.arange(ctx.size), bids], bids, ctx))


@dataclass(frozen=True)
class Foretelling(Cautious):
    """``cautious`` with a prediction of ``length`` tricks per deal (the engine refuses one of the wrong length)."""

    name = "foretelling"
    length: int = -1  # -1: one per deal

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        return Prediction(tricks=np.zeros(ctx.size if self.length < 0 else self.length))
