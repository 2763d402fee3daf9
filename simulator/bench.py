"""``pocha bench``: deals per second of the engine, end to end through the Python API.

Each workload runs on each thread count asked for; optionally the first workload also runs on a
Dask LocalCluster (started once, before timing, as a user's cluster would be), in chunks of
DASK_CHUNK deals: a task must be long next to the cluster's overhead per task.
"""

import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

from pocha.backends import DEFAULT_CHUNK, Backend, Dask, Threads, local_cluster
from pocha.engine import simulate
from pocha.policies import parse_policy
from pocha.rules import make_rules
from pocha.seating import Lineup, Seat

DASK_CHUNK = 4 * DEFAULT_CHUNK


@dataclass(frozen=True)
class Workload:
    """One benchmark: a strategy for every seat, a play policy, a table size, and its share of the deals."""

    bids: str
    play: str
    players: int
    cards: int
    share: float = 1.0  # slow strategies run on a fraction of --deals

    @property
    def title(self) -> str:
        """How the workload appears in the output."""
        return f"{self.bids} bids + {self.play} play, {self.players} x {self.cards}"


WORKLOADS = (
    Workload("random", "random", 4, 10),
    Workload("aces-trumps", "greedy", 4, 10),
    Workload("random", "random", 4, 1),
    Workload("table", "greedy", 4, 10),
    Workload("montecarlo", "greedy", 4, 10, share=0.001),
    Workload("expected", "pimc", 4, 10, share=0.002),
)


@dataclass(frozen=True)
class Measurement:
    """The runs of one workload in one place."""

    workload: Workload
    where: str  # "1 thread", "2 threads", "Dask LocalCluster, 2 workers"
    workers: int  # threads or worker processes
    deals: int  # deals a run
    rates: list[float]  # deals per second of each run

    @property
    def median(self) -> float:
        """The figure quoted: the median of the runs."""
        return statistics.median(self.rates)


def measure(workload: Workload, deals: int, backend: Backend, chunk_size: int | None, seed: int = 0) -> float:
    """Deals per second of one run of the workload (bidding, play and tally included); Ctrl-C goes through."""
    rules = make_rules(players=workload.players)
    lineup = Lineup((Seat.of(workload.bids),) * workload.players)
    start = time.perf_counter()
    played = simulate(
        rules,
        lineup,
        [workload.cards],
        deals,
        seed,
        parse_policy(workload.play),
        chunk_size=chunk_size,
        backend=backend,
    )
    if not played.complete:
        raise KeyboardInterrupt  # a cut run is never timed
    return deals / (time.perf_counter() - start)


def repeat(workload: Workload, deals: int, repeats: int, backends: list[Backend],
           chunk_size: int | None = None) -> tuple[int, list[list[float]]]:  # fmt: skip
    """A warm-up run on each backend (a few chunks, so every worker loads its kernels), then timed runs.

    There are ``repeats`` rounds with one run per backend each, so a slow spell of a shared machine
    hits every backend alike.
    """
    count = max(1, round(deals * workload.share))
    for backend in backends:
        measure(workload, min(count, 4 * (chunk_size or DEFAULT_CHUNK)), backend, chunk_size)
    rounds = [[measure(workload, count, backend, chunk_size, seed) for backend in backends] for seed in range(repeats)]
    return count, [list(rates) for rates in zip(*rounds, strict=True)]


def bench(deals: int, repeats: int, threads: list[int], dask_workers: int) -> Iterator[Measurement]:
    """Run every workload on every thread count, then the first on a Dask LocalCluster if asked."""
    for workload in WORKLOADS:
        count, rates = repeat(workload, deals, repeats, [Threads(n) for n in threads])
        for n, runs in zip(threads, rates, strict=True):
            yield Measurement(workload, f"{n} thread{'s' if n > 1 else ''}", n, count, runs)
    if dask_workers:
        with local_cluster(dask_workers) as address:
            count, (runs,) = repeat(WORKLOADS[0], deals, repeats, [Dask(scheduler=address)], DASK_CHUNK)
            yield Measurement(WORKLOADS[0], f"Dask LocalCluster, {dask_workers} workers", dask_workers, count, runs)
