"""``pocha simulate``: deals of each hand size dealt to a line-up, points per hand by strategy, position and size."""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from pocha.engine.backends import Backend
from pocha.engine.confidence import percent
from pocha.engine.predictions import Rows
from pocha.engine.runner import Outputs, RunTotal
from pocha.engine.simulate import Deals, simulate
from pocha.engine.tally import Tally
from pocha.reports.kinds.hands import (
    HandsKind,
    how_evenly,
    per_strategy,
    position_and_size_tables,
    size_deals,
    sizes_text,
)
from pocha.reports.kinds.kind import RecordedResult, Tables
from pocha.reports.markup import points, table
from pocha.reports.predictions import prediction_bias, prediction_table
from pocha.reports.record import RunRecord
from pocha.reports.stats import error_distribution, pair_differences, summary
from pocha.reports.tables import bias_table
from pocha.words import counted


@dataclass(frozen=True, kw_only=True)
class DealsRun:
    """What a ``simulate`` run played: deals of each hand size."""

    cards: tuple[int, ...]  # the hand sizes
    deals_per_size: int  # deals (boards) per hand size
    conditions: dict[str, Any] | None = None  # the deal conditions (``Conditioned.to_dict``), None: any deal

    @property
    def planned(self) -> int:
        """Deals (all hand sizes together) the run was asked to play."""
        return self.deals_per_size * len(self.cards)


@dataclass(frozen=True, eq=False)
class SimulationResult(RecordedResult):
    """A ``simulate`` or ``compare`` run: its record, its accumulators, its tables and the files it wrote."""

    record: RunRecord
    tally: Tally
    tables: dict[str, pd.DataFrame]  # by CSV file name: results, pairs (compare), errors, predictions (if recorded)
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    def to_frame(self) -> pd.DataFrame:
        """``results.csv``: one row per strategy, hand size and bidding position, with ``all`` margins."""
        return self.tables["results"]

    def pairs(self) -> pd.DataFrame:
        """``pairs.csv``: the paired difference of every pair of strategies, by hand size."""
        return self.tables["pairs"] if "pairs" in self.tables else pair_differences(self.tally)

    def errors(self) -> pd.DataFrame:
        """``errors.csv``: hands per value of tricks won minus tricks bid."""
        return self.tables["errors"]


def per_size(section: DealsRun, replayed: str = "") -> str:
    """Deals per hand size (each played as ``replayed`` says, when more than once), and the sizes."""
    sizes = section.cards
    contiguous = list(sizes) == list(range(sizes[0], sizes[0] + len(sizes)))
    listed = f"{sizes[0]}..{sizes[-1]}" if contiguous else ", ".join(map(str, sizes))
    size_text = f"hand sizes {listed}" if len(sizes) > 1 else counted(sizes[0], "card")
    return f"{counted(section.deals_per_size, 'deal')} per hand size{replayed}, {size_text}"


class SimulateKind(HandsKind[Deals, Tally, SimulationResult]):
    """Deals of each hand size: results, errors and the predictions recorded; each size as often."""

    command = "simulate"
    section: ClassVar[type] = DealsRun
    needed: ClassVar[tuple[str, ...]] = ("results",)
    figures: ClassVar[tuple[str, ...]] = (
        "points_by_size",
        "exact_rate_by_size",
        "points_by_position",
        "won_minus_bid",
        "calibration",
    )

    def play(self, plan: Deals, outputs: Outputs, backend: Backend) -> RunTotal[Tally]:
        """Deals dealt, bid, played and tallied (``engine.simulate``)."""
        return simulate(plan, outputs, backend)

    def result(self, run: RunRecord, total: Tally, tables: Tables, files: tuple[Path, ...]) -> SimulationResult:
        """The record, the tally, the tables and the files."""
        return SimulationResult(run, total, tables, files)

    def played(self, total: Tally) -> int:
        """The deals (boards) tallied."""
        return int(total.boards.sum())

    def tables(self, run: RunRecord, plan: Deals, total: Tally, predictions: list[Rows] | None = None) -> Tables:
        """results, errors, and the predictions when recorded."""
        made = {"results": summary(total, run.policy_of, run.level, True), "errors": error_distribution(total)}
        if predictions is not None:
            made["predictions"] = prediction_table(predictions, plan.lineup.labels)
        return made

    def sizes(self, run: RunRecord) -> tuple[int, ...]:
        """The hand sizes dealt."""
        return tuple(run.section.cards)

    def amount(self, run: RunRecord) -> str:
        """Deals per hand size, and the sizes."""
        return per_size(run.section, self.replayed(run))

    def replayed(self, run: RunRecord) -> str:
        """How often every deal was played, when more than once."""
        return ""

    def text(self, run: RunRecord, tables: Tables) -> list[str]:
        """The summary, then by position and by hand size."""
        return [*self.summary(run, tables), *position_and_size_tables(run, tables["results"], self.sizes(run))]

    def summary(self, run: RunRecord, tables: Tables) -> list[str]:
        """Per strategy, and the predictions' bias when recorded."""
        return [*per_strategy(run, tables["results"], self.sizes(run)), *self.prediction_lines(run, tables)]

    def prediction_lines(self, run: RunRecord, tables: Tables) -> list[str]:
        """The bias of each recorded prediction (none unless the run recorded some)."""
        bias = prediction_bias(tables["predictions"], run.level) if "predictions" in tables else None
        if bias is None or bias.empty:
            return []
        level = percent(run.level)
        return [
            f"\nPredictions ({sizes_text(run, tables['results'], self.sizes(run))}; "
            f"bias: mean predicted - realised per hand, ±{level}: its half-width):",
            bias_table(bias, level),
        ]

    def stopped(self, run: RunRecord, tables: Tables) -> str:
        """Deals played of those planned, and how evenly the hand sizes were played."""
        note = super().stopped(run, tables)
        return f"{note} ({how_evenly(size_deals(tables['results']))})" if len(self.sizes(run)) > 1 else note

    def figure_amount(self, run: RunRecord) -> str:
        """Deals per hand size."""
        return f"{counted(run.section.deals_per_size, 'deal')} per hand size"

    def described(self, run: RunRecord) -> str:
        """Deals per hand size and the sizes."""
        sizes = ", ".join(map(str, run.section.cards))
        return f"{counted(run.section.deals_per_size, 'deal')} per hand size, hand sizes {sizes}"

    def details(self, run: RunRecord, tables: Tables) -> list[str]:
        """The predictions, when recorded."""
        if "predictions" not in tables:
            return []
        bias = prediction_bias(tables["predictions"], run.level)
        return [
            "<h2>Predictions</h2>",
            "<p>What each predicting strategy expected of its bids, per hand, against what its hands took. "
            f"The bias is the mean predicted minus the mean realised, with its {percent(run.level)} interval; an "
            "interval that holds 0 means no bias was detected. The calibration figure shows it across the range "
            "of predictions.</p>",
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


SIMULATE_KIND = SimulateKind()
