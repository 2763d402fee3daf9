"""What the API's runs return: frozen results with their record, accumulators, tables and the files written."""

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pocha.engine.tally import GameTally, Tally
from pocha.engine.variants import VariantTally
from pocha.game.presets import PRESETS
from pocha.game.rules import Rules
from pocha.game.scoring import SCORINGS
from pocha.reports.record import RunRecord
from pocha.strategies.table import TrickTable

if TYPE_CHECKING:
    import pandas as pd

    from pocha.reports.models import ModelsRun


class RecordedResult:
    """What the results of recorded runs share: their record says whether they ran to the end."""

    record: RunRecord

    @property
    def complete(self) -> bool:
        """Whether the run played everything it was asked to (else Ctrl-C stopped it, and nothing was written)."""
        return self.record.complete


@dataclass(frozen=True, eq=False)
class SimulationResult(RecordedResult):
    """A ``simulate`` or ``compare`` run: its record, its accumulators, its tables and the files it wrote."""

    record: RunRecord
    tally: Tally
    tables: dict[str, "pd.DataFrame"]  # by CSV file name: results, pairs (compare), errors, predictions (if recorded)
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    def to_frame(self) -> "pd.DataFrame":
        """``results.csv``: one row per strategy, hand size and bidding position, with ``all`` margins."""
        return self.tables["results"]

    def pairs(self) -> "pd.DataFrame":
        """``pairs.csv``: the paired difference of every pair of strategies, by hand size."""
        from pocha.reports.stats import pair_differences

        return self.tables["pairs"] if "pairs" in self.tables else pair_differences(self.tally)

    def errors(self) -> "pd.DataFrame":
        """``errors.csv``: hands per value of tricks won minus tricks bid."""
        return self.tables["errors"]


@dataclass(frozen=True, eq=False)
class GamesResult(RecordedResult):
    """A ``game`` run: its record, the per-hand and whole-game accumulators, its tables and the files it wrote."""

    record: RunRecord
    hand_tally: Tally  # every hand of the games
    game_tally: GameTally  # the games' final results
    tables: dict[str, "pd.DataFrame"]  # by CSV file name: games, results (per hand) and errors
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    def to_frame(self) -> "pd.DataFrame":
        """``games.csv``: one row per strategy: win rate and final score with intervals, score quantiles."""
        return self.tables["games"]


@dataclass(frozen=True)
class TrainingResult:
    """A trained trick table (None when Ctrl-C stopped the training), and where it was written."""

    table: TrickTable | None
    path: Path | None

    @property
    def complete(self) -> bool:
        """Whether the training ran to the end (and the table was written)."""
        return self.table is not None


@dataclass(frozen=True, eq=False)
class VariantsResult(RecordedResult):
    """A ``variants`` study: its record, its sums by group of games, its table and the files it wrote."""

    record: RunRecord
    tally: VariantTally
    tables: dict[str, "pd.DataFrame"]  # by CSV file name: variants
    files: tuple[Path, ...] = ()  # what ``out`` wrote, the table first

    def to_frame(self) -> "pd.DataFrame":
        """``variants.csv``: every figure of every variant with its interval and its difference to the first."""
        return self.tables["variants"]


@dataclass(frozen=True, eq=False)
class ModelsResult:
    """A ``score_models`` run: what it played, and how well each model predicts the table's bids."""

    played: "ModelsRun"
    scores: "pd.DataFrame"  # one row per model and hand size, with ``all`` (see ``pocha.reports.models``)

    @property
    def complete(self) -> bool:
        """Whether the run played every deal (else Ctrl-C stopped it, and the scores cover the deals finished)."""
        return self.played.complete

    def to_frame(self) -> "pd.DataFrame":
        """The scores: one row per model and hand size, with ``all``."""
        return self.scores


@dataclass(frozen=True)
class RulesInfo:
    """A rule set as ``pocha rules`` shows it: the preset it came from (None for a Rules object) and its rules."""

    preset: str | None
    rules: Rules

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the rules, hand sizes, scoring name, named scorings; the preset's text, decks, readings."""
        data: dict[str, Any] = {
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "hand_sizes": self.rules.hand_sizes(),
            "scoring_name": self.rules.scoring.name,
            "scoring_systems": {name: asdict(system) | {"about": about} for name, (system, about) in SCORINGS.items()},
        }
        if self.preset:
            known = PRESETS[self.preset]
            data |= {"text": known.text, "decks": known.decks, "readings": list(known.readings)}
        return data
