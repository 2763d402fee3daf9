"""What every run is: a plan, one frozen value that fixes its results and is cut into numbered tasks.

Deals (``simulate``, ``compare``), whole games, studies, model bids and training each have a plan
type, made once by keyword: the rules, the line-up, the amount, the seed and play policy. The plan
*is* the ``Workload`` the runner plays: picklable, cut into tasks ``0 .. task_count - 1`` whose parts
merge exactly in any order, so ``pocha.engine.runner.run`` plays any of them on any backend. Its
``to_dict`` is the run as plain data: run.json holds it, and a checkpoint compares it on resume.
Where the tasks run (a backend) and where the by-products go (progress, trace, ...: the runner's
``Outputs``) are not part of it.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, Self, TypeVar

from pocha.engine.backends import Backend, auto_chunk
from pocha.engine.policies import GREEDY, PlayPolicy
from pocha.engine.predictions import Rows
from pocha.engine.seating import Lineup
from pocha.errors import PochaError
from pocha.game.rules import Rules

T = TypeVar("T")
MOST_DEALS = 10**15  # deals per hand size; deal numbers stay within 64 bits
MOST_GAMES = 10**14  # a game's hands are numbered (game * hands + hand) * players + dealer


@dataclass(frozen=True)
class Amount:
    """How much a run plays, as its option says it: ``--deals 1000`` (of each of 3 hand sizes)."""

    option: str  # the flag that sets it: --deals or --games
    value: int
    most: int  # what the deal numbers can count
    per: int = 1  # deals (games) the run plays per unit of it: its hand sizes, its variants
    least: int = 1  # its smallest value
    why: str = ""  # why it is that least, when more than 1

    @property
    def total(self) -> int:
        """Deals (games) the whole run plays."""
        return self.value * self.per

    def check(self, least: bool = True) -> None:
        """Refuse an amount of play below its least (1) or beyond what deal numbers can count.

        least: False when made, for a probe's sample of the run may hold fewer; a run checks it first.
        """
        if self.value < self.least and self.least > 1 and (least or self.value < 1):
            raise PochaError(f"{self.option[2:]}: at least {self.least} ({self.why}), not {self.value}")
        if not 1 <= self.value <= self.most:
            raise PochaError(f"{self.option[2:]}: must be from 1 to {self.most:,}, not {self.value:,}")


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
    busy: bool = False  # the machine had no core to spare: the workers together go as fast as one


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

    @property
    def chunk_size(self) -> int | None:
        """Deals (games) per task, None until the run chooses them."""
        ...

    def ready(self, backend: Backend, saved: int | None, traced: bool, predicted: bool) -> "Workload[T]":
        """The run as it will play: cut into tasks for ``backend`` (``saved``: a resumed run's chunk size), checked.

        traced, predicted: whether its outputs take trace lines, recorded predictions. The runner
        calls it before any task; what the run cannot do is refused here, before any work.
        """
        ...

    def paced(self, backend: Backend, pace: float) -> "Workload[T]":
        """The run cut again, into smaller tasks if its own take longer than TASK_SECONDS at ``pace`` items a second."""
        ...

    def trace_header(self) -> dict[str, Any]:
        """A trace's first line: the rules, the line-up, the seed, the play and the deal conditions."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The run as plain data, as run.json holds it (a checkpoint compares it on resume)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Plan:
    """What every plan holds besides its rules and amount: the seed, the play policy, the chunk size.

    chunk_size: deals (games) per task; it never changes a result. None until the run chooses it
    (``cut``): the one asked for, a resumed checkpoint's, or ``auto_chunk``'s.
    """

    seed: int = 0
    policy: PlayPolicy = GREEDY  # of the seats that name none
    chunk_size: int | None = None

    @property
    def chunk(self) -> int:
        """Deals (games) per task, once the run has chosen them (``cut``)."""
        assert self.chunk_size is not None, "a plan is cut into tasks (cut) before it is played"
        return self.chunk_size

    def cut(self, backend: Backend, saved: int | None = None) -> Self:
        """The plan with its chunk size chosen for its amount on ``backend`` (``auto_chunk``).

        saved: the chunk size of the checkpoint the run resumes, used when none was asked for.
        """
        if self.chunk_size is not None:
            return self
        amount, parts = self.cut_by
        return replace(self, chunk_size=saved or auto_chunk(amount, backend, parts, self.deals_each))

    def paced(self, backend: Backend, pace: float) -> Self:
        """The plan cut again for a worker that plays ``pace`` items a second (a probe's): no task over TASK_SECONDS."""
        amount, parts = self.cut_by
        return replace(self, chunk_size=min(self.chunk, auto_chunk(amount, backend, parts, self.deals_each, pace)))

    @property
    def cut_by(self) -> tuple[int, int]:
        """What a chunk size is chosen for: deals (games) of each part of the run, and its parts (hand sizes)."""
        return self.amount.value, self.amount.per

    @property
    def deals_each(self) -> int:
        """The deals each item of the amount plays: 1 for a deal (a whole game's hands: ``auto_chunk``'s weight)."""
        return 1

    def ready(self, backend: Backend, saved: int | None, traced: bool, predicted: bool) -> Self:
        """The plan cut (``cut``) and checked (``check``): what the runner plays."""
        plan = self.cut(backend, saved)
        plan.check(backend, traced, predicted)
        return plan

    def check(self, backend: Backend, traced: bool, predicted: bool) -> None:
        """Refuse, before any work, a run the rules or the engine cannot play, or these outputs."""
        if traced or predicted:
            raise PochaError("trace, predictions: only runs of deals record them (and whole games, a trace)")

    def trace_header(self) -> dict[str, Any]:
        """A plan that is not traced has none (``check`` refuses a trace)."""
        raise NotImplementedError

    @property
    def amount(self) -> Amount:
        """How much the run plays, as its option says it (checked when the plan is made, its least when it runs)."""
        raise NotImplementedError

    @property
    def planned(self) -> int:
        """Deals (games) every task together plays: its amount in all."""
        return self.amount.total

    @property
    def bidders(self) -> Lineup:
        """Every entrant that bids in the run: the default trick tables they need are learned before it starts."""
        return Lineup(())

    @property
    def rule_sets(self) -> tuple[Rules, ...]:
        """The rules the run plays under: one set, or a study's, each variant's."""
        return ()

    @property
    def preset(self) -> str | None:
        """The preset the run's rules came from, as run.json's header names it (None: rules given whole)."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The seed and play policy as run.json holds them."""
        return {"policy": self.policy.label, "seed": self.seed}


def seated(lineup: Lineup, policy: PlayPolicy) -> dict[str, Any]:
    """A line-up as run.json holds it: every seat's strategy and card play."""
    return {
        "strategies": [seat.label for seat in lineup.seats],
        "policies": [(seat.policy or policy).label for seat in lineup.seats],
    }
