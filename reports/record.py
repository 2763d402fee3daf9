"""The run record (``run.json``): what fixes a run's results, how to repeat it, and what it played."""

import types
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any, Union, get_args, get_origin, get_type_hints

from pocha.engine.confidence import CONFIDENCE
from pocha.errors import PochaError
from pocha.game.conditions import conditions_in_words, written_sizes
from pocha.game.presets import PRESETS
from pocha.game.rules import Rules
from pocha.game.scoring import Scoring
from pocha.version import __version__

OLD_NAMES = {"play": "policy", "plays": "policies"}  # run.json before the rules' play became play_rule
HEADER_ORDER = (
    "command",
    "command_line",
    "version",
    "date",
    "complete",
    "played",
    "preset",
    "rules",
    "strategies",
    "policy",
    "policies",
    "seed",
    "confidence",
)


@dataclass(frozen=True, kw_only=True)
class RunRecord:
    """Everything that fixes a run's results, as ``run.json`` holds it: a header every run has, and its section.

    ``run.json`` is flat: the header's fields, then the section's (the command says which section).
    """

    command: str  # simulate, compare, game or variants: its kind (``pocha.reports.kinds``)
    rules: Rules  # a variants study's first variant's
    preset: str | None  # the preset the rules came from; None for rules given as an object
    strategies: tuple[str, ...]  # strategy labels (specs in canonical form), seat by seat
    policy: str  # card-play policy of the seats that name none
    policies: tuple[str, ...]  # every seat's card-play policy
    seed: int
    section: Any  # what the command played: its kind's section
    command_line: str | None = None  # what made the run: the exact command line, or the Python call
    version: str = __version__  # of pocha
    complete: bool = True  # False when the run was stopped (Ctrl-C): the results cover ``played`` only
    played: int | None = None  # deals (boards, all hand sizes together) or games actually played
    date: str | None = None  # when the run ended (UTC)
    files: dict[str, int | None] | None = None  # the files the run wrote, with each table's data rows
    confidence: float | None = None  # the level of the run's intervals when not CONFIDENCE (95%)

    @property
    def in_turn(self) -> bool:
        """Whether more strategies than seats took turns at the table (``strategies`` then one a strategy)."""
        return len(self.strategies) > self.rules.players

    @property
    def level(self) -> float:
        """The level of the run's intervals."""
        return CONFIDENCE if self.confidence is None else self.confidence

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: the header, then the section's fields; absent values left out."""
        data = {name: getattr(self, name) for name in HEADER_ORDER}
        data["rules"] = self.rules.to_dict()
        data |= {f.name: getattr(self.section, f.name) for f in fields(self.section)}
        data["files"] = self.files
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in data.items()
            if value is not None or name in ("preset", "command_line")
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], section_type: type) -> "RunRecord":
        """Inverse of ``to_dict``, the section a ``section_type``; unknown or missing fields refused with one line."""
        data = {OLD_NAMES.get(name, name): value for name, value in data.items()}
        header = {f.name for f in fields(cls)} - {"section"}
        part = {f.name for f in fields(section_type)}
        unknown = set(data) - header - part
        if unknown:
            raise PochaError(f"run.json: unknown field(s) {', '.join(sorted(unknown))}")
        needed = {f.name for f in (*fields(cls), *fields(section_type)) if f.default is MISSING and f.name != "section"}
        missing = needed - set(data)
        if missing:
            raise PochaError(f"run.json: missing field(s) {', '.join(sorted(missing))}")
        values: dict[str, Any] = {name: tuple(v) if isinstance(v, list) else v for name, v in data.items()}
        if not isinstance(data["rules"], dict):
            raise PochaError("run.json: rules must be a mapping of rule options")
        values["rules"] = Rules.from_dict(data["rules"])
        types_of = get_type_hints(cls) | get_type_hints(section_type)
        wrong = [name for name, value in values.items() if not conforms(value, types_of[name])]
        if wrong:
            raise PochaError(f"run.json: {wrong[0]} holds {values[wrong[0]]!r}, not a {types_of[wrong[0]]}")
        section = section_type(**{name: values.pop(name) for name in part if name in values})
        return cls(**values, section=section)

    @property
    def policy_of(self) -> dict[str, str]:
        """Each strategy label's card-play policy."""
        return dict(zip(self.strategies, self.policies, strict=True))

    @property
    def planned(self) -> int:
        """Deals (all hand sizes together) or games the run was asked to play."""
        return self.section.planned


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
    if kind is Any:
        return True
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def conditions_text(conditions: dict[str, Any], sizes: Sequence[int] = ()) -> str:
    """A run's deal conditions in words, as run.json holds them, with the share of deals that meet them.

    ``position 1 holds 1O; where trumps(dealer) >= 3 (met by 24.6% of the deals at 5 cards)``. sizes:
    every hand size the run deals (a game's conditions may apply to some of them only).
    """
    notes = conditions_notes(conditions, sizes)
    return conditions_in_words(conditions) + (f" ({'; '.join(notes)})" if notes else "")


def conditions_notes(conditions: dict[str, Any], sizes: Sequence[int]) -> list[str]:
    """What ``conditions_text`` says in brackets: the share of deals that meet them, the hand sizes dealt freely."""
    shares = {int(cards): share for cards, share in conditions.get("acceptance", {}).items()}
    notes = []
    if shares and min(shares.values()) < 1:
        low, high = min(shares, key=shares.__getitem__), max(shares, key=shares.__getitem__)
        met = f"{shares[low]:.1%} of the deals at {low} cards" + (
            f" to {shares[high]:.1%} at {high}" if len(shares) > 1 else ""
        )
        notes.append(f"met by {met}")
    free = sorted(set(sizes) - set(shares))
    if free:
        notes.append(f"the hands of {written_sizes(free)} {'card' if free == [1] else 'cards'} dealt freely")
    return notes


def schedule_text(rules: Rules) -> str:
    """A schedule's name, or its hand sizes."""
    return rules.schedule if isinstance(rules.schedule, str) else ",".join(map(str, rules.schedule))


def scoring_note(rules: Rules) -> str:
    """``, scoring NAME`` for a scoring other than pocha's, to go with points; nothing for pocha's."""
    return "" if rules.scoring == Scoring() else f", scoring {rules.scoring.label}"


def play_text(run: RunRecord) -> str:
    """The card play a heading names: ``greedy play``, or each seat's when they differ (``play by seat 0: pimc``)."""
    if len(set(run.policies)) == 1:
        return f"{run.policies[0]} play"
    if run.in_turn:  # each strategy its own play
        return "play by strategy " + ", ".join(f"{s}: {p}" for s, p in zip(run.strategies, run.policies, strict=True))
    return "play by seat " + ", ".join(f"{seat}: {policy}" for seat, policy in enumerate(run.policies))


def rules_brief(rules: Rules, preset: str | None) -> str:
    """The rules a heading names: the deck, play rule and hook, and a full deal's trump and count when not the usual."""
    usual = PRESETS[preset].full_deal_trump if preset else "dealer-card"
    full = rules.full_deal * rules.players == rules.deck_size
    trump = {"none": ", full deal without trump", "dealer-card": ", full deal: the dealer's last card is trump"}
    note = (
        trump[rules.full_deal_trump]
        if full and (rules.full_deal_trump == "none" or rules.full_deal_trump != usual)
        else ""
    )
    note += f", full deals {rules.full_deals}" if rules.full_deals != "n" else ""
    return f"{rules.deck_size} {rules.notation.pack.title} cards, play {rules.play_rule}, hook {rules.hook}{note}"
