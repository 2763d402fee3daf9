"""What a recorded command is besides its play: the kind every command's module defines once.

A kind plays its command's plan (the engine's entry for it), names the section run.json holds of it,
builds the result the API returns, and says how the run is shown: its tables, its text, its figures
and its part of report.html. The renderers (``pocha.reports.text``, ``plots``, ``html``, ``runs``)
ask a run's kind, found by its command (``pocha.reports.kinds.kind_of``), and never test which
command it is.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pocha.reports.record import RunRecord, conditions_text, play_text, rules_brief, scoring_note
from pocha.words import counted

if TYPE_CHECKING:
    import pandas as pd

    from pocha.engine.backends import Backend
    from pocha.engine.predictions import Rows
    from pocha.engine.runner import Outputs, RunTotal
    from pocha.engine.workload import Plan

Tables = dict[str, "pd.DataFrame"]
P = TypeVar("P", bound="Plan")  # the engine's plan a kind plays
T = TypeVar("T")  # the total its play merges
R = TypeVar("R")  # the result the API returns of its run


class RecordedResult:
    """What the results of recorded runs share: their record says whether they ran to the end."""

    record: RunRecord

    @property
    def complete(self) -> bool:
        """Whether the run played everything it was asked to (else Ctrl-C stopped it, and nothing was written)."""
        return self.record.complete


class Kind(Generic[P, T, R]):
    """A recorded command: its plan ``P`` played into a total ``T``, its section, its result ``R``, how it is shown.

    command: its name (run.json's ``command``); section: its
    section of run.json (a frozen dataclass with ``planned``); unit: what it counts (``deal``,
    ``game``); needed: the tables its run folder must hold; figures: the names of the figures it
    draws (``pocha.reports.plots.FIGURES``); names_others: whether ``--format csv`` says which of
    its tables the CSV leaves out (those that answer its question: compare's pairs); writes_folder:
    whether its runs write a run folder (``--out``), the figures and report.html of which
    ``pocha report`` draws (``models``' do not: it has neither).
    """

    command: ClassVar[str]
    section: ClassVar[type]
    unit: ClassVar[str] = "deal"
    needed: ClassVar[tuple[str, ...]]
    figures: ClassVar[tuple[str, ...]]
    names_others: ClassVar[bool] = False
    writes_folder: ClassVar[bool] = True

    def play(self, plan: P, outputs: "Outputs", backend: "Backend") -> "RunTotal[T]":
        """The plan played by the engine's entry for it, on ``backend``, feeding ``outputs``."""
        raise NotImplementedError

    def record(self, plan: P, total: T, header: dict[str, Any]) -> RunRecord:
        """A finished run's record: the header, the plan as run.json holds it, and what the run adds (``results``)."""
        return RunRecord.from_dict(header | plan.to_dict() | self.results(plan, total), self.section)

    def results(self, plan: P, total: T) -> dict[str, Any]:
        """The section's fields the plan does not hold: read from the run's total, or from the plan."""
        return {}

    def result(self, run: RunRecord, total: T, tables: Tables, files: tuple[Path, ...]) -> R:
        """What the API returns of a finished run: its record, its total, its tables and the files written."""
        raise NotImplementedError

    def played(self, total: T) -> int:
        """Deals (all hand sizes together) or games the total holds."""
        raise NotImplementedError

    def tables(self, run: RunRecord, plan: P, total: T, predictions: "list[Rows] | None" = None) -> Tables:
        """The run's tables, by CSV name, the main one first."""
        raise NotImplementedError

    def sizes(self, run: RunRecord) -> tuple[int, ...]:
        """The hand sizes the run dealt, each as often (none for whole games)."""
        return ()

    def heading(self, run: RunRecord) -> str:
        """What was played: the table, rules, play, amount and seed; who sat where; the deals asked for, if any.

        Two lines, and a third for a run under deal conditions.
        """
        rules = run.rules
        field = self.field(run)
        seats = ", ".join(
            f"{s}: {label}" + (" (field)" if label == field else "") for s, label in enumerate(run.strategies)
        )
        if run.in_turn:
            seats = f"taken in turn by {', '.join(run.strategies)}"
        brief = rules_brief(rules, run.preset) + scoring_note(rules)
        return (
            f"{rules.players} players, {run.preset or 'custom'} rules ({brief}), "
            f"{play_text(run)}, {self.amount(run)}, seed {run.seed}\nseats {seats}{self.deals_line(run)}"
        )

    def deals_line(self, run: RunRecord) -> str:
        """The heading's line on the deal conditions (``deals: ...``, after a line break); nothing for a run without."""
        return f"\ndeals: {self.conditions(run)}" if run.section.conditions else ""

    def conditions(self, run: RunRecord) -> str:
        """The run's deal conditions in words, with the share of deals that meet them (a run that has them)."""
        return conditions_text(run.section.conditions, self.dealt_sizes(run))

    def dealt_sizes(self, run: RunRecord) -> tuple[int, ...]:
        """Every hand size the run deals, with the conditions or without (a game's: its schedule's)."""
        return self.sizes(run)

    def amount(self, run: RunRecord) -> str:
        """How much the run played, as the heading says it."""
        raise NotImplementedError

    def field(self, run: RunRecord) -> str | None:
        """The strategy filling the seats the compared ones leave, if any."""
        return None

    def text(self, run: RunRecord, tables: Tables) -> list[str]:
        """What the terminal shows below the heading."""
        raise NotImplementedError

    def summary(self, run: RunRecord, tables: Tables) -> list[str]:
        """The lines of ``text`` that answer the command's question (``--format summary``): all of them unless said."""
        return self.text(run, tables)

    def subtitle(self, run: RunRecord) -> str:
        """The line under a figure's title: the table, rules, play, amount and seed."""
        raise NotImplementedError

    def named(self, run: RunRecord) -> tuple[str, ...]:
        """What report.html's title names: the strategies (or a study's variants)."""
        return run.strategies

    def page(self, run: RunRecord, tables: Tables) -> tuple[list[str], list[str]]:
        """report.html's parts: the facts and summary (before the figures), and the details (after them)."""
        raise NotImplementedError

    def how_to_read(self, run: RunRecord) -> list[str]:
        """report.html's paragraphs on how to read the intervals."""
        raise NotImplementedError

    def stopped(self, run: RunRecord, tables: Tables) -> str:
        """One line saying a stopped run's results cover only what it played."""
        unit = self.unit
        return f"stopped: {run.played or 0:,} of {counted(run.planned, unit)} played; the results cover those only"
