"""A long run says how long before it starts; a quick one says nothing; neither changes a result."""

from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from pocha.cli import app
from pocha.engine import estimate
from pocha.engine.estimate import SHARE, probe


class FakeClock:
    """A clock that moves only when told to: what a batch costs is written, not measured."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Work:
    """A workload whose deals cost ``cost`` seconds each and whose tasks ``overhead`` each, on the fake clock."""

    clock: FakeClock
    deals: int  # of each of ``sizes`` hand sizes
    sizes: int = 10
    cost: float = 0.001
    overhead: float = 0.01

    @property
    def planned(self) -> int:
        return self.deals * self.sizes

    @property
    def task_count(self) -> int:
        return self.sizes

    def sample(self, amount: int) -> "Work":
        return replace(self, deals=min(amount, self.deals))

    def run(self, index: int) -> None:
        self.clock.now += self.overhead + self.cost * self.deals


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(estimate, "clock", fake)
    monkeypatch.setattr(estimate, "cpu_clock", fake)  # the probe has a whole core
    monkeypatch.setattr(estimate, "load", lambda: (1.0, 1.0, 1.0))  # and the machine to itself
    return fake


def test_a_slow_run_is_timed_per_deal_past_what_each_task_costs(clock):
    work = Work(clock, deals=100_000)
    timed = probe(work, work.planned, workers=1)
    assert timed is not None and timed.workers == 1
    assert timed.rate == pytest.approx(1 / work.cost)  # what the last doubling added: the tasks' cost left out
    assert timed.seconds == pytest.approx(work.planned * work.cost)
    assert clock.now < 2  # the probe: a second of a 1,000-second run


def test_the_workers_share_the_work_but_never_more_than_the_cores(clock, monkeypatch):
    monkeypatch.setattr(estimate, "default_threads", lambda: 2)
    work = Work(clock, deals=100_000)
    timed = probe(work, work.planned, workers=8)
    assert timed is not None and timed.workers == 2
    assert timed.seconds == pytest.approx(work.planned * work.cost / 2)


def test_on_a_busy_machine_the_workers_together_go_as_fast_as_the_probe(clock, monkeypatch):
    """Issue 46: at load 9 a run of 2 threads got 0.67 of a core in all, its probe 0.68; the estimate was half."""
    monkeypatch.setattr(estimate, "default_threads", lambda: 2)
    monkeypatch.setattr(estimate, "cpu_clock", lambda: clock.now * 0.68)
    work = Work(clock, deals=100_000)
    timed = probe(work, work.planned, workers=2)
    assert timed is not None and timed.busy and timed.workers == 2
    assert timed.seconds == pytest.approx(work.planned * work.cost)  # as on one thread
    monkeypatch.setattr(estimate, "cpu_clock", clock)
    monkeypatch.setattr(estimate, "load", lambda: (9.0, 9.0, 9.0))  # a whole core for the probe, none to spare
    assert probe(work, work.planned, workers=2).busy


def test_a_quick_run_is_left_after_its_first_batch(clock):
    work = Work(clock, deals=1_000, cost=1e-6, overhead=1e-4)
    assert probe(work, work.planned, workers=1) is None
    assert clock.now == pytest.approx(work.sizes * (1e-4 + 1e-6))  # one deal of each size


def test_a_run_as_small_as_a_probe_is_not_probed(clock):
    work = Work(clock, deals=SHARE - 1, cost=100.0)
    assert probe(work, work.planned, workers=1) is None and clock.now == 0


def test_a_probe_never_plays_more_than_a_share_of_the_run(clock):
    """A run a little over the smallest probe: batches of 1, 2, 4 deals a size, then the cap; the last one's rate."""
    work = Work(clock, deals=4 * SHARE, cost=1.0, overhead=10.0)
    timed = probe(work, work.planned, workers=1)
    assert timed is not None and timed.seconds == pytest.approx(work.planned / (40 / 140))  # 40 deals in 140 s
    assert clock.now == pytest.approx(110 + 120 + 140)


@dataclass(frozen=True)
class Compiling(Work):
    """A Work whose first batch of ``compile_at`` deals a size first compiles kernels for ``wait`` seconds, counted."""

    compiled: SimpleNamespace = field(default_factory=lambda: SimpleNamespace(started=0))
    compile_at: int = 4
    wait: float = 1000.0

    def run(self, index: int) -> None:
        if self.deals == self.compile_at and not self.compiled.started:
            self.clock.now += self.wait
            self.compiled.started += 1
        super().run(index)


def test_a_batch_that_compiled_is_played_again_before_it_is_timed(clock, monkeypatch):
    """Issue 46's walk: `compare expected random -n 200 -k 2`, on a cache that lacked a kernel a later batch of the
    probe needed, said "about 3 min (~1 deals/s)" for 200 deals. The batch is timed again, compiled."""
    work = Compiling(clock, deals=4 * SHARE, cost=1.0, overhead=10.0)
    monkeypatch.setattr(estimate, "compiles", lambda: nullcontext(work.compiled), raising=False)
    timed = probe(work, work.planned, workers=1)
    assert timed is not None and timed.seconds == pytest.approx(work.planned / (40 / 140))  # as without the compile
    assert work.compiled.started == 1 and clock.now == pytest.approx(110 + 120 + (1000 + 140) + 140)


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def test_a_long_run_says_so_before_it_starts_and_plays_the_same(monkeypatch):
    """Each batch of the probe lasts 10 s by the clock: a run of 4,000 deals, really quick, is announced as long.

    The probe goes on to its cap (1/16 of the run: batches up to 64 deals of each size, 128 in 10 s),
    so the run would take 4,000 / 12.8 = 312 s; 100 deals a size would take 16 s. It plays the same.
    """
    quick = invoke("simulate", "-k", "2-3", "-n", "2000", "--threads", "1")
    assert quick.exit_code == 0 and "will take" not in quick.stderr

    ticks = iter(range(0, 10**6, 10))
    monkeypatch.setattr(estimate, "clock", lambda: float(next(ticks)))
    slow = invoke("simulate", "-k", "2-3", "-n", "2000", "--threads", "1")
    assert slow.exit_code == 0 and slow.stdout == quick.stdout
    assert slow.stderr.splitlines()[-1] == (
        "this run will take about 5 min on 1 thread (~13 deals/s, the rate of its first deals; slower if the "
        "machine gets busier); --deals 100 takes about 16 s"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("game", "-g", "2000"),
            "5 min on 1 thread (~6 games/s, the rate of its first games; slower if the machine gets busier); "
            "--games 100 takes about 16 s",
        ),
        (("variants", "ludoteka", "polish", "-g", "640", "--strong", "expected"), "3 min on 1 thread (~6 games/s"),
        (("variants", "ludoteka", "polish", "-g", "640", "--strong", "expected"), "--games 50 takes about 16 s"),
        (("compare", "expected", "zero", "-k", "2", "-n", "2000"), "5 min on 1 thread (~6 deals/s"),
        (("models", "-k", "2", "-n", "2000", "-m", "expected"), "--deals 100 takes about 16 s"),
        (("train", "-n", "2000", "--out", "{folder}/t.npz"), "5 min on 1 thread (~64 deals/s"),
    ],
)
def test_every_long_command_says_how_to_shorten_it(args, said, monkeypatch, tmp_path):
    ticks = iter(range(0, 10**6, 10))
    monkeypatch.setattr(estimate, "clock", lambda: float(next(ticks)))
    result = invoke(*(arg.format(folder=tmp_path) for arg in args), "--threads", "1")
    assert result.exit_code == 0, result.output
    assert said in result.stderr


def test_a_long_run_is_cut_into_tasks_of_a_second_by_its_probe_s_pace(monkeypatch):
    """Issue 46: a stopped montecarlo run waited 3 to 7 s for the 10,000-deal tasks in flight.

    A task chosen by the run takes TASK_SECONDS at the probe's pace (400 deals a second, one
    worker: 400 deals); a chunk size asked for is kept; a quick run (no estimate) keeps its own.
    """
    from conftest import LUDOTEKA, lineup

    from pocha.engine.backends import TASK_SECONDS, Threads
    from pocha.engine.runner import Outputs, run
    from pocha.engine.simulate import Deals
    from pocha.engine.workload import Estimate

    plan = Deals(rules=LUDOTEKA, lineup=lineup(*["zero"] * 4), cards=(2,), deals_per_size=8_000)

    def tasks(plan: Deals, timed: Estimate | None) -> set[int]:
        monkeypatch.setattr("pocha.engine.runner.probe", lambda *args: timed)
        counts: list[int] = []
        run(plan, Threads(1), Outputs(progress=counts.append, estimate=lambda _: None))
        assert sum(counts) == plan.planned
        return set(counts)

    long = Estimate(seconds=20.0, rate=400.0, workers=1)
    assert tasks(plan, long) == {int(400 * TASK_SECONDS)}
    assert tasks(replace(plan, chunk_size=4_000), long) == {4_000}
    assert tasks(plan, None) == {2_000}  # auto_chunk's: 4 tasks for one worker


def test_a_dask_scheduler_is_not_timed_here():
    """A cluster's speed is not this machine's: no estimate is asked for."""
    from pocha._execution import telling_cost
    from pocha.engine.workload import Amount
    from pocha.options import RunOptions

    dask = RunOptions(backend="dask", scheduler="tcp://127.0.0.1:8786")
    assert telling_cost(dask, Amount("--deals", 10, 100), print) is None
    assert telling_cost(RunOptions(), Amount("--deals", 10, 100), print) is not None
    assert telling_cost(RunOptions(), Amount("--deals", 10, 100), None) is None  # no one to tell: nothing probed
