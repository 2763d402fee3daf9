"""Additive statistics of a run and the summary derived from them.

Accumulators are integer counts and sums (of points, squared points, bids, ...), so chunks merge
exactly and in any order. Means come with a standard error and a 95% normal confidence interval.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simulator import kernels

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
FIELD = {name: i for i, name in enumerate(kernels.SEAT_FIELDS)}


@dataclass
class Tally:
    """Accumulators of a run: per (seat, bidding position, hand size) and per (strategy, hand size).

    seat_stats: int64[seat, position, size, SEAT_FIELDS]; group_stats: int64[strategy, size, 3]
    (deals, sum and sum of squares of the strategy's total points per deal, over its seats).
    """

    labels: tuple[str, ...]  # strategy label of each seat
    sizes: tuple[int, ...]  # hand sizes of the run, in order
    seat_stats: np.ndarray
    group_stats: np.ndarray

    @classmethod
    def empty(cls, labels: tuple[str, ...], sizes: tuple[int, ...]) -> "Tally":
        """Zeroed accumulators for a line-up and the hand sizes of a run."""
        players, groups = len(labels), len(dict.fromkeys(labels))
        seats = np.zeros((players, players, len(sizes), len(kernels.SEAT_FIELDS)), np.int64)
        return cls(tuple(labels), tuple(sizes), seats, np.zeros((groups, len(sizes), 3), np.int64))

    @property
    def strategies(self) -> list[str]:
        """Distinct strategy labels, in seat order of first appearance."""
        return list(dict.fromkeys(self.labels))

    @property
    def seat_group(self) -> np.ndarray:
        """int64[seat]: index into ``strategies`` of each seat's strategy."""
        return np.array([self.strategies.index(label) for label in self.labels], np.int64)

    def add(self, size_index: int, first_deal: int, bids: np.ndarray, won: np.ndarray, points: np.ndarray) -> None:
        """Count a batch of scored deals (int64[deal, seat] arrays) of hand size ``sizes[size_index]``."""
        kernels.tally_batch(
            first_deal, size_index, bids, won, points, self.seat_group, self.seat_stats, self.group_stats
        )

    def merge(self, other: "Tally") -> "Tally":
        """The tally of both runs' deals (same line-up and sizes)."""
        if (self.labels, self.sizes) != (other.labels, other.sizes):
            raise ValueError("only tallies of the same line-up and hand sizes merge")
        return Tally(self.labels, self.sizes, self.seat_stats + other.seat_stats, self.group_stats + other.group_stats)


def mean_and_error(count: np.ndarray, total: np.ndarray, total_sq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error of the mean from count, sum and sum of squares (NaN error below 2 values)."""
    count = np.asarray(count, np.float64)
    total = np.asarray(total, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / count
        variance = (np.asarray(total_sq, np.float64) - total * mean) / (count - 1)
        error = np.sqrt(np.maximum(variance, 0.0) / count)
    return mean, np.where(count > 1, error, np.nan)


def per_hand(total: int, hands: int) -> float:
    """A mean per hand; NaN when there is no hand (a position never reached in a tiny run)."""
    return float(total / hands) if hands else float("nan")


def summary(tally: Tally) -> pd.DataFrame:
    """One row per (strategy, hand size, bidding position), plus ``all`` margins; the tidy results table.

    Columns: strategy; cards (hand size or "all"); position (1 = first bidder .. players = dealer,
    or "all"); deals; hands (hands bid by the strategy); mean_points, se_points, ci_low, ci_high
    (95%); exact_rate; mean_bid; mean_won; mean_abs_error (mean |won - bid|).
    """
    players = len(tally.labels)
    seat_group = tally.seat_group
    size_choices = [(str(k), [i]) for i, k in enumerate(tally.sizes)]
    if len(tally.sizes) > 1:
        size_choices.append(("all", list(range(len(tally.sizes)))))
    rows = []
    for g, label in enumerate(tally.strategies):
        seats = seat_group == g
        for cards, size_index in size_choices:
            cells = tally.seat_stats[seats][:, :, size_index].sum(axis=(0, 2))  # [position, field]
            per_deal = tally.group_stats[g, size_index].sum(axis=0)
            for position in [*range(players), "all"]:
                if position == "all":
                    fields = cells.sum(axis=0)
                    deals = per_deal[0]
                    mean, error = mean_and_error(deals, per_deal[1], per_deal[2])
                    mean, error = mean / seats.sum(), error / seats.sum()
                else:
                    fields = cells[position]
                    deals = fields[FIELD["hands"]]
                    mean, error = mean_and_error(deals, fields[FIELD["points"]], fields[FIELD["points_sq"]])
                hands = fields[FIELD["hands"]]
                rows.append(
                    {
                        "strategy": label,
                        "cards": cards,
                        "position": position if position == "all" else str(position + 1),
                        "deals": int(deals),
                        "hands": int(hands),
                        "mean_points": float(mean),
                        "se_points": float(error),
                        "ci_low": float(mean - Z95 * error),
                        "ci_high": float(mean + Z95 * error),
                        "exact_rate": per_hand(fields[FIELD["exact"]], hands),
                        "mean_bid": per_hand(fields[FIELD["bid"]], hands),
                        "mean_won": per_hand(fields[FIELD["won"]], hands),
                        "mean_abs_error": per_hand(fields[FIELD["abs_error"]], hands),
                    }
                )
    return pd.DataFrame(rows)
