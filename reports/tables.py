"""The results as aligned text for the terminal, and as JSON."""

import json
from typing import Any

import pandas as pd

from pocha.engine.confidence import CONFIDENCE, percent
from pocha.reports.record import RunRecord
from pocha.reports.stats import error_rate, headline_size, verdict


def headline(frame: pd.DataFrame, column: str = "cards") -> pd.DataFrame:
    """Rows at the ``all`` margin of a column, or at its single value when there is no margin."""
    return frame[frame[column] == headline_size(frame[column])]


def _number(format_: str):
    """A cell's format: a blank where there is no number (an interval from one deal or game)."""
    return lambda value: "" if pd.isna(value) else format_.format(value)


def terminal_table(frame: pd.DataFrame, by: str, level: str = "95%") -> str:
    """Summary rows along one axis: ``by`` is "position", "cards" or "strategy" (the others at their margin).

    level: the intervals' confidence, as the ± column's name says it.
    """
    rows = frame
    for other in {"position", "cards"} - {by}:
        rows = headline(rows, other)
    columns = {"strategy": rows["strategy"]}
    if by != "strategy":
        columns[by] = rows[by]
    shown = pd.DataFrame(
        {
            **columns,
            "hands": rows["hands"].map("{:,}".format),
            "points": rows["mean_points"].map(_number("{:.2f}")),
            f"±{level}": (rows["ci_high"] - rows["mean_points"]).map(_number("{:.2f}")),
            "exact": rows["exact_rate"].map(_number("{:.1%}")),
            "bid": rows["mean_bid"].map(_number("{:.2f}")),
            "won": rows["mean_won"].map(_number("{:.2f}")),
            "|won-bid|": rows["mean_abs_error"].map(_number("{:.2f}")),
        }
    )
    return shown.to_string(index=False, justify="right")


def bias_table(bias: pd.DataFrame, level: str = "95%") -> str:
    """Each predicting strategy's mean prediction, what its hands took, and the bias, its half-width at ``level``."""
    shown = pd.DataFrame(
        {
            "strategy": bias.strategy,
            "predicts": bias.quantity,
            "hands": bias.hands.map("{:,}".format),
            "predicted": bias.predicted.map(_number("{:.2f}")),
            "realised": bias.realised.map(_number("{:.2f}")),
            "bias": bias.bias.map(_number("{:+.2f}")),
            f"±{level}": (bias.ci_high - bias.bias).map(_number("{:.2f}")),
        }
    )
    return shown.to_string(index=False, justify="right")


def verdicts(pairs: pd.DataFrame) -> list[str]:
    """One plain sentence per pair of strategies (all hand sizes), Holm-adjusted when there are several."""
    adjusted = family_size(pairs) > 1
    return [verdict(row, adjusted) for _, row in headline(pairs).iterrows()]


def family_size(pairs: pd.DataFrame) -> int:
    """How many verdicts the Holm adjustment is over: the pairs over all hand sizes with a p-value."""
    return int(headline(pairs).p_holm.notna().sum())


def adjusted_over(pairs: pd.DataFrame) -> str:
    """What the verdicts are adjusted for: ``Holm-adjusted over 6 pairs`` (one pair needs no adjustment)."""
    family = family_size(pairs)
    return f"Holm-adjusted over {family} pairs" if family > 1 else "one pair, no adjustment needed"


def adjustment_key(pairs: pd.DataFrame, confidence: float = CONFIDENCE) -> str:
    """How to read Holm-adjusted verdicts and their intervals, one paragraph; empty when there is nothing to adjust."""
    family = family_size(pairs)
    if family < 2:
        return ""
    alpha = 100 * error_rate(confidence)
    return (
        f"Holm-adjusted: the chance of calling any difference that is not there, among the {family} pairs, is at "
        f"most {alpha:g}%; each ± is at the level Holm's method decides that pair at (from {percent(confidence)} to "
        f"{100 - alpha / family:.1f}%), so it leaves out 0 exactly when a difference is called."
    )


def pair_size_table(pairs: pd.DataFrame, level: str = "95%") -> str:
    """Paired differences (a - b, points per hand), one row per pair and hand size, the ``all`` margin last.

    Each row at its own ``level``, unadjusted: exploratory.
    """
    shown = pd.DataFrame(
        {
            "a - b": pairs.strategy_a + " - " + pairs.strategy_b,
            "cards": pairs.cards,
            "difference": pairs.mean_diff.map(_number("{:+.2f}")),
            f"±{level}": (pairs.ci_high - pairs.mean_diff).map(_number("{:.2f}")),
            "finding": [  # not "verdict": exploratory, unadjusted; nothing claimed of a size a stopped run did not play
                "not played" if row.deals == 0 else mark(row.ci_low, row.ci_high, row.strategy_a, row.strategy_b)
                for row in pairs.itertuples()
            ],
        }
    )
    return shown.to_string(index=False, justify="right")


def mark(low: float, high: float, a: str, b: str) -> str:
    """Which of a pair is ahead, when the interval of a - b (low..high) says so."""
    if low > 0:
        return f"{a} ahead"
    if high < 0:
        return f"{b} ahead"
    return "no difference detected"


def match_table(summary: pd.DataFrame) -> str:
    """A match by hand size: each side's points per hand, the player's lead, each side's milliseconds per decision."""
    columns = [
        ("cards", summary.cards),
        ("deals", summary.deals.map("{:,}".format)),
        ("player", summary.player_points.map(_number("{:.2f}"))),
        ("±95%", (summary.player_ci_high - summary.player_points).map(_number("{:.2f}"))),
        ("opponent", summary.opponent_points.map(_number("{:.2f}"))),
        ("±95%", (summary.opponent_ci_high - summary.opponent_points).map(_number("{:.2f}"))),
        ("difference", summary.mean_diff.map(_number("{:+.2f}"))),
        ("±95%", (summary.ci_high - summary.mean_diff).map(_number("{:.2f}"))),
        (
            "finding",  # as compare's pairs by hand size name theirs
            pd.Series(
                [
                    mark(low, high, "player", "opponent")
                    for low, high in zip(summary.ci_low, summary.ci_high, strict=True)
                ]
            ),
        ),
        ("ms player", summary.player_ms.map(_number("{:.2f}"))),
        ("ms opponent", summary.opponent_ms.map(_number("{:.2f}"))),
    ]
    shown = pd.DataFrame({i: column.to_numpy() for i, (_, column) in enumerate(columns)})
    return shown.to_string(index=False, justify="right", header=[name for name, _ in columns])


def game_table(games: pd.DataFrame, level: str = "95%") -> str:
    """Win rate and final score per strategy, with intervals and score quantiles."""
    shown = pd.DataFrame(
        {
            "strategy": games.strategy,
            "games": games.games.map("{:,}".format),
            "win": games.win_rate.map(_number("{:.1%}")),
            f"{level} CI": (games.win_ci_low.map(_number("{:.1%}..")) + games.win_ci_high.map(_number("{:.1%}"))),
            "shared": games.shared_rate.map(_number("{:.1%}")),
            "score": games.mean_score.map(_number("{:.1f}")),
            f"±{level}": (games.score_ci_high - games.mean_score).map(_number("{:.1f}")),
            "p5": games.score_p05.map(_number("{:.0f}")),
            "p25": games.score_p25.map(_number("{:.0f}")),
            "median": games.score_median.map(_number("{:.0f}")),
            "p75": games.score_p75.map(_number("{:.0f}")),
            "p95": games.score_p95.map(_number("{:.0f}")),
        }
    )
    return shown.to_string(index=False, justify="right")


def to_json(run: RunRecord, tables: dict[str, pd.DataFrame]) -> str:
    """The run's record and its tables as one JSON document; hand sizes and positions are numbers (or "all")."""
    data = {name: [plain(row) for row in json.loads(frame.to_json(orient="records"))] for name, frame in tables.items()}
    return json.dumps({"run": run.to_dict(), **data}, indent=2)


def plain(row: dict[str, Any]) -> dict[str, Any]:
    """A table row with the label columns that hold numbers ("3") as numbers."""
    return {
        key: int(value) if key in ("cards", "position") and str(value).isdigit() else value
        for key, value in row.items()
    }


# How a CSV table is written: its separator and decimal mark. "excel-es" is what a spreadsheet set to a
# Spanish (or other decimal-comma) locale opens into columns; a run folder always holds "plain", the
# form ``pocha report`` reads back.
CSV_STYLES = {"plain": (",", "."), "excel-es": (";", ",")}


CSV_DIGITS = 10  # significant digits of a number, as the JSON output gives: far below any interval's width


def csv_text(frame: pd.DataFrame, style: str = "plain") -> str:
    """A table as CSV text in one of CSV_STYLES, each number to CSV_DIGITS (a float stays one: ``5.0``)."""
    separator, decimal = CSV_STYLES[style]
    floats = frame.select_dtypes("float").columns
    shown = frame.assign(**{name: frame[name].map(lambda x: float(f"{x:.{CSV_DIGITS}g}")) for name in floats})
    return shown.to_csv(index=False, lineterminator="\n", sep=separator, decimal=decimal)
