"""``pocha compare``: strategies on the same deals, in duplicate or not: the verdicts of every pair, paired by deal."""

import textwrap
from dataclasses import dataclass
from typing import Any

from pocha.engine.confidence import percent
from pocha.engine.predictions import Rows
from pocha.engine.simulate import Deals
from pocha.engine.tally import Tally
from pocha.reports.kinds.hands import per_strategy, position_and_size_tables, sizes_text
from pocha.reports.kinds.kind import Tables
from pocha.reports.kinds.simulate import DealsRun, SimulateKind
from pocha.reports.markup import points, table, text
from pocha.reports.record import RunRecord
from pocha.reports.stats import error_rate, pair_differences
from pocha.reports.tables import adjusted_over, adjustment_key, pair_size_table, verdicts


@dataclass(frozen=True, kw_only=True)
class CompareRun(DealsRun):
    """What a ``compare`` run played: deals of each hand size, in duplicate or not, and the field."""

    duplicate: bool  # every deal replayed once per rotation of the seating
    field: str | None = None  # the strategy filling the seats the compared ones leave


def pairs_table(pairs: Any) -> str:
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


def exploratory_key(confidence: float) -> str:
    """How to read the unadjusted pairs by hand size, at the run's level."""
    return (
        f"Each row at its own {percent(confidence)}, unadjusted: among many pairs and hand sizes, about 1 row in "
        f"{1 / error_rate(confidence):.0f} where there is no difference reads as one by chance. The summary's "
        "verdicts are the adjusted ones."
    )


class CompareKind(SimulateKind):
    """Deals of each hand size by strategies in turn: the simulate tables and the pairs, in duplicate or not."""

    command = "compare"
    section = CompareRun
    needed = ("results", "pairs")
    names_others = True
    figures = (
        "points_by_size",
        "exact_rate_by_size",
        "points_by_position",
        "won_minus_bid",
        "pair_matrix",
        "pairs_by_size",
    )

    def tables(self, run: RunRecord, plan: Deals, total: Tally, predictions: list[Rows] | None = None) -> Tables:
        """results, pairs and errors."""
        made = super().tables(run, plan, total)
        return {"results": made["results"], "pairs": pair_differences(total, run.level, True), "errors": made["errors"]}

    def replayed(self, run: RunRecord) -> str:
        """In duplicate: every deal played once per seat, or per strategy when they outnumber the seats."""
        if not run.section.duplicate:
            return ""
        plays = len(run.strategies) if run.in_turn else run.rules.players
        return f", each played {plays} times, seating rotated" + (
            f", {run.rules.players} of the {plays} strategies at the table each time" if run.in_turn else ""
        )

    def field(self, run: RunRecord) -> str | None:
        """The field strategy, if one filled the seats the compared ones leave."""
        return run.section.field

    def summary(self, run: RunRecord, tables: Tables) -> list[str]:
        """Per strategy and the verdicts."""
        frame, pairs = tables["results"], tables["pairs"]
        return [
            *per_strategy(run, frame, self.sizes(run)),
            f"\nPairwise, paired by deal ({sizes_text(run, frame, self.sizes(run))}; "
            f"difference in mean points per hand, {adjusted_over(pairs)}):",
            "\n".join(verdicts(pairs)),
            *([textwrap.fill(key, 100)] if (key := adjustment_key(pairs, run.level)) else []),
        ]

    def text(self, run: RunRecord, tables: Tables) -> list[str]:
        """The summary, by position and size, the pairs by size."""
        lines = [*self.summary(run, tables), *position_and_size_tables(run, tables["results"], self.sizes(run))]
        if len(self.sizes(run)) > 1:
            lines += [
                "\nPairwise by hand size, exploratory (a - b in points per hand; each row unadjusted, at its own "
                f"{percent(run.level)}):",
                pair_size_table(tables["pairs"], percent(run.level)),
            ]
        return lines

    def figure_amount(self, run: RunRecord) -> str:
        """Deals per hand size, and duplicate."""
        return super().figure_amount(run) + (", duplicate" if run.section.duplicate else "")

    def described(self, run: RunRecord) -> str:
        """Deals per hand size, the sizes, and duplicate."""
        duplicate = ", duplicate (every deal once per rotation of the seating)" if run.section.duplicate else ""
        return super().described(run) + duplicate

    def answers(self, run: RunRecord, tables: Tables) -> list[str]:
        """The verdicts, adjusted."""
        pairs = tables["pairs"]
        sizes = self.sizes(run)
        where = "every hand size together" if len(sizes) > 1 else f"{sizes[0]} cards"
        parts = [
            f"<p>Paired by deal, {where} ({text(adjusted_over(pairs))}):</p>",
            '<ul class="verdicts">' + "".join(f"<li>{text(s)}</li>" for s in verdicts(pairs)) + "</ul>",
        ]
        if key := adjustment_key(pairs, run.level):
            parts.append(f"<p>{text(key)}</p>")
        return parts

    def details(self, run: RunRecord, tables: Tables) -> list[str]:
        """The pairs by hand size, exploratory."""
        if tables["pairs"].cards.nunique() <= 1:
            return []
        return [
            "<h2>Pairs by hand size (exploratory)</h2>",
            f"<p>{text(exploratory_key(run.level))}</p>",
            pairs_table(tables["pairs"]),
        ]


COMPARE_KIND = CompareKind()
