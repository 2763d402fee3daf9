"""Estimates from a ``GameTally``: win rates and final scores with intervals, score quantiles.

The unit of independence is the game: per game and strategy, the tally adds its seats' wins W
and final scores T (a strategy holds the same number of seats c in every game), so a win rate
is sum(W) / (games c) with standard error sd(W) / (sqrt(games) c), and likewise for scores.
The win rate's interval is Wilson's score interval over games x c seats, which stays inside
0..1 and is not empty at 0 wins (seats of one strategy never win the same game together, so
counting them as independent only widens it).
"""

from collections import Counter

import numpy as np
import pandas as pd

from pocha.engine.confidence import CONFIDENCE, normal_quantile
from pocha.engine.tally import GameTally
from pocha.reports.stats import wilson

QUANTILES = {"score_p05": 0.05, "score_p25": 0.25, "score_median": 0.5, "score_p75": 0.75, "score_p95": 0.95}
GAME_COLUMNS = (
    "strategy",
    "play",
    "games",
    "seats",
    "win_rate",
    "win_se",
    "win_ci_low",
    "win_ci_high",
    "shared_rate",
    "mean_score",
    "score_se",
    "score_ci_low",
    "score_ci_high",
    *QUANTILES,
)


def quantile(counts: Counter, q: float) -> float:
    """The ``q`` quantile of a distribution given as value -> count (the lower value at ties)."""
    values = np.array(sorted(counts))
    cumulative = np.cumsum([counts[v] for v in values])
    return float(values[np.searchsorted(cumulative, q * cumulative[-1])]) if len(values) else float("nan")


def game_summary(
    tally: GameTally, policies: dict[str, str] | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """One row per strategy: win rate per seat and mean final score, with intervals at ``confidence``, and quantiles.

    policies: each strategy's card-play policy. Columns: strategy, play, games, seats (per game), win_rate
    (outright wins per seat held), win_se, win_ci_low, win_ci_high (Wilson), shared_rate (first places
    shared with other seats, per seat held: ties the tie-break rule leaves standing), mean_score,
    score_se, score_ci_low, score_ci_high, score_p05, score_p25, score_median, score_p75, score_p95.
    """
    z = normal_quantile(confidence)
    games = np.float64(tally.games)  # numpy division: no game yet gives NaN, not ZeroDivisionError
    rows = []
    for g, label in enumerate(tally.strategies):
        seats = float(tally.seats[g])
        w, w2, t, t2, shared = tally.sums[:, g].astype(np.float64)
        estimates = {}
        for name, total, squares in (("win", w, w2), ("score", t, t2)):
            with np.errstate(divide="ignore", invalid="ignore"):  # no game yet (a run stopped at once): NaN
                mean = np.float64(total) / games
                variance = (squares - games * mean * mean) / (games - 1) if games > 1 else float("nan")
                error = float(np.sqrt(max(variance, 0.0) / games)) / seats
            estimates[name] = (mean / seats, error)
        (win, win_se), (score, score_se) = estimates["win"], estimates["score"]
        win_low, win_high = wilson(win, games * seats, z)
        rows.append(
            {
                "strategy": label,
                "play": (policies or {}).get(label, ""),
                "games": tally.games,
                "seats": int(seats),
                "win_rate": win,
                "win_se": win_se,
                "win_ci_low": win_low,
                "win_ci_high": win_high,
                "shared_rate": shared / max(games, 1.0) / seats,
                "mean_score": score,
                "score_se": score_se,
                "score_ci_low": score - z * score_se,
                "score_ci_high": score + z * score_se,
                **{name: quantile(tally.scores[g], q) for name, q in QUANTILES.items()},
            }
        )
    return pd.DataFrame(rows, columns=GAME_COLUMNS)
