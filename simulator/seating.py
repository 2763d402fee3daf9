"""Who sits where: the strategies at the table, seat by seat, and the seating moved round the table."""

from dataclasses import dataclass
from typing import Any

import numpy as np

from pocha.strategies import registry
from pocha.strategies.base import Strategy


@dataclass(frozen=True)
class Seat:
    """A seat's strategy and the label it is reported under."""

    label: str
    strategy: Strategy
    spec: str | None = None  # the spec it was built from; worker processes build it again from this

    @classmethod
    def of(cls, spec: "str | Strategy") -> "Seat":
        """The seat of a strategy spec, or of a strategy object (labelled by its ``name``)."""
        if isinstance(spec, str):
            label, strategy = registry.load(spec)
            return cls(label, strategy, registry.portable(spec))
        return cls(str(spec.name), spec)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its spec when it has one: a class from a user's file need not be importable elsewhere."""
        if self.spec is None:
            return Seat, (self.label, self.strategy)
        return rebuilt_seat, (self.label, self.spec)


def rebuilt_seat(label: str, spec: str) -> Seat:
    """A pickled seat, built again from its spec."""
    return Seat(label, registry.load(spec)[1], spec)


@dataclass(frozen=True)
class Lineup:
    """The strategies at the table, seat by seat; seats sharing a label are one strategy."""

    seats: tuple[Seat, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        """Distinct strategy labels, in seat order of first appearance (the tally's strategies)."""
        return tuple(dict.fromkeys(seat.label for seat in self.seats))

    @property
    def strategies(self) -> list[Strategy]:
        """One strategy object per label."""
        first: dict[str, Strategy] = {}
        for seat in self.seats:
            first.setdefault(seat.label, seat.strategy)
        return list(first.values())

    def seating(self, rotation: int = 0) -> np.ndarray:
        """int64[seat]: the strategy index at each seat, the line-up moved ``rotation`` seats on."""
        index = [self.labels.index(seat.label) for seat in self.seats]
        return np.roll(np.array(index, np.int64), rotation)
