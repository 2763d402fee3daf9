"""Where a run's chunks are played: threads of this process, or a Dask cluster.

A backend maps a picklable task function over a run's tasks and yields results as they finish,
with a bounded number in flight, so memory stays flat however many tasks a run has. Results
merge exactly in any order, so every backend and thread count gives the same numbers.
"""

import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from pocha.errors import PochaError
from pocha.words import counted, did_you_mean

STARTUP = {"distributed.comm.timeouts.connect": "120s", "distributed.comm.timeouts.tcp": "120s"}
IN_FLIGHT = 2  # tasks queued per worker: enough to keep it busy, few enough to keep memory flat
DEFAULT_CHUNK = 1 << 14  # deals (or games) per task, at most
TASK_DEALS = 1 << 16  # deals a task of whole games plays, at most: Ctrl-C waits for the tasks in flight
TASK_SECONDS = 1.0  # what a task of a long run takes at most, by its probe's pace: Ctrl-C waits for it
MIN_CHUNK = 64
PER_CORE = 8  # threads (or LocalCluster processes) a core may be asked to run: more only wait their turn
BACKENDS = ("local", "dask")  # where the chunks run: threads of this process, or Dask


class Backend(Protocol):
    """Runs ``work`` on every item and yields the results."""

    @property
    def ordered(self) -> bool:
        """Whether results come back in the items' order."""
        ...

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        ...

    def run(self, work: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield ``work(item)`` for every item."""
        ...


def default_threads() -> int:
    """Every core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_count(option: str, count: int) -> None:
    """Refuse fewer than 1, or more than PER_CORE per core (they would only wait, and could exhaust the machine)."""
    if count < 1:
        raise PochaError(f"{option}: must be at least 1, not {count}")
    cores = default_threads()
    if count > PER_CORE * cores:
        raise PochaError(
            f"{option}: {count:,} on {counted(cores, 'core')} is too many; give at most {PER_CORE * cores} "
            f"({PER_CORE} per core; the results do not depend on it)"
        )


@dataclass(frozen=True)
class Threads:
    """Threads of this process; the numba kernels release the GIL, so chunks run side by side."""

    count: int = 1
    ordered = True

    @property
    def workers(self) -> int:
        """Tasks that run at once: one per thread."""
        return self.count

    def __post_init__(self) -> None:
        check_count("threads", self.count)

    def run(self, work: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield results in order; Ctrl-C cancels the queued tasks and waits only for the running ones."""
        if self.count == 1:
            yield from map(work, items)
            return
        pending: deque[Future] = deque()
        remaining = iter(items)
        with ThreadPoolExecutor(self.count, thread_name_prefix="pocha") as pool:
            try:
                for item in remaining:
                    pending.append(pool.submit(work, item))
                    if len(pending) >= IN_FLIGHT * self.count:
                        break
                while pending:
                    result = pending.popleft().result()
                    for item in remaining:
                        pending.append(pool.submit(work, item))
                        break
                    yield result
            finally:
                for future in pending:
                    future.cancel()


@dataclass(frozen=True)
class Dask:
    """A ``dask.distributed`` cluster: a LocalCluster of ``workers`` processes, or the scheduler at ``scheduler``."""

    workers: int = 2
    scheduler: str | None = None
    ordered = False

    def __post_init__(self) -> None:
        import_distributed()  # not installed: said before any work, not after the first compile
        if self.scheduler is None:  # a LocalCluster's processes, on this machine
            check_count("workers", self.workers)

    def run(self, work: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield results as tasks finish, keeping a few tasks per worker queued."""
        distributed = import_distributed()
        with self._client(distributed) as client:
            slots = IN_FLIGHT * max(1, len(client.scheduler_info()["workers"]))
            remaining = iter(items)
            running = distributed.as_completed(loop=client.loop)
            for item in remaining:
                running.add(client.submit(work, item, pure=False))
                if running.count() >= slots:
                    break
            try:
                for future in running:
                    result = future.result()
                    for item in remaining:
                        running.add(client.submit(work, item, pure=False))
                        break
                    yield result
            finally:
                running.clear()

    @contextmanager
    def _client(self, distributed: Any) -> Iterator[Any]:
        """A client of the scheduler at ``scheduler``, or of a LocalCluster started and closed here."""
        if not self.scheduler:
            with local_cluster(self.workers) as address, distributed.Client(address, set_as_default=False) as client:
                yield client
            return
        try:
            client = distributed.Client(self.scheduler, timeout="10s")
        except OSError as error:
            raise PochaError(f"scheduler: cannot reach a Dask scheduler at {self.scheduler} ({error})") from None
        with client:
            yield client


@contextmanager
def local_cluster(workers: int) -> Iterator[str]:
    """A LocalCluster of single-threaded worker processes, closed on exit; yields its scheduler address.

    Its processes log only CRITICAL lines: a failed task reaches the client as an exception anyway,
    and closing a cluster can log a spurious heartbeat traceback (dask/distributed#9032). Worker
    processes get STARTUP's time to come up: on a loaded machine the default 30 s can run out.
    """
    distributed = import_distributed()
    import dask

    with dask.config.set(STARTUP):
        try:
            cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )
        except (OSError, TimeoutError) as error:
            raise PochaError(
                f"backend dask: the LocalCluster did not start ({type(error).__name__}: {error})"
            ) from None
    with cluster:
        yield cluster.scheduler_address


def import_distributed() -> Any:
    """The ``dask.distributed`` module, or a clear line on how to install it."""
    try:
        import dask.distributed as distributed
    except ImportError:
        raise PochaError(
            "backend dask: Dask is not installed; install it with: python3 -m pip install 'dask[distributed]' "
            "(or, in a clone of pocha: python3 -m pip install -e '.[dask]')"
        ) from None
    return distributed


def auto_chunk(deals: int, backend: Backend, sizes: int = 1, weight: int = 1, pace: float | None = None) -> int:
    """Deals per task for a run of ``deals`` deals of each of ``sizes`` hand sizes.

    At most DEFAULT_CHUNK; less on small runs, so every worker gets tasks (slow strategies such as
    montecarlo need that to use all cores). Each hand size is cut into equal tasks, as many as a
    multiple of the workers, so no worker idles while another plays the last one. Results do not
    depend on it. weight: the deals each counted item plays (a whole game's hands); a task then
    holds at most TASK_DEALS deals (MIN_CHUNK items at least), so a stopped run of long games
    waits seconds for its tasks in flight, not minutes, and its progress moves. pace: the items a
    worker plays a second, when a probe timed them; a task then takes about TASK_SECONDS at most
    (a stopped montecarlo run waited 3 to 7 s for 10,000-deal tasks).
    """
    workers = backend.workers
    most = min(DEFAULT_CHUNK, max(MIN_CHUNK, TASK_DEALS // weight))
    if pace is not None:
        most = min(most, max(MIN_CHUNK, int(pace * TASK_SECONDS)))
    tasks = max(-(-deals // most), -(-2 * IN_FLIGHT * workers // sizes))  # per hand size
    tasks = -(-tasks // workers) * workers
    return max(MIN_CHUNK, -(-deals // tasks))


def make_backend(backend: str, threads: int | None, workers: int | None, scheduler: str | None) -> Backend:
    """The backend the command-line options name; an option the chosen backend does not use is refused."""
    if backend == "local":
        for name, value in (("workers", workers), ("scheduler", scheduler)):
            if value is not None:
                raise PochaError(f"{name}: only for --backend dask (the local backend runs --threads)")
        return Threads(default_threads() if threads is None else threads)
    if backend == "dask":
        if threads is not None:
            raise PochaError("threads: the dask backend runs --workers processes, not threads; leave --threads out")
        if scheduler is not None and workers is not None:
            raise PochaError("workers: a running --scheduler brings its own workers; leave --workers out")
        return Dask(2 if workers is None else workers, scheduler)
    raise PochaError(f"backend: unknown '{backend}'; {did_you_mean(backend, BACKENDS)}accepted: {', '.join(BACKENDS)}")
