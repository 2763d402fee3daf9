"""``pocha bench``: deals (or games) per second of the engine, end to end through the Python API.

Each benchmark runs on each thread count asked for; optionally the first benchmark also runs on a
Dask LocalCluster (started once, before timing, as a user's cluster would be), in chunks of
DASK_CHUNK deals: a task must be long next to the cluster's overhead per task. With a reference
binary (any program run as ``BINARY W|H K DEALS SEED`` that prints ``deals_per_s=RATE``, such as
the repository's benchmarks/reference.c, which ``reference_program`` builds), the benchmarks it has
are timed by it too, in the same rounds, for a ratio per core.
"""

import hashlib
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pocha.engine.backends import (
    DEFAULT_CHUNK,
    Backend,
    Dask,
    Threads,
    check_count,
    import_distributed,
    local_cluster,
)
from pocha.engine.chunk import collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.games import Games, play_games
from pocha.engine.policies import parse_policy
from pocha.engine.seating import Entrant, Lineup
from pocha.engine.simulate import Deals, simulate
from pocha.engine.tally import Tally
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.kernels.cache import pocha_cache_root
from pocha.words import counted

DASK_CHUNK = 4 * DEFAULT_CHUNK
STAGES = ("deal", "bids", "play", "tally")
BUILD_FLAGS = (b"-O3", b"-march=native")  # how a reference given as C source is built


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: a strategy for every seat, a play policy, a table size, and its share of the deals.

    cards 0 means whole games (the rule set's schedule): the figure is games per second.
    reference: the reference binary's mode for the same or a similar benchmark, if it has one.
    """

    bids: str
    policy: str  # the play policy of every seat
    players: int
    cards: int
    share: float = 1.0  # slow strategies run on a fraction of --deals
    reference: str = ""  # "W" (random bids, random play) or "H" (aces-trumps or its own heuristic bids, greedy play)
    decisions: bool = False  # also quote bidding decisions per second (one per seat and deal)

    @property
    def title(self) -> str:
        """How the benchmark appears in the output."""
        table = f"{self.players} players, whole games" if self.whole_games else f"{self.players} x {self.cards}"
        return f"{self.bids} bids + {self.policy} play, {table}"

    @property
    def whole_games(self) -> bool:
        """Whether a run plays whole games (else deals of one hand size)."""
        return self.cards == 0

    @property
    def unit(self) -> str:
        """What the rates count."""
        return "games" if self.whole_games else "deals"


BENCHMARKS = (
    Benchmark("random", "random", 4, 10, reference="W"),
    Benchmark("aces-trumps", "greedy", 4, 10, reference="H"),
    Benchmark("random", "random", 4, 1, reference="W"),
    Benchmark("table", "greedy", 4, 10),
    Benchmark("montecarlo", "greedy", 4, 10, share=0.002, decisions=True),
    Benchmark("expected", "greedy", 4, 10),
    Benchmark("expected", "learned", 4, 10, share=0.1),
    Benchmark("expected", "pimc", 4, 10, share=0.002),
    Benchmark("expected", "pimc:solve=3", 4, 10, share=0.0002),
    Benchmark("expected", "pimc:samples=64,solve=4", 4, 10, share=0.00005),  # the learned play's teacher
    Benchmark("aces-trumps", "greedy", 4, 0, share=0.1),
)


@dataclass(frozen=True)
class Measurement:
    """The runs of one benchmark in one place, and the reference binary's runs beside them (one thread)."""

    benchmark: Benchmark
    where: str  # "1 thread", "2 threads", "Dask LocalCluster, 2 workers"
    workers: int  # threads or worker processes
    deals: int  # deals (or games) a run
    rates: list[float]  # deals (or games) per second of each run
    reference: list[float] | None = None  # the reference binary's deals per second, round by round

    @property
    def median(self) -> float:
        """The figure quoted: the median of the runs."""
        return statistics.median(self.rates)

    @property
    def ratio(self) -> float | None:
        """Median over the rounds of pocha's rate over the reference's in the same round."""
        if not self.reference:
            return None
        return statistics.median(mine / theirs for mine, theirs in zip(self.rates, self.reference, strict=True))


def measure(benchmark: Benchmark, deals: int, backend: Backend, chunk_size: int | None, seed: int = 0) -> float:
    """Deals (games) per second of one run of the benchmark (bidding, play and tally included); Ctrl-C goes through."""
    rules = make_rules(players=benchmark.players)
    lineup = Lineup((Entrant.of(benchmark.bids),) * benchmark.players)
    policy = parse_policy(benchmark.policy)
    start = time.perf_counter()
    if benchmark.whole_games:
        games = Games(rules=rules, lineup=lineup, games=deals, seed=seed, policy=policy, chunk_size=chunk_size)
        complete = play_games(games, backend=backend).complete
    else:
        plan = Deals(
            rules=rules,
            lineup=lineup,
            cards=(benchmark.cards,),
            deals_per_size=deals,
            seed=seed,
            policy=policy,
            chunk_size=chunk_size,
        )
        complete = simulate(plan, backend=backend).complete
    if not complete:
        raise KeyboardInterrupt  # a cut run is never timed
    return deals / (time.perf_counter() - start)


ACCEPTED_REFERENCE = (
    "give a program that runs as BINARY W|H K DEALS SEED and prints deals_per_s=RATE (a file, or a name on the "
    "PATH; a .py file runs under this Python), or its C source (.c)"
)


def reference_program(against: str | Path) -> tuple[str, ...]:
    """The command that runs the reference ``against``, before its arguments; a C source (``.c``) is built first.

    A file is taken where it is, relative or absolute, as people name files (``mybids.py`` is the one
    in this folder, not a program on the PATH); a ``.py`` file runs under this Python; a bare name
    with no such file is a program on the PATH. The build (cc -O3 -march=native) is kept in pocha's
    cache folder under a hash of the source, so a later run with the same source reuses it.
    """
    path = Path(against)
    if path.suffix == ".c":
        return (str(built(path)),)
    if path.is_file():
        if path.suffix == ".py":
            return (sys.executable, str(path.resolve()))
        if not os.access(path, os.X_OK):
            raise PochaError(f"against: {against} is not executable (chmod +x {against}); {ACCEPTED_REFERENCE}")
        return (str(path.resolve()),)
    bare = os.sep not in str(against)
    found = shutil.which(str(against)) if bare else None
    if found is None:
        elsewhere = " and no program of that name on the PATH" if bare else ""
        raise PochaError(f"against: no file {against}{elsewhere}; {ACCEPTED_REFERENCE}")
    return (found,)


def built(source: Path) -> Path:
    """The program ``cc`` builds from the C source ``source``, kept in pocha's cache folder (built once)."""
    try:
        text = source.read_bytes()
    except OSError as error:
        raise PochaError(f"against: cannot read {source}: {error.strerror}") from None
    compiler = shutil.which("cc")
    if compiler is None:
        raise PochaError(f"against: building {source} needs a C compiler (cc) on the PATH; or give a built program")
    digest = hashlib.sha256(b" ".join([compiler.encode(), *BUILD_FLAGS, text])).hexdigest()[:16]
    binary = pocha_cache_root() / "references" / f"{source.stem}-{digest}"
    if not binary.exists():
        binary.parent.mkdir(parents=True, exist_ok=True)
        building = binary.with_name(f"{binary.name}.{os.getpid()}.tmp")
        flags = [flag.decode() for flag in BUILD_FLAGS]
        done = subprocess.run(
            [compiler, *flags, "-o", str(building), str(source), "-lm"], capture_output=True, text=True
        )
        if done.returncode:
            building.unlink(missing_ok=True)
            first = next((line for line in done.stderr.splitlines() if "error" in line), done.stderr.strip())
            raise PochaError(f"against: cc could not build {source}: {first}")
        os.replace(building, binary)
    return binary


def check_reference(command: tuple[str, ...]) -> None:
    """Refuse, before any timing, a reference that does not run as ``BINARY W 1 1000 1``."""
    reference_rate(command, "W", 1, 1000, 1)


def reference_rate(command: tuple[str, ...], mode: str, cards: int, deals: int, seed: int) -> float:
    """The reference's deals per second on ``deals`` deals (``BINARY MODE K DEALS SEED``; command: ``BINARY``)."""
    arguments = [mode, str(cards), str(deals), str(seed)]
    run = shlex.join([command[-1], *arguments])  # the program as named, not the Python that runs a .py file
    try:
        done = subprocess.run([*command, *arguments], capture_output=True, text=True)
    except OSError as error:
        raise PochaError(f"against: cannot run {run}: {error.strerror}") from None
    found = re.search(r"deals_per_s=([0-9.]+)", done.stdout)
    if done.returncode or not found:
        script = command[-1].endswith(".py")
        timed = " (--against times a program's speed; a strategy file is compared with pocha compare FILE.py:CLASS)"
        raise PochaError(
            f"against: {run} did not print deals_per_s= (exit {done.returncode}){timed if script else ''}; "
            f"{ACCEPTED_REFERENCE}"
        )
    return float(found.group(1))


def repeat(
    benchmark: Benchmark,
    deals: int,
    repeats: int,
    backends: list[Backend],
    chunk_size: int | None = None,
    against: tuple[str, ...] | None = None,
) -> tuple[int, list[list[float]], list[float] | None]:
    """A warm-up run on each backend (a few chunks, so every worker loads its kernels), then timed runs.

    There are ``repeats`` rounds with one run per backend each (and one of the reference binary),
    so a slow spell of a shared machine hits them all alike.
    """
    count = max(1, round(deals * benchmark.share))
    for backend in backends:
        measure(benchmark, min(count, 4 * (chunk_size or DEFAULT_CHUNK)), backend, chunk_size)
    timed = against if benchmark.reference else None
    rounds, reference = [], []
    for seed in range(repeats):
        rounds.append([measure(benchmark, count, backend, chunk_size, seed) for backend in backends])
        if timed is not None:
            reference.append(reference_rate(timed, benchmark.reference, benchmark.cards, count, seed + 1))
    return count, [list(rates) for rates in zip(*rounds, strict=True)], reference or None


def bench(
    deals: int,
    repeats: int,
    threads: str | Sequence[int],
    dask_workers: int,
    against: str | Path | None = None,
    play: str | None = None,
) -> Iterator[Measurement]:
    """The measurements of ``measurements``, every option checked first: a bad one is one line before any is made.

    threads: ``"1,2"`` or a list; against: a reference program, a ``.c`` file built first; play: a play
    policy to time alone (``workloads``).
    """
    counts = thread_counts(threads)
    benchmarks = workloads(play)
    if deals < 1 or repeats < 1 or dask_workers < 0:
        raise PochaError("bench: --deals, --repeats and thread counts must be at least 1, --dask 0 or more")
    for option, count in (("threads", max(counts)), ("dask", dask_workers)):
        if count:
            check_count(option, count)
    if dask_workers:
        import_distributed()  # not installed: said now, not after every workload has run
    reference = reference_program(against) if against else None
    if reference:
        check_reference(reference)
    return measurements(deals, repeats, counts, dask_workers, reference, benchmarks)


def workloads(play: str | None) -> tuple[Benchmark, ...]:
    """The standard workloads, or with ``play`` the one of every seat playing it at 4 x 10, bidding ``expected``.

    One policy alone is how two settings are put at equal time (``pimc:rollout=learned,samples=K``
    against ``pimc``: docs/card-play.md).
    """
    if play is None:
        return BENCHMARKS
    parse_policy(play)  # a bad policy: one line before any run
    return (Benchmark("expected", play, 4, 10),)


def thread_counts(threads: str | Sequence[int]) -> list[int]:
    """Thread counts from ``"1,2"`` or a list; each at least 1."""
    try:
        counts = [int(word) for word in threads.split(",")] if isinstance(threads, str) else list(threads)
    except ValueError:
        raise PochaError(f"threads: '{threads}' is not a list of thread counts such as 1,2") from None
    if not counts or min(counts) < 1:
        raise PochaError(f"threads: give thread counts of at least 1, such as 1,2; not '{threads}'")
    return counts


def measurements(
    deals: int,
    repeats: int,
    threads: list[int],
    dask_workers: int,
    against: tuple[str, ...] | None = None,
    benchmarks: tuple[Benchmark, ...] = BENCHMARKS,
) -> Iterator[Measurement]:
    """Run every benchmark on every thread count, then the first on a Dask LocalCluster if asked.

    against: the command of the reference (``reference_program``; checked first with ``check_reference``).
    """
    for benchmark in benchmarks:
        count, rates, reference = repeat(benchmark, deals, repeats, [Threads(n) for n in threads], against=against)
        for n, runs in zip(threads, rates, strict=True):
            where = counted(n, "thread")
            yield Measurement(benchmark, where, n, count, runs, reference if n == 1 else None)
    if dask_workers:
        with local_cluster(dask_workers) as address:
            count, (runs,), _ = repeat(benchmarks[0], deals, repeats, [Dask(scheduler=address)], DASK_CHUNK)
            yield Measurement(
                benchmarks[0], f"Dask LocalCluster, {counted(dask_workers, 'worker')}", dask_workers, count, runs
            )


def stage_profile(repeats: int, chunks: int) -> Iterator[tuple[Benchmark, dict[str, float]]]:
    """Each staged benchmark with its ``stage_times`` over ``chunks`` chunks a repeat (``repeats`` checked first)."""
    if repeats < 1:
        raise PochaError(f"repeats: must be at least 1, not {repeats}")
    return ((benchmark, stage_times(benchmark, chunks * repeats)) for benchmark in staged())


def staged() -> tuple[Benchmark, ...]:
    """The benchmarks a stage profile covers: deals of one size, fast enough for whole chunks."""
    return tuple(w for w in BENCHMARKS if not w.whole_games and w.share == 1.0)


def stage_times(benchmark: Benchmark, chunks: int, seed: int = 0) -> dict[str, float]:
    """Nanoseconds per deal of each stage of a chunk (``STAGES``), the median over ``chunks`` chunks.

    The engine's steps one after another on chunks of DEFAULT_CHUNK deals in this thread, as
    ``Deals.run`` (``pocha.engine.simulate``) runs them: where the time of a deal goes.
    """
    rules = make_rules(players=benchmark.players)
    lineup = Lineup((Entrant.of(benchmark.bids),) * benchmark.players)
    strategies = lineup.competitors(parse_policy(benchmark.policy))
    seating = lineup.seating()
    times: dict[str, list[float]] = {stage: [] for stage in STAGES}
    for chunk_index in range(chunks + 1):  # the first chunk loads the kernels: not timed
        numbers = np.arange(chunk_index * DEFAULT_CHUNK, (chunk_index + 1) * DEFAULT_CHUNK, dtype=np.int64)
        marks = [time.perf_counter()]
        chunk = deal_chunk(rules, seed, benchmark.cards, numbers)
        marks.append(time.perf_counter())
        by_seat = np.broadcast_to(seating, chunk.hands.shape)
        collect_bids(rules, strategies, by_seat, seed, chunk)
        marks.append(time.perf_counter())
        won, points, _, _ = play_chunk(rules, seed, chunk, seat_policies(strategies, seating[None, :]))
        marks.append(time.perf_counter())
        part = Tally.empty(lineup.labels, rules.players, (benchmark.cards,))
        part.add_boards(0, numbers, [(by_seat, chunk.bids, won, points)])
        marks.append(time.perf_counter())
        if chunk_index:
            for stage, start, end in zip(STAGES, marks[:-1], marks[1:], strict=True):
                times[stage].append((end - start) / len(numbers) * 1e9)
    return {stage: statistics.median(values) for stage, values in times.items()}
