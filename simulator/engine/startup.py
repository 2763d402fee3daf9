"""How long the command line takes to start, as a user meets it: each command a fresh process, timed from outside.

A run's own speed is one thing; the wait before the first line is another: the imports, numba
loading the compiled kernels from its cache, and on a machine's first run the compile itself.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

from pocha.errors import PochaError

WARM_RUN = ("simulate", "--deals", "1000")
COMMANDS = (("--version",), ("--help",), WARM_RUN)


@dataclass(frozen=True)
class StartupTime:
    """The seconds of each run of one command line, and whether its kernels were compiled first (a cold cache)."""

    command: str
    seconds: list[float]
    cold: bool = False

    @property
    def median(self) -> float:
        """The figure quoted: the median of the runs."""
        return statistics.median(self.seconds)


def run_seconds(args: tuple[str, ...], environment: dict[str, str]) -> float:
    """The wall-clock seconds of ``pocha ARGS`` in a new process (``python -m pocha``), output discarded."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pocha", *args], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    if done.returncode:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise PochaError(f"startup: pocha {' '.join(args)} failed: {said[-1] if said else f'exit {done.returncode}'}")
    return time.perf_counter() - start


def startup_times(repeats: int, cold: bool = True) -> Iterator[StartupTime]:
    """``pocha --version``, ``--help`` and a warm ``simulate --deals 1000``, ``repeats`` runs each; then a cold run.

    The warm run is timed after one untimed run has filled the kernel cache. cold: also one run of
    the same command with an empty cache folder (``POCHA_CACHE_DIR``), which compiles everything.
    Each command's times come as they are measured (the cold run, last, takes tens of seconds).
    """
    if repeats < 1:
        raise PochaError(f"repeats: must be at least 1, not {repeats}")
    return measured(repeats, cold)


def measured(repeats: int, cold: bool) -> Iterator[StartupTime]:
    """The times of ``startup_times``, each command's as soon as its runs are done."""
    environment = dict(os.environ)
    run_seconds(WARM_RUN, environment)
    for args in COMMANDS:
        yield StartupTime(f"pocha {' '.join(args)}", [run_seconds(args, environment) for _ in range(repeats)])
    if cold:
        with tempfile.TemporaryDirectory(prefix="pocha-cold-") as folder:
            environment.pop("NUMBA_CACHE_DIR", None)
            environment["POCHA_CACHE_DIR"] = folder
            yield StartupTime(f"pocha {' '.join(WARM_RUN)}", [run_seconds(WARM_RUN, environment)], cold=True)
