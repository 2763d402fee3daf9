"""Figures drawn from the run's tidy tables only, so everything a figure shows is in a CSV."""

import io
from collections.abc import Callable
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; never a window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pocha.reports.record import RunRecord  # noqa: E402

Tables = dict[str, pd.DataFrame]


def subtitle(run: RunRecord) -> str:
    """One line naming the table, rules and amount of play behind a figure."""
    amount = f"{run.games:,} games" if run.games is not None else f"{run.deals_per_size:,} deals per hand size"
    seating = ", duplicate" if run.duplicate else ""
    return f"{run.rules.players} players, {run.preset or 'custom'} rules, {run.play} play, {amount}{seating}"


def _figure(title: str, run: RunRecord, width: float = 9.0) -> tuple[Figure, Any]:
    figure, axes = plt.subplots(figsize=(width, 5.0), layout="constrained")
    figure.suptitle(title, fontsize=13)
    axes.set_title(subtitle(run), fontsize=9, color="0.35")
    axes.grid(alpha=0.3)
    return figure, axes


def _legend_outside(axes: Any) -> None:
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, title="strategy")


def _by_size(run: RunRecord, tables: Tables, title: str, ylabel: str) -> tuple[Figure, Any, pd.DataFrame] | None:
    """A figure against hand size and the all-positions rows it draws from; None with fewer than two sizes."""
    results = tables["results"]
    rows = results[(results.position == "all") & (results.cards != "all")].copy()
    rows["k"] = rows.cards.astype(int)
    if rows.k.nunique() < 2:
        return None
    figure, axes = _figure(title, run)
    axes.set_xlabel("cards per player (hand size)")
    axes.set_ylabel(ylabel)
    axes.set_xticks(sorted(rows.k.unique()))
    return figure, axes, rows


def points_by_size(run: RunRecord, tables: Tables) -> Figure | None:
    """Mean points per hand against hand size, one line per strategy, 95% bands."""
    drawn = _by_size(
        run, tables, "Expected points per hand by hand size (95% confidence bands)", "mean points per hand"
    )
    if drawn is None:
        return None
    figure, axes, rows = drawn
    for label, group in rows.groupby("strategy", sort=False):
        line = axes.plot(group.k, group.mean_points, marker="o", label=label)[0]
        axes.fill_between(group.k, group.ci_low, group.ci_high, color=line.get_color(), alpha=0.25)
    axes.axhline(0, color="0.4", linewidth=0.8)
    _legend_outside(axes)
    return figure


def exact_rate_by_size(run: RunRecord, tables: Tables) -> Figure | None:
    """Share of exact bids against hand size, one line per strategy."""
    drawn = _by_size(run, tables, "Exact-bid rate by hand size", "hands bid exactly (%)")
    if drawn is None:
        return None
    figure, axes, rows = drawn
    for label, group in rows.groupby("strategy", sort=False):
        axes.plot(group.k, 100 * group.exact_rate, marker="o", label=label)
    axes.set_ylim(0, 100)
    _legend_outside(axes)
    return figure


def _grouped_bars(axes: Any, categories: list, groups: list[str], heights: np.ndarray,
                  errors: np.ndarray | None = None) -> None:  # fmt: skip
    """Bars of heights[group, category], grouped by category."""
    width = 0.8 / len(groups)
    x = np.arange(len(categories))
    for i, label in enumerate(groups):
        yerr = None if errors is None else errors[:, i, :]
        axes.bar(x + (i - (len(groups) - 1) / 2) * width, heights[i], width, yerr=yerr, capsize=2, label=label)
    axes.set_xticks(x, [str(c) for c in categories])


def won_minus_bid(run: RunRecord, tables: Tables) -> Figure | None:
    """Distribution of tricks won minus tricks bid, all hand sizes, bars per strategy."""
    errors = tables["errors"]
    rows = errors[errors.cards == ("all" if "all" in set(errors.cards) else errors.cards.iloc[0])]
    seen = rows[rows.share >= 0.001].won_minus_bid  # the axis spans the values with at least 0.1% of hands
    values = list(range(int(seen.min()), int(seen.max()) + 1))
    rows = rows[rows.won_minus_bid.isin(values)]
    groups = list(dict.fromkeys(rows.strategy))
    shares = np.zeros((len(groups), len(values)))
    for row in rows.itertuples():
        shares[groups.index(row.strategy), values.index(row.won_minus_bid)] = 100 * row.share
    figure, axes = _figure("How far bids miss: tricks won minus tricks bid", run)
    _grouped_bars(axes, values, groups, shares)
    axes.set_xlabel("tricks won - tricks bid (0 = exact; all hand sizes; values with at least 0.1% of hands)")
    axes.set_ylabel("share of the strategy's hands (%)")
    _legend_outside(axes)
    return figure


def points_by_position(run: RunRecord, tables: Tables) -> Figure | None:
    """Mean points per hand by bidding position, bars per strategy with 95% intervals."""
    results = tables["results"]
    cards = "all" if "all" in set(results.cards) else results.cards.iloc[0]
    rows = results[(results.cards == cards) & (results.position != "all")].dropna(subset=["mean_points"])
    players = run.rules.players
    positions = [str(p) for p in range(1, players + 1)]
    groups = list(dict.fromkeys(rows.strategy))
    means = np.full((len(groups), players), np.nan)
    spans = np.zeros((2, len(groups), players))
    for row in rows.itertuples():
        g, p = groups.index(row.strategy), positions.index(row.position)
        means[g, p] = row.mean_points
        spans[:, g, p] = row.mean_points - row.ci_low, row.ci_high - row.mean_points
    names = [f"{p}" + (" (first)" if p == "1" else " (dealer)" if p == positions[-1] else "") for p in positions]
    sizes = "all hand sizes" if cards == "all" else f"{cards} cards"
    figure, axes = _figure(f"Points per hand by bidding position ({sizes}, 95% intervals)", run)
    _grouped_bars(axes, names, groups, means, spans)
    axes.axhline(0, color="0.4", linewidth=0.8)
    axes.set_xlabel("bidding position (1 bids first and leads; the dealer bids last, under the hook rule)")
    axes.set_ylabel("mean points per hand")
    _legend_outside(axes)
    return figure


def pair_matrix(run: RunRecord, tables: Tables) -> Figure | None:
    """Paired differences (row minus column) with their 95% half-widths; grey where the CI holds 0."""
    if "pairs" not in tables:
        return None
    pairs = tables["pairs"]
    rows = pairs[pairs.cards == ("all" if "all" in set(pairs.cards) else pairs.cards.iloc[0])]
    names = list(dict.fromkeys([*rows.strategy_a, *rows.strategy_b]))
    diff = np.full((len(names), len(names)), np.nan)
    half = np.full_like(diff, np.nan)
    for row in rows.itertuples():
        a, b = names.index(row.strategy_a), names.index(row.strategy_b)
        diff[a, b], diff[b, a] = row.mean_diff, -row.mean_diff
        half[a, b] = half[b, a] = row.ci_high - row.mean_diff
    significant = np.abs(diff) > half
    scale = np.nanmax(np.abs(diff)) if np.isfinite(diff).any() else 1.0
    figure, axes = _figure("Paired difference in points per hand: row minus column (95% CI)", run,
                           width=3.0 + 1.6 * len(names))  # fmt: skip
    shown = np.where(significant, diff, 0.0)
    image = axes.imshow(shown, cmap="RdBu", vmin=-scale, vmax=scale)
    axes.grid(False)
    for a in range(len(names)):
        for b in range(len(names)):
            text = "" if a == b else f"{diff[a, b]:+.2f}\n±{half[a, b]:.2f}"
            if a != b and not significant[a, b]:
                text += "\n(no difference)"
            dark = abs(shown[a, b]) > 0.55 * scale
            axes.text(b, a, text, ha="center", va="center", fontsize=9, color="white" if dark else "black")
    axes.set_xticks(range(len(names)), names, rotation=20, ha="right")
    axes.set_yticks(range(len(names)), names)
    figure.colorbar(image, ax=axes, label="points per hand (row - column)")
    return figure


def win_probability(run: RunRecord, tables: Tables) -> Figure | None:
    """Chance of winning a whole game per strategy, with 95% intervals and the fair share marked."""
    if "games" not in tables:
        return None
    games = tables["games"]
    figure, axes = _figure("Probability of winning a whole game (per seat, 95% intervals)", run)
    spans = np.array([100 * (games.win_rate - games.win_ci_low), 100 * (games.win_ci_high - games.win_rate)])
    spans = np.maximum(spans, 0.0)  # Wilson's bounds hold the rate; only rounding can put one a hair inside
    axes.bar(games.strategy, 100 * games.win_rate, yerr=spans, capsize=4, color="tab:blue")
    for x, (rate, high) in enumerate(zip(games.win_rate, games.win_ci_high, strict=True)):
        axes.annotate(f"{100 * rate:.1f}%", (x, 100 * high), xytext=(0, 4), textcoords="offset points", ha="center")
    fair = 100 / run.rules.players
    axes.axhline(fair, color="tab:red", linestyle="--", linewidth=1, label=f"fair share ({fair:.0f}%)")
    axes.set_xlabel("strategy")
    axes.set_ylabel("games won (%)")
    axes.legend(loc="upper right", frameon=False)
    return figure


FIGURES: dict[str, Callable[[RunRecord, Tables], Figure | None]] = {
    "points_by_size": points_by_size,
    "exact_rate_by_size": exact_rate_by_size,
    "points_by_position": points_by_position,
    "won_minus_bid": won_minus_bid,
    "pair_matrix": pair_matrix,
    "win_probability": win_probability,
}


def render_figures(run: RunRecord, tables: Tables) -> dict[str, bytes]:
    """Every figure the tables allow, as PNG data by name (``points_by_size``, ...)."""
    rendered = {}
    for name, draw in FIGURES.items():
        figure = draw(run, tables)
        if figure is None:
            continue
        buffer = io.BytesIO()
        figure.savefig(buffer, dpi=110, format="png")
        plt.close(figure)
        rendered[name] = buffer.getvalue()
    return rendered
