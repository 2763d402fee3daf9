"""Estimates from a run's ``Tally``: means per hand with intervals, paired differences, how far bids miss.

The unit of independence is the *board* (see ``pocha.engine.tally``): means are ratios sum(T) / sum(H)
and their standard errors come from the board-level residuals T - r H (the ratio estimator), so
hands that share a board are never counted as independent. Intervals are normal 95% intervals:
mean +- 1.96 standard errors; a rate's (how often bids are made exactly) is Wilson's score interval
over as many hands as its standard error is worth (``exact_interval``), which stays inside 0..1 and is
not empty at a rate of 0 or 1, where the normal one is.

A comparison's verdicts over all hand sizes are one family: a compare of k strategies makes
k(k-1)/2 of them, so they are adjusted by Holm's step-down method (``holm``): the chance that any
of them calls a difference that is not there stays at most 5%. Per-size cells stay unadjusted, to
explore.
"""

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

from pocha.engine.confidence import CONFIDENCE, Z95, normal_quantile
from pocha.engine.tally import HAND_FIELDS, MOMENTS, Tally
from pocha.words import give_or_take

HAND_FIELD_INDEX = {name: i for i, name in enumerate(HAND_FIELDS)}
RATES = {"exact_rate": "exact", "mean_bid": "bid", "mean_won": "won", "mean_abs_error": "abs_error"}  # column: field
RESULT_COLUMNS = (
    "strategy",
    "play",
    "cards",
    "position",
    "deals",
    "hands",
    "mean_points",
    "se_points",
    "ci_low",
    "ci_high",
    "exact_rate",
    "exact_ci_low",
    "exact_ci_high",
    "mean_bid",
    "mean_won",
    "mean_abs_error",
)
PAIR_COLUMNS = (
    "strategy_a",
    "strategy_b",
    "cards",
    "deals",
    "mean_diff",
    "se_diff",
    "ci_low",
    "ci_high",
    "p_value",
    "p_holm",
    "holm_ci_low",
    "holm_ci_high",
)
RAW_PAIR_COLUMNS = PAIR_COLUMNS[:8]  # pairs.csv before the Holm columns: such a run folder still loads
ALPHA = 0.05  # the family-wise error rate of a comparison's verdicts
ERROR_COLUMNS = ("strategy", "cards", "won_minus_bid", "hands", "share")


def ratio_and_error(boards, t, t2, h, h2, th) -> tuple[np.ndarray, np.ndarray]:
    """Mean per hand ``sum T / sum H`` and its standard error from board sums (ratio estimator).

    All arguments are arrays (or numbers) of sums over ``boards`` boards. The error is NaN with
    fewer than 2 boards; the mean is NaN with no hand.
    """
    boards, t, t2, h, h2, th = (np.asarray(x, np.float64) for x in (boards, t, t2, h, h2, th))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = t / h
        residual = t2 - 2 * ratio * th + ratio * ratio * h2
        error = np.sqrt(np.maximum(residual, 0.0) / (boards - 1) * boards) / h
    return ratio, np.where(boards > 1, error, np.nan)


def wilson(rate: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion observed over ``trials`` trials, ``z`` standard errors wide."""
    if not trials > 0:  # none, or NaN: no interval
        return float("nan"), float("nan")
    z2 = z * z
    center = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * np.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials))
    return max(0.0, float(center - half)), min(1.0, float(center + half))  # not -6.9e-18 ("-0.0%") at a rate of 0


def exact_interval(rate: float, error: float, hands: float, z: float) -> tuple[float, float]:
    """Wilson's interval of a rate of exact bids, over the hands its board-level standard error ``error`` is worth.

    That is rate (1 - rate) / error^2 (Kish's effective size), so hands that share a board count as
    the error says; ``hands`` itself where the error says nothing (a rate of 0 or 1, or no spread
    between boards), and no interval without an error (a single board), as for the points.
    """
    if math.isnan(error):
        return float("nan"), float("nan")
    return wilson(rate, rate * (1 - rate) / error**2 if error > 0 and 0 < rate < 1 else hands, z)


def stratified(weights: np.ndarray, means: np.ndarray, errors: np.ndarray) -> tuple[float, float]:
    """Combine per-size estimates into an all-sizes one: weighted mean, sqrt(sum of w^2 se^2).

    Hand sizes are fixed by the run, not drawn, so the all-sizes error has no between-size part.
    """
    used = weights > 0
    if not used.any():
        return float("nan"), float("nan")
    w = weights[used] / weights[used].sum()
    return float(np.sum(w * means[used])), float(np.sqrt(np.sum(w * w * errors[used] ** 2)))


def as_planned(weights: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Per-size weights scaled to a run of deals' plan, where every hand size has as many deals.

    A stopped run played some sizes further than others (none, some): weighted by what it played, its
    all-sizes figure would be another mixture than the full run's. Sizes it did not play weigh 0. A
    run that played every size alike keeps its weights, bit for bit.
    """
    boards = np.asarray(boards, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(boards > 0, weights * (boards.max() / boards), 0.0)


def size_labels(tally: Tally) -> list[tuple[str, list[int]]]:
    """(label, size indexes) of each hand size, then ``all`` when there are several."""
    choices = [(str(k), [i]) for i, k in enumerate(tally.sizes)]
    if len(tally.sizes) > 1:
        choices.append(("all", list(range(len(tally.sizes)))))
    return choices


def summary(
    tally: Tally, policies: dict[str, str] | None = None, confidence: float = CONFIDENCE, planned_alike: bool = False
) -> pd.DataFrame:
    """The results table: one row per (strategy, hand size, bidding position), with ``all`` margins.

    policies: each strategy's card-play policy. Columns: strategy; play; cards (hand size or "all");
    position (1 = first bidder .. players = dealer, or "all"); deals (boards); hands (hands bid by the
    strategy); mean_points, se_points, ci_low, ci_high (at ``confidence``); exact_rate with exact_ci_low,
    exact_ci_high (Wilson's, ``exact_interval``); mean_bid; mean_won; mean_abs_error (mean
    |won - bid|). planned_alike: the run planned every hand size alike (``as_planned``), so a stop weighs
    them as the plan does.
    """
    z = normal_quantile(confidence)
    players = tally.players
    m = {name: tally.moments[i] for i, name in enumerate(MOMENTS)}  # each [strategy, position + 1, size]
    means, errors = ratio_and_error(tally.boards, m["T"], m["T2"], m["H"], m["H2"], m["TH"])
    rates, rate_errors = ratio_and_error(tally.boards, m["E"], m["E2"], m["H"], m["H2"], m["EH"])
    hands = m["H"]
    rows = []
    for g, label in enumerate(tally.strategies):
        for cards, sizes in size_labels(tally):
            for p in range(players + 1):
                n_hands = int(hands[g, p, sizes].sum())
                scale = as_planned(np.ones(len(sizes)), tally.boards[sizes]) if planned_alike else np.ones(len(sizes))
                weights = hands[g, p, sizes] * scale
                mean, error = stratified(weights, means[g, p, sizes], errors[g, p, sizes])
                _, rate_error = stratified(weights, rates[g, p, sizes], rate_errors[g, p, sizes])
                positions = slice(None) if p == players else [p]
                fields = (tally.hand_fields[g, positions][:, sizes] * scale[:, None]).sum(axis=(0, 1))
                rows.append(
                    {
                        "strategy": label,
                        "play": (policies or {}).get(label, ""),
                        "cards": cards,
                        "position": "all" if p == players else str(p + 1),
                        "deals": int(tally.boards[sizes].sum()),
                        "hands": n_hands,
                        "mean_points": mean,
                        "se_points": error,
                        "ci_low": mean - z * error,
                        "ci_high": mean + z * error,
                        **{name: per_hand(fields[HAND_FIELD_INDEX[key]], weights.sum()) for name, key in RATES.items()},
                    }
                )
                exact = per_hand(fields[HAND_FIELD_INDEX["exact"]], weights.sum())
                rows[-1]["exact_ci_low"], rows[-1]["exact_ci_high"] = exact_interval(
                    exact, rate_error, weights.sum(), z
                )
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def per_hand(total: int, hands: int) -> float:
    """A mean per hand; NaN when there is no hand (a position never reached in a tiny run)."""
    return float(total / hands) if hands else float("nan")


def pair_differences(tally: Tally, confidence: float = CONFIDENCE, planned_alike: bool = False) -> pd.DataFrame:
    """Paired differences of mean points per hand, for every pair of strategies and hand size.

    Per board, d = T_a / c_a - T_b / c_b (c = the strategy's hands per board, fixed by the
    seating); the mean of d and its standard error over boards give the paired interval.
    Columns: strategy_a, strategy_b, cards, deals, mean_diff, se_diff, ci_low, ci_high (at ``confidence``),
    then p_value, p_holm, holm_ci_low, holm_ci_high (``with_holm``, its family-wise error 1 - ``confidence``).
    planned_alike: the run planned every hand size alike (``as_planned``), so a stop weighs them as the plan does.
    """
    z = normal_quantile(confidence)
    every = tally.players
    m = tally.moments[:, :, every, :]  # [moment, strategy, size]
    boards = tally.boards.astype(np.float64)
    rows = []
    with np.errstate(divide="ignore", invalid="ignore"):
        per_board = m[MOMENTS.index("H")] / boards  # c per strategy and size
        mean = m[MOMENTS.index("T")] / boards
        for a in range(len(tally.strategies)):
            for b in range(a + 1, len(tally.strategies)):
                ca, cb = per_board[a], per_board[b]
                var_a = (m[MOMENTS.index("T2"), a] - boards * mean[a] ** 2) / (boards - 1)
                var_b = (m[MOMENTS.index("T2"), b] - boards * mean[b] ** 2) / (boards - 1)
                cov = (tally.cross[:, a, b] - boards * mean[a] * mean[b]) / (boards - 1)
                diff = mean[a] / ca - mean[b] / cb
                var = var_a / ca**2 + var_b / cb**2 - 2 * cov / (ca * cb)
                error = np.where(boards > 1, np.sqrt(np.maximum(var, 0.0) / boards), np.nan)
                for cards, sizes in size_labels(tally):
                    weights = as_planned(boards[sizes], boards[sizes]) if planned_alike else boards[sizes]
                    value, se = stratified(weights, diff[sizes], error[sizes])
                    rows.append(
                        {
                            "strategy_a": tally.strategies[a],
                            "strategy_b": tally.strategies[b],
                            "cards": cards,
                            "deals": int(boards[sizes].sum()),
                            "mean_diff": value,
                            "se_diff": se,
                            "ci_low": value - z * se,
                            "ci_high": value + z * se,
                        }
                    )
    return with_holm(pd.DataFrame(rows, columns=RAW_PAIR_COLUMNS), error_rate(confidence))


def error_rate(confidence: float) -> float:
    """The family-wise error rate of verdicts at ``confidence``: 1 - confidence without float dust (0.05 at 95%)."""
    return round(1 - confidence, 12)


def with_holm(pairs: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """The pairs with their p-values, and the verdicts over all hand sizes adjusted by Holm, with their intervals.

    p_value: two-sided, of the paired z statistic mean_diff / se_diff (normal), on every row.
    p_holm, holm_ci_low, holm_ci_high: on the rows over all hand sizes (the one size when there is
    one), the run's family of verdicts; empty on the per-size rows. The interval is at the level
    Holm's procedure decides the pair at (``holm_levels``): it leaves out 0 exactly when p_holm < ``alpha``.
    """
    pairs = pairs.loc[:, list(RAW_PAIR_COLUMNS)]
    diff, se = pairs.mean_diff.to_numpy(np.float64), pairs.se_diff.to_numpy(np.float64)
    family = (pairs.cards == headline_size(pairs.cards)).to_numpy()
    p = p_values(diff, se)
    adjusted, levels = np.full(len(p), np.nan), np.full(len(p), np.nan)
    adjusted[family], levels[family] = holm(p[family]), holm_levels(p[family], alpha)
    half = np.array([NormalDist().inv_cdf(1 - level / 2) if np.isfinite(level) else np.nan for level in levels]) * se
    return pairs.assign(p_value=p, p_holm=adjusted, holm_ci_low=diff - half, holm_ci_high=diff + half)


def headline_size(values: pd.Series) -> str | None:
    """The headline value of a label column (hand size, position): the ``all`` margin, or its one value."""
    return "all" if (values == "all").any() else (values.iloc[0] if len(values) else None)


def p_values(diff: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Two-sided normal p-values of diff / se: 1 where both are 0 (identical play), NaN without an error."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where((diff == 0) & (se == 0), 0.0, np.abs(diff) / se)
    return np.array([math.erfc(value / math.sqrt(2)) for value in z])


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values: the i-th smallest of m times (m - i + 1), never decreasing, at most 1.

    A verdict called where the adjusted p-value is below 5% keeps the chance of any false verdict
    among the m at most 5%, whatever their dependence. NaN p-values (too few deals) stay NaN and
    do not count in m.
    """
    adjusted = np.full(len(p), np.nan)
    order = ranked(p)
    m = len(order)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return adjusted


def holm_levels(p: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """The level Holm's procedure decides each test at: alpha / (m - i + 1) for the i-th smallest p-value.

    Testing stops at the first p-value not below its level; every later test is decided (not
    rejected) at that level too. An interval at a test's level therefore leaves out 0 exactly when
    the procedure rejects it. NaN where p is NaN.
    """
    levels = np.full(len(p), np.nan)
    order = ranked(p)
    steps = alpha / (len(order) - np.arange(len(order)))
    rejected = np.cumprod(p[order] < steps).astype(bool)  # this one and every one before it rejected
    stop = min(int(rejected.sum()), len(order) - 1)
    levels[order] = np.where(rejected, steps, steps[stop] if len(order) else np.nan)
    return levels


def ranked(p: np.ndarray) -> np.ndarray:
    """Indexes of the finite p-values, smallest first (ties in their order)."""
    finite = np.flatnonzero(np.isfinite(p))
    return finite[np.argsort(p[finite], kind="stable")]


def verdict(row: pd.Series, adjusted: bool = True) -> str:
    """Plain words for one pair over all hand sizes: who is ahead by how much (Holm's interval), or no difference.

    ``adjusted``: among several pairs (a lone pair's p-value is its own, and is not called adjusted).
    """
    a, b, diff, half = row.strategy_a, row.strategy_b, row.mean_diff, row.holm_ci_high - row.mean_diff
    if not np.isfinite(half):
        return f"{a} vs {b}: too few deals to tell"
    p = ("adjusted p" if adjusted else "p") + (" < 0.001" if row.p_holm < 0.001 else f" = {row.p_holm:.3f}")
    if row.holm_ci_low > 0:
        return f"{a} ahead of {b} by {give_or_take(diff, half)} points per hand ({p})"
    if row.holm_ci_high < 0:
        return f"{b} ahead of {a} by {give_or_take(-diff, half)} points per hand ({p})"
    return f"{a} vs {b}: no difference detected ({give_or_take(diff, half, '{:+.2f}')}, {p})"


def error_distribution(tally: Tally) -> pd.DataFrame:
    """How far bids miss: hands per value of won - bid, per strategy and hand size (with ``all``).

    Columns: strategy, cards, won_minus_bid, hands, share (of the strategy's hands at that size).
    """
    offset = tally.errors.shape[2] // 2
    rows = []
    for g, label in enumerate(tally.strategies):
        for cards, sizes in size_labels(tally):
            counts = tally.errors[g, sizes].sum(axis=0)
            total = counts.sum()
            for i in np.flatnonzero(counts):
                rows.append(
                    {
                        "strategy": label,
                        "cards": cards,
                        "won_minus_bid": int(i - offset),
                        "hands": int(counts[i]),
                        "share": counts[i] / total,
                    }
                )
    return pd.DataFrame(rows, columns=ERROR_COLUMNS)
