"""What the commands that tally hands share (``simulate``, ``compare``, ``game``).

Their results.csv shown by strategy, bidding position and hand size, in the terminal and in
report.html, and the facts of the run.
"""

import pandas as pd

from pocha.engine.confidence import percent
from pocha.game.presets import PRESETS
from pocha.game.rules import FULL_DEAL_TRUMPS
from pocha.reports.kinds.kind import Kind, P, R, T, Tables
from pocha.reports.markup import points, share, table, text
from pocha.reports.record import RunRecord, play_text, scoring_note
from pocha.reports.stats import error_rate
from pocha.reports.tables import headline, terminal_table
from pocha.words import counted


def size_deals(results: pd.DataFrame) -> pd.Series:
    """The deals each hand size of a results table played, by hand size (0 for a size not played)."""
    return results[(results.position == "all") & (results.cards != "all")].groupby("cards", sort=False).deals.max()


def played_per_size(deals: pd.Series) -> tuple[int, int, list[str]]:
    """The fewest and the most deals a hand size played, of those played, and the sizes not played at all.

    deals: by hand size, 0 for a size not played. Equal, and none left out, unless a run stopped.
    """
    played = deals[deals > 0]
    least, most = (int(played.min()), int(played.max())) if len(played) else (0, 0)
    return least, most, [str(cards) for cards in deals.index[deals == 0]]


def how_evenly(deals: pd.Series) -> str:
    """What a stopped run's note adds: the hand sizes it did not play, and the deals each of the others did."""
    least, most, unplayed = played_per_size(deals)
    spread = counted(least, "deal") if least == most else f"{least:,} to {most:,} deals"
    if unplayed:
        return f"none at {', '.join(unplayed)} cards; the other hand sizes played {spread}"
    return f"every hand size played {spread}"


def sizes_text(run: RunRecord, results: pd.DataFrame, sizes: tuple[int, ...]) -> str:
    """What the ``all`` rows pool: every hand size; after a stop that left them uneven, those played, weighed alike."""
    if len(sizes) == 1:
        pooled = counted(sizes[0], "card")
    else:
        least, most, unplayed = played_per_size(size_deals(results))
        each = counted(least, "deal") if least == most else f"{least:,} to {most:,} deals"
        pooled = (
            "all hand sizes"
            if least == most and not unplayed
            else f"the hand sizes played, {each} each, weighed alike as in the full run"
        )
    return pooled if run.complete else f"{pooled}, the deals played before the stop"


def per_strategy(run: RunRecord, frame: pd.DataFrame, sizes: tuple[int, ...]) -> list[str]:
    """The summary first: one row per strategy, every position and hand size together."""
    level = percent(run.level)
    return [f"\nPer strategy ({sizes_text(run, frame, sizes)}):", terminal_table(frame, "strategy", level)]


def position_and_size_tables(run: RunRecord, frame: pd.DataFrame, sizes: tuple[int, ...]) -> list[str]:
    """The per-position table, the per-size table when there are several sizes, and the key."""
    players, level = run.rules.players, percent(run.level)
    lines = [
        f"\nBy bidding position ({sizes_text(run, frame, sizes)}; 1 bids first and leads, {players} is the dealer):",
        terminal_table(frame, "position", level),
    ]
    if len(sizes) > 1:
        lines += ["\nBy hand size (all positions):", terminal_table(frame, "cards", level)]
    return [*lines, f"\npoints: mean points per hand; ±{level}: half-width of its {level} confidence interval."]


def strategy_table(results: pd.DataFrame) -> str:
    """Per strategy, every hand size and position together (report.html)."""
    rows = headline(headline(results), "position")
    return table(
        ["Strategy", "Points per hand", "Exact bids", "Mean bid", "Mean tricks", "Mean miss", "Hands"],
        [
            [
                r.strategy,
                points(r.mean_points, r.ci_low, r.ci_high),
                share(r.exact_rate, r.exact_ci_low, r.exact_ci_high),
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


def intervals_key(confidence: float) -> str:
    """How to read the page's intervals, at the run's level."""
    level, alpha = percent(confidence), 100 * error_rate(confidence)
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
        "independent. Win rates and the rates of exact bids use Wilson's interval."
    )


class HandsKind(Kind[P, T, R]):
    """A command whose runs tally hands: its results by strategy, position and hand size, and its facts."""

    def subtitle(self, run: RunRecord) -> str:
        """The table, rules, play, amount and seed."""
        return (
            f"{run.rules.players} players, {run.preset or 'custom'} rules{scoring_note(run.rules)}, {play_text(run)}, "
            f"{self.figure_amount(run)}, seed {run.seed}"
        )

    def figure_amount(self, run: RunRecord) -> str:
        """The amount a figure's subtitle names."""
        raise NotImplementedError

    def facts(self, run: RunRecord) -> str:
        """report.html's facts: date, version, rules, strategies, seed, amount."""
        rules = run.rules
        field = self.field(run)
        rows = {
            "run on": run.date or "unknown",
            "pocha": run.version,
            "rules": f"{run.preset}: {PRESETS[run.preset].text}" if run.preset else "custom rules",
            "table": f"{rules.players} players, {rules.notation.describe()}",
            "play and hook": f"play rule {rules.play_rule}, hook {rules.hook}, {play_text(run)}",
            "scoring": f"{rules.scoring.label}: {rules.scoring.in_words()}",
            "strategies by seat": ", ".join(f"{s}: {name}" for s, name in enumerate(run.strategies))
            + (f" (field: {field})" if field else ""),
            "amount": self.described(run),
            "seed": str(run.seed),
        }
        if not rules.has_trump(rules.full_deal):
            rows["full deal"] = FULL_DEAL_TRUMPS["none"]
        if run.section.conditions:
            rows["deals"] = self.conditions(run)
        rows |= self.more_facts(run)
        body = "".join(f"<dt>{text(key)}</dt><dd>{text(value)}</dd>" for key, value in rows.items())
        return f'<dl class="facts">{body}</dl>'

    def described(self, run: RunRecord) -> str:
        """The amount as report.html's facts say it."""
        raise NotImplementedError

    def more_facts(self, run: RunRecord) -> dict[str, str]:
        """The facts only this command has."""
        return {}

    def page(self, run: RunRecord, tables: Tables) -> tuple[list[str], list[str]]:
        """The facts and the summary (its answers, then the table per strategy); then results by size and position."""
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
            f"<p>Points per hand, every hand size together; 1 bids first and leads, {run.rules.players} is the "
            "dealer.</p>",
            grid(results, "position", "cards"),
        ]
        summary = [self.facts(run), "<h2>Summary</h2>", *self.answers(run, tables), strategy_table(results)]
        return summary, [*parts, *self.details(run, tables)]

    def answers(self, run: RunRecord, tables: Tables) -> list[str]:
        """The summary's answer before the table per strategy."""
        return []

    def details(self, run: RunRecord, tables: Tables) -> list[str]:
        """report.html's parts after the results by size and position."""
        return []

    def how_to_read(self, run: RunRecord) -> list[str]:
        """The intervals at the run's level."""
        return [intervals_key(run.level)]
