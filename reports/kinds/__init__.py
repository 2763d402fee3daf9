"""The recorded commands, each one registered kind: ``simulate``, ``compare``, ``game``, ``variants``, ``models``.

A kind (``pocha.reports.kinds.kind.Kind``) is all a command's run is besides its play: the engine's
plan it plays, its section of run.json, its tables, its terminal text, its figures and its part of
report.html, in one module a command. The renderers find a run's kind by its command (``kind_of``).
A new recorded command is a module here and its entry in KINDS.
"""

from typing import Any

from pocha.errors import PochaError
from pocha.reports.kinds import compare, game, models, simulate, variants
from pocha.reports.kinds.kind import Kind
from pocha.reports.record import RunRecord

KINDS: dict[str, Kind[Any, Any, Any]] = {
    kind.command: kind
    for kind in (
        simulate.SIMULATE_KIND,
        compare.COMPARE_KIND,
        game.GAME_KIND,
        variants.VARIANTS_KIND,
        models.MODELS_KIND,
    )
}


def kind_of(command: str) -> Kind[Any, Any, Any]:
    """The kind of a command's runs; one line for a command no run records."""
    if command not in KINDS:
        raise PochaError(f"run.json: unknown command '{command}'; known: {', '.join(KINDS)}")
    return KINDS[command]


def record_from(data: dict[str, Any]) -> RunRecord:
    """A run record from run.json's data, the section its command's kind holds; unknown or missing fields refused."""
    return RunRecord.from_dict(data, kind_of(str(data.get("command"))).section)
