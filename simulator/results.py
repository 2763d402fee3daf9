"""What the API's runs return: frozen results with their record, accumulators, tables and the files written.

A recorded command's result is its kind's (``pocha.reports.kinds``), which builds it: named here with the others.
"""

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pocha.game.presets import PRESETS
from pocha.game.rules import Rules
from pocha.game.scoring import SCORINGS
from pocha.reports.kinds.game import GamesResult as GamesResult
from pocha.reports.kinds.models import ModelsResult as ModelsResult
from pocha.reports.kinds.simulate import SimulationResult as SimulationResult
from pocha.reports.kinds.variants import VariantsResult as VariantsResult
from pocha.strategies.table import TrickTable


@dataclass(frozen=True)
class TrainingResult:
    """A trained trick table (None when Ctrl-C stopped the training), and where it was written."""

    table: TrickTable | None
    path: Path | None

    @property
    def complete(self) -> bool:
        """Whether the training ran to the end (and the table was written)."""
        return self.table is not None


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
