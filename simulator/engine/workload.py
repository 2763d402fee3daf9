"""What every run is: a workload of numbered tasks, and the request that asks for it.

Deals (``simulate``, ``compare``), whole games and training are each a ``Workload``: a picklable
plan cut into tasks ``0 .. task_count - 1`` whose parts merge exactly in any order, so
``pocha.engine.runner.run`` plays any of them on any backend. A ``Request`` holds what the caller
chooses besides the workload (backend, chunk size), built by keyword; where its by-products go
(progress, trace, ...) is the runner's ``Outputs``.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pocha.engine.backends import Backend, Threads, auto_chunk
from pocha.engine.policies import GREEDY, PlayPolicy
from pocha.engine.predictions import Rows
from pocha.game.rules import Rules

T = TypeVar("T")


@dataclass
class Part(Generic[T]):
    """A played task: its share of the total and, in a traced run, its trace lines (in play order).

    predictions: its rows of recorded predictions (``pocha.engine.predictions``), when they are recorded.
    """

    value: T
    lines: Sequence[dict[str, Any]] = field(default=(), repr=False)
    predictions: Rows | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Estimate:
    """How long a run will take, timed on its first deals (games) before it starts (``pocha.engine.estimate``)."""

    seconds: float  # the run's work still to do, on its workers
    rate: float  # deals (games) per second, every worker together
    workers: int  # that play at once (no more than the cores)


class Workload(Protocol[T]):
    """A run cut into numbered tasks; played in a worker process, so it is picklable."""

    @property
    def task_count(self) -> int:
        """How many tasks the run has."""
        ...

    def count(self, index: int) -> int:
        """Deals (or games) task ``index`` plays, for progress."""
        ...

    @property
    def planned(self) -> int:
        """Deals (or games) every task together plays."""
        ...

    def sample(self, amount: int) -> "Workload[T]":
        """The same run cut to its first ``amount`` deals of each hand size (games), one task each: a probe times it."""
        ...

    def run(self, index: int) -> Part[T]:
        """Play task ``index``."""
        ...

    def empty(self) -> T:
        """The total before any task."""
        ...

    def merge(self, total: T, part: T) -> T:
        """The total with a part added (exact: the order of the parts does not matter)."""
        ...

    def fingerprint(self) -> dict[str, Any]:
        """The options that fix the results, as plain data (a checkpoint checks them on resume)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Request:
    """What every run asks for besides its amount: rules, seed, play policy and where and how to play."""

    rules: Rules
    seed: int = 0
    policy: PlayPolicy = GREEDY  # of the seats that name none
    chunk_size: int | None = None  # deals (games) per task; None: ``auto_chunk``'s (results do not depend on it)
    backend: Backend = Threads(1)

    def chunk_size_for(self, amount: int, sizes: int = 1) -> int:
        """Deals (games) per task for ``amount`` of each of ``sizes`` hand sizes: the asked-for or ``auto_chunk``'s."""
        return self.chunk_size if self.chunk_size is not None else auto_chunk(amount, self.backend, sizes)
