"""The one loop of every run: a workload's tasks played on a backend, each part merged as it comes, Ctrl-C kept.

The backend plays the tasks (threads of this process or a Dask cluster) and hands the parts back
as they finish; each is merged into the running total at once, so memory stays flat. A Ctrl-C (or
a SIGTERM the command line turns into one) ends the loop with everything merged so far; before any
task has finished (a first compile, the probe of the estimate) it is passed on: there is nothing to show.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import IO, Generic, TypeVar

from pocha.engine import trace as traces
from pocha.engine.backends import Backend
from pocha.engine.checkpoint import Checkpoint
from pocha.engine.estimate import probe
from pocha.engine.memory import keep_freed_memory
from pocha.engine.predictions import Rows
from pocha.engine.workload import Estimate, Part, Workload

T = TypeVar("T")


@dataclass(frozen=True)
class Outputs:
    """Where a run's by-products go, as they come; none of them changes its results.

    progress: called with each finished task's count (and first with the resumed tasks'). estimate:
    told, before the run starts, how long it will take, unless it is quick (``pocha.engine.estimate``);
    without it nothing is probed. trace: where the parts' trace lines go. predictions: where the
    parts' rows of recorded predictions go (in any order). checkpoint: saves the finished tasks now
    and then and at the end, and may resume a run (its total must be a ``Tally``).
    """

    progress: Callable[[int], None] | None = None
    estimate: Callable[[Estimate], None] | None = None
    trace: IO[str] | None = None
    predictions: list[Rows] | None = None
    checkpoint: Checkpoint | None = None


@dataclass
class RunTotal(Generic[T]):
    """A run's merged total, and whether it ran to the end (False after Ctrl-C: the total holds the finished tasks)."""

    total: T
    complete: bool = True


def play(workload: Workload[T], index: int) -> tuple[int, Part[T]]:
    """Task ``index`` played, in whichever worker the backend chose."""
    keep_freed_memory()
    return index, workload.run(index)


def run(workload: Workload[T], backend: Backend, outputs: Outputs = Outputs()) -> RunTotal[T]:
    """Play every task of ``workload`` (those a resumed checkpoint holds excepted), merge the parts, feed outputs.

    The workload is made ready first (``Workload.ready``: cut into tasks and checked); a trace gets its header.
    """
    progress, trace, predictions, checkpoint = outputs.progress, outputs.trace, outputs.predictions, outputs.checkpoint
    saved = checkpoint.saved_chunk_size() if checkpoint else None
    chosen = workload.chunk_size is None and saved is None  # the run cuts itself, and may cut again once timed
    workload = workload.ready(backend, saved, trace is not None, predictions is not None)
    if trace is not None:
        traces.write_lines(trace, [workload.trace_header()])
    total, done = checkpoint.start(workload) if checkpoint else (workload.empty(), set[int]())
    if progress is not None and done:
        progress(sum(workload.count(index) for index in done))
    state = total, frozenset(done)
    remaining = workload.planned - sum(map(workload.count, done))
    finished = bool(done)  # a task's part is in the total, of this run or of the one it resumes
    try:
        if outputs.estimate is not None and (timed := probe(workload, remaining, backend.workers)):
            outputs.estimate(timed)
            if chosen:  # a long run: its tasks no longer than TASK_SECONDS each, so a stop waits no more
                workload = workload.paced(backend, timed.rate / timed.workers)
        todo = (index for index in range(workload.task_count) if index not in done)  # made as needed: millions
        for index, part in backend.run(partial(play, workload), todo):
            if trace is not None:
                traces.write_lines(trace, part.lines)
            if predictions is not None and part.predictions is not None:
                predictions.append(part.predictions)
            done_now = state[1] | {index} if checkpoint else state[1]  # only a checkpoint needs them
            state = workload.merge(state[0], part.value), done_now  # one assignment: Ctrl-C safe
            finished = True
            if checkpoint:
                checkpoint.tick(workload, *state)
            if progress is not None:
                progress(workload.count(index))
    except KeyboardInterrupt:
        if not finished:
            raise
        complete = False
    else:
        complete = True
    if checkpoint:
        checkpoint.save(workload, *state)
    return RunTotal(state[0], complete)
