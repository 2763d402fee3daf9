"""A run: chunks of deals of each hand size, dealt, bid, played and tallied, in plain seating or duplicate.

A ``Lineup`` seats the strategies; in duplicate every deal is played once per rotation of the
seating, so every strategy bids every seat's cards. The tasks run through ``run_tasks`` on any
backend; a checkpoint may save and resume them.
"""

from collections.abc import Callable, Iterator, Sequence, Set
from dataclasses import dataclass
from functools import partial
from typing import IO, Any

import numpy as np

from pocha.engine import trace
from pocha.engine.backends import Backend, Threads, auto_chunk
from pocha.engine.checkpoint import Checkpoint
from pocha.engine.chunk import check_run, collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.memory import keep_freed_memory
from pocha.engine.policies import GREEDY, PlayPolicy
from pocha.engine.runner import run_tasks
from pocha.engine.seating import Lineup
from pocha.engine.tally import Tally
from pocha.errors import PochaError
from pocha.game.rules import Rules


@dataclass
class Result:
    """A run's tally, and whether it ran to the end (False after Ctrl-C: the tally holds the finished boards)."""

    tally: Tally
    complete: bool = True


@dataclass(frozen=True)
class Task:
    """One chunk of a run: ``count`` deals of hand size ``sizes[size_index]`` from deal number ``first``."""

    index: int  # position in the run's task list (what a checkpoint remembers)
    size_index: int
    first: int
    count: int


@dataclass(frozen=True)
class Plan:
    """Everything that fixes a run's results; picklable, so worker processes can play its tasks."""

    rules: Rules
    lineup: Lineup
    sizes: tuple[int, ...]
    deals: int
    seed: int
    policy: PlayPolicy  # of the seats that name none
    duplicate: bool
    chunk_size: int
    by_size: bool = False  # tasks hand size by hand size (traced runs), not interleaved

    @property
    def task_count(self) -> int:
        """How many chunks the run has."""
        return -(-self.deals // self.chunk_size) * len(self.sizes)

    def task(self, index: int) -> Task:
        """Chunk ``index``: every hand size's first chunk, then every size's second, and so on.

        So a run stopped early has played every hand size about equally. A traced run goes hand
        size by hand size instead, so its trace lists the deals in order (a stopped trace is dropped).
        """
        per_size, sizes = -(-self.deals // self.chunk_size), len(self.sizes)
        size_index, chunk = divmod(index, per_size) if self.by_size else divmod(index, sizes)[::-1]
        first = chunk * self.chunk_size
        return Task(index, size_index, first, min(self.chunk_size, self.deals - first))

    def tasks(self, skip: Set[int] = frozenset()) -> Iterator[Task]:
        """The run's chunks in order (made as they are needed: a long run has millions), less those in ``skip``."""
        return (self.task(index) for index in range(self.task_count) if index not in skip)

    def fingerprint(self) -> dict[str, Any]:
        """The options as plain data, to recognise the same run again (checkpoints)."""
        return {
            "rules": self.rules.to_dict(),
            "strategies": [seat.label for seat in self.lineup.seats],
            "sizes": list(self.sizes),
            "deals": self.deals,
            "seed": self.seed,
            "policy": self.policy.label,
            "plays": [player.play.label for player in self.lineup.players(self.policy)],
            "duplicate": self.duplicate,
            "chunk_size": self.chunk_size,
        }

    def empty_tally(self) -> Tally:
        """Zeroed accumulators for this run."""
        return Tally.empty(self.lineup.labels, self.rules.players, self.sizes)


@dataclass
class TaskResult:
    """A played chunk: its tally and, when asked, its trace records."""

    task: Task
    tally: Tally
    records: list[dict[str, Any]]

    @property
    def count(self) -> int:
        """Deals the chunk played."""
        return self.task.count


def play_task(plan: Plan, task: Task, traced: int = 0) -> TaskResult:
    """Deal, bid, play and tally one chunk (in every rotation of the seating, in duplicate).

    traced: the run-wide number of deals to trace; the chunk records those it holds.
    """
    keep_freed_memory()
    rules, lineup = plan.rules, plan.lineup
    cards = plan.sizes[task.size_index]
    strategies = lineup.players(plan.policy)
    numbers = np.arange(task.first, task.first + task.count, dtype=np.int64)
    number = task.size_index * plan.deals + task.first  # run-wide number of the chunk's first deal
    record = number < traced
    chunk = deal_chunk(rules, plan.seed, cards, numbers)
    part = plan.empty_tally()
    board = part.board_sums(task.count)
    records: list[dict[str, Any]] = []
    for rotation in range(rules.players if plan.duplicate else 1):
        seating = np.broadcast_to(lineup.seating(rotation), chunk.hands.shape)
        collect_bids(rules, strategies, seating, plan.seed, chunk)
        policies = seat_policies(strategies, lineup.seating(rotation)[None, :])
        won, points, plays, leaders = play_chunk(rules, plan.seed, chunk, policies, record)
        part.add_play(task.size_index, numbers, seating, chunk.bids, won, points, board)
        if record:
            shown = min(task.count, traced - number)
            records = trace.deal_records(
                rules, range(number, number + shown), chunk, plays, leaders, won, points, shown
            )
    part.add_boards(task.size_index, board)
    return TaskResult(task, part, records)


def simulate(
    rules: Rules,
    lineup: Lineup,
    sizes: Sequence[int],
    deals: int,
    seed: int = 0,
    policy: PlayPolicy = GREEDY,
    duplicate: bool = False,
    chunk_size: int | None = None,
    trace_stream: IO[str] | None = None,
    trace_deals: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    checkpoint: Checkpoint | None = None,
) -> Result:
    """Play ``deals`` deals (boards) of each hand size in ``sizes`` and tally them.

    duplicate: play every deal once per rotation of the seating. trace_stream: where to write
    ``pocha-trace/1`` lines (header included) for the first ``trace_deals`` deals of the run (all
    when None; plain seating, ordered backends only). progress: called with each chunk's deal
    count. backend: where chunks are played (default: this thread). chunk_size: deals per chunk
    (default: the resumed run's, else ``auto_chunk``; results do not depend on it). checkpoint:
    saves the finished chunks now and then and on Ctrl-C, and may resume a run. Ctrl-C stops the
    run after the boards finished so far.
    """
    if deals < 1:
        raise PochaError(f"deals: must be at least 1, not {deals}")
    backend = backend if backend is not None else Threads(1)
    if chunk_size is None:
        saved = checkpoint.saved_chunk_size() if checkpoint else None
        chunk_size = saved or auto_chunk(deals, backend, len(sizes))
    check_run(rules, lineup, sizes, chunk_size)
    if trace_stream is not None and (duplicate or not backend.ordered):
        raise PochaError("trace: deals are traced in plain seating on the local backend only")
    plan = Plan(rules, lineup, tuple(sizes), deals, seed, policy, duplicate, chunk_size, trace_stream is not None)
    start, done = checkpoint.start(plan) if checkpoint else (plan.empty_tally(), set())
    traced = 0
    if trace_stream is not None:
        traced = deals * len(sizes) if trace_deals is None else trace_deals
        trace.write_lines(trace_stream, [trace.header(rules, [s.label for s in lineup.seats], seed, policy.label)])
    todo = plan.tasks(skip=done)
    if progress is not None and done:
        progress(sum(plan.task(index).count for index in done))

    def merge(state: tuple[Tally, frozenset[int]], result: TaskResult) -> tuple[Tally, frozenset[int]]:
        if trace_stream is not None:
            trace.write_lines(trace_stream, result.records)
        state = state[0].merge(result.tally), state[1] | {result.task.index}  # one assignment: Ctrl-C safe
        if checkpoint:
            checkpoint.tick(plan, *state)
        return state

    work = partial(play_task, plan, traced=traced)
    (tally, finished), complete = run_tasks(backend, work, todo, (start, frozenset(done)), merge, progress)
    if checkpoint:
        checkpoint.save(plan, tally, finished)
    return Result(tally, complete)
