"""Threads, the Dask backend, checkpoints and resuming: the numbers never depend on how a run was run."""

import ctypes.util
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import lineup

from pocha.engine.backends import Dask, Threads, make_backend
from pocha.engine.bench import bench
from pocha.engine.checkpoint import Checkpoint
from pocha.engine.games import Games, play_games
from pocha.engine.runner import Outputs
from pocha.engine.simulate import Comparison, Deals, simulate
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.options import RunOptions
from pocha.reports.game_stats import game_summary

pytestmark = pytest.mark.scale

RULES = make_rules(players=4)
SEATS = lineup("expected", "random", "aces-trumps", "zero")
ARRAYS = ("boards", "moments", "cross", "hand_fields", "errors")


def run_deals(progress=None, checkpoint=None, backend=Threads(1), **options):
    """The engine's run of deals at RULES with SEATS, the other fields of the plan as given."""
    plan = Comparison(rules=RULES, lineup=SEATS, **options)
    return simulate(plan, Outputs(progress=progress, checkpoint=checkpoint), backend)


def same(one, two):
    return all(np.array_equal(getattr(one, name), getattr(two, name)) for name in ARRAYS)


@pytest.mark.parametrize("duplicate", [False, True])
def test_thread_count_does_not_change_the_results(duplicate):
    runs = [
        run_deals(
            cards=[2, 7], deals_per_size=900, seed=4, duplicate=duplicate, chunk_size=100, backend=Threads(n)
        ).total
        for n in (1, 2)
    ]
    assert same(*runs)


def test_games_on_two_threads_match_one():
    one, two = (
        play_games(Games(rules=RULES, lineup=SEATS, games=600, seed=8, chunk_size=64), backend=Threads(n))
        for n in (1, 2)
    )
    assert game_summary(one.total.game_tally).equals(game_summary(two.total.game_tally)) and same(
        one.total.hand_tally, two.total.hand_tally
    )


def test_dask_local_cluster_matches_the_local_backend():
    """Worker processes build a strategy named by a file path again from its spec."""
    seats = lineup("expected", f"{Path(__file__).parent / 'sample_strategy.py'}:Noisy:salt=1", "aces-trumps", "zero")
    local = simulate(Deals(rules=RULES, lineup=seats, cards=[3, 10], deals_per_size=600, seed=6, chunk_size=100)).total
    cluster = simulate(
        Deals(rules=RULES, lineup=seats, cards=[3, 10], deals_per_size=600, seed=6, chunk_size=100),
        backend=Dask(workers=2),
    ).total
    assert same(local, cluster)


def test_dask_missing_says_how_to_install_it_before_any_work(monkeypatch):
    """Refused as the options are read, not after the first compile (issue 34: after 24 s).

    pocha bench --dask 2 (the walk of issue 46) ran every workload first, minutes, then said it.
    """
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    for made in (
        Dask,
        lambda: RunOptions(backend="dask"),
        lambda: RunOptions(backend="dask", scheduler="tcp://x:1"),
        lambda: bench(1000, 1, "1", 2),
    ):
        with pytest.raises(PochaError, match=r"python3 -m pip install 'dask\[distributed\]'"):
            made()


def test_backend_choice_is_checked():
    with pytest.raises(PochaError, match="unknown 'spark'"):
        make_backend("spark", None, 2, None)
    with pytest.raises(PochaError, match="threads: must be at least 1"):
        Threads(0)


def test_a_checkpoint_resumes_to_the_same_numbers(tmp_path):
    path = tmp_path / "run.npz"
    full = run_deals(cards=[4], deals_per_size=1000, chunk_size=100).total

    def stop_after_three(count, calls=[]):  # noqa: B006 - a counter shared by the calls of one run
        calls.append(count)
        if len(calls) == 3:
            raise KeyboardInterrupt

    first = run_deals(
        cards=[4], deals_per_size=1000, chunk_size=100, progress=stop_after_three, checkpoint=Checkpoint(path)
    )
    assert not first.complete and first.total.boards.tolist() == [300]
    resumed = run_deals(cards=[4], deals_per_size=1000, chunk_size=100, checkpoint=Checkpoint(path, resume=path))
    assert resumed.complete and same(resumed.total, full)


def test_a_checkpoint_from_other_options_or_damaged_is_refused(tmp_path):
    path = tmp_path / "run.npz"
    run_deals(cards=[4], deals_per_size=300, chunk_size=100, checkpoint=Checkpoint(path))
    with pytest.raises(PochaError, match="other options .*deals_per_size: 300 there, 400 here"):
        run_deals(cards=[4], deals_per_size=400, chunk_size=100, checkpoint=Checkpoint(None, resume=path))
    with pytest.raises(PochaError, match="seed: 0 there, 1 here"):
        run_deals(cards=[4], deals_per_size=300, seed=1, chunk_size=100, checkpoint=Checkpoint(None, resume=path))
    data = path.read_bytes()
    for damaged in (data[: len(data) // 2], data[:100] + b"\0" * 50 + data[150:], b"not a checkpoint"):
        bad = tmp_path / "bad.npz"
        bad.write_bytes(damaged)
        with pytest.raises(PochaError, match="not a whole pocha checkpoint"):
            run_deals(cards=[4], deals_per_size=300, chunk_size=100, checkpoint=Checkpoint(None, resume=bad))
    with pytest.raises(PochaError, match="no checkpoint file"):
        Checkpoint(None, resume=tmp_path / "missing.npz")


POCHA = [sys.executable, "-c", "from pocha.cli import main; main()"]
LONG_RUN = [
    "simulate",
    "-k",
    "10",
    "-n",
    "4000000",
    "-s",
    "random",
    "--play",
    "random",
    "--threads",
    "1",
    "--chunk-size",
    "20000",
    "--format",
    "csv",
]


def start(args, tmp_path):
    return subprocess.Popen(
        [*POCHA, *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for(path: Path, process) -> None:
    """Until the checkpoint exists (the run is under way); no time limit, the run itself is long enough."""
    while not path.exists():
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


def finished_tasks(path: Path) -> int:
    with np.load(path) as data:
        return len(data["done"]), json.loads(str(data["meta"]))["tasks"]


def test_resume_after_sigkill_gives_the_uninterrupted_results(tmp_path):
    checkpoint = tmp_path / "ck.npz"
    args = [*LONG_RUN, "--checkpoint", str(checkpoint), "--checkpoint-every", "0.2"]
    process = start(args, tmp_path)
    wait_for(checkpoint, process)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    done, tasks = finished_tasks(checkpoint)
    assert 0 < done < tasks  # killed mid-run, after a checkpoint
    resumed = subprocess.run([*POCHA, *args, "--resume", str(checkpoint)], capture_output=True, text=True, cwd=tmp_path)
    uninterrupted = subprocess.run([*POCHA, *LONG_RUN], capture_output=True, text=True, cwd=tmp_path)
    assert resumed.returncode == 0 and uninterrupted.returncode == 0, resumed.stderr
    assert resumed.stdout == uninterrupted.stdout


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_saves_and_prints_the_resume_command(stop, tmp_path):
    checkpoint = tmp_path / "ck.npz"
    process = start([*LONG_RUN, "--checkpoint", str(checkpoint), "--checkpoint-every", "0.2"], tmp_path)
    wait_for(checkpoint, process)
    process.send_signal(stop)
    out, err = process.communicate()
    assert process.returncode == 130, err
    assert f"--resume {checkpoint}" in err and "Traceback" not in err
    assert finished_tasks(checkpoint)[0] > 0 and "strategy,play,cards" in out  # the partial table was printed


def test_cli_refuses_a_damaged_checkpoint(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 truncated")
    result = subprocess.run([*POCHA, "simulate", "-n", "10", "--resume", str(bad)], capture_output=True, text=True)
    assert result.returncode == 1 and result.stderr.startswith("Error: resume:") and "not used" in result.stderr
    assert bad.read_bytes() == b"PK\x03\x04 truncated"  # left as it was


def test_a_resume_keeps_the_chunks_of_the_run_it_continues(tmp_path):
    """Chunk sizes adapt to the workers; a resumed run takes the saved run's, whatever its own thread count."""
    path = tmp_path / "run.npz"
    full = run_deals(cards=[5], deals_per_size=3000).total

    def stop_after_two(count, calls=[]):  # noqa: B006 - a counter shared by the calls of one run
        calls.append(count)
        if len(calls) == 2:
            raise KeyboardInterrupt

    first = run_deals(
        cards=[5], deals_per_size=3000, backend=Threads(2), progress=stop_after_two, checkpoint=Checkpoint(path)
    )
    assert not first.complete and 0 < first.total.boards[0] < 3000
    resumed = run_deals(cards=[5], deals_per_size=3000, backend=Threads(1), checkpoint=Checkpoint(path, resume=path))
    assert same(resumed.total, full)


def test_chunks_shrink_so_every_worker_has_work():
    from pocha.engine.backends import MIN_CHUNK, auto_chunk

    assert auto_chunk(1000, Threads(2)) == 125
    assert auto_chunk(1000, Threads(2), sizes=4) == 500
    assert auto_chunk(10, Threads(8)) == MIN_CHUNK


def test_chunks_are_equal_and_shared_evenly_among_workers():
    from pocha.engine.backends import DEFAULT_CHUNK, auto_chunk

    for deals in (1_000_000, 10_000_000, 65_537):
        for workers in (1, 2, 3):
            chunk = auto_chunk(deals, Threads(workers))
            tasks = -(-deals // chunk)
            assert chunk <= DEFAULT_CHUNK
            assert tasks % workers == 0
            assert deals - (tasks - 1) * chunk > chunk - tasks  # the last task is as long as the others, near enough


def test_a_task_of_whole_games_holds_a_few_seconds_of_deals_not_minutes():
    """Issue 46's walk: Ctrl-C on `pocha game -g 1000000` waited 2 min for tasks of 16,129 games (355,000 deals)."""
    from pocha.engine.variants import Study
    from pocha.options import STUDY, parse_study

    most = 1 << 16  # deals: a few seconds of learned play on a busy thread
    games = Games(rules=RULES, lineup=SEATS, games=1_000_000).cut(Threads(2))
    assert games.chunk * len(RULES.hand_sizes()) <= most and games.task_count % 2 == 0
    variants = tuple(parse_study(STUDY, 4))
    study = Study(variants=variants, lineup=SEATS, strong=SEATS.seats[0], weak=SEATS.seats[1], games=10_000)
    hands = sum(len(variant.rules.hand_sizes()) for variant in variants)
    assert study.cut(Threads(2)).chunk * 3 * hands <= most
    assert Games(rules=RULES, lineup=SEATS, games=1_000).cut(Threads(2)).chunk == 125  # small runs: as before


FAULTS_PER_CHUNK = """
import resource, sys
import pocha.engine.runner
from conftest import lineup
from pocha.engine.backends import Threads
from pocha.engine.simulate import Deals, simulate
from pocha.game.presets import make_rules
from pocha.options import RunOptions
if sys.argv[1] == "off":
    pocha.engine.runner.keep_freed_memory = lambda: False
def run(threads, chunks=20):
    seats = lineup(*["random"] * 4)
    rules, backend = make_rules(players=4), Threads(threads)
    deals = chunks * 16384
    simulate(Deals(rules=rules, lineup=seats, cards=[10], deals_per_size=deals, chunk_size=16384), backend=backend)
run(2, chunks=6)  # glibc's malloc trims the main thread's heap after every chunk once worker threads have run
run(1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
run(1)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 20)
"""


@pytest.mark.measurement
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="page-fault counts are read the Linux way")
def test_page_faults_per_chunk_with_and_without_keeping_freed_memory(measured):
    """A measurement of this machine, reported at the end of the run, not a pass/fail gate (the box is shared)."""
    from pocha.engine.memory import keep_freed_memory

    if not keep_freed_memory():
        pytest.skip("this C library's malloc has no mallopt")
    tests = Path(__file__).parent
    for knob in ("on", "off"):
        run = subprocess.run(
            [sys.executable, "-c", FAULTS_PER_CHUNK, knob], capture_output=True, text=True, cwd=tests, check=True
        )
        measured(f"minor page faults per chunk, freed memory kept {knob}", float(run.stdout))


def test_keeping_freed_memory_sets_glibcs_thresholds():
    from pocha.engine.memory import keep_freed_memory

    if ctypes.util.find_library("c") is None or not hasattr(ctypes.CDLL(ctypes.util.find_library("c")), "mallopt"):
        pytest.skip("this C library's malloc has no mallopt")
    assert keep_freed_memory() is True
