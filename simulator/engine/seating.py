"""Who sits where: the players at the table, seat by seat (a bidding strategy and a play policy each)."""

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
    "strong": "montecarlo:rollout=pimc,samples=128@pimc:samples=64,solve=4",
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
class Seat:
    """A player: its bidding strategy, its play policy (None: the run's), and the label it is reported under."""

    label: str
    strategy: Strategy
    spec: str | None = None  # the spec it was built from; worker processes build it again from this
    policy: PlayPolicy | None = None

    @classmethod
    def of(cls, spec: "str | Strategy") -> "Seat":
        """The seat of a player spec (``BID`` or ``BID@PLAY``), or of a strategy object (labelled by its ``name``)."""
        if not isinstance(spec, str):
            return cls(str(spec.name), spec)
        name = spec.strip().partition("@")[0]
        if name in NAMED_PLAYERS:
            if "@" in spec:
                raise PochaError(f"strategy '{spec}': {name} is a whole player ({NAMED_PLAYERS[name]}), with its play")
            seat = cls.of(NAMED_PLAYERS[name])
            return cls(name, seat.strategy, seat.spec, seat.policy)
        bid, policy = split_player(spec)
        label, strategy = registry.load(bid)
        full = f"{registry.portable(bid)}@{policy.label}" if policy else registry.portable(bid)
        return cls(f"{label}@{policy.label}" if policy else label, strategy, full, policy)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its spec when it has one: a class from a user's file need not be importable elsewhere."""
        if self.spec is None:
            return Seat, (self.label, self.strategy, None, self.policy)
        return rebuilt_seat, (self.label, self.spec)


def rebuilt_seat(label: str, spec: str) -> Seat:
    """A pickled seat, built again from its spec."""
    seat = Seat.of(spec)
    return Seat(label, seat.strategy, spec, seat.policy)


FIELDS = ("expected", "fair-share", "aces-trumps", "zero", "random", "expected:bias=0")  # fields to suggest, best first


def spare_field(specs: Sequence[str | Strategy]) -> str | None:
    """The field to suggest beside ``specs``: the first of ``FIELDS`` that is none of them (none sits as both)."""
    taken = {Seat.of(spec).label for spec in specs}
    return next((name for name in FIELDS if Seat.of(name).label not in taken), None)


@dataclass(frozen=True)
class Competitor:
    """One strategy of the line-up as it bids and plays: its label, bidding strategy and play policy."""

    label: str
    strategy: Strategy
    policy: PlayPolicy


@dataclass(frozen=True)
class Lineup:
    """The players at the table, seat by seat; seats sharing a label are one strategy."""

    seats: tuple[Seat, ...]

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Distinct strategy labels, in seat order of first appearance (the tally's strategies); asked every chunk."""
        return tuple(dict.fromkeys(seat.label for seat in self.seats))

    def players(self, default: PlayPolicy) -> list[Competitor]:
        """One player per label, in label order; seats that name no play policy play ``default``."""
        first = {seat.label: seat for seat in reversed(self.seats)}
        return [Competitor(label, first[label].strategy, first[label].policy or default) for label in self.labels]

    def seating(self, rotation: int = 0) -> np.ndarray:
        """int64[seat]: the strategy index at each seat, the line-up moved ``rotation`` seats on."""
        return np.roll(self._seating, rotation)

    @cached_property
    def _seating(self) -> np.ndarray:
        """int64[seat]: the strategy index at each seat (``seating`` hands out rolled copies)."""
        return np.array([self.labels.index(seat.label) for seat in self.seats], np.int64)
