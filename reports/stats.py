"""Estimates from a run's ``Tally``: means per hand with intervals, paired differences, how far bids miss.

The unit of independence is the *board* (see ``pocha.engine.tally``): means are ratios sum(T) / sum(H)
and their standard errors come from the board-level residuals T - r H (the ratio estimator), so
hands that share a board are never counted as independent. Intervals are normal 95% intervals:
mean +- 1.96 standard errors.
"""

import numpy as np
import pandas as pd

from pocha.engine.tally import HAND_FIELDS, MOMENTS, Z95, Tally

FIELD = {name: i for i, name in enumerate(HAND_FIELDS)}
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
PAIR_COLUMNS = ("strategy_a", "strategy_b", "cards", "deals", "mean_diff", "se_diff", "ci_low", "ci_high")
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


def stratified(weights: np.ndarray, means: np.ndarray, errors: np.ndarray) -> tuple[float, float]:
    """Combine per-size estimates into an all-sizes one: weighted mean, sqrt(sum of w^2 se^2).

    Hand sizes are fixed by the run, not drawn, so the all-sizes error has no between-size part.
    """
    used = weights > 0
    if not used.any():
        return float("nan"), float("nan")
    w = weights[used] / weights[used].sum()
    return float(np.sum(w * means[used])), float(np.sqrt(np.sum(w * w * errors[used] ** 2)))


def size_labels(tally: Tally) -> list[tuple[str, list[int]]]:
    """(label, size indexes) of each hand size, then ``all`` when there are several."""
    choices = [(str(k), [i]) for i, k in enumerate(tally.sizes)]
    if len(tally.sizes) > 1:
        choices.append(("all", list(range(len(tally.sizes)))))
    return choices


def summary(tally: Tally, policies: dict[str, str] | None = None) -> pd.DataFrame:
    """The results table: one row per (strategy, hand size, bidding position), with ``all`` margins.

    policies: each strategy's card-play policy. Columns: strategy; play; cards (hand size or "all");
    position (1 = first bidder .. players = dealer, or "all"); deals (boards); hands (hands bid by the
    strategy); mean_points, se_points, ci_low, ci_high (95%); exact_rate with exact_ci_low,
    exact_ci_high (95%, the same board-level ratio estimator); mean_bid; mean_won; mean_abs_error (mean
    |won - bid|).
    """
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
                weights = hands[g, p, sizes].astype(float)
                mean, error = stratified(weights, means[g, p, sizes], errors[g, p, sizes])
                _, rate_error = stratified(weights, rates[g, p, sizes], rate_errors[g, p, sizes])
                positions = slice(None) if p == players else [p]
                fields = tally.hand_fields[g, positions][:, sizes].sum(axis=(0, 1))
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
                        "ci_low": mean - Z95 * error,
                        "ci_high": mean + Z95 * error,
                        **{name: per_hand(fields[FIELD[key]], n_hands) for name, key in RATES.items()},
                    }
                )
                exact = per_hand(fields[FIELD["exact"]], n_hands)
                rows[-1]["exact_ci_low"] = float(np.clip(exact - Z95 * rate_error, 0.0, 1.0))
                rows[-1]["exact_ci_high"] = float(np.clip(exact + Z95 * rate_error, 0.0, 1.0))
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def per_hand(total: int, hands: int) -> float:
    """A mean per hand; NaN when there is no hand (a position never reached in a tiny run)."""
    return float(total / hands) if hands else float("nan")


def pair_differences(tally: Tally) -> pd.DataFrame:
    """Paired differences of mean points per hand, for every pair of strategies and hand size.

    Per board, d = T_a / c_a - T_b / c_b (c = the strategy's hands per board, fixed by the
    seating); the mean of d and its standard error over boards give the paired interval.
    Columns: strategy_a, strategy_b, cards, deals, mean_diff, se_diff, ci_low, ci_high.
    """
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
                    value, se = stratified(boards[sizes], diff[sizes], error[sizes])
                    rows.append(
                        {
                            "strategy_a": tally.strategies[a],
                            "strategy_b": tally.strategies[b],
                            "cards": cards,
                            "deals": int(boards[sizes].sum()),
                            "mean_diff": value,
                            "se_diff": se,
                            "ci_low": value - Z95 * se,
                            "ci_high": value + Z95 * se,
                        }
                    )
    return pd.DataFrame(rows, columns=PAIR_COLUMNS)


def verdict(row: pd.Series) -> str:
    """Plain words for one pair: who is ahead by how much, or that no difference was detected."""
    a, b, diff, half = row.strategy_a, row.strategy_b, row.mean_diff, row.ci_high - row.mean_diff
    if not np.isfinite(half):
        return f"{a} vs {b}: too few deals to tell"
    if row.ci_low > 0:
        return f"{a} ahead of {b} by {diff:.2f} ± {half:.2f} points per hand"
    if row.ci_high < 0:
        return f"{b} ahead of {a} by {-diff:.2f} ± {half:.2f} points per hand"
    return f"{a} vs {b}: no difference detected ({diff:+.2f} ± {half:.2f})"


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
