"""``pocha bench``: deals per second of the engine, end to end through the Python API, single thread."""

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from simulator.engine import Lineup, Seat, simulate
from simulator.rules import make_rules
from strategies.registry import load


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
    Workload("table", "greedy", 4, 10, share=0.1),
    Workload("montecarlo", "greedy", 4, 10, share=0.001),
)


def measure(workload: Workload, deals: int, seed: int = 0) -> float:
    """Deals per second of one run of the workload (bidding, play and tally included)."""
    rules = make_rules(players=workload.players)
    lineup = Lineup((Seat(*load(workload.bids)),) * workload.players)
    start = time.perf_counter()
    simulate(rules, lineup, [workload.cards], deals, seed=seed, policy=workload.play)
    return deals / (time.perf_counter() - start)


def bench(deals: int, repeats: int, report: Callable[[Workload, int, list[float]], None]) -> None:
    """Run every workload ``repeats`` times (after a small warm-up run) and report the rates."""
    for workload in WORKLOADS:
        count = max(1, round(deals * workload.share))
        measure(workload, min(count, 100))
        rates = [measure(workload, count, seed) for seed in range(repeats)]
        report(workload, count, rates)


def median(rates: list[float]) -> float:
    """The figure quoted: the median of the runs."""
    return statistics.median(rates)
