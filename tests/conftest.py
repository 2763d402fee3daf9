"""Shared helpers: positions are written in card notation, under the default 4-player rules."""

import os

import numpy as np
import pytest

from pocha.game.cards import mask_of
from pocha.game.presets import PRESETS, make_rules
from pocha.game.rules import Rules

LUDOTEKA = make_rules("ludoteka", 4)
EVERY_RULE_SET = list(  # every preset at every player count it has a deck for (2 to 10), both packs and full-deal rules
    dict.fromkeys(
        [
            make_rules(name, players, full_deal_trump=trump)
            for name, preset in PRESETS.items()
            for players in sorted(preset.decks)
            for trump in ("dealer-card", "none")
        ]
        + [make_rules("ludoteka", 4, deck="french"), make_rules("italian", 2, deck="french:32")]
    )
)


def rule_id(rules: Rules) -> str:
    """A test id for a rule set: ``4p-40s-dealer-card``."""
    order = "natural" if rules.ranks[1] != 3 else "ace-three"
    return f"{rules.players}p-{rules.deck_size}{rules.pack[0]}-{order}-{rules.play_rule}-{rules.full_deal_trump}"


def ids(text: str, rules: Rules = LUDOTEKA) -> list[int]:
    """Card ids of a notation list such as ``"1O 3C 12E"``."""
    return rules.notation.parse_list(text)


def mask(text: str, rules: Rules = LUDOTEKA) -> np.uint64:
    """Hand mask of a notation list."""
    return np.uint64(mask_of(ids(text, rules)))


def lineup(*specs: str):
    """A line-up from one spec per seat."""
    from pocha.engine.seating import Entrant, Lineup

    return Lineup(tuple(Entrant.of(spec) for spec in specs))


def numbers(first: int, count: int) -> np.ndarray:
    """Deal numbers first..first+count-1."""
    return np.arange(first, first + count, dtype=np.int64)


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory):
    """The tables and play models learned on first use go to a folder of this session's, not the user's cache.

    A model is learned from a tiny plan: the tests time the steps, not the model.

    Subprocesses keep the run's compiled kernels (``pytest_configure``; POCHA_CACHE_DIR would move them too).
    """
    from pocha.strategies.play_models import FIRST_USE

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("POCHA_CACHE_DIR", str(tmp_path_factory.mktemp("pocha-cache")))
        for key, value in (("teacher", "pimc:samples=2,solve=1"), ("deals", 2), ("rounds", 1)):
            patch.setitem(FIRST_USE, key, value)
        yield


@pytest.fixture(autouse=True)
def progress_unsaid(monkeypatch):
    """No progress lines by the clock in the commands a test runs in this process (tests/test_progress.py's aside).

    Off a terminal a run says its progress FIRST seconds into the command (``pocha.cli.progress``):
    on a busy machine a test's small run would then print a line that a quick one does not, and a
    test that reads stderr whole would depend on the machine's speed.
    """
    monkeypatch.setattr("pocha.cli.progress.FIRST", 86_400.0)  # a day: never in a test


@pytest.fixture
def unprobed(monkeypatch):
    """No estimate before the run: a run stopped at a strategy's n-th bid then stops in the run itself.

    The probe plays first deals until its timing settles, more of them the busier the machine, so a
    stop counted in bids could land in the probe, before any chunk, and leave nothing to show.
    """
    monkeypatch.setattr("pocha.engine.runner.probe", lambda *args: None)


@pytest.fixture(scope="session")
def small_table(tmp_path_factory):
    """A trick table learned from 300 deals a hand size, 4 players: many of its cells are thin."""
    from pocha.engine.training import Training, train_table

    path = tmp_path_factory.mktemp("tables") / "four.npz"
    table = train_table(Training(rules=make_rules(players=4), deals_per_size=300, seed=5))
    table.save(path)
    return table, path


@pytest.fixture
def rules() -> Rules:
    return LUDOTEKA


def play_hand_built(
    hands: list[str],
    trump_card: str | None,
    dealer: int,
    bids: list[int],
    rules: Rules = LUDOTEKA,
    policy: str = "greedy",
):
    """Play one deal from hands in notation through the kernels: ``(won, points, plays, leaders)`` of that deal.

    trump_card: None for a deal without trump.
    """
    from pocha.engine.chunk import Chunk, play_chunk, same_policy
    from pocha.engine.policies import parse_policy
    from pocha.kernels.codes import NO_TRUMP

    chunk = Chunk(
        cards=len(ids(hands[0], rules)),
        numbers=np.array([dealer], np.int64),  # deal i has dealer i % players
        hands=np.array([[mask(h, rules) for h in hands]], np.uint64),
        trump_card=np.array(ids(trump_card, rules) if trump_card else [NO_TRUMP], np.int64),
        bids=np.array([bids], np.int64),
    )
    won, points, plays, leaders = play_chunk(rules, 0, chunk, same_policy(parse_policy(policy), chunk), traced=True)
    return won[0].tolist(), points[0].tolist(), plays[0], leaders[0]


MEASUREMENTS: list[tuple[str, float]] = []


TIERS = {  # the markers of the tests left out of the fast tier (``pytest -m "not slow"``)
    "install": "builds a wheel and installs it into a fresh environment",
    "browser": "renders report.html in headless Chromium",
    "docs": "runs every command and Python block of the README and docs/",
    "fuzz": "feeds every command random option values and files",
    "scale": "threads, Dask, checkpoints and resuming",
    "c_reference": "builds and runs the C reference of pocha bench",
}


def pytest_configure(config):
    """The markers, and the run's one numba cache folder, one sub-folder per xdist worker.

    NUMBA_CACHE_DIR is the run's (else the user's cache folder for this source); each worker compiles
    into its own sub-folder, as numba's cache index is not safe against two processes saving two
    signatures of one kernel at once. Set before any kernel is decorated; subprocesses inherit it.
    """
    config.addinivalue_line("markers", "measurement: measures this machine, never a gate; runs only when -m names it")
    config.addinivalue_line("markers", "slow: out of the fast tier: the tiers below, and the heavy kernels' tests")
    for name, text in TIERS.items():
        config.addinivalue_line("markers", f"{name}: {text} (slow)")
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        from pocha.kernels.cache import kernel_cache_dir

        folder = kernel_cache_dir()
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(folder, worker) if worker else folder


MOST_WORKERS = 4  # each xdist worker compiles every kernel it uses, and held up to 0.9 GB here


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker a core this process may use, at most MOST_WORKERS."""
    return min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, MOST_WORKERS)


def pytest_collection_modifyitems(config, items):
    """Every test of a slow tier is ``slow``; measurement tests run only when ``-m`` names them."""
    for item in items:
        if any(item.get_closest_marker(name) for name in TIERS):
            item.add_marker(pytest.mark.slow)
    if "measurement" in config.option.markexpr:
        return
    kept = [item for item in items if not item.get_closest_marker("measurement")]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("measurement")])
        items[:] = kept


@pytest.fixture
def measured():
    """Record a figure a measurement test found; the run's summary lists them."""
    return lambda name, value: MEASUREMENTS.append((name, value))


def pytest_terminal_summary(terminalreporter):
    if MEASUREMENTS:
        terminalreporter.section("measurements (this machine, not pass/fail)")
        for name, value in MEASUREMENTS:
            terminalreporter.write_line(f"{name}: {value:,.1f}")
