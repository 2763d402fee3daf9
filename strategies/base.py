"""The bidding contract: what a strategy sees (``BidContext``) and what it returns.

A strategy bids for one bidding position of a whole chunk of deals at once: ``bid(ctx)`` returns
one bid per deal (int64 array). The engine checks every bid; nothing is silently fixed. A strategy
that predicts may also say what it expects of the bids it chose (``Predicts``), so anyone can check
its predictions against what the hands took.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Protocol, TypeVar, runtime_checkable

import numpy as np

from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.kernels.bidding import best_legal_bids, illegal_bids, nearest_legal_bids
from pocha.kernels.codes import STREAM_BID
from pocha.kernels.expected import suit_lanes, unseen_lanes
from pocha.kernels.streams import uniform_batch
from pocha.words import counted

_LANE = np.uint64(0xFFFF)
T = TypeVar("T")


@dataclass
class BidContext:
    """What the bidder at one position knows, for ``m`` deals at once.

    Arrays are indexed by deal (axis 0). Card ids and hand masks are as in ``pocha.game.cards``.
    """

    rules: Rules
    cards: int  # hand size k: bids are 0..k
    position: int  # 0 = first bidder (the mano) .. players-1 = the dealer
    hands: np.ndarray  # uint64[m]: the bidder's hand
    trump_card: np.ndarray  # int64[m]: the card naming trump (turned up, or the dealer's last card); NO_TRUMP: none
    earlier_bids: np.ndarray  # int64[m, position]: bids already made, in bidding order
    forbidden: np.ndarray  # int64[m]: the bid the hook rule forbids, -1 for none
    seed: int  # the run's seed
    numbers: np.ndarray  # int64[m]: deal numbers within the hand size, for per-deal random streams
    policy: str = "greedy"  # how the bidder will play its cards (a play-policy spec): what it bids for
    _draws: int = field(default=0, repr=False)

    @property
    def size(self) -> int:
        """Number of deals ``m``."""
        return len(self.hands)

    @cached_property
    def trump(self) -> np.ndarray:
        """int64[m]: the trump suit, -1 in a deal without trump (``NO_TRUMP >> 4``)."""
        return self.trump_card >> 4

    @cached_property
    def lanes(self) -> np.ndarray:
        """uint64[m, 4]: the hand's cards of each suit as a strength bitmask (bit = strength)."""
        lanes = np.empty((self.size, 4), np.uint64)
        suit_lanes(self.hands, lanes)
        return lanes

    @cached_property
    def suit_lengths(self) -> np.ndarray:
        """int64[m, 4]: cards held in each suit."""
        return np.asarray(np.bitwise_count(self.lanes), dtype=np.int64)

    @cached_property
    def is_trump(self) -> np.ndarray:
        """bool[m, 4]: which suit is trump (none in a deal without trump)."""
        return np.asarray(np.arange(4) == self.trump[:, None])

    @cached_property
    def trump_cards(self) -> np.ndarray:
        """uint64[m]: every card of the trump suit, as a hand mask (0 in a deal without trump)."""
        lanes = _LANE << (np.maximum(self.trump, 0).astype(np.uint64) * np.uint64(16))
        return np.where(self.trump >= 0, lanes, np.uint64(0))

    @cached_property
    def trump_count(self) -> np.ndarray:
        """int64[m]: trumps held."""
        return np.asarray(np.bitwise_count(self.hands & self.trump_cards), dtype=np.int64)

    @cached_property
    def unseen(self) -> np.ndarray:
        """uint64[m, 4]: per suit, the deck's cards the bidder does not see (not in hand, not turned up).

        The dealer's shown last card (full deals) counts as unseen: its holder plays it like any other.
        """
        turned = self.cards * self.rules.players < self.rules.deck_size  # else the dealer holds it
        unseen = np.empty((self.size, 4), np.uint64)
        unseen_lanes(self.lanes, self.trump_card, (1 << len(self.rules.ranks)) - 1, turned, unseen)
        return unseen

    def subset(self, rows: slice | np.ndarray) -> "BidContext":
        """The same bidder on some of the deals (random draws restart, as for a fresh context)."""
        return replace(
            self,
            hands=self.hands[rows],
            trump_card=self.trump_card[rows],
            earlier_bids=self.earlier_bids[rows],
            forbidden=self.forbidden[rows],
            numbers=self.numbers[rows],
            _draws=0,
        )

    def uniform(self, draws: int = 1) -> np.ndarray:
        """float64[m, draws] uniforms in [0, 1); each call gives fresh numbers.

        They depend only on (seed, hand size, deal, position, call number), so results do not depend
        on how the run is cut into chunks.
        """
        out = np.empty((self.size, draws))
        uniform_batch(self.seed, self.cards, self.numbers, self.stream(), out)
        return out

    def stream(self) -> int:
        """A fresh random stream of this bidder for the kernels (``uniform`` draws from these too)."""
        self._draws += 1
        return STREAM_BID + 64 * (self.position + 1) + self._draws - 1


class StrategyError(PochaError):
    """A strategy failed, or returned bids the rules do not allow."""


@runtime_checkable
class Strategy(Protocol):
    """A bidding strategy: a ``name`` and a vectorised ``bid``."""

    @property
    def name(self) -> str:
        """Short name (a class attribute is enough)."""
        ...

    def bid(self, ctx: BidContext) -> np.ndarray:
        """One bid per deal of ``ctx``: int64[m], each in 0..ctx.cards and never ``ctx.forbidden``."""
        ...


def where(label: str, ctx: BidContext) -> str:
    """Which strategy, bidding position and hand size, for an error line."""
    return f"strategy '{label}' at position {ctx.position + 1} with {counted(ctx.cards, 'card')}"


@dataclass(frozen=True)
class Prediction:
    """What a strategy expects of the bids it chose, per deal; None for what it does not predict."""

    tricks: np.ndarray | None = None  # float64[m]: the tricks it expects to take (a mean)
    points: np.ndarray | None = None  # float64[m]: the points it expects to score (a mean)


@runtime_checkable
class Predicts(Protocol):
    """Optional beside ``Strategy``: a strategy that can say what it expects of its bids.

    The engine asks only when predictions are recorded, after the bids of ``ctx``, with those bids.
    """

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        """The expected tricks and/or points of ``bids`` (int64[m], the strategy's own bids for ``ctx``)."""
        ...


def bid_outcome(counts: np.ndarray, bids: np.ndarray, ctx: BidContext) -> tuple[np.ndarray, np.ndarray]:
    """float64[deal] mean tricks and expected points of each deal's bid, from (weighted) counts of its tricks.

    counts[deal, tricks]; a deal whose counts are all 0 gets NaN.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        chances = counts / counts.sum(axis=1, keepdims=True)
    tricks = (chances * np.arange(chances.shape[1])).sum(axis=1)  # not a matrix product: its rounding depends on m
    points = (chances * ctx.rules.scoring.points_grid(ctx.cards)[bids]).sum(axis=1)
    return tricks, points


def answer_of(said: str, ask: Callable[[], T], error: type[PochaError] = StrategyError) -> T:
    """User code's answer; an exception in it (a plug-in's bug) becomes one line, unless POCHA_DEBUG is set.

    said: whose answer, as the line starts (``where``'s words for a strategy).
    """
    try:
        return ask()
    except (PochaError, KeyboardInterrupt):
        raise
    except Exception as failure:
        if os.environ.get("POCHA_DEBUG"):
            raise
        raise error(f"{said} failed: {type(failure).__name__}: {failure} (POCHA_DEBUG=1 shows the traceback)") from None


def checked_bids(label: str, strategy: Strategy, ctx: BidContext) -> np.ndarray:
    """The strategy's bids if they are whole numbers in 0..k and never the forbidden bid; else StrategyError.

    The engine calls every strategy through here: nothing a strategy returns is silently fixed.
    """
    array = np.asarray(answer_of(where(label, ctx), lambda: strategy.bid(ctx)))
    if array.shape != (ctx.size,) or not np.issubdtype(array.dtype, np.integer):
        raise StrategyError(
            f"{where(label, ctx)} returned {array.dtype} bids of shape {array.shape}; "
            f"expected {counted(ctx.size, 'whole number')}"
        )
    bids = array.astype(np.int64, copy=False)
    outside, hooked = illegal_bids(bids, ctx.cards, ctx.forbidden)
    if outside >= 0:  # (a huge unsigned bid is negative as int64: outside too)
        raise StrategyError(
            f"{where(label, ctx)} bid {array[outside]} in deal {ctx.numbers[outside]}; bids are 0..{ctx.cards}"
        )
    if hooked >= 0:
        raise StrategyError(
            f"{where(label, ctx)} bid {array[hooked]} as dealer in deal {ctx.numbers[hooked]}, which the hook rule "
            f"forbids (the bids would sum to the {counted(ctx.cards, 'trick')})"
        )
    return bids


def checked_prediction(label: str, strategy: Strategy, ctx: BidContext, bids: np.ndarray) -> Prediction:
    """What a predicting strategy expects of its bids, each part None or float64[m]; nothing for one that does not.

    A part of another shape is refused with one line (a plug-in's bug), as a bid would be.
    """
    if not isinstance(strategy, Predicts):
        return Prediction()

    def ask() -> dict[str, np.ndarray | None]:
        prediction = strategy.predict(ctx, bids)
        parts = {name: getattr(prediction, name, None) for name in ("tricks", "points")}
        return {name: None if part is None else np.asarray(part, np.float64) for name, part in parts.items()}

    parts = answer_of(where(label, ctx), ask)
    for name, part in parts.items():
        if part is not None and part.shape != (ctx.size,):
            raise StrategyError(
                f"{where(label, ctx)} predicted {name} of shape {part.shape}; expected one per deal ({ctx.size})"
            )
    return Prediction(**parts)


def nearest_legal(estimate: np.ndarray, ctx: BidContext) -> np.ndarray:
    """Round estimates to bids (halves up), clipped to 0..k; a forbidden bid moves one step toward the estimate.

    "Toward the estimate" means up when the estimate is at or above the rounded bid, down when below;
    when that step leaves 0..k the other one is taken. A NaN estimate gives -1, which the engine refuses.
    """
    estimate = np.ascontiguousarray(estimate, dtype=np.float64)
    if estimate.shape != (ctx.size,):
        raise ValueError(
            f"nearest_legal takes one estimate per deal: {ctx.size}, not an array of shape {estimate.shape}"
        )
    bids = np.empty(ctx.size, np.int64)
    nearest_legal_bids(estimate, ctx.cards, ctx.forbidden, bids)
    return bids


def best_legal(points: np.ndarray, forbidden: np.ndarray) -> np.ndarray:
    """int64[deal]: the bid with the most points[deal, bid], never the forbidden one (the lower bid on ties)."""
    bids = np.empty(len(points), np.int64)
    best_legal_bids(np.ascontiguousarray(points, np.float64), forbidden, bids)
    return bids
