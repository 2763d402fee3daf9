"""Runs of deals (``simulate``, ``compare``): chunks of deals of each hand size, dealt, bid, played and tallied.

A ``Lineup`` seats the strategies; in duplicate every deal is played once per rotation of the
seating, so every strategy bids every seat's cards. ``Deals`` is the workload the runner plays; a
checkpoint may save and resume it. Here ``deals`` is always a count (deals per hand size) and
``numbers`` are deal numbers.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Self

import numpy as np

from pocha.engine import trace as traces
from pocha.engine.chunk import check_run, collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.policies import PlayPolicy
from pocha.engine.predictions import Predicted, prediction_rows
from pocha.engine.runner import Outputs, RunTotal, run
from pocha.engine.seating import Lineup
from pocha.engine.tally import Tally
from pocha.engine.workload import Part, Request
from pocha.errors import PochaError
from pocha.game.rules import Rules


@dataclass(frozen=True, kw_only=True)
class DealsRequest(Request):
    """A run of ``deals`` deals (boards) of each hand size in ``sizes``.

    duplicate: play every deal once per rotation of the seating. trace_deals: with a trace in the
    outputs, the first deals of the run it gets (all when None; plain seating, ordered backends only).
    With predictions in the outputs, each chunk's rows of the predicting strategies' predictions go
    there (``pocha.engine.predictions``; plain seating), and the trace lines carry them too. A
    checkpoint may resume a run (whose chunk size is then the default).
    """

    lineup: Lineup
    sizes: Sequence[int]
    deals: int
    duplicate: bool = False
    trace_deals: int | None = None


@dataclass(frozen=True)
class Task:
    """One chunk: ``count`` deals of hand size ``sizes[size_index]``, from deal number ``first``."""

    size_index: int
    first: int
    count: int


@dataclass(frozen=True, kw_only=True)
class DealChunks:
    """``deals`` deals of each hand size in ``sizes``, cut into tasks of ``chunk_size``: runs of deals and training."""

    sizes: tuple[int, ...]
    deals: int
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
        return Task(size_index, first, min(self.chunk_size, self.deals - first))

    def count(self, index: int) -> int:
        """Deals chunk ``index`` plays."""
        return self.task(index).count

    @property
    def planned(self) -> int:
        """Deals of every hand size together."""
        return self.deals * len(self.sizes)

    def sample(self, amount: int) -> Self:
        """The run's first ``amount`` deals of each hand size, one chunk each."""
        deals = min(amount, self.deals)
        return replace(self, deals=deals, chunk_size=deals)


@dataclass(frozen=True, kw_only=True)
class Deals(DealChunks):
    """The workload of a run of deals: everything that fixes its results."""

    rules: Rules
    lineup: Lineup
    seed: int
    policy: PlayPolicy  # of the seats that name none
    duplicate: bool
    trace_deals: int = 0  # deals to trace, run-wide numbers from 0
    predict: bool = False  # record the predicting strategies' predictions

    def run(self, index: int) -> Part[Tally]:
        """Deal, bid, play and tally chunk ``index`` (in every rotation of the seating, in duplicate)."""
        task = self.task(index)
        rules, lineup = self.rules, self.lineup
        strategies = lineup.players(self.policy)
        numbers = np.arange(task.first, task.first + task.count, dtype=np.int64)
        number = task.size_index * self.deals + task.first  # run-wide number of the chunk's first deal
        traced = number < self.trace_deals  # the chunk keeps its plays for the trace
        chunk = deal_chunk(rules, self.seed, self.sizes[task.size_index], numbers)
        tally = self.empty()
        rotations: list[tuple[np.ndarray, ...]] = []  # each rotation's seating, bids, won and points
        lines: list[dict[str, Any]] = []
        predicted = Predicted.empty(rules.players, task.count) if self.predict else None
        for rotation in range(rules.players if self.duplicate else 1):
            seating = np.broadcast_to(lineup.seating(rotation), chunk.hands.shape)
            collect_bids(rules, strategies, seating, self.seed, chunk, predicted)
            policies = seat_policies(strategies, lineup.seating(rotation)[None, :])
            won, points, plays, leaders = play_chunk(rules, self.seed, chunk, policies, traced)
            rotations.append((seating, chunk.bids.copy() if self.duplicate else chunk.bids, won, points))
            if traced:
                shown = min(task.count, self.trace_deals - number)
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
        return Tally.empty(self.lineup.labels, self.rules.players, self.sizes)

    def merge(self, total: Tally, part: Tally) -> Tally:
        """Both tallies' boards."""
        return total.merge(part)

    def fingerprint(self) -> dict[str, Any]:
        """The options as plain data, to recognise the same run again (checkpoints)."""
        return {
            "rules": self.rules.to_dict(),
            "strategies": [seat.label for seat in self.lineup.seats],
            "sizes": list(self.sizes),
            "deals": self.deals,
            "seed": self.seed,
            "policy": self.policy.label,
            "policies": [player.policy.label for player in self.lineup.players(self.policy)],
            "duplicate": self.duplicate,
            "chunk_size": self.chunk_size,
        }


def simulate(request: DealsRequest, outputs: Outputs = Outputs()) -> RunTotal[Tally]:
    """Play the request's deals and tally them; Ctrl-C stops the run after the boards finished so far."""
    if request.deals < 1:
        raise PochaError(f"deals: must be at least 1, not {request.deals}")
    checkpoint, stream = outputs.checkpoint, outputs.trace
    saved = checkpoint.saved_chunk_size() if checkpoint and request.chunk_size is None else None
    chunk_size = saved or request.chunk_size_for(request.deals, len(request.sizes))
    check_run(request.rules, request.lineup, request.sizes, chunk_size)
    if stream is not None and (request.duplicate or not request.backend.ordered):
        raise PochaError("trace: deals are traced in plain seating on the local backend only")
    if outputs.predictions is not None and request.duplicate:
        raise PochaError("predictions: recorded in plain seating only (pocha simulate)")
    shown = request.deals * len(request.sizes) if request.trace_deals is None else request.trace_deals
    workload = Deals(
        sizes=tuple(request.sizes),
        deals=request.deals,
        chunk_size=chunk_size,
        by_size=stream is not None,
        rules=request.rules,
        lineup=request.lineup,
        seed=request.seed,
        policy=request.policy,
        duplicate=request.duplicate,
        trace_deals=shown if stream is not None else 0,
        predict=outputs.predictions is not None,
    )
    if stream is not None:
        traces.write_lines(stream, [traces.header(request.rules, request.lineup, request.seed, request.policy)])
    return run(workload, request.backend, outputs)
