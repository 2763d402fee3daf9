"""Who sits where: a line-up's entrants at the table, seat by seat (a bidding strategy and a play policy each).

A seat is a place at the table; an ``Entrant`` is what sits there (one entrant may hold several
seats); a ``Competitor`` is one distinct strategy of the line-up as it bids and plays, its play
resolved: what a tally counts.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from pocha.engine.policies import PlayPolicy, is_policy_spec, parse_policy, policy_choices
from pocha.errors import PochaError
from pocha.strategies import registry
from pocha.strategies.base import Strategy

NAMED_PLAYERS = {  # whole players by name: a bidding strategy and its play (docs/card-play.md, "The strong player")
    "strong": "montecarlo:rollout=pimc,samples=128,shortlist=3@pimc:samples=64,solve=4",
}


def split_player(spec: str) -> tuple[str, PlayPolicy | None]:
    """``(bid spec, play policy)`` of a player spec ``BID@PLAY`` (``expected@pimc``); no '@': no policy of its own.

    An '@' followed by a path (``dir@2/bids.py:Class``) is part of the strategy; after any other, a
    play policy is due, and a word that is none is refused as one (``expected@pimcc``: did you mean pimc?).
    """
    bid, at, policy = spec.strip().rpartition("@")
    if at and is_policy_spec(policy):
        return bid, parse_policy(policy)
    if at and not any(mark in policy for mark in ("/", "\\", ".py")):
        raise PochaError(f"strategy '{spec}': unknown play '{policy}' after '@'; {policy_choices(policy)}")
    return spec, None


@dataclass(frozen=True)
class Entrant:
    """What sits at a seat of a line-up: a bidding strategy, its play policy (None: the run's), its label.

    The label is what the results report it under; seats holding entrants of one label are one strategy.
    """

    label: str
    strategy: Strategy
    spec: str | None = None  # the spec it was built from; worker processes build it again from this
    policy: PlayPolicy | None = None

    @classmethod
    def of(cls, spec: "str | Strategy") -> "Entrant":
        """The entrant of a player spec (``BID`` or ``BID@PLAY``), or of a strategy object (labelled by its name)."""
        if not isinstance(spec, str):
            return cls(str(spec.name), spec)
        name = spec.strip().partition("@")[0]
        if name in NAMED_PLAYERS:
            if "@" in spec:
                raise PochaError(f"strategy '{spec}': {name} is a whole player ({NAMED_PLAYERS[name]}), with its play")
            whole = cls.of(NAMED_PLAYERS[name])
            return cls(name, whole.strategy, whole.spec, whole.policy)
        bid, policy = split_player(spec)
        label, strategy = registry.load(bid)
        full = f"{registry.portable(bid)}@{policy.label}" if policy else registry.portable(bid)
        return cls(f"{label}@{policy.label}" if policy else label, strategy, full, policy)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its spec when it has one: a class from a user's file need not be importable elsewhere."""
        if self.spec is None:
            return Entrant, (self.label, self.strategy, None, self.policy)
        return rebuilt_entrant, (self.label, self.spec)


def rebuilt_entrant(label: str, spec: str) -> Entrant:
    """A pickled entrant, built again from its spec."""
    entrant = Entrant.of(spec)
    return Entrant(label, entrant.strategy, spec, entrant.policy)


FIELDS = ("expected", "fair-share", "aces-trumps", "zero", "random", "expected:bias=0")  # fields to suggest, best first


def spare_field(specs: Sequence[str | Strategy]) -> str | None:
    """The field to suggest beside ``specs``: the first of ``FIELDS`` that is none of them (none sits as both)."""
    taken = {Entrant.of(spec).label for spec in specs}
    return next((name for name in FIELDS if Entrant.of(name).label not in taken), None)


@dataclass(frozen=True)
class Competitor:
    """One distinct strategy of a line-up as it bids and plays: its label, bidding strategy and resolved play policy."""

    label: str
    strategy: Strategy
    policy: PlayPolicy


@dataclass(frozen=True)
class Lineup:
    """The entrants at the table, seat by seat (``seats[s]`` sits at seat s); seats sharing a label are one strategy.

    A comparison of more strategies than seats holds one entrant a strategy, the table's seats taking
    the first of each rotation (``seating``).
    """

    seats: tuple[Entrant, ...]

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Distinct strategy labels, in seat order of first appearance (the tally's strategies); asked every chunk."""
        return tuple(dict.fromkeys(seat.label for seat in self.seats))

    def competitors(self, default: PlayPolicy) -> list[Competitor]:
        """One competitor per label, in label order; entrants that name no play policy play ``default``."""
        first = {seat.label: seat for seat in reversed(self.seats)}
        return [Competitor(label, first[label].strategy, first[label].policy or default) for label in self.labels]

    def seating(self, rotation: int = 0) -> np.ndarray:
        """int64[seat]: the strategy index at each seat, the line-up moved ``rotation`` seats on."""
        return np.roll(self._seating, rotation)

    @cached_property
    def _seating(self) -> np.ndarray:
        """int64[seat]: the strategy index at each seat (``seating`` hands out rolled copies)."""
        return np.array([self.labels.index(seat.label) for seat in self.seats], np.int64)
