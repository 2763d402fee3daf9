"""How long a run will take, timed on its own first deals (games) before it starts.

A probe plays the run's first deal (game) of each hand size on this thread, which also loads
what the run needs (compiled kernels, tables), then twice as many each time, until a batch lasts
STEADY seconds and plays under STABLE times faster than the one before (what a batch costs beyond
its deals is then under a quarter of it), or the run is clearly quick. What the last doubling
added, per deal, is the cost of a deal in the run's own larger chunks; that rate, times the
workers that play at once (no more than the cores), gives the estimate. A run probed to its cap
goes by its last batch's rate. The run plays those deals again: results never change, and the
probe stays small next to the run (each batch at most 1/SHARE of it), so a run too small for
that is not probed.
"""

import time
from typing import Any

from pocha.engine.backends import default_threads
from pocha.engine.workload import Estimate, Workload

LONG = 30.0  # seconds: a run expected to last longer says so before it starts
QUICK = LONG / 3  # an estimate below this ends the probe: the run is quick, whatever the timing noise
STEADY = 0.2  # seconds a batch lasts at least for its rate to go by
STABLE = 1.25  # a batch twice the last playing under this much faster: its rate goes by
SHARE = 16  # each batch at most 1/SHARE of the run's work
clock = time.perf_counter  # what the probe times with (a test may slow it down)


def probe(workload: Workload[Any], remaining: int, workers: int) -> Estimate | None:
    """How long the run's ``remaining`` deals (games) will take on ``workers``, timed on its first ones.

    None for a quick run, and for one too small to probe (its first batch over 1/SHARE of it) or
    to time past the first batch (which carries the loading: no rate to go by).
    """
    workers = min(workers, default_threads())
    amount, timed, last = 1, None, (0, 0.0)  # the last batch's deals (games) and seconds
    while (batch := workload.sample(amount)).planned * SHARE <= remaining:
        start = clock()
        for index in range(batch.task_count):
            batch.run(index)
        seconds = max(clock() - start, 1e-9)
        rate = batch.planned / seconds * workers
        if remaining / rate < QUICK:
            return None  # quick, even at this batch's rate
        if amount > 1:
            timed = Estimate(remaining / rate, rate, workers)
            if seconds >= STEADY and rate < STABLE * last[0] / last[1] * workers:
                added = (batch.planned - last[0]) / (seconds - last[1]) * workers  # what each deal (game) costs
                return Estimate(remaining / added, added, workers) if seconds > last[1] else timed
        amount, last = amount * 2, (batch.planned, seconds)
    return timed
