"""How long a run will take, timed on its own first deals (games) before it starts.

A probe plays the run's first deal (game) of each hand size on this thread, which also loads
what the run needs (compiled kernels, tables), then twice as many each time, until a batch lasts
STEADY seconds and plays under STABLE times faster than the one before (what a batch costs beyond
its deals is then under a quarter of it), or the run is clearly quick. A batch that compiled kernels
(a cold cache: the first, or a later one that needs a kernel the first did not) is played again,
compiled: its wait says nothing of the run's pace. What the last doubling
added, per deal, is the cost of a deal in the run's own larger chunks; that rate, times the
workers that play at once (no more than the cores), gives the estimate. On a busy machine (the probe
got under BUSY of a core, or the load average leaves fewer cores than workers) the workers together
are taken to go as fast as the probe: measured, a run of 2 threads at load 9 got 0.67 of a core in
all, its probe's thread 0.68, and the estimate by threads was half the time it took. A run probed to its cap
goes by its last batch's rate. The run plays those deals again: results never change, and the
probe stays small next to the run (each batch at most 1/SHARE of it), so a run too small for
that is not probed.
"""

import os
import time
from typing import Any

from pocha.engine.backends import default_threads
from pocha.engine.workload import Estimate, Workload
from pocha.kernels.jit import counting_compiles

LONG = 30.0  # seconds: a run expected to last longer says so before it starts
QUICK = LONG / 3  # an estimate below this ends the probe: the run is quick, whatever the timing noise
STEADY = 0.2  # seconds a batch lasts at least for its rate to go by
STABLE = 1.25  # a batch twice the last playing under this much faster: its rate goes by
SHARE = 16  # each batch at most 1/SHARE of the run's work
BUSY = 0.9  # a probe that got less of a core than this ran on a machine with no core to spare
clock = time.perf_counter  # what the probe times with (a test may slow it down)
cpu_clock = time.thread_time  # the probe's own processor time, beside it
load = getattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # runnable tasks, the probe's among them (none on Windows)
compiles = counting_compiles  # what tells the probe a batch compiled kernels (a test may compile by hand)


def probe(workload: Workload[Any], remaining: int, workers: int) -> Estimate | None:
    """How long the run's ``remaining`` deals (games) will take on ``workers``, timed on its first ones.

    None for a quick run, and for one too small to probe (its first batch over 1/SHARE of it) or
    to time past the first batch (which carries the loading: no rate to go by).
    """
    with compiles() as compiled:
        return timed_batches(workload, remaining, min(workers, default_threads()), compiled)


def timed_batches(workload: Workload[Any], remaining: int, workers: int, compiled: Any) -> Estimate | None:
    """``probe``'s batches, each twice the last; one during which ``compiled.started`` grew is played again, once."""
    amount, timed, last, busy = 1, None, (0, 0.0), False  # the last batch's deals (games) and seconds
    again = 0  # the amount last played again (code that compiles on every call must not hold the probe)
    while (batch := workload.sample(amount)).planned * SHARE <= remaining:
        started = compiled.started
        start, used = clock(), cpu_clock()
        for index in range(batch.task_count):
            batch.run(index)
        seconds = max(clock() - start, 1e-9)
        if compiled.started > started and again != amount:  # the wait was the compiler's; again, compiled
            again = amount
            continue
        share = (cpu_clock() - used) / seconds  # of a core; the first batch, which waits on loading, aside
        spare = default_threads() - (load()[0] - 1)  # cores the other tasks leave
        busy = busy or (workers > 1 and amount > 1 and (share < BUSY or spare < workers))
        together = 1 if busy else workers  # no core to spare: the run's threads share what the probe's got
        rate = batch.planned / seconds * together
        if remaining / rate < QUICK:
            return None  # quick, even at this batch's rate
        if amount > 1:
            timed = Estimate(remaining / rate, rate, workers, busy)
            if seconds >= STEADY and rate < STABLE * last[0] / last[1] * together:
                added = (batch.planned - last[0]) / (seconds - last[1]) * together  # what each deal (game) costs
                return Estimate(remaining / added, added, workers, busy) if seconds > last[1] else timed
        amount, last = amount * 2, (batch.planned, seconds)
    return timed
