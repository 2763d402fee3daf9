"""How well each model of a bidder predicts a table's bids: the mean log score of the real bids, sharpness fitted.

A model is read in its probabilistic form (``bid_likelihood``, as montecarlo reads its ``assume``
strategy): a legal bid b has weight exp(-sharpness * |b - m|), m the model's bid, the bid the hook
forbids none. A model's score on some hands is the mean over them of log P(real bid), at the
sharpness that makes it highest (a golden-section search: the mean is concave in the sharpness).
A family of models (one spec with a parameter at several values) scores as its best member.

The unit of independence is the deal: a deal's bids follow one another, so each deal's mean over
its positions is one observation; hand sizes are fixed by the run, so the all-sizes interval is
stratified. The difference to the best model is paired by deal.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from pocha.engine.confidence import Z95
from pocha.engine.models import BidRows
from pocha.reports.stats import stratified
from pocha.strategies.playouts import bid_likelihood

MOST_FITTED_SHARPNESS = 20.0  # the search's upper end: a bid one off then has odds e^-20, a model that is never off
SHARPNESS_TOLERANCE = 1e-4
GOLDEN = (5**0.5 - 1) / 2
MODEL_COLUMNS = (
    "model",
    "spec",
    "cards",
    "deals",
    "hands",
    "sharpness",
    "log_score",
    "se",
    "ci_low",
    "ci_high",
    "diff_to_best",
    "diff_ci_low",
    "diff_ci_high",
)


@dataclass(frozen=True)
class Cells:
    """A model's rows grouped by what its log score depends on: hand size, its bid, the forbidden bid, the real bid."""

    values: np.ndarray  # int64[cell, 4]: cards, model bid, forbidden, bid
    counts: np.ndarray  # int64[cell]: rows in each cell
    of_row: np.ndarray  # int64[row]: each row's cell

    @classmethod
    def of(cls, rows: BidRows, model: int) -> "Cells":
        """The cells of model column ``model``, in the order of their values.

        Each row's four values are packed into one integer first: ``np.unique`` of rows (``axis=0``)
        took a tenth of a second on a default run's 80,000 rows, and a stopped ``pocha models``
        waited seconds for its hundreds of fits.
        """
        columns = np.column_stack([rows.cards, rows.model_bids[:, model], rows.forbidden, rows.bid])
        low = columns.min(axis=0)
        spans = tuple(columns.max(axis=0) - low + 1)
        packed = np.ravel_multi_index(tuple((columns - low).T), spans)  # in the rows' lexicographic order
        keys, of_row, counts = np.unique(packed, return_inverse=True, return_counts=True)
        values = np.column_stack(np.unravel_index(keys, spans)) + low
        return cls(values.astype(np.int64), counts, of_row.ravel())

    @cached_property
    def by_size(self) -> list[tuple[int, slice]]:
        """Each hand size's cells, one run of them (the cells are in order, hand size first): a fit reads them often."""
        sizes, starts = np.unique(self.values[:, 0], return_index=True)
        ends = [*starts[1:], len(self.values)]
        return [(int(cards), slice(start, end)) for cards, start, end in zip(sizes, starts, ends, strict=True)]

    def log_likelihood(self, sharpness: float) -> np.ndarray:
        """float64[cell]: log P(real bid) under the model's probabilistic form."""
        out = np.empty(len(self.counts))
        for cards, at in self.by_size:
            model, forbidden, bid = self.values[at, 1], self.values[at, 2], self.values[at, 3]
            out[at] = np.log(bid_likelihood(bid, model, cards, forbidden, sharpness))
        return out

    def mean(self, sharpness: float) -> float:
        """The mean log score over the rows."""
        return float(self.counts @ self.log_likelihood(sharpness) / self.counts.sum())

    def best_sharpness(self) -> float:
        """The sharpness in 0..MOST_FITTED_SHARPNESS with the highest mean log score (golden-section search)."""
        low, high = 0.0, MOST_FITTED_SHARPNESS
        left, right = high - GOLDEN * (high - low), low + GOLDEN * (high - low)
        at_left, at_right = self.mean(left), self.mean(right)
        while high - low > SHARPNESS_TOLERANCE:
            if at_left >= at_right:
                high, right, at_right = right, left, at_left
                left = high - GOLDEN * (high - low)
                at_left = self.mean(left)
            else:
                low, left, at_left = left, right, at_right
                right = low + GOLDEN * (high - low)
                at_right = self.mean(right)
        return (low + high) / 2


def log_scores(rows: BidRows, model: int, sharpness: float) -> np.ndarray:
    """float64[row]: the log of the chance of each real bid under model column ``model`` at ``sharpness``."""
    cells = Cells.of(rows, model)
    return cells.log_likelihood(sharpness)[cells.of_row]


@dataclass(frozen=True)
class Fit:
    """A model fitted to some rows: its sharpness, and each deal's mean log score at that sharpness."""

    sharpness: float
    per_deal: np.ndarray  # float64[deal]: the mean over the deal's positions

    @property
    def score(self) -> float:
        """The mean log score per hand."""
        return float(self.per_deal.mean())


def fit(rows: BidRows, model: int, players: int) -> Fit:
    """Model column ``model`` fitted to ``rows`` (whole deals, ``players`` rows each, in order)."""
    cells = Cells.of(rows, model)
    sharpness = cells.best_sharpness()
    scores = cells.log_likelihood(sharpness)[cells.of_row]
    return Fit(sharpness, scores.reshape(-1, players).mean(axis=1))


def model_table(
    rows: BidRows, labels: Sequence[str], families: Mapping[str, Sequence[str]], players: int
) -> pd.DataFrame:
    """One row per model family and hand size (and ``all``): its best spec, sharpness and log score, with intervals.

    labels: the spec of each model column of ``rows``; families: each family's name and its specs
    (a single spec is a family of one). The sharpness of the ``all`` row is one fitted to every
    hand size together. Columns: model, spec (the best member), cards, deals, hands, sharpness,
    log_score (mean log P(real bid) per hand) with se, ci_low, ci_high (95%), diff_to_best (paired by
    deal, 0 for the best) with diff_ci_low, diff_ci_high.
    """
    sizes = [int(k) for k in np.unique(rows.cards)]
    groups = [(str(k), [k]) for k in sizes] + ([("all", sizes)] if len(sizes) > 1 else [])
    deal_sizes = rows.cards[::players]
    out = []
    for cards, chosen in groups:
        part = rows.take(np.isin(rows.cards, chosen))
        dealt = deal_sizes[np.isin(deal_sizes, chosen)]
        fits = {}
        for name, members in families.items():
            tried = {spec: fit(part, labels.index(spec), players) for spec in members}
            fits[name] = max(tried.items(), key=lambda item: item[1].score)
        best = max(fits.values(), key=lambda item: item[1].score)[1]
        for name, (spec, found) in fits.items():
            score, se = by_size(found.per_deal, dealt, chosen)
            diff, diff_se = by_size(found.per_deal - best.per_deal, dealt, chosen)
            out.append(
                {
                    "model": name,
                    "spec": spec,
                    "cards": cards,
                    "deals": len(dealt),
                    "hands": len(dealt) * players,
                    "sharpness": found.sharpness,
                    "log_score": score,
                    "se": se,
                    "ci_low": score - Z95 * se,
                    "ci_high": score + Z95 * se,
                    "diff_to_best": diff,
                    "diff_ci_low": diff - Z95 * diff_se,
                    "diff_ci_high": diff + Z95 * diff_se,
                }
            )
    return pd.DataFrame(out, columns=MODEL_COLUMNS)


def by_size(per_deal: np.ndarray, cards: np.ndarray, sizes: Sequence[int]) -> tuple[float, float]:
    """The mean of per-deal values and its standard error, stratified by hand size (deals of each size fixed)."""
    means = np.array([per_deal[cards == k].mean() for k in sizes])
    counts = np.array([np.sum(cards == k) for k in sizes], np.float64)
    errors = np.array(
        [per_deal[cards == k].std(ddof=1) / np.sqrt(n) if n > 1 else np.nan for k, n in zip(sizes, counts, strict=True)]
    )
    return stratified(counts, means, errors)
