"""Predictions against outcomes: each predicting strategy's bias and calibration, from ``predictions.csv``.

A strategy that predicts says, for each hand, the tricks (and points) it expects of its bid; the
hand then takes some. The bias is the mean of predicted minus realised over the strategy's hands;
the calibration bins the hands by their prediction and sets each bin's mean prediction beside what
its hands took. The unit of independence is the deal (``pocha.reports.stats``): intervals come from
per-deal sums, hand sizes stratified as in the results.
"""

from collections.abc import Iterator, Sequence

import numpy as np
import pandas as pd

from pocha.engine.confidence import CONFIDENCE, normal_quantile
from pocha.engine.predictions import PREDICTION_COLUMNS, Rows
from pocha.reports.stats import ratio_and_error, stratified

QUANTITIES = {"tricks": ("predicted_tricks", "won"), "points": ("predicted_points", "points")}  # predicted, realised
BIAS_COLUMNS = ("strategy", "quantity", "hands", "predicted", "realised", "bias", "ci_low", "ci_high")
CALIBRATION_COLUMNS = ("strategy", "quantity", "bin", "hands", "predicted", "realised", "ci_low", "ci_high")
BINS = 10  # calibration bins: deciles of the prediction


def prediction_table(parts: Sequence[Rows], strategies: Sequence[str]) -> pd.DataFrame:
    """``predictions.csv``: the parts' rows in deal then seat order (whatever order the chunks came in), labelled.

    strategies: the line-up's labels, which the rows' ``strategy`` indexes.
    """
    columns: Rows = (
        {name: np.concatenate([part[name] for part in parts]) for name in PREDICTION_COLUMNS} if parts else {}
    )
    frame = pd.DataFrame(columns, columns=list(PREDICTION_COLUMNS))
    frame["strategy"] = np.asarray(strategies, dtype=object)[frame.strategy.to_numpy(np.int64)]
    return frame.sort_values(["deal", "seat"], kind="stable", ignore_index=True)


def mean_by_deal(values: pd.Series, rows: pd.DataFrame) -> tuple[float, float]:
    """The mean per hand of ``values`` and its standard error; rows: their ``deal`` and ``cards``.

    Per hand size, the hands of one deal are summed first (the ratio estimator of
    ``pocha.reports.stats``); the sizes are weighted by their hands.
    """
    frame = pd.DataFrame({"t": values.to_numpy(np.float64), "h": 1.0, "deal": rows.deal, "cards": rows.cards})
    deals = frame.groupby(["cards", "deal"]).sum()
    deals["t2"], deals["h2"], deals["th"] = deals.t**2, deals.h**2, deals.t * deals.h
    sizes = deals.groupby(level="cards").agg(["size", "sum"])
    boards = sizes["t", "size"].to_numpy()
    t, t2, h, h2, th = (sizes[name, "sum"].to_numpy() for name in ("t", "t2", "h", "h2", "th"))
    return stratified(h, *ratio_and_error(boards, t, t2, h, h2, th))


def _predicted(predictions: pd.DataFrame) -> Iterator[tuple[tuple[str, str], pd.DataFrame]]:
    """Per strategy (in order of appearance) and quantity it predicts: its rows' deal, cards, predicted, realised."""
    for strategy, rows in predictions.groupby("strategy", sort=False):
        for quantity, (predicted, realised) in QUANTITIES.items():
            mine = rows.loc[rows[predicted].notna(), ["deal", "cards", predicted, realised]]
            if len(mine):
                yield (str(strategy), quantity), mine.set_axis(["deal", "cards", "predicted", "realised"], axis=1)


def prediction_bias(predictions: pd.DataFrame, level: float = CONFIDENCE) -> pd.DataFrame:
    """Per strategy and quantity predicted (tricks, points): hands, mean predicted, mean realised, and the bias.

    bias = mean predicted - mean realised per hand, with its interval at ``level`` (ci_low, ci_high).
    """
    z, found = normal_quantile(level), []
    for (strategy, quantity), mine in _predicted(predictions):
        bias, error = mean_by_deal(mine.predicted - mine.realised, mine)
        found.append(
            {
                "strategy": strategy,
                "quantity": quantity,
                "hands": len(mine),
                "predicted": mine.predicted.mean(),
                "realised": mine.realised.mean(),
                "bias": bias,
                "ci_low": bias - z * error,
                "ci_high": bias + z * error,
            }
        )
    return pd.DataFrame(found, columns=BIAS_COLUMNS)


def calibration(predictions: pd.DataFrame, level: float = CONFIDENCE) -> pd.DataFrame:
    """Per strategy and quantity, its hands in BINS bins of their prediction (deciles; equal values stay together).

    Per bin: hands, mean predicted, mean realised and its interval at ``level``.
    """
    z, found = normal_quantile(level), []
    for (strategy, quantity), mine in _predicted(predictions):
        bins = pd.qcut(mine.predicted, BINS, labels=False, duplicates="drop")
        for number, group in mine.groupby(bins):
            realised, error = mean_by_deal(group.realised, group)
            found.append(
                {
                    "strategy": strategy,
                    "quantity": quantity,
                    "bin": int(number),
                    "hands": len(group),
                    "predicted": group.predicted.mean(),
                    "realised": realised,
                    "ci_low": realised - z * error,
                    "ci_high": realised + z * error,
                }
            )
    return pd.DataFrame(found, columns=CALIBRATION_COLUMNS)
