"""``report.html``: one self-contained page a player reads and a colleague reruns, from a run folder.

At the top the exact command, the date, the version, the rules and the seed; then a summary (the
verdicts and a table per strategy), the results by hand size and by position, the pairs, the
games, each figure with a caption, and how to read the intervals. Figures are embedded, the style
is inline: no network. It reads on a phone (tables scroll sideways) and prints.
"""

import base64
import html
import shlex
from collections.abc import Iterable

import numpy as np
import pandas as pd

from pocha.engine.confidence import percent as percent_of
from pocha.game.rules import CLIMBING, FULL_DEAL_TRUMPS, FULL_DEALS, PRESETS, TIE_BREAKS
from pocha.reports.plots import CAPTIONS
from pocha.reports.predictions import prediction_bias
from pocha.reports.record import CompareRun, GameRun, RunRecord, VariantsRun, dealt_sizes, is_duplicate, play_text
from pocha.reports.stats import error_rate
from pocha.reports.tables import adjusted_over, adjustment_key, headline, verdicts
from pocha.reports.variants import INTERVALS as VARIANT_INTERVALS
from pocha.reports.variants import LUCK, figure, question_tables
from pocha.words import counted

STYLE = """
body { font-family: system-ui, -apple-system, sans-serif; margin: 0 auto; padding: 1rem; max-width: 62rem;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; } h2 { font-size: 1.2rem; margin-top: 2rem;
     border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
code { background: #f3f3f3; padding: 0.1rem 0.3rem; border-radius: 3px; word-break: break-all; }
.command { font-size: 0.95rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; font-size: 0.9rem; }
dl.facts dt { color: #555; } dl.facts dd { margin: 0; }
.scroll { overflow-x: auto; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; font-size: 0.88rem; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.3rem 0.6rem; text-align: right; white-space: nowrap; }
th { background: #f5f5f5; } th:first-child, td:first-child { text-align: left; }
.words td, .words th { white-space: normal; text-align: left; }
.verdicts li { margin: 0.2rem 0; }
figure { margin: 1rem 0 1.5rem; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9rem; color: #444; margin-top: 0.3rem; }
footer { margin-top: 2rem; font-size: 0.8rem; color: #666; }
@media print { .scroll { overflow: visible; } figure, table { break-inside: avoid; } body { max-width: none; } }
"""


def text(value: object) -> str:
    """Escaped text for the page."""
    return html.escape(str(value))


def table(header: Iterable[str], rows: Iterable[Iterable[object]], words: bool = False) -> str:
    """A plain table, wrapped so a narrow screen scrolls it sideways; ``words``: its cells of text wrap instead."""
    head = "".join(f"<th>{text(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{text(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    kind = "scroll words" if words else "scroll"
    return f'<div class="{kind}"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def points(mean: float, low: float, high: float) -> str:
    """A mean with its 95% half-width: ``4.54 ± 0.01``."""
    if not np.isfinite(mean):
        return "-"
    return f"{mean:.2f} ± {(high - low) / 2:.2f}" if np.isfinite(high - low) else f"{mean:.2f}"


def percent(value: float, low: float | None = None, high: float | None = None) -> str:
    """A share: ``48.2%``, with its interval when given: ``48.2% (47.5-48.9)``."""
    if not np.isfinite(value):
        return "-"
    shown = f"{100 * value:.1f}%"
    return shown if low is None or high is None else f"{shown} ({100 * low:.1f}-{100 * high:.1f})"


def facts(run: RunRecord) -> str:
    """The run's facts: date, version, rules, strategies, seed, amount (a study's: ``variants_parts``)."""
    rules = run.rules
    assert not isinstance(run.section, VariantsRun)
    schedule = rules.schedule if isinstance(rules.schedule, str) else ",".join(map(str, rules.schedule))
    section = run.section
    amount = (
        f"{counted(section.games, 'whole game')} ({schedule} schedule), "
        f"seating {'rotated' if section.rotate else 'kept'}"
        if isinstance(section, GameRun)
        else f"{counted(section.deals_per_size, 'deal')} per hand size, hand sizes {', '.join(map(str, section.cards))}"
        + (", duplicate (every deal once per rotation of the seating)" if is_duplicate(run) else "")
    )
    field = section.field if isinstance(section, CompareRun) else None
    rows = {
        "run on": run.date or "unknown",
        "pocha": run.version,
        "rules": f"{run.preset}: {PRESETS[run.preset].text}" if run.preset else "custom rules",
        "table": f"{rules.players} players, {rules.notation.describe()}",
        "play and hook": f"play rule {rules.play_rule}, hook {rules.hook}, {play_text(run)}",
        "scoring": f"{rules.scoring.label}: {rules.scoring.in_words()}",
        "strategies by seat": ", ".join(f"{s}: {name}" for s, name in enumerate(run.strategies))
        + (f" (field: {field})" if field else ""),
        "amount": amount,
        "seed": str(run.seed),
    }
    if not rules.has_trump(rules.full_deal):
        rows["full deal"] = FULL_DEAL_TRUMPS["none"]
    if isinstance(section, GameRun) and rules.schedule in CLIMBING:
        rows["full deals"] = f"{rules.full_deals}: {FULL_DEALS[rules.full_deals]}"
    if isinstance(section, GameRun):
        rows["tie-break"] = f"{rules.tie_break}: {TIE_BREAKS[rules.tie_break]}"
    body = "".join(f"<dt>{text(key)}</dt><dd>{text(value)}</dd>" for key, value in rows.items())
    return f'<dl class="facts">{body}</dl>'


def strategy_table(results: pd.DataFrame) -> str:
    """Per strategy, every hand size and position together."""
    rows = headline(headline(results), "position")
    return table(
        ["Strategy", "Points per hand", "Exact bids", "Mean bid", "Mean tricks", "Mean miss", "Hands"],
        [
            [
                r.strategy,
                points(r.mean_points, r.ci_low, r.ci_high),
                percent(r.exact_rate, r.exact_ci_low, r.exact_ci_high),
                f"{r.mean_bid:.2f}",
                f"{r.mean_won:.2f}",
                f"{r.mean_abs_error:.2f}",
                f"{r.hands:,}",
            ]
            for r in rows.itertuples()
        ],
    )


def grid(results: pd.DataFrame, along: str, other: str) -> str:
    """Points per hand with 95% half-widths, one row per value of ``along`` (the other axis at its margin)."""
    rows = headline(results, other)
    rows = rows[rows[along] != "all"] if rows[along].nunique() > 1 else rows
    names = list(dict.fromkeys(rows.strategy))
    values = list(dict.fromkeys(rows[along]))
    cell = {(r.strategy, r[along]): points(r.mean_points, r.ci_low, r.ci_high) for _, r in rows.iterrows()}
    title = {"cards": "Hand size", "position": "Position"}[along]
    return table([title, *names], [[value, *(cell.get((name, value), "-") for name in names)] for value in values])


def pairs_table(pairs: pd.DataFrame) -> str:
    """Every pair's difference by hand size: a - b with its 95% half-width, and who is ahead (unadjusted)."""
    return table(
        ["Pair (a - b)", "Hand size", "Difference", "Unadjusted verdict"],
        [
            [
                f"{r.strategy_a} - {r.strategy_b}",
                r.cards,
                points(r.mean_diff, r.ci_low, r.ci_high),
                f"{r.strategy_a} ahead"
                if r.ci_low > 0
                else f"{r.strategy_b} ahead"
                if r.ci_high < 0
                else "no difference",
            ]
            for r in pairs.itertuples()
        ],
    )


def games_table(games: pd.DataFrame, level: str) -> str:
    """Per strategy: wins, shared first places, final scores."""
    return table(
        ["Strategy", f"Won ({level} CI)", "Shared first", "Final score", "Median", "Middle half", "Games"],
        [
            [
                r.strategy,
                percent(r.win_rate, r.win_ci_low, r.win_ci_high),
                percent(r.shared_rate),
                points(r.mean_score, r.score_ci_low, r.score_ci_high),
                f"{r.score_median:.0f}",
                f"{r.score_p25:.0f} to {r.score_p75:.0f}",
                f"{r.games:,}",
            ]
            for r in games.itertuples()
        ],
    )


def prediction_section(predictions: pd.DataFrame) -> list[str]:
    """What the predicting strategies expected of their bids, against what their hands took."""
    bias = prediction_bias(predictions)
    return [
        "<h2>Predictions</h2>",
        "<p>What each predicting strategy expected of its bids, per hand, against what its hands took. "
        "The bias is the mean predicted minus the mean realised, with its 95% interval; an interval that "
        "holds 0 means no bias was detected. The calibration figure shows it across the range of predictions.</p>",
        table(
            ["Strategy", "Predicts", "Predicted", "Realised", "Bias", "Hands"],
            [
                [
                    r.strategy,
                    r.quantity,
                    f"{r.predicted:.2f}",
                    f"{r.realised:.2f}",
                    points(r.bias, r.ci_low, r.ci_high),
                    f"{r.hands:,}",
                ]
                for r in bias.itertuples()
            ],
        ),
    ]


def summary_section(run: RunRecord, tables: dict[str, pd.DataFrame]) -> list[str]:
    """The answer first: the verdicts (or who wins games), then the table per strategy."""
    parts = ["<h2>Summary</h2>"]
    if "pairs" in tables:
        pairs = tables["pairs"]
        sentences = verdicts(pairs)
        sizes = dealt_sizes(run)
        where = "every hand size together" if len(sizes) > 1 else f"{sizes[0]} cards"
        parts.append(f"<p>Paired by deal, {where} ({text(adjusted_over(pairs))}):</p>")
        parts.append('<ul class="verdicts">' + "".join(f"<li>{text(s)}</li>" for s in sentences) + "</ul>")
        if key := adjustment_key(pairs, run.level):
            parts.append(f"<p>{text(key)}</p>")
    if "games" in tables:
        best = tables["games"].sort_values("win_rate", ascending=False).iloc[0]
        parts.append(
            f"<p>{text(best.strategy)} won the most games: {percent(best.win_rate)} of the games per seat "
            f"held, against a fair share of {100 / run.rules.players:.0f}%.</p>"
        )
        parts.append(games_table(tables["games"], percent_of(run.level)))
        parts.append(f"<p>{text(tie_breaks(run))}</p>")
        parts.append("<h3>Every hand of the games</h3>")
    parts.append(strategy_table(tables["results"]))
    return parts


def tie_breaks(run: RunRecord) -> str:
    """What the tie-break rule did."""
    assert isinstance(run.section, GameRun)
    tied, extra, shared = run.section.tie_break_games, run.section.tie_break_hands, run.section.shared_games
    return (
        f"Tie-breaks ({run.rules.tie_break}: {TIE_BREAKS[run.rules.tie_break]}): {counted(tied, 'game')} needed "
        f"extra one-card hands ({counted(extra, 'hand')} in all); {shared:,} ended with first place shared."
    )


def intervals_key(confidence: float) -> str:
    """How to read the page's intervals, at the run's level."""
    level, alpha = percent_of(confidence), 100 * error_rate(confidence)
    return (
        f"Every figure after ± is the half-width of a {level} confidence interval (a comparison's verdicts "
        f"excepted, see below): if the same run were repeated with fresh seeds, about {100 - alpha:g} intervals in "
        "100 would hold the true value under these rules and strategies. A difference between two strategies is "
        'only called when its interval leaves out 0 ("no difference detected" otherwise). Differences come from '
        "the same deals played by both (paired), so they are much tighter than the two means' intervals side by "
        "side. A "
        "comparison of several strategies calls its verdicts over all hand sizes by Holm's method, adjusted for "
        f"the number of pairs: the chance of calling any difference that is not there stays at most {alpha:g}%, and "
        f"each verdict's interval is at the level the method decides it at ({level} or more), so it leaves out 0 "
        "exactly when a difference is called. The unit is the deal: hands of one deal are never counted as "
        "independent. Win rates use Wilson's interval."
    )


def exploratory_key(confidence: float) -> str:
    """How to read the unadjusted pairs by hand size, at the run's level."""
    return (
        f"Each row at its own {percent_of(confidence)}, unadjusted: among many pairs and hand sizes, about 1 row in "
        f"{1 / error_rate(confidence):.0f} where there is no difference reads as one by chance. The summary's "
        "verdicts are the adjusted ones."
    )


def plus_minus(value: float, high: float, format_: str) -> str:
    """``+4.04 ± 0.47``: a figure and the half-width of its interval, as the page's tables show them."""
    return f"{format_.format(value)} ± {format_.format(high - value).lstrip('+')}"


def apart(rows: pd.DataFrame, a: str, b: str, format_: str) -> str:
    """Variant ``a`` against ``b`` in words: their paired difference when the study has it, as the page shows it.

    The study pairs every variant with the first (``diff`` is a variant minus the first); two others
    are told apart only when even their unpaired intervals leave each other out.
    """
    if a == b:
        return ""
    first = rows.index[0]
    if first not in (a, b):
        clear = rows.loc[a].ci_low > rows.loc[b].ci_high or rows.loc[b].ci_low > rows.loc[a].ci_high
        told = "their intervals apart" if clear else "not told apart (the study pairs each variant with the first only)"
        return f"; {b} at {format_.format(rows.loc[b].value)}, {told}"
    other = rows.loc[a if b == first else b]
    sign = 1 if b == first else -1
    diff, low, high = sign * other["diff"], *sorted((sign * other.diff_low, sign * other.diff_high))
    called = "a clear difference" if low > 0 or high < 0 else "no clear difference"
    return f"; {plus_minus(diff, high, format_)} against {b}, paired game by game: {called}"


def variant_answers(table: pd.DataFrame) -> list[str]:
    """The study's answers in words: where skill pays most, where the dealer fares best and worst, where luck weighs.

    Each names the highest (and lowest) estimate and says whether it is told apart from the next (for
    the dealer and luck: the highest from the lowest), by the paired difference the page shows.
    """

    def ranked(measure: str, format_: str) -> tuple[pd.DataFrame, list[str], dict[str, str]]:
        rows = figure(table, measure)
        shown = {name: plus_minus(r.value, r.ci_high, format_) for name, r in rows.iterrows()}
        return rows, list(rows.sort_values("value", ascending=False).index), shown

    rows, order, shown = ranked("skill_points", "{:+.2f}")
    skill = (
        f"Skill pays most under {order[0]}: the strong player gains {shown[order[0]]} points a hand"
        f"{apart(rows, order[0], order[1 if len(order) > 1 else 0], '{:+.2f}')}."
    )
    rows, order, shown = ranked("dealer_gap", "{:+.2f}")
    dealer = (
        f"The dealer fares best under {order[0]} ({shown[order[0]]} points a hand against the table's mean) "
        f"and worst under {order[-1]} ({shown[order[-1]]}){apart(rows, order[0], order[-1], '{:+.2f}')}."
    )
    rows, order, shown = ranked("luck_hand", "{:.3f}")
    luck = (
        f"The cards explain the largest share of a hand's spread of points under {order[0]} ({shown[order[0]]}) "
        f"and the smallest under {order[-1]} ({shown[order[-1]]}){apart(rows, order[0], order[-1], '{:+.3f}')}."
    )
    return [skill, dealer, luck]


def variants_parts(run: RunRecord, tables: dict[str, pd.DataFrame]) -> tuple[list[str], list[str]]:
    """A study's page: its facts and the answers; then (after the figures) a table per question."""
    section = run.section
    assert isinstance(section, VariantsRun)
    rows = {
        "run on": run.date or "unknown",
        "pocha": run.version,
        "table": f"{run.rules.players} players",
        "line-up": ", ".join(f"{s}: {name}" for s, name in enumerate(run.strategies)) + f"; {play_text(run)}",
        "skill": f"{section.strong} at one seat among {section.weak}, against {section.weak} at every seat",
        "amount": f"{counted(section.games, 'whole game')} per variant, seating rotated, first dealer by lot",
        "seed": str(run.seed),
    }
    body = "".join(f"<dt>{text(key)}</dt><dd>{text(value)}</dd>" for key, value in rows.items())
    answers = "".join(f"<li>{text(s)}</li>" for s in variant_answers(tables["variants"]))
    summary = [f'<dl class="facts">{body}</dl>', "<h2>Summary</h2>", f'<ul class="verdicts">{answers}</ul>']
    details = []
    for number, (title, frame) in enumerate(question_tables(run, tables["variants"])):
        details += [f"<h2>{text(title.split(':')[0].split(' (')[0])}</h2>", f"<p>{text(title)}.</p>"]
        cells = [[name, *row] for name, row in frame.iterrows()]
        details.append(table(["variant", *frame.columns], cells, words=number == 0))  # the first: rules in words
    return summary, details


def run_again(run: RunRecord) -> str:
    """The command that made a run, as one that makes it again in its folder: replacing it (``--force``)."""
    if run.command_line is None:
        return f"pocha {run.command} (the command was not recorded)"
    if not run.command_line.startswith("pocha "):  # a Python call
        return f"{run.command_line} with force=True"
    words = shlex.split(run.command_line)
    return shlex.join(words if "--force" in words else [*words, "--force"])


def report_page(run: RunRecord, tables: dict[str, pd.DataFrame], figures: dict[str, bytes]) -> str:
    """``report.html``: one self-contained page, the figures (PNG data by name) embedded."""
    studied = isinstance(run.section, VariantsRun)
    named = run.section.variants if isinstance(run.section, VariantsRun) else run.strategies
    summary, details = variants_parts(run, tables) if studied else run_parts(run, tables)
    parts = [
        f"<h1>pocha {text(run.command)}: {text(', '.join(dict.fromkeys(named)))}</h1>",
        f'<p class="command">To run it again, replacing this run: <code>{text(run_again(run))}</code></p>',
        *summary,
        *(["<h2>Figures</h2>"] if figures else []),
    ]
    for name, png in figures.items():  # before the long tables: a reader sees the picture first
        data = base64.b64encode(png).decode("ascii")
        parts.append(
            f'<figure><img alt="{text(name.replace("_", " "))}" src="data:image/png;base64,{data}">'
            f"<figcaption>{text(CAPTIONS[name])}</figcaption></figure>"
        )
    parts += details
    how = [VARIANT_INTERVALS, LUCK] if studied else [intervals_key(run.level)]
    parts += ["<h2>How to read the intervals</h2>", *(f"<p>{text(paragraph)}</p>" for paragraph in how)]
    listed = ", ".join(f"{name}.csv" for name in tables)
    parts.append(
        f"<footer>The full tables are the CSV files beside this page ({listed}); run.json holds the run record. "
        f"Written by pocha {text(run.version)}.</footer>"
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>pocha {text(run.command)} report</title><style>{STYLE}</style></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )


def run_parts(run: RunRecord, tables: dict[str, pd.DataFrame]) -> tuple[list[str], list[str]]:
    """A run's facts and summary; then (after the figures) its results by size and position, pairs, predictions."""
    results = tables["results"]
    parts: list[str] = []
    if results.cards.nunique() > 1:
        parts += [
            "<h2>By hand size</h2>",
            "<p>Points per hand, every bidding position together.</p>",
            grid(results, "cards", "position"),
        ]
    parts += [
        "<h2>By bidding position</h2>",
        f"<p>Points per hand, every hand size together; 1 bids first and leads, {run.rules.players} is the dealer.</p>",
        grid(results, "position", "cards"),
    ]
    if "pairs" in tables and tables["pairs"].cards.nunique() > 1:
        parts += [
            "<h2>Pairs by hand size (exploratory)</h2>",
            f"<p>{text(exploratory_key(run.level))}</p>",
            pairs_table(tables["pairs"]),
        ]
    if "predictions" in tables:
        parts += prediction_section(tables["predictions"])
    return [facts(run), *summary_section(run, tables)], parts
