"""Predictions recorded hand by hand: what a predicting strategy expected of its bid, beside what the hand took.

Recorded only when a run asks (``simulate --predictions``). The results do not change: a strategy
is asked for its prediction after its bids are made, on its own context, and montecarlo's
prediction plays out samples of its own seeds, not the run's streams.
"""

from dataclasses import dataclass

import numpy as np

from pocha.kernels.play import Chunk
from pocha.strategies.base import Prediction

PREDICTION_COLUMNS = (
    "deal",
    "cards",
    "seat",
    "position",
    "strategy",
    "bid",
    "predicted_tricks",
    "predicted_points",
    "won",
    "points",
)
Rows = dict[str, np.ndarray]  # a chunk's rows by column (``strategy`` as the index of its label in the line-up)


@dataclass
class Predicted:
    """A chunk's predictions by bidding position, float64[position, deal] each; NaN where none was made."""

    tricks: np.ndarray
    points: np.ndarray

    @classmethod
    def empty(cls, players: int, deals: int) -> "Predicted":
        """Nothing predicted yet."""
        return cls(np.full((players, deals), np.nan), np.full((players, deals), np.nan))

    def add(self, position: int, picked: slice | np.ndarray, prediction: Prediction) -> None:
        """A strategy's prediction for the deals ``picked`` at ``position``."""
        for mine, part in ((self.tricks, prediction.tricks), (self.points, prediction.points)):
            if part is not None:
                mine[position, picked] = part

    def by_seat(self, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The tricks and points as float64[deal, seat] (deal ``i`` has dealer ``i % players``)."""
        players = len(self.tricks)
        seats = (numbers[:, None] + 1 + np.arange(players)) % players  # [deal, position]
        deals = np.arange(len(numbers))[:, None]
        tricks, points = np.empty(seats.shape), np.empty(seats.shape)
        tricks[deals, seats], points[deals, seats] = self.tricks.T, self.points.T
        return tricks, points


def prediction_rows(
    deals: np.ndarray, chunk: Chunk, seating: np.ndarray, predicted: Predicted, won: np.ndarray, points: np.ndarray
) -> Rows:
    """One row per seat whose strategy predicted, deal by deal and seat by seat.

    deals: the run-wide deal numbers (as the trace calls them); seating: int64[deal, seat], the
    strategy index at each seat; won, points: int64[deal, seat], what the hands took.
    """
    tricks, expected_points = predicted.by_seat(chunk.numbers)
    deal, seat = np.nonzero(~(np.isnan(tricks) & np.isnan(expected_points)))
    players = chunk.hands.shape[1]
    return {
        "deal": deals[deal],
        "cards": np.full(len(deal), chunk.cards),
        "seat": seat,
        "position": (seat - chunk.numbers[deal] - 1) % players + 1,
        "strategy": seating[deal, seat],
        "bid": chunk.bids[deal, seat],
        "predicted_tricks": tricks[deal, seat],
        "predicted_points": expected_points[deal, seat],
        "won": won[deal, seat],
        "points": points[deal, seat],
    }
