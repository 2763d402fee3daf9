"""The results table as text for the terminal, CSV and JSON."""

import json
from typing import Any

import pandas as pd

from simulator.atomic import atomic_open


def terminal_table(frame: pd.DataFrame, by: str) -> str:
    """Aligned text of the summary rows along one axis.

    ``by`` is "position" (rows per bidding position) or "cards" (rows per hand size); the other axis
    is held at "all", or at its single value.
    """
    other = "cards" if by == "position" else "position"
    held = frame[other].unique()
    rows = frame[frame[other] == ("all" if "all" in held else held[0])]
    shown = pd.DataFrame(
        {
            "strategy": rows["strategy"],
            by: rows[by],
            "hands": rows["hands"].map("{:,}".format),
            "points": rows["mean_points"].map("{:.2f}".format),
            "±95%": (rows["ci_high"] - rows["mean_points"]).map("{:.2f}".format),
            "exact": rows["exact_rate"].map("{:.1%}".format),
            "bid": rows["mean_bid"].map("{:.2f}".format),
            "won": rows["mean_won"].map("{:.2f}".format),
            "|won-bid|": rows["mean_abs_error"].map("{:.2f}".format),
        }
    )
    return shown.to_string(index=False, justify="right")


def write_csv(frame: pd.DataFrame, path: str) -> None:
    """Write the summary as CSV, whole or not at all."""
    with atomic_open(path) as stream:
        frame.to_csv(stream, index=False, lineterminator="\n")


def to_json(frame: pd.DataFrame, run: dict[str, Any]) -> str:
    """The run's description and summary rows as one JSON document."""
    return json.dumps({"run": run, "results": json.loads(frame.to_json(orient="records"))}, indent=2)
