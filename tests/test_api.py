"""The Python API: the same runs as the command line, as result objects with pandas tables."""

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.reports.text import run_heading
from pocha.strategies.heuristics import Expected


def cli_csv(command: str) -> pd.DataFrame:
    result = CliRunner().invoke(app, [*shlex.split(command), "--format", "csv"])
    assert result.exit_code == 0, result.output
    return pd.read_csv(io.StringIO(result.stdout), dtype={"cards": str, "position": str})


def test_importing_pocha_is_light():
    code = "import sys, pocha; print(pocha.__version__, 'numba' in sys.modules, 'pandas' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert shown == [pocha.__version__, "False", "False"]


def test_every_name_of_the_api_is_what_it_says_once_every_module_is_loaded():
    import types

    import pocha.cli  # noqa: F401 - loads every submodule, which the import system sets as attributes of pocha

    for name in pocha.__all__:
        assert not isinstance(getattr(pocha, name), types.ModuleType), f"pocha.{name} is shadowed by a submodule"


def test_simulate_gives_the_frame_the_command_line_prints():
    result = pocha.simulate(["expected", "zero", "random", "aces-trumps"], cards=[2, 5], deals=400, seed=3)
    assert result.complete and result.record.command == "simulate" and result.record.section.cards == (2, 5)
    frame = result.to_frame()
    expected = cli_csv("simulate -s expected -s zero -s random -s aces-trumps -k 2 -n 400 --seed 3")
    assert list(frame.columns) == list(expected.columns)
    cli = cli_csv("simulate -s expected -s zero -s random -s aces-trumps -k 5 -n 400 --seed 3")
    for size, table in (("2", expected), ("5", cli)):
        mine = frame[frame.cards == size].reset_index(drop=True).drop(columns="cards")
        pd.testing.assert_frame_equal(mine, table.drop(columns="cards"), check_dtype=False)


def test_compare_pairs_and_the_record():
    result = pocha.compare(["expected", "zero"], cards=3, deals=300)
    pairs = result.pairs()
    assert list(pairs.columns) == [
        "strategy_a",
        "strategy_b",
        "cards",
        "deals",
        "mean_diff",
        "se_diff",
        "ci_low",
        "ci_high",
        "p_value",
        "p_holm",
        "holm_ci_low",
        "holm_ci_high",
    ]
    one = pairs.iloc[0]  # one pair: Holm's interval is the 95% one
    assert one.p_holm == one.p_value and one.holm_ci_low == pytest.approx(one.ci_low)
    printed = cli_csv("compare expected zero -k 3 -n 300").set_index(["strategy", "position"])
    difference = printed.mean_points["expected", "all"] - printed.mean_points["zero", "all"]
    assert pairs.mean_diff.iloc[0] == pytest.approx(difference)
    record = result.record.to_dict()
    assert record["duplicate"] is True and record["strategies"] == ["expected", "zero", "expected", "zero"]
    assert pocha.reports.kinds.record_from(json.loads(json.dumps(record))) == result.record


def test_each_recorded_command_s_kind_builds_the_result_pocha_results_names():
    """Issue 45: the kind builds the result the API returns (``Kind.result``), not the API function."""
    from pocha import results
    from pocha.engine.games import GameTotals
    from pocha.reports.kinds import KINDS

    run, total, tables, files = object(), object(), {"main": pd.DataFrame()}, (Path("main.csv"),)
    hands, games = object(), object()
    expected = {  # each command's result type, and what it holds of the total
        "simulate": (results.SimulationResult, {"tally": total}),
        "compare": (results.SimulationResult, {"tally": total}),
        "game": (results.GamesResult, {"hand_tally": hands, "game_tally": games}),
        "variants": (results.VariantsResult, {"tally": total}),
        "models": (results.ModelsResult, {"rows": total}),
    }
    assert set(KINDS) == set(expected)
    for command, (kind, held) in expected.items():
        result = KINDS[command].result(run, GameTotals(hands, games) if command == "game" else total, tables, files)
        assert type(result) is kind, command
        assert vars(result) == {"record": run, **held, "tables": tables, "files": files}, command


def test_rules_as_an_object_or_a_preset_name():
    rules = make_rules("italian", 5)
    by_object = pocha.simulate("expected", rules=rules, cards=3, deals=200)
    by_name = pocha.simulate("expected", rules="italian", players=5, cards=3, deals=200)
    pd.testing.assert_frame_equal(by_object.to_frame(), by_name.to_frame())
    assert by_object.record.preset is None and by_name.record.preset == "italian"
    with pytest.raises(PochaError, match="a Rules object holds every option; set players"):
        pocha.simulate("expected", rules=rules, players=4)


def test_strategy_objects_sit_beside_specs():
    result = pocha.simulate([Expected(bias=0.5), "zero", "zero", "zero"], cards=4, deals=200)
    assert result.record.strategies == ("expected", "zero", "zero", "zero")


def test_whole_games(tmp_path):
    result = pocha.play_games(games=60, seed=2, out=tmp_path / "games")
    frame = result.to_frame()
    assert frame.games.tolist() == [60] * 4 and frame.win_rate.sum() == pytest.approx(1.0)
    assert sorted(path.name for path in result.files) == ["errors.csv", "games.csv", "results.csv", "run.json"]
    written = json.loads((tmp_path / "games" / "run.json").read_text())
    assert written["command"] == "game"
    assert written["command_line"] == f"pocha.play_games(games=60, seed=2, out={tmp_path / 'games'!r})"
    report, figures = pocha.report(tmp_path / "games")
    assert report.is_file() and len(figures) >= 4


def test_a_full_deal_without_trump_is_in_the_record_the_heading_and_the_report(tmp_path):
    result = pocha.simulate("expected", cards=10, deals=200, full_deal_trump="none", out=tmp_path / "run")
    assert json.loads((tmp_path / "run" / "run.json").read_text())["rules"]["full_deal_trump"] == "none"
    assert "hook except-one-card, full deal without trump)" in run_heading(result.record)
    report, _ = pocha.report(tmp_path / "run")
    assert "no card is shown and no suit is trump" in report.read_text()


def test_n_plus_one_full_deals_are_in_the_record_the_heading_and_the_report(tmp_path):
    assert pocha.rules_info(full_deals="n+1", players=3).rules.hand_sizes().count(12) == 4
    result = pocha.play_games(games=30, players=3, full_deals="n+1", out=tmp_path / "games")
    assert result.record.section.hand_sizes.count(12) == 4
    assert json.loads((tmp_path / "games" / "run.json").read_text())["rules"]["full_deals"] == "n+1"
    assert "hook except-one-card, full deals n+1)" in run_heading(result.record)
    report, _ = pocha.report(tmp_path / "games")
    assert "n+1: the one the climb reaches, then one per player" in report.read_text()


@pytest.mark.slow
def test_advise_as_a_frame():
    advice = pocha.advise("1O 3O 12C 5E 2B", "7O", position=2, bids=[1, 0], samples=500, bid=3)
    frame = advice.to_frame()
    assert frame.bid.tolist() == list(range(6)) and advice.asked == 3
    assert frame.expected_points.idxmax() == advice.recommended
    with pytest.raises(PochaError, match="bid: 9 is not a bid with 5 cards"):
        pocha.advise("1O 3O 12C 5E 2B", "7O", bid=9)


def test_train_writes_a_table(tmp_path):
    trained = pocha.train(tmp_path / "t.npz", players=3, deals=300)
    assert trained.complete and trained.path.is_file() and trained.table.deals_per_size == 300


def test_progress_is_told_done_and_total():
    seen = []
    pocha.simulate("expected", cards=[1, 2], deals=300, chunk_size=100, progress=lambda *now: seen.append(now))
    assert seen[-1] == (600, 600) and [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_the_command_line_is_recorded(tmp_path):
    result = CliRunner().invoke(app, ["simulate", "-k", "2", "-n", "50", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "run" / "run.json").read_text())
    assert written["command_line"].startswith("pocha ") and written["deals_per_size"] == 50
