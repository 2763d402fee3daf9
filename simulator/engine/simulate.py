"""Runs of deals (``simulate``, ``compare``): chunks of deals of each hand size, dealt, bid, played and tallied.

A ``Lineup`` seats the strategies; a ``Comparison`` in duplicate plays every deal once per rotation
of the seating, so every strategy bids every seat's cards. ``Deals`` and ``Comparison`` are the
plans (and workloads) the runner plays; a checkpoint may save and resume them. Here
``deals_per_size`` is a count, ``cards`` the hand sizes and ``numbers`` deal numbers.
"""

from dataclasses import dataclass, replace
from typing import Any, Self

import numpy as np

from pocha.engine import trace as traces
from pocha.engine.backends import Backend, Threads
from pocha.engine.chunk import check_run, collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.dealing import Conditioned, conditions_at, conditions_entry
from pocha.engine.predictions import Predicted, prediction_rows
from pocha.engine.runner import Outputs, RunTotal, run
from pocha.engine.seating import Lineup
from pocha.engine.tally import Tally
from pocha.engine.workload import MOST_DEALS, Amount, Part, Plan, seated
from pocha.errors import PochaError
from pocha.game.rules import Rules


@dataclass(frozen=True)
class Task:
    """One chunk: ``count`` deals of hand size ``cards[size_index]``, from deal number ``first``."""

    size_index: int
    first: int
    count: int


@dataclass(frozen=True, kw_only=True)
class DealChunks(Plan):
    """``deals_per_size`` deals of each hand size in ``cards`` under ``rules``, in tasks: deals, model bids, training.

    The fields are named as run.json's section (``DealsRun``) names them, so the plan and its record agree.
    """

    rules: Rules
    cards: tuple[int, ...]  # the hand sizes; a list given is kept as a tuple
    deals_per_size: int
    preset: str | None = None  # the preset the rules came from (None: rules given whole)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))  # a list given is kept as the plan's own tuple
        self.amount.check(least=False)

    @property
    def amount(self) -> Amount:
        """Deals of each hand size."""
        return Amount("--deals", self.deals_per_size, MOST_DEALS, len(self.cards))

    @property
    def rule_sets(self) -> tuple[Rules, ...]:
        """The run's rules."""
        return (self.rules,)

    @property
    def by_size(self) -> bool:
        """Whether the tasks go hand size by hand size (a traced run), not interleaved."""
        return False

    @property
    def task_count(self) -> int:
        """How many chunks the run has."""
        return -(-self.deals_per_size // self.chunk) * len(self.cards)

    def task(self, index: int) -> Task:
        """Chunk ``index``: every hand size's first chunk, then every size's second, and so on.

        So a run stopped early has played every hand size about equally. A traced run goes hand
        size by hand size instead, so its trace lists the deals in order (a stopped trace is dropped).
        """
        per_size, sizes = -(-self.deals_per_size // self.chunk), len(self.cards)
        size_index, chunk = divmod(index, per_size) if self.by_size else divmod(index, sizes)[::-1]
        first = chunk * self.chunk
        return Task(size_index, first, min(self.chunk, self.deals_per_size - first))

    def count(self, index: int) -> int:
        """Deals chunk ``index`` plays."""
        return self.task(index).count

    def sample(self, amount: int) -> Self:
        """The run's first ``amount`` deals of each hand size, one chunk each."""
        deals = min(amount, self.deals_per_size)
        return replace(self, deals_per_size=deals, chunk_size=deals)


@dataclass(frozen=True, kw_only=True)
class Deals(DealChunks):
    """A run of ``deals_per_size`` deals of each hand size by a line-up in plain seating (``pocha simulate``).

    trace_deals: with a trace in the outputs, the first deals of the run it gets (all when None;
    ordered backends only); traced, the tasks go hand size by hand size. With predictions in the
    outputs, each task's rows of the predicting strategies' predictions go there (and the trace
    lines carry them too): ``simulate`` sets ``predict``. A checkpoint may resume a run (whose chunk
    size is then the saved one). conditioned: the deal conditions every deal meets, at every size
    of the run (None: any deal).
    """

    lineup: Lineup
    trace_deals: int | None = None
    predict: bool = False
    conditioned: Conditioned | None = None

    @property
    def bidders(self) -> Lineup:
        """The line-up."""
        return self.lineup

    @property
    def by_size(self) -> bool:
        """Whether the tasks go hand size by hand size: a traced run's, so its trace lists the deals in order."""
        return bool(self.trace_deals)

    @property
    def rotations(self) -> int:
        """How many times every deal is played, the seating moved one seat on each time."""
        return 1

    def check(self, backend: Backend, traced: bool, predicted: bool) -> None:
        """Refuse a run the rules cannot deal, a trace off the local backend or in duplicate, or predictions in it."""
        check_run(self.rules, self.lineup, self.cards, self.chunk, in_turn=self.rotations > self.rules.players)
        if traced and (self.rotations > 1 or not backend.ordered):
            raise PochaError("trace: deals are traced in plain seating on the local backend only")
        if predicted and self.rotations > 1:
            raise PochaError("predictions: recorded in plain seating only (pocha simulate)")

    def ready(self, backend: Backend, saved: int | None, traced: bool, predicted: bool) -> Self:
        """Cut and checked, its first ``trace_deals`` deals traced (all when None) and predictions kept when asked."""
        plan = super().ready(backend, saved, traced, predicted)
        shown = (plan.planned if plan.trace_deals is None else plan.trace_deals) if traced else 0
        return replace(plan, trace_deals=shown, predict=predicted)

    def trace_header(self) -> dict[str, Any]:
        """The rules, line-up, seed, play and deal conditions."""
        return traces.header(self.rules, self.lineup, self.seed, self.policy, self.conditioned)

    def run(self, index: int) -> Part[Tally]:
        """Deal, bid, play and tally chunk ``index`` (in every rotation of the seating, in duplicate)."""
        task = self.task(index)
        rules, lineup = self.rules, self.lineup
        strategies = lineup.competitors(self.policy)
        numbers = np.arange(task.first, task.first + task.count, dtype=np.int64)
        number = task.size_index * self.deals_per_size + task.first  # run-wide number of the chunk's first deal
        traced = number < (self.trace_deals or 0)  # the chunk keeps its plays for the trace
        cards = self.cards[task.size_index]
        chunk = deal_chunk(rules, self.seed, cards, numbers, conditions_at(self.conditioned, cards))
        tally = self.empty()
        rotations: list[tuple[np.ndarray, ...]] = []  # each rotation's seating, bids, won and points
        lines: list[dict[str, Any]] = []
        predicted = Predicted.empty(rules.players, task.count) if self.predict else None
        for rotation in range(self.rotations):
            seated = lineup.seating(rotation)[: rules.players]  # a cycle of more strategies than seats: the first few
            seating = np.broadcast_to(seated, chunk.hands.shape)
            collect_bids(rules, strategies, seating, self.seed, chunk, predicted)
            policies = seat_policies(strategies, seated[None, :])
            won, points, plays, leaders = play_chunk(rules, self.seed, chunk, policies, traced)
            rotations.append((seating, chunk.bids.copy() if self.rotations > 1 else chunk.bids, won, points))
            if traced:
                shown = min(task.count, (self.trace_deals or 0) - number)
                lines = traces.deal_lines(
                    rules, range(number, number + shown), chunk, plays, leaders, won, points, shown, predicted=predicted
                )
        tally.add_boards(task.size_index, numbers, rotations)
        if predicted is None:
            return Part(tally, lines)
        rows = prediction_rows(np.arange(number, number + task.count), chunk, seating, predicted, won, points)
        return Part(tally, lines, rows)

    def empty(self) -> Tally:
        """Zeroed accumulators for this run."""
        return Tally.empty(self.lineup.labels, self.rules.players, self.cards)

    def merge(self, total: Tally, part: Tally) -> Tally:
        """Both tallies' boards."""
        return total.merge(part)

    def to_dict(self) -> dict[str, Any]:
        """The run as run.json holds it."""
        return {
            "rules": self.rules.to_dict(),
            **seated(self.lineup, self.policy),
            **super().to_dict(),
            "cards": list(self.cards),
            "deals_per_size": self.deals_per_size,
            **conditions_entry(self.conditioned),
        }


@dataclass(frozen=True, kw_only=True)
class Comparison(Deals):
    """A run of deals comparing strategies (``pocha compare``): in duplicate, every deal once per rotation.

    field: the label of the strategy that fills the seats the compared ones leave (None: none does).
    """

    duplicate: bool = True
    field: str | None = None

    @property
    def rotations(self) -> int:
        """How many times every deal is played: in duplicate once per seat, else once.

        Each strategy then bids every seat's cards; more strategies than seats play once per strategy,
        each sitting out the plays the cycle leaves it out of.
        """
        return max(self.rules.players, len(self.lineup.seats)) if self.duplicate else 1

    def to_dict(self) -> dict[str, Any]:
        """The run as run.json holds it: a run of deals, in duplicate or not, with its field."""
        return super().to_dict() | {"duplicate": self.duplicate, "field": self.field}


def simulate(deals: Deals, outputs: Outputs = Outputs(), backend: Backend = Threads(1)) -> RunTotal[Tally]:
    """Play the plan's deals on ``backend`` and tally them; Ctrl-C stops the run after the boards finished so far."""
    return run(deals, backend, outputs)
