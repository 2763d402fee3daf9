"""Figures drawn from the run's tidy tables only, so everything a figure shows is in a CSV.

Every figure names its rules, amount of play, seed and command under its title, so it can be
traced back to the run. Each has a one-line caption (CAPTIONS) saying what to read from it.
"""

import io
import textwrap
from collections.abc import Callable
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; never a window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.layout_engine import ConstrainedLayoutEngine  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from pocha.engine.confidence import percent  # noqa: E402
from pocha.reports.kinds import kind_of  # noqa: E402
from pocha.reports.predictions import calibration, prediction_bias  # noqa: E402
from pocha.reports.record import RunRecord  # noqa: E402
from pocha.reports.tables import adjusted_over, headline  # noqa: E402
from pocha.reports.variants import figure as variant_figure  # noqa: E402
from pocha.words import counted, give_or_take  # noqa: E402

Tables = dict[str, pd.DataFrame]
TITLE_BAND = 0.85  # inches at the top of a figure for its title and subtitle
TITLE_MARGIN = 0.4  # inches a title keeps free of the edges, both sides together
COMMAND_WIDTH = 110  # characters of the command shown under a title; longer ones are shortened
COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]  # matplotlib's default cycle (tab10)


def subtitle(run: RunRecord) -> str:
    """Two lines under a title: rules, amount of play and seed (its kind's); the command (shortened if long)."""
    command = run.command_line or f"pocha {run.command} (the command was not recorded)"
    shown = textwrap.shorten(command, COMMAND_WIDTH, placeholder=" ...")
    return f"{kind_of(run.command).subtitle(run)}\n{shown}"


def label(name: str, width: int = 18) -> str:
    """A strategy label wrapped for an axis (long specs break at their parameters)."""
    return "\n".join(textwrap.wrap(name.replace(":", ": ").replace(",", ", "), width)).replace(": ", ":")


def _figure(title: str, run: RunRecord, width: float = 9.0, height: float = 5.0) -> tuple[Figure, Any]:
    figure, axes = plt.subplots(figsize=(width, height), layout="constrained")
    _titles(figure, title, run)
    axes.grid(alpha=0.3)
    return figure, axes


def _titles(figure: Figure, title: str, run: RunRecord) -> None:
    """The title and the run's subtitle, both centred on the whole figure, in a band kept free at the top.

    A figure narrower than its title (one panel of a per-panel width) is widened to it, not left to cut it.
    """
    height = figure.get_figheight()
    texts = [
        figure.text(0.5, 1 - 0.1 / height, title, ha="center", va="top", fontsize=13),
        figure.text(0.5, 1 - 0.42 / height, subtitle(run), ha="center", va="top", fontsize=8, color="0.35"),
    ]
    needed = max(text.get_window_extent().width for text in texts) / figure.dpi + TITLE_MARGIN
    figure.set_figwidth(max(figure.get_figwidth(), needed))
    figure.set_layout_engine(ConstrainedLayoutEngine(rect=(0, 0, 1, 1 - TITLE_BAND / height)))


def _legend_outside(axes: Any, title: str = "strategy") -> None:
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, title=title)


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


def _lines_with_bands(axes: Any, rows: pd.DataFrame, value: str, low: str, high: str, scale: float = 1.0) -> None:
    """One line per strategy against hand size, with its 95% band."""
    for i, (name, group) in enumerate(rows.groupby("strategy", sort=False)):
        color = COLORS[i % len(COLORS)]
        axes.plot(group.k, scale * group[value], marker="o", color=color, label=label(name, 24))
        axes.fill_between(group.k, scale * group[low], scale * group[high], color=color, alpha=0.2, linewidth=0)


def points_by_size(run: RunRecord, tables: Tables) -> Figure | None:
    """Mean points per hand against hand size, one line per strategy, 95% bands."""
    drawn = _by_size(
        run, tables, f"Expected points per hand by hand size ({percent(run.level)} bands)", "mean points per hand"
    )
    if drawn is None:
        return None
    figure, axes, rows = drawn
    _lines_with_bands(axes, rows, "mean_points", "ci_low", "ci_high")
    axes.axhline(0, color="0.4", linewidth=0.8)
    _legend_outside(axes)
    return figure


def exact_rate_by_size(run: RunRecord, tables: Tables) -> Figure | None:
    """Share of exact bids against hand size, one line per strategy, 95% bands."""
    drawn = _by_size(run, tables, f"Exact-bid rate by hand size ({percent(run.level)} bands)", "hands bid exactly (%)")
    if drawn is None:
        return None
    figure, axes, rows = drawn
    _lines_with_bands(axes, rows, "exact_rate", "exact_ci_low", "exact_ci_high", scale=100)
    axes.set_ylim(0, 100)
    _legend_outside(axes)
    return figure


def _grouped_bars(
    axes: Any, categories: list, groups: list[str], heights: np.ndarray, errors: np.ndarray | None = None
) -> None:
    """Bars of heights[group, category], grouped by category."""
    width = 0.8 / len(groups)
    x = np.arange(len(categories))
    for i, name in enumerate(groups):
        yerr = None if errors is None else errors[:, i, :]
        axes.bar(
            x + (i - (len(groups) - 1) / 2) * width,
            heights[i],
            width,
            yerr=yerr,
            capsize=2,
            label=label(name, 24),
            color=COLORS[i % len(COLORS)],
        )
    axes.set_xticks(x, [str(c) for c in categories])


def won_minus_bid(run: RunRecord, tables: Tables) -> Figure | None:
    """Distribution of tricks won minus tricks bid, all hand sizes, bars per strategy."""
    errors = tables["errors"]
    rows = headline(errors)
    seen = rows[rows.share >= 0.001].won_minus_bid  # the axis spans the values with at least 0.1% of hands
    values = list(range(int(seen.min()), int(seen.max()) + 1))
    rows = rows[rows.won_minus_bid.isin(values)]
    groups = list(dict.fromkeys(rows.strategy))
    shares = np.zeros((len(groups), len(values)))
    for row in rows.itertuples():
        shares[groups.index(row.strategy), values.index(row.won_minus_bid)] = 100 * row.share
    figure, axes = _figure("How far bids miss: tricks won minus tricks bid", run)
    _grouped_bars(axes, values, groups, shares)
    axes.set_xlabel("tricks won - tricks bid (0 = exact; values with at least 0.1% of hands)")
    axes.set_ylabel("share of the strategy's hands (%)")
    _legend_outside(axes)
    return figure


def points_by_position(run: RunRecord, tables: Tables) -> Figure | None:
    """Mean points per hand by bidding position, bars per strategy with 95% intervals."""
    results = tables["results"]
    rows = headline(results)
    cards = rows.cards.iloc[0]
    rows = rows[rows.position != "all"].dropna(subset=["mean_points"])
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
    sizes = "all hand sizes" if cards == "all" else counted(int(cards), "card")
    figure, axes = _figure(f"Points per hand by bidding position ({sizes}, {percent(run.level)} intervals)", run)
    _grouped_bars(axes, names, groups, means, spans)
    axes.axhline(0, color="0.4", linewidth=0.8)
    axes.set_xlabel("bidding position (1 bids first and leads; the dealer bids last, under the hook rule)")
    axes.set_ylabel("mean points per hand")
    _legend_outside(axes)
    return figure


def _pair_rows(tables: Tables) -> pd.DataFrame | None:
    """The pairs table, when the run has one with at least one pair."""
    pairs = tables.get("pairs")
    return None if pairs is None or pairs.empty else pairs


# Red-blue without its pale middle: a called difference, however small beside the largest, is never near grey.
CALLED = ListedColormap(plt.get_cmap("RdBu")(np.r_[np.linspace(0.0, 0.35, 128), np.linspace(0.65, 1.0, 128)]))


def pair_matrix(run: RunRecord, tables: Tables) -> Figure | None:
    """Paired differences, row minus column, in one triangle; cells with no Holm-adjusted verdict greyed, "n.s."."""
    pairs = _pair_rows(tables)
    if pairs is None:
        return None
    rows = headline(pairs)
    names = list(dict.fromkeys([*rows.strategy_a, *rows.strategy_b]))
    n = len(names)
    diff = np.full((n, n), np.nan)
    half = np.full_like(diff, np.nan)
    for row in rows.itertuples():  # a comes before b: the lower triangle is b's row, a's column
        a, b = names.index(row.strategy_a), names.index(row.strategy_b)
        diff[b, a], half[b, a] = -row.mean_diff, row.holm_ci_high - row.mean_diff
    significant = np.abs(diff) > half
    scale = np.nanmax(np.abs(diff)) if np.isfinite(diff).any() else 1.0
    side = 1.15 * (n - 1)  # inches per cell
    figure, axes = _figure(
        f"Paired difference: row minus column ({adjusted_over(pairs)})",
        run,
        width=max(7.5, 4.0 + side),
        height=max(4.0, 2.4 + side),
    )
    shown = np.ma.masked_invalid(np.where(significant, diff, np.nan))[1:, :-1]
    image = axes.imshow(shown, cmap=CALLED, vmin=-scale, vmax=scale, aspect="equal")
    axes.grid(False)
    for r in range(1, n):
        for c in range(r):
            if not significant[r, c]:
                axes.add_patch(plt.Rectangle((c - 0.5, r - 1.5), 1, 1, facecolor="0.9", hatch="///", edgecolor="0.75"))
            dark = significant[r, c] and abs(diff[r, c]) > 0.55 * scale
            cell = give_or_take(diff[r, c], half[r, c], "{:+.2f}").replace(" ± ", "\n± ")  # narrow cells: two lines
            text = cell + ("" if significant[r, c] else "\nn.s.")
            axes.text(c, r - 1, text, ha="center", va="center", fontsize=9, color="white" if dark else "black")
    axes.set_xticks(range(n - 1), [label(name) for name in names[:-1]], fontsize=8)
    axes.set_yticks(range(n - 1), [label(name) for name in names[1:]], fontsize=8)
    axes.set_xlim(-0.5, n - 1.5)
    axes.set_ylim(n - 1.5, -0.5)
    for spine in axes.spines.values():
        spine.set_visible(False)
    bar = figure.colorbar(image, ax=axes, shrink=0.8)
    bar.set_label("row - column, points per hand\n(grey, n.s.: no difference detected)", fontsize=8)
    return figure


def pairs_by_size(run: RunRecord, tables: Tables) -> Figure | None:
    """The paired difference of every pair against hand size, one small panel per pair, 95% bands."""
    pairs = _pair_rows(tables)
    if pairs is None or pairs.cards.nunique() < 3:  # one hand size (and its "all" margin): the matrix says it
        return None
    rows = pairs[pairs.cards != "all"].assign(k=lambda frame: frame.cards.astype(int))
    names = list(dict.fromkeys(zip(rows.strategy_a, rows.strategy_b, strict=True)))
    columns = min(4, len(names))
    lines = -(-len(names) // columns)
    figure, grid = plt.subplots(
        lines,
        columns,
        figsize=(3.2 * columns + 1.0, 2.4 * lines + 1.4),
        layout="constrained",
        sharex=True,
        sharey=True,  # panels side by side are read as sizes: a gap of 0.15 must not look like one of 11
        squeeze=False,
    )
    _titles(
        figure,
        "Paired difference by hand size, exploratory: a - b in points per hand "
        f"({percent(run.level)} bands, unadjusted)",
        run,
    )
    for axes, (a, b) in zip(grid.flat, names, strict=False):
        pair = rows[(rows.strategy_a == a) & (rows.strategy_b == b)]
        axes.axhline(0, color="0.4", linewidth=0.8)
        axes.fill_between(pair.k, pair.ci_low, pair.ci_high, color=COLORS[0], alpha=0.25, linewidth=0)
        axes.plot(pair.k, pair.mean_diff, marker="o", markersize=3, color=COLORS[0])
        axes.set_title(textwrap.shorten(f"{a} - {b}", 44, placeholder="..."), fontsize=8)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # hand sizes: no 1.5 cards on a wide panel
        axes.grid(alpha=0.3)
    low, high = min(0.0, rows.ci_low.min()), max(0.0, rows.ci_high.max())  # one scale for all, 0 always in sight
    grid[0, 0].set_ylim(low - 0.08 * (high - low or 1.0), high + 0.08 * (high - low or 1.0))
    for index, axes in enumerate(grid.flat):
        if index >= len(names):
            axes.set_visible(False)
        elif index + columns >= len(names):  # nothing below it: it shows the hand sizes itself
            axes.xaxis.set_tick_params(labelbottom=True)
    figure.supxlabel("cards per player (hand size)", fontsize=9)
    figure.supylabel("a - b, points per hand (above 0: a ahead)", fontsize=9)
    return figure


def win_probability(run: RunRecord, tables: Tables) -> Figure | None:
    """Chance of winning a whole game per strategy, with 95% intervals and the fair share marked."""
    if "games" not in tables:
        return None
    games = tables["games"]
    figure, axes = _figure(f"Probability of winning a whole game (per seat, {percent(run.level)} intervals)", run)
    spans = np.array([100 * (games.win_rate - games.win_ci_low), 100 * (games.win_ci_high - games.win_rate)])
    spans = np.maximum(spans, 0.0)  # Wilson's bounds hold the rate; only rounding can put one a hair inside
    x = np.arange(len(games))
    axes.bar(x, 100 * games.win_rate, yerr=spans, capsize=4, color=COLORS[0], label="won outright")
    if games.shared_rate.sum() > 0:
        axes.bar(
            x,
            100 * games.shared_rate,
            bottom=100 * games.win_rate,
            color=COLORS[0],
            alpha=0.35,
            label="first place shared",
        )
    for i, (rate, high) in enumerate(zip(games.win_rate, games.win_ci_high, strict=True)):  # clear of the upper cap
        axes.annotate(
            f"{100 * rate:.1f}%", (i, 100 * high), xytext=(0, 5), textcoords="offset points", ha="center", va="bottom"
        )
    axes.margins(y=0.12)  # room above the highest cap for its label, inside the frame
    fair = 100 / run.rules.players
    axes.axhline(fair, color="tab:red", linestyle="--", linewidth=1, label=f"fair share ({fair:.0f}%)")
    axes.set_xticks(x, [label(name) for name in games.strategy])
    axes.set_ylabel("games won (%)")
    axes.legend(loc="upper right", frameon=False)
    return figure


def calibration_plot(run: RunRecord, tables: Tables) -> Figure | None:
    """Predicted against realised, a panel per quantity (tricks, points), a line per strategy, the diagonal.

    Each point is a tenth of a strategy's hands, by their prediction: its mean prediction against
    what those hands took, with its interval at the run's level; the legend gives each strategy's bias.
    """
    if "predictions" not in tables:
        return None
    bins, bias = calibration(tables["predictions"], run.level), prediction_bias(tables["predictions"], run.level)
    quantities = list(dict.fromkeys(bins.quantity))
    strategies = list(dict.fromkeys(run.strategies))  # colours as in the other figures
    figure, grid = plt.subplots(
        1, len(quantities), figsize=(5.4 * len(quantities) + 1.0, 6.2), layout="constrained", squeeze=False
    )
    _titles(
        figure, f"Predictions against outcomes: each point a tenth of the hands ({percent(run.level)} intervals)", run
    )
    for axes, quantity in zip(grid.flat, quantities, strict=True):
        rows = bins[bins.quantity == quantity]
        span = [min(rows.predicted.min(), rows.ci_low.min()), max(rows.predicted.max(), rows.ci_high.max())]
        axes.plot(span, span, color="0.4", linestyle="--", linewidth=1, label="predicted = realised")
        for strategy, mine in rows.groupby("strategy", sort=False):
            (row,) = bias[(bias.strategy == strategy) & (bias.quantity == quantity)].itertuples()
            axes.errorbar(
                mine.predicted,
                mine.realised,
                yerr=[mine.realised - mine.ci_low, mine.ci_high - mine.realised],
                marker="o",
                markersize=4,
                capsize=3,
                color=COLORS[strategies.index(strategy) % len(COLORS)],
                label=f"{label(str(strategy), 24)}: bias {give_or_take(row.bias, row.ci_high - row.bias, '{:+.2f}')}",
            )
        axes.set_xlabel(f"predicted {quantity} per hand (mean of the tenth)")
        axes.set_ylabel(f"{quantity} the hands took (mean, {percent(run.level)} interval)")
        axes.grid(alpha=0.3)
        axes.legend(loc="upper left", frameon=False, fontsize=8, title="bias: predicted - realised", title_fontsize=8)
    return figure


MARKERS = "osD^vP<X>*"  # one per variant, so variants that play the same games still show one above the other


def variant_label(name: str) -> str:
    """A variant's name wrapped for a legend, at its colons."""
    return "\n:".join(textwrap.wrap(name.replace(":", " :"), 28)).replace(" :", ":").replace("\n::", "\n:")


def _variant_style(i: int, name: str) -> dict[str, Any]:
    """The i-th variant's colour, mark and legend label, the same in every figure."""
    return {"color": COLORS[i % len(COLORS)], "marker": MARKERS[i % len(MARKERS)], "label": variant_label(name)}


def _variant_errors(rows: pd.DataFrame, scale: float = 1.0) -> np.ndarray:
    """The 2 x n error bar lengths of a figure's rows (below, above), none where the interval is unknown."""
    spans = np.array([rows.value - rows.ci_low, rows.ci_high - rows.value], np.float64) * scale
    return np.nan_to_num(np.maximum(spans, 0.0))


def seat_advantage(run: RunRecord, tables: Tables) -> Figure | None:
    """Points per hand by bidding position, a line per variant with 95% error bars."""
    if "variants" not in tables:
        return None
    players = run.rules.players
    figure, axes = _figure("Seat advantage: points per hand by bidding position (95% intervals)", run)
    positions = np.arange(1, players + 1)
    variants = list(dict.fromkeys(tables["variants"].variant))
    for i, name in enumerate(variants):
        rows = pd.concat([variant_figure(tables["variants"], "points", position=str(p)).loc[[name]] for p in positions])
        offset = (i - (len(variants) - 1) / 2) * 0.06
        axes.errorbar(
            positions + offset,
            rows.value,
            yerr=_variant_errors(rows),
            capsize=3,
            **_variant_style(i, name),
        )
    axes.set_xticks(positions, [*map(str, positions[:-1]), f"{players}\n(dealer)"])
    axes.set_xlabel("bidding position (1 bids first and leads)")
    axes.set_ylabel("points per hand (the line-up)")
    _legend_outside(axes, "variant")
    return figure


def dealer_gap_by_size(run: RunRecord, tables: Tables) -> Figure | None:
    """The dealer's gap to the table's mean against hand size, a line per variant with 95% bands."""
    if "variants" not in tables:
        return None
    table = tables["variants"]
    gaps = table[(table.measure == "dealer_gap") & (table.cards.astype(str) != "all")].copy()
    gaps["k"] = gaps.cards.astype(int)
    figure, axes = _figure("The dealer's gap by hand size: its points minus the table's mean (95% bands)", run)
    variants = gaps.variant.nunique()
    for i, (name, rows) in enumerate(gaps.groupby("variant", sort=False)):
        style = _variant_style(i, name)
        shifted = rows.k + (i - (variants - 1) / 2) * 0.06  # a variant equal to another still shows beside it
        axes.plot(shifted, rows.value, markersize=4, **style)
        axes.fill_between(shifted, rows.ci_low, rows.ci_high, color=style["color"], alpha=0.15, linewidth=0)
    axes.axhline(0, color="0.3", linewidth=1)
    axes.set_xlabel("cards per player (hand size)")
    axes.set_xticks(sorted(gaps.k.unique()))  # every hand size, as the figures of simulate and compare
    axes.set_ylabel("dealer's points per hand - table mean")
    _legend_outside(axes, "variant")
    return figure


def skill_and_luck(run: RunRecord, tables: Tables) -> Figure | None:
    """Each variant as a point: the share of a hand's spread the cards explain, and what skill gains a hand."""
    if "variants" not in tables:
        return None
    table = tables["variants"]
    luck, skill = variant_figure(table, "luck_hand"), variant_figure(table, "skill_points")
    figure, axes = _figure("Skill against luck, by variant (95% intervals)", run)
    for i, name in enumerate(luck.index):
        x, y = luck.loc[[name]], skill.loc[[name]]
        axes.errorbar(
            x.value,
            y.value,
            xerr=_variant_errors(x),
            yerr=_variant_errors(y),
            markersize=max(11 - i, 4),  # smaller in turn: variants at one place show as nested marks
            markerfacecolor="none",
            capsize=3,
            **_variant_style(i, name),
        )
    axes.set_xlabel("luck: share of the spread of a hand's points the cards explain")
    axes.set_ylabel("skill: points per hand the strong player gains")
    _legend_outside(axes, "variant")
    return figure


GAME_PANELS = {  # measure -> (panel title, scale to the axis' unit)
    "exact_rate": ("bids made exactly (%)", 100.0),
    "hook_binds": ("hands the hook binds (%)", 100.0),
    "tie_rate": ("games tied after the schedule (%)", 100.0),
    "winner_margin": ("winner's lead (points)", 1.0),
}


def game_shape(run: RunRecord, tables: Tables) -> Figure | None:
    """The game itself by variant: exact bids, the hook, ties and the winner's lead, with 95% intervals."""
    if "variants" not in tables:
        return None
    figure, panels = plt.subplots(2, 2, figsize=(10.0, 7.0), layout="constrained")
    _titles(figure, "The game itself, by variant (the line-up, 95% intervals)", run)
    for axes, (measure, (title, scale)) in zip(panels.flat, GAME_PANELS.items(), strict=True):
        rows = variant_figure(tables["variants"], measure)
        y = np.arange(len(rows))
        axes.barh(y, scale * rows.value, xerr=_variant_errors(rows, scale), capsize=3, color=COLORS[0], alpha=0.8)
        axes.set_yticks(y, [label(name, 26) for name in rows.index], fontsize=8)
        axes.invert_yaxis()
        axes.set_title(title, fontsize=10)
        axes.grid(alpha=0.3, axis="x")
    return figure


FIGURES: dict[str, Callable[[RunRecord, Tables], Figure | None]] = {  # by name: a kind lists those it draws
    "points_by_size": points_by_size,
    "exact_rate_by_size": exact_rate_by_size,
    "points_by_position": points_by_position,
    "won_minus_bid": won_minus_bid,
    "pair_matrix": pair_matrix,
    "pairs_by_size": pairs_by_size,
    "win_probability": win_probability,
    "calibration": calibration_plot,
    "seat_advantage": seat_advantage,
    "dealer_gap_by_size": dealer_gap_by_size,
    "skill_and_luck": skill_and_luck,
    "game_shape": game_shape,
}
CAPTIONS = {  # what to read from each figure
    "points_by_size": "Which strategy scores more at each hand size; bands that do not overlap mean a clear gap.",
    "exact_rate_by_size": "How often each strategy makes its bid exactly, by hand size.",
    "points_by_position": "Whether a strategy does better bidding first, in the middle or as the dealer.",
    "won_minus_bid": "Whether a strategy tends to overbid (left of 0) or underbid (right of 0).",
    "pair_matrix": "Who beats whom on the same deals: blue cells favour the row, red the column, grey is no "
    "difference detected; verdicts adjusted for the number of pairs (Holm), ± at the level each is decided at.",
    "pairs_by_size": "Where one strategy gains over another: above the zero line the first of the pair is ahead; "
    "each panel has its own scale (exploratory: each band at its own 95%, unadjusted).",
    "win_probability": "Each strategy's chance of winning a whole game, against the fair share of a seat.",
    "seat_advantage": "Which bidding position the rules favour: a dealer's point below the others' is the hook's "
    "price.",
    "dealer_gap_by_size": "At which hand sizes the dealer gains or loses against the table (0: no advantage).",
    "skill_and_luck": "Up: skill pays more; right: the cards decide more. The best game for players who like to win "
    "by skill sits up and to the left. Variants that play the same games sit on one another (nested marks).",
    "game_shape": "How each rule set plays: exact bids, how often the hook binds, ties and how decisive games are.",
    "calibration": "Whether predictions come true: each point is a tenth of a strategy's hands, by their prediction; "
    "on the dashed diagonal the hands took what was predicted, above it more.",
}


def render_figures(run: RunRecord, tables: Tables) -> dict[str, bytes]:
    """Every figure of the run's kind the tables allow, as PNG data by name (``points_by_size``, ...)."""
    rendered = {}
    for name in kind_of(run.command).figures:
        figure = FIGURES[name](run, tables)
        if figure is None:
            continue
        buffer = io.BytesIO()
        figure.savefig(buffer, dpi=110, format="png")
        plt.close(figure)
        rendered[name] = buffer.getvalue()
    return rendered
