"""The shipped bidding heuristics. Each docstring is the exact definition."""

from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import ClassVar

import numpy as np

from pocha.game.rules import Rules
from pocha.kernels.bidding import random_bids, trumps_and_side_aces
from pocha.kernels.bits import LANES
from pocha.kernels.expected import expected_sums
from pocha.strategies.base import BidContext, Prediction, nearest_legal


@dataclass(frozen=True)
class RandomBid:
    """Uniform among the legal bids: 0..k, without the one the hook rule forbids."""

    name: ClassVar[str] = "random"

    def bid(self, ctx: BidContext) -> np.ndarray:
        bids = np.empty(ctx.size, np.int64)
        random_bids(ctx.seed, ctx.cards, ctx.numbers, ctx.stream(), ctx.forbidden, bids)
        return bids


@dataclass(frozen=True)
class ZeroBid:
    """Bids 0; 1 when 0 is forbidden."""

    name: ClassVar[str] = "zero"

    def bid(self, ctx: BidContext) -> np.ndarray:
        return nearest_legal(np.zeros(ctx.size), ctx)


@dataclass(frozen=True)
class FairShare:
    """Bids k / players, rounded half up (the estimate for ``nearest_legal``)."""

    name: ClassVar[str] = "fair-share"

    def bid(self, ctx: BidContext) -> np.ndarray:
        return nearest_legal(np.full(ctx.size, ctx.cards / ctx.rules.players), ctx)


@dataclass(frozen=True)
class AcesTrumps:
    """Bids the number of trumps held plus the number of aces of the other suits (the ace of trumps counts once)."""

    name: ClassVar[str] = "aces-trumps"

    def bid(self, ctx: BidContext) -> np.ndarray:
        ranks, ace = ctx.rules.ranks, ctx.rules.notation.pack.ace
        aces = np.uint64(1 << (len(ranks) - 1 - ranks.index(ace)) if ace in ranks else 0) * LANES  # every suit's
        counts = np.empty(ctx.size)
        trumps_and_side_aces(ctx.hands, ctx.trump_card, aces, counts)
        return nearest_legal(counts, ctx)


@dataclass(frozen=True)
class Expected:
    """Bids the sum over the hand of each card's estimated chance of taking a trick, plus ``bias``.

    The chance of a card with ``h`` unseen stronger cards of its suit and ``g`` weaker cards of its
    suit in the hand ("guards") is P(X <= g), X ~ Binomial(h, f): the card survives while the
    stronger cards that opponents hold can be drawn by its guards. ``f = (players - 1) * k / U`` is
    the chance that an unseen card is in an opponent's hand (U unseen cards: the deck less the hand
    and the turned-up card). A card that is not a trump is further multiplied by the chance that no
    opponent can ruff its suit, ``(1 - v_s * t) ** (players - 1)``, with ``v_s = (1 - u_s / U) ** k``
    the chance an opponent is void in the suit (u_s unseen cards of the suit) and
    ``t = 1 - (1 - u_T / U) ** k`` the chance it holds a trump. The sum plus ``bias`` goes to
    ``nearest_legal``.
    """

    name: ClassVar[str] = "expected"
    bias: float = 0.0  # added to the estimate before rounding: > 0 bids more, < 0 less

    def bid(self, ctx: BidContext) -> np.ndarray:
        return nearest_legal(expected_tricks(ctx) + self.bias, ctx)

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        """The estimate of the tricks, ``bias`` left out (it moves the bid, not the cards); no points.

        The sum is a mean number of tricks, not a distribution, so it cannot say what a bid scores.
        """
        return Prediction(tricks=expected_tricks(ctx))


@lru_cache(maxsize=256)
def _survival_table(f: float) -> np.ndarray:
    """table[h, g] = P(Binomial(h, f) <= g) for h, g in 0..15."""
    pmf = [[comb(h, x) * f**x * (1 - f) ** (h - x) if x <= h else 0.0 for x in range(16)] for h in range(16)]
    return np.cumsum(np.array(pmf), axis=1)


@lru_cache(maxsize=256)
def _not_ruffed_table(ranks: int, unseen: int, cards: int, opponents: int) -> np.ndarray:
    """table[u_s, u_T] = (1 - v_s * t) ** opponents for u_s unseen cards of a plain suit and u_T unseen trumps.

    Every count a deal can have, with the same numpy operations a whole chunk's factors took, so
    the values are the same to the last bit at a fraction of the work (see ``Expected``).
    """
    share = np.arange(ranks + 1).astype(np.float64) / unseen
    void = (1 - share) ** cards
    holds_trump = 1 - (1 - share) ** cards
    return (1 - void[:, None] * holds_trump[None, :]) ** opponents


def expected_tricks(ctx: BidContext) -> np.ndarray:
    """float64[m]: the ``expected`` strategy's estimate of the tricks the hand takes (see ``Expected``)."""
    total = np.empty(ctx.size)
    expected_sums(ctx.lanes, ctx.unseen, ctx.trump_card, *expected_tables(ctx.rules, ctx.cards), total)
    return total


def expected_tables(rules: Rules, cards: int) -> tuple[np.ndarray, np.ndarray]:
    """``(survive, not_ruffed)``: the ``expected`` strategy's chances at a hand size, as ``expected_sum`` takes them."""
    opponents = rules.players - 1
    unseen = rules.deck_size - cards - (cards * rules.players < rules.deck_size)
    return (
        _survival_table(min(1.0, opponents * cards / unseen)),
        _not_ruffed_table(len(rules.ranks), unseen, cards, opponents),
    )
