"""The run record (``run.json``): what fixes a run's results, how to repeat it, and what it played."""

import types
from dataclasses import dataclass, fields
from typing import Any, Union, get_args, get_origin, get_type_hints

from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.version import __version__

COMMANDS = ("simulate", "compare", "game")


@dataclass(frozen=True)
class RunRecord:
    """Everything that fixes a run's results, as ``run.json`` holds it; fields a command does not use are None."""

    command: str  # simulate, compare or game
    rules: Rules
    strategies: tuple[str, ...]  # strategy labels (specs in canonical form), seat by seat
    play: str  # card-play policy of the seats that name none
    seed: int
    preset: str | None = None  # the preset the rules came from; None for rules given as an object
    plays: tuple[str, ...] | None = None  # every seat's card-play policy
    version: str = __version__  # of pocha
    command_line: str | None = None  # what made the run: the exact command line, or the Python call
    complete: bool = True  # False when the run was stopped (Ctrl-C): the results cover ``played`` only
    played: int | None = None  # deals (boards, all hand sizes together) or games actually played
    date: str | None = None  # when the run ended (UTC)
    cards: tuple[int, ...] | None = None  # simulate, compare: the hand sizes
    deals_per_size: int | None = None  # simulate, compare: deals (boards) per hand size
    duplicate: bool | None = None  # compare: every deal replayed once per rotation of the seating
    field: str | None = None  # compare: the strategy filling the seats the compared ones leave
    games: int | None = None  # game: whole games played
    rotate: bool | None = None  # game: seating moved one seat every game
    hand_sizes: tuple[int, ...] | None = None  # game: the hand sizes of one game, in order
    tie_break_games: int | None = None  # game: games that needed extra one-card hands
    tie_break_hands: int | None = None  # game: extra one-card hands played in all
    shared_games: int | None = None  # game: games whose first place is shared (a tie the tie-break left)
    unresolved_games: int | None = None  # game: of those, games still tied when the tie-break limit ran out
    files: dict[str, int | None] | None = None  # run.json: the files the run wrote, with each table's data rows

    def __post_init__(self) -> None:
        if self.command not in COMMANDS:
            raise PochaError(f"run.json: unknown command '{self.command}'; known: {', '.join(COMMANDS)}")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, without the fields the command does not use."""
        order = ("command", "command_line", "version", "date", "complete", "played", "preset", "rules", "strategies",
                 "play", "plays", "seed")  # fmt: skip
        data = {name: getattr(self, name) for name in order}
        data.update({f.name: getattr(self, f.name) for f in fields(self) if f.name not in order})
        data["rules"] = self.rules.to_dict()
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in data.items()
            if value is not None or name in ("preset", "command_line")
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RunRecord":
        """Inverse of ``to_dict``; unknown fields are refused with one line."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise PochaError(f"run.json: unknown field(s) {', '.join(sorted(unknown))}")
        missing = {"command", "rules", "strategies", "play", "seed"} - set(data)
        if missing:
            raise PochaError(f"run.json: missing field(s) {', '.join(sorted(missing))}")
        values: dict[str, Any] = {name: tuple(v) if isinstance(v, list) else v for name, v in data.items()}
        if not isinstance(data["rules"], dict):
            raise PochaError("run.json: rules must be a mapping of rule options")
        values["rules"] = Rules.from_dict(data["rules"])
        kinds = get_type_hints(cls)
        wrong = [name for name, value in values.items() if not conforms(value, kinds[name])]
        if wrong:
            raise PochaError(f"run.json: {wrong[0]} holds {values[wrong[0]]!r}, not a {kinds[wrong[0]]}")
        return cls(**values)

    @property
    def play_of(self) -> dict[str, str]:
        """Each strategy label's card-play policy."""
        return dict(zip(self.strategies, self.plays or (self.play,) * len(self.strategies), strict=True))

    @property
    def planned(self) -> int:
        """Deals (all hand sizes together) or games the run was asked to play."""
        if self.games is not None:
            return self.games
        return (self.deals_per_size or 0) * len(self.cards or ())


def conforms(value: Any, kind: Any) -> bool:
    """Whether a value read from JSON has a field's declared type (str, int, bool, unions, tuples, dicts)."""
    origin, arguments = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        return any(conforms(value, option) for option in arguments)
    if origin is tuple:
        return isinstance(value, tuple) and all(conforms(item, arguments[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            conforms(key, arguments[0]) and conforms(item, arguments[1]) for key, item in value.items()
        )
    if kind is type(None):
        return value is None
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)
