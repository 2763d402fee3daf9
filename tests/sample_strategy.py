"""A user strategy outside the package, loaded by spec in the tests."""

from dataclasses import dataclass

import numpy as np

from pocha.strategies.base import BidContext, nearest_legal


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
