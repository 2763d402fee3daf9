"""``pocha models``: the bids a table makes, each candidate model's beside them, and how well each predicts them."""

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pocha.engine.backends import Backend
from pocha.engine.models import BidRows, ModelBids, record_bids
from pocha.engine.predictions import Rows
from pocha.engine.runner import Outputs, RunTotal
from pocha.reports.kinds.hands import how_evenly
from pocha.reports.kinds.kind import Kind, RecordedResult, Tables
from pocha.reports.kinds.simulate import DealsRun, per_size
from pocha.reports.models import model_table
from pocha.reports.record import RunRecord, rules_brief
from pocha.words import counted, give_or_take


@dataclass(frozen=True, kw_only=True)
class ModelsRun(DealsRun):
    """What a ``models`` run played: deals of each hand size, bid by the table and by every model beside it."""

    models: tuple[str, ...]  # the candidate models' specs
    families: tuple[str, ...]  # each model's family, by model: scored as its best member (a spec alone is its own)


@dataclass(frozen=True, eq=False)
class ModelsResult(RecordedResult):
    """A ``score_models`` run: its record, the bids made and each model's, its table and the files it wrote."""

    record: RunRecord
    rows: BidRows  # one row per hand bid (``pocha.engine.models``)
    tables: dict[str, pd.DataFrame]  # by CSV file name: scores
    files: tuple[Path, ...] = ()  # none: the run writes no folder

    @property
    def scores(self) -> pd.DataFrame:
        """One row per model and hand size, with ``all`` (``pocha.reports.models.model_table``)."""
        return self.tables["scores"]

    def to_frame(self) -> pd.DataFrame:
        """The scores: one row per model and hand size, with ``all``."""
        return self.scores


class ModelsKind(Kind[ModelBids, BidRows, ModelsResult]):
    """The models' scores: over every hand size, then each size's; the run writes no folder, so no figure or page."""

    command = "models"
    section = ModelsRun
    needed = ("scores",)
    figures = ()
    writes_folder = False

    def play(self, plan: ModelBids, outputs: Outputs, backend: Backend) -> RunTotal[BidRows]:
        """The table's bids and the models' beside them (``engine.models``)."""
        return record_bids(plan, outputs, backend)

    def result(self, run: RunRecord, total: BidRows, tables: Tables, files: tuple[Path, ...]) -> ModelsResult:
        """The record, the bids, the scores and the files."""
        return ModelsResult(run, total, tables, files)

    def played(self, total: BidRows) -> int:
        """The deals bid (one row a position each)."""
        return int((total.position == 0).sum())

    def tables(self, run: RunRecord, plan: ModelBids, total: BidRows, predictions: list[Rows] | None = None) -> Tables:
        """scores: each family of models by hand size and over all of them."""
        section = run.section
        families: dict[str, list[str]] = {}
        for family, spec in zip(section.families, section.models, strict=True):
            families.setdefault(family, []).append(spec)
        return {"scores": model_table(total, list(section.models), families, run.rules.players)}

    def sizes(self, run: RunRecord) -> tuple[int, ...]:
        """The hand sizes dealt."""
        return tuple(run.section.cards)

    def heading(self, run: RunRecord) -> str:
        """The table, rules, amount and seed; who bids, and for which play; the deals asked for, if any."""
        rules, strategies = run.rules, run.strategies
        table = (
            f"{strategies[0]} at every seat"
            if len(set(strategies)) == 1
            else ", ".join(f"{seat}: {label}" for seat, label in enumerate(strategies))
        )
        return (
            f"{rules.players} players, {run.preset or 'custom'} rules ({rules_brief(rules, run.preset)}), "
            f"{self.amount(run)}, seed {run.seed}\ntable: {table}, bidding for {run.policy} play; each model bids "
            f"every hand after the same earlier bids{self.deals_line(run)}"
        )

    def amount(self, run: RunRecord) -> str:
        """Deals per hand size, and the sizes."""
        return per_size(run.section)

    def stopped(self, run: RunRecord, tables: Tables) -> str:
        """Deals finished of those planned, and how far each hand size got (a size none finished has no score)."""
        note = super().stopped(run, tables)
        return f"{note} ({how_evenly(scored_deals(run, tables['scores']))})" if len(self.sizes(run)) > 1 else note

    def text(self, run: RunRecord, tables: Tables) -> list[str]:
        """The models over every hand size (or the one), each size's scores, and how to read them."""
        scores = tables["scores"]
        scored = list(dict.fromkeys(scores.cards))  # the hand sizes with a deal finished, then "all"
        if not scored:
            return []
        shown_size = "all" if "all" in scored else scored[0]
        overall = scores[scores.cards == shown_size].sort_values("log_score", ascending=False)
        shown = pd.DataFrame(
            {
                "model": overall.model,
                "spec": overall.spec,
                "sharpness": overall.sharpness.map("{:.2f}".format),
                "log score": [
                    give_or_take(s, h - s, "{:.3f}") for s, h in zip(overall.log_score, overall.ci_high, strict=True)
                ],
                "vs best": [
                    give_or_take(d, h - d, "{:+.3f}")
                    for d, h in zip(overall.diff_to_best, overall.diff_ci_high, strict=True)
                ],
            }
        )
        sizes = [str(cards) for cards in sorted(self.sizes(run))]
        where = pooled(run, scored[:-1], sizes) if shown_size == "all" else counted(int(shown_size), "card")
        lines = [
            f"\nHow well each model predicts the bids made ({where}):",
            shown.to_string(index=False, justify="right"),
        ]
        if shown_size == "all":
            each = scores[scores.cards != "all"]
            cells = each.log_score.map("{:.3f}".format) + " (" + each.sharpness.map("{:.2f}".format) + ")"
            by_size = each.assign(cell=cells).pivot(index="model", columns="cards", values="cell")
            by_size = by_size.reindex(index=overall.model, columns=sizes, fill_value="not played")
            lines += [
                "\nBy hand size: log score (sharpness), each fitted to that size:",
                by_size.to_string(index_names=False),
            ]
            for model, rows in each[each.model != each.spec].groupby("model", sort=False):
                fitted = ", ".join(f"{cards}: {spec}" for cards, spec in zip(rows.cards, rows.spec, strict=True))
                lines.append(f"{model} by hand size: {fitted}")
        return [
            *lines,
            "\nlog score: the mean over the hands of log P(the bid made), 0 if certain; each model is read as "
            "montecarlo reads its assume\nstrategy (a bid d away from the model's weighs e^(-sharpness d), the hook's "
            "forbidden bid none) at the sharpness that fits best.\nvs best: paired by deal. ±: half-width of the 95% "
            "interval.",
        ]


def scored_deals(run: RunRecord, scores: pd.DataFrame) -> pd.Series:
    """The deals each hand size of the run finished, by hand size: 0 for a size none finished (it has no scores)."""
    each = scores[scores.cards != "all"].groupby("cards", sort=False).deals.max()
    return each.reindex([str(cards) for cards in run.section.cards], fill_value=0)


def pooled(run: RunRecord, scored: list[str], sizes: list[str]) -> str:
    """What the scores over every hand size pool: all of them, or after a stop the deals finished (and sizes not)."""
    if run.complete:
        return "all hand sizes, one sharpness per model"
    unplayed = [cards for cards in sizes if cards not in scored]
    if not unplayed:
        return "all hand sizes, the deals finished before the stop, one sharpness per model"
    return (
        f"hand sizes {', '.join(scored)}, the deals finished before the stop; {', '.join(unplayed)} not played; "
        "one sharpness per model"
    )


MODELS_KIND = ModelsKind()
