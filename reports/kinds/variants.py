"""``pocha variants``: rule sets side by side, each variant's games by the line-up, the weak and the skill tables."""

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pocha.engine.backends import Backend
from pocha.engine.predictions import Rows
from pocha.engine.runner import Outputs, RunTotal
from pocha.engine.variants import Study, VariantTally, play_variants
from pocha.game.conditions import conditions_in_words
from pocha.game.rules import Rules
from pocha.reports.kinds.kind import Kind, RecordedResult, Tables
from pocha.reports.markup import table, text
from pocha.reports.record import RunRecord, conditions_notes, play_text
from pocha.reports.variants import INTERVALS, LUCK, figure, question_tables, same_deals, variant_table
from pocha.words import counted, give_or_take


@dataclass(frozen=True, kw_only=True)
class VariantsRun:
    """What a ``variants`` study played: the same games under every variant, by the line-up and the skill tables.

    The header's rules and preset are the first variant's; ``variant_rules`` holds every variant's.
    """

    games: int  # whole games per variant
    variants: tuple[str, ...]  # as written: a preset with overrides (``ludoteka:hook=never``)
    variant_rules: tuple[dict[str, Any], ...]  # each variant's rules (``Rules.to_dict``)
    same_deals: tuple[str, ...]  # the hands each deals alike with the first: ``all``, ``N of M hands``, ``none``
    strong: str  # the strong player of the skill table
    weak: str  # the weak player (every other seat of the skill table, every seat of the weak one)
    conditions: tuple[dict[str, Any], ...] | None = None  # each variant's deal conditions, None: any deal

    @property
    def planned(self) -> int:
        """Games per variant the study was asked to play."""
        return self.games


def apart(rows: pd.DataFrame, a: str, b: str, format_: str) -> str:
    """Variant ``a`` against ``b`` in words: their paired difference when the study has it, as the page shows it.

    The study pairs every variant with the first (``diff`` is a variant minus the first); two others
    are told apart only when even their unpaired intervals leave each other out. The sentence has
    already named both with their figures: this adds only the verdict.
    """
    if a == b:
        return ""
    first = rows.index[0]
    if first not in (a, b):
        if rows.loc[a].ci_low > rows.loc[b].ci_high or rows.loc[b].ci_low > rows.loc[a].ci_high:
            return "; their intervals do not overlap: a clear difference"
        return (
            "; the two are not told apart (their intervals overlap; the study pairs each variant with the first only)"
        )
    other = rows.loc[a if b == first else b]
    sign = 1 if b == first else -1
    diff, low, high = sign * other["diff"], *sorted((sign * other.diff_low, sign * other.diff_high))
    called = "a clear difference" if low > 0 or high < 0 else "no clear difference"
    return f"; {give_or_take(diff, high - diff, format_)} against {b}, paired game by game: {called}"


def variant_answers(table: pd.DataFrame) -> list[str]:
    """The study's answers in words: where skill pays most, where the dealer fares best and worst, where luck weighs.

    Each names the highest (and lowest) estimate and says whether it is told apart from the next (for
    the dealer and luck: the highest from the lowest), by the paired difference the page shows.
    """

    def ranked(measure: str, format_: str) -> tuple[pd.DataFrame, list[str], dict[str, str]]:
        rows = figure(table, measure)
        shown = {name: give_or_take(r.value, r.ci_high - r.value, format_) for name, r in rows.iterrows()}
        return rows, list(rows.sort_values("value", ascending=False).index), shown

    rows, order, shown = ranked("skill_points", "{:+.2f}")
    best, after = order[0], order[1 if len(order) > 1 else 0]
    paired = rows.index[0] in (best, after)  # the paired difference names the other; else its figure is said here
    if alike(rows, best, after):
        skill = f"Skill pays alike under {best} and {after}: the strong player gains {shown[best]} points a hand"
        skill += " under each."
    else:
        skill = (
            f"Skill pays most under {best}: the strong player gains {shown[best]} points a hand"
            f"{'' if paired else f', {shown[after]} under {after}'}{apart(rows, best, after, '{:+.2f}')}."
        )
    rows, order, shown = ranked("dealer_gap", "{:+.2f}")
    if alike(rows, order[0], order[-1]):
        dealer = (
            f"The dealer fares alike under every variant ({shown[order[0]]} points a hand against the table's mean)."
        )
    else:
        dealer = (
            f"The dealer fares best under {order[0]} ({shown[order[0]]} points a hand against the table's mean) "
            f"and worst under {order[-1]} ({shown[order[-1]]}){apart(rows, order[0], order[-1], '{:+.2f}')}."
        )
    rows, order, shown = ranked("luck_hand", "{:.3f}")
    if alike(rows, order[0], order[-1]):
        luck = f"The cards explain the same share of a hand's spread of points under every variant ({shown[order[0]]})."
    else:
        luck = (
            f"The cards explain the largest share of a hand's spread of points under {order[0]} ({shown[order[0]]}) "
            f"and the smallest under {order[-1]} ({shown[order[-1]]}){apart(rows, order[0], order[-1], '{:+.3f}')}."
        )
    return [skill, dealer, luck]


def alike(rows: pd.DataFrame, a: str, b: str) -> bool:
    """Whether two variants have the same figure and interval to the last digit: they played the same games.

    Ranking them would call one best and the other worst at the same figure ("-0.00 ± 0.00 against").
    """
    columns = ["value", "ci_low", "ci_high"]
    return a != b and rows.loc[a, columns].tolist() == rows.loc[b, columns].tolist()


@dataclass(frozen=True, eq=False)
class VariantsResult(RecordedResult):
    """A ``variants`` study: its record, its sums by group of games, its table and the files it wrote."""

    record: RunRecord
    tally: VariantTally
    tables: dict[str, pd.DataFrame]  # by CSV file name: variants
    files: tuple[Path, ...] = ()  # what ``out`` wrote, the table first

    def to_frame(self) -> pd.DataFrame:
        """``variants.csv``: every figure of every variant with its interval and its difference to the first."""
        return self.tables["variants"]


class VariantsKind(Kind[Study, VariantTally, VariantsResult]):
    """A study: its variants table, shown by question (the variants, seat advantage, skill, luck, the game)."""

    command = "variants"
    section = VariantsRun
    unit = "game"
    needed = ("variants",)
    figures = ("seat_advantage", "dealer_gap_by_size", "skill_and_luck", "game_shape")

    def play(self, plan: Study, outputs: Outputs, backend: Backend) -> RunTotal[VariantTally]:
        """The study's games played (``engine.variants``)."""
        return play_variants(plan, outputs, backend)

    def results(self, plan: Study, total: VariantTally) -> dict[str, Any]:
        """The hands each variant deals alike with the first."""
        return {"same_deals": [same_deals(plan.variants[0], variant) for variant in plan.variants]}

    def result(self, run: RunRecord, total: VariantTally, tables: Tables, files: tuple[Path, ...]) -> VariantsResult:
        """The record, the study's sums, its table and the files."""
        return VariantsResult(run, total, tables, files)

    def played(self, total: VariantTally) -> int:
        """The games played, every variant's counted."""
        return int(total.games.sum())

    def tables(self, run: RunRecord, plan: Study, total: VariantTally, predictions: list[Rows] | None = None) -> Tables:
        """variants: every figure of every variant."""
        return {"variants": variant_table(plan.variants, total)}

    def heading(self, run: RunRecord) -> str:
        """The table, the variants and their games, the play and seed; the line-up and the skill tables."""
        section = run.section
        lineup = dict.fromkeys(run.strategies)
        seats = f"{next(iter(lineup))} at every seat" if len(lineup) == 1 else ", ".join(run.strategies)
        return (
            f"{run.rules.players} players, {counted(len(section.variants), 'variant')}, "
            f"{counted(section.games, 'game')} each (first dealer by lot, seating rotated), {play_text(run)}, "
            f"seed {run.seed}\nline-up: {seats}; "
            f"skill: {section.strong} at one seat among {section.weak}, against {section.weak} at every seat"
            f"{self.deals_line(run)}"
        )

    def conditions(self, run: RunRecord) -> str:
        """The study's deal conditions in words, each variant's share of the deals that meet them."""
        section = run.section
        each = [
            f"{name}: {'; '.join(conditions_notes(conditions, Rules.from_dict(rules).hand_sizes())) or 'every hand'}"
            for name, conditions, rules in zip(section.variants, section.conditions, section.variant_rules, strict=True)
        ]
        return f"{conditions_in_words(section.conditions[0])} ({'; '.join(each)})"

    def text(self, run: RunRecord, tables: Tables) -> list[str]:
        """A study's figures by question: the variants, seat advantage, skill, luck and the game; how they are read."""
        if not run.played:
            return []  # stopped before a game ended: the heading's note says so
        lines = []
        for title, frame in question_tables(run, tables["variants"]):
            lines += [f"\n{title}:", frame.to_string(justify="right")]
        return [*lines, "", *(textwrap.fill(paragraph, 100) for paragraph in (LUCK, INTERVALS))]

    def summary(self, run: RunRecord, tables: Tables) -> list[str]:
        """The study's answers in sentences."""
        return (
            ["", *(textwrap.fill(answer, 100) for answer in variant_answers(tables["variants"]))] if run.played else []
        )

    def subtitle(self, run: RunRecord) -> str:
        """The table, the rule sets and their games, the play and seed."""
        section = run.section
        return (
            f"{run.rules.players} players, {counted(len(section.variants), 'rule set')}, "
            f"{counted(section.games, 'game')} each, {play_text(run)}, seed {run.seed}"
        )

    def named(self, run: RunRecord) -> tuple[str, ...]:
        """The variants."""
        return run.section.variants

    def page(self, run: RunRecord, tables: Tables) -> tuple[list[str], list[str]]:
        """A study's page: its facts and the answers; then (after the figures) a table per question."""
        section = run.section
        rows = {
            "run on": run.date or "unknown",
            "pocha": run.version,
            "table": f"{run.rules.players} players",
            "line-up": ", ".join(f"{s}: {name}" for s, name in enumerate(run.strategies)) + f"; {play_text(run)}",
            "skill": f"{section.strong} at one seat among {section.weak}, against {section.weak} at every seat",
            "amount": f"{counted(section.games, 'whole game')} per variant, seating rotated, first dealer by lot",
            "seed": str(run.seed),
        }
        if section.conditions:
            rows["deals"] = self.conditions(run)
        body = "".join(f"<dt>{text(key)}</dt><dd>{text(value)}</dd>" for key, value in rows.items())
        answers = "".join(f"<li>{text(s)}</li>" for s in variant_answers(tables["variants"]))
        summary = [f'<dl class="facts">{body}</dl>', "<h2>Summary</h2>", f'<ul class="verdicts">{answers}</ul>']
        details = []
        for number, (title, frame) in enumerate(question_tables(run, tables["variants"])):
            details += [f"<h2>{text(title.split(':')[0].split(' (')[0])}</h2>", f"<p>{text(title)}.</p>"]
            cells = [[name, *row] for name, row in frame.iterrows()]
            details.append(table(["variant", *frame.columns], cells, words=number == 0))  # the first: rules in words
        return summary, details

    def how_to_read(self, run: RunRecord) -> list[str]:
        """The jackknife intervals, and luck."""
        return [INTERVALS, LUCK]


VARIANTS_KIND = VariantsKind()
