"""``report.html``: one self-contained page (figures embedded) from a run folder's tables and ``run.json``."""

import base64
import html
from typing import Any

import pandas as pd

from pocha.reports.record import RunRecord
from pocha.reports.stats import verdict

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; margin: 0.5em 0 1.5em; } code { background: #f3f3f3; padding: 0 0.2em; }
"""


def _run_table(run: RunRecord) -> str:
    data = run.to_dict()
    rules = data["rules"]
    rows = {
        "command": run.command_line or f"pocha {run.command}",
        "preset": run.preset or "custom rules",
        "players": rules["players"],
        "deck (ranks, strongest first)": " ".join(map(str, rules["ranks"])),
        "play rule": rules["play"],
        "hook": rules["hook"],
        "scoring": ", ".join(f"{key} {value}" for key, value in rules["scoring"].items()),
        "strategies by seat": ", ".join(run.strategies),
        "play policy": run.play,
        "seed": run.seed,
        "version": run.version,
    }
    for key in ("cards", "deals_per_size", "duplicate", "games", "rotate"):
        if key in data:
            rows[key.replace("_", " ")] = data[key]
    if run.command == "game":
        rows["schedule"] = rules["schedule"]
        rows["tie-break"] = rules["tie_break"]

    def text(value: Any) -> str:
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(text(v))}</td></tr>" for k, v in rows.items())
    return f"<table>{body}</table>"


def _frame(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, float_format=lambda x: f"{x:.3f}", na_rep="", border=0)


def report_page(run: RunRecord, tables: dict[str, pd.DataFrame], figures: dict[str, bytes]) -> str:
    """``report.html``: one self-contained page, the figures (PNG data by name) embedded."""
    parts = [f"<h1>pocha {html.escape(run.command)}</h1>", "<h2>Run</h2>", _run_table(run)]
    if "games" in tables:
        parts += ["<h2>Whole games</h2>", _frame(tables["games"])]
    if "pairs" in tables:
        pairs = tables["pairs"]
        headline = pairs[pairs.cards == ("all" if "all" in set(pairs.cards) else pairs.cards.iloc[0])]
        verdicts = "".join(f"<li>{html.escape(verdict(row))}</li>" for _, row in headline.iterrows())
        parts += ["<h2>Pairwise comparisons</h2>", f"<ul>{verdicts}</ul>"]
    parts.append("<h2>Figures</h2>")
    for name, png in figures.items():
        data = base64.b64encode(png).decode("ascii")
        parts.append(f'<img alt="{html.escape(name)}" src="data:image/png;base64,{data}">')
    results = tables["results"]
    parts += [
        "<h2>Results per strategy and bidding position</h2>",
        "<p>Mean points per hand with 95% confidence intervals (the full table is <code>results.csv</code>).</p>",
        _frame(results[results.cards == ("all" if "all" in set(results.cards) else results.cards.iloc[0])]),
    ]
    if "pairs" in tables:
        parts += ["<h2>Paired differences by hand size</h2>", _frame(tables["pairs"])]
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>pocha report</title>'
        f"<style>{STYLE}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n"
    )
