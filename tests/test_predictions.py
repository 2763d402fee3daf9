"""Predictions anyone can check: what montecarlo, expected and table expect of their bids, beside the outcome."""

import json

import numpy as np
import pandas as pd
import pytest
from sample_strategy import InSample
from test_strategies import context
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.engine.predictions import PREDICTION_COLUMNS
from pocha.errors import PochaError
from pocha.reports.predictions import calibration, prediction_bias
from pocha.reports.runs import load_run
from pocha.strategies.base import StrategyError
from pocha.strategies.heuristics import Expected, FairShare, expected_tricks
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.playouts import expected_points
from pocha.strategies.table import TableStrategy, features

HANDS = ["1O 3O 12O 1C 2E", "4O 5C 6C 7E 2B", "1O 1C 1E 1B 3B", "2O 4C 5E 6E 7B"]
LINEUP = ["montecarlo:samples=8", "table", "expected", "random"]  # random draws from the run's streams


def invoke(command: str):
    return CliRunner().invoke(app, command.split())


def test_each_strategy_predicts_what_it_bids_on():
    ctx = context(HANDS, "7O", earlier=[1, 0])
    for strategy in (MonteCarlo(samples=16), TableStrategy(), Expected(bias=0.5)):
        bids = strategy.bid(ctx)
        prediction = strategy.predict(ctx, bids)
        assert np.array_equal(strategy.bid(ctx), bids)  # asking changes nothing
        assert prediction.tricks is not None and np.all((prediction.tricks >= 0) & (prediction.tricks <= 5))
    assert np.array_equal(
        Expected(bias=0.5).predict(ctx, bids).tricks, expected_tricks(ctx)
    )  # the bias moves bids only
    assert Expected().predict(ctx, bids).points is None
    table = TableStrategy()
    bids = table.bid(ctx)
    points, found = table.trick_table(ctx).expected_points(ctx.rules, ctx.cards)
    cells = table.trick_table(ctx).cell_index(features(ctx))
    assert found[cells].all() and np.allclose(table.predict(ctx, bids).points, points[cells, bids])


def test_montecarlo_predicts_from_play_outs_of_its_own():
    strategy, ctx = MonteCarlo(samples=16), context(HANDS, "7O")
    bids = strategy.bid(ctx)
    chosen = expected_points(strategy.trick_counts(ctx), ctx.rules, ctx.cards)[np.arange(len(HANDS)), bids]
    predicted = strategy.predict(ctx, bids).points
    assert predicted is not None and not np.allclose(predicted, chosen)
    assert np.array_equal(predicted, strategy.predict(context(HANDS, "7O"), bids).points)  # reproducible


def run(**options):
    return pocha.simulate(LINEUP, cards=[1, 4], deals=150, seed=3, **options)


def test_recording_predictions_changes_no_result(tmp_path):
    plain = run(trace=tmp_path / "plain.jsonl")
    recorded = run(trace=tmp_path / "recorded.jsonl", predictions=True)
    for name in ("results", "errors"):
        assert recorded.tables[name].equals(plain.tables[name])
    lines = [json.loads(line) for line in (tmp_path / "recorded.jsonl").read_text().splitlines()]
    for line in lines[1:]:
        assert line.pop("predicted_tricks")[3] is None and line.pop("predicted_points")[2:] == [None, None]
    assert lines == [json.loads(line) for line in (tmp_path / "plain.jsonl").read_text().splitlines()]
    rows = recorded.tables["predictions"]
    assert tuple(rows.columns) == PREDICTION_COLUMNS and len(rows) == 3 * 2 * 150  # random predicts nothing
    for row in rows.sample(40, random_state=0).itertuples():
        line = lines[1 + row.deal]
        assert (line["cards"], line["bids"][row.seat], line["won"][row.seat]) == (row.cards, row.bid, row.won)
        assert line["points"][row.seat] == row.points and line["deal"] == row.deal
        assert (row.seat - line["dealer"] - 1) % 4 + 1 == row.position


def test_recorded_predictions_do_not_depend_on_chunks_or_threads():
    base = run(predictions=True).tables["predictions"]
    for options in ({"chunk_size": 7}, {"chunk_size": 40, "threads": 2}):
        assert run(predictions=True, **options).tables["predictions"].equals(base)


def bias(strategy, quantity="points"):
    """The bias of ``strategy``'s recorded predictions when every prediction it makes is of the right model.

    The other seats bid fair-share whatever their cards, which is what montecarlo assumes of them
    here: their bids say nothing of their hands, so its play-outs deal the worlds as they come; and
    every seat plays greedy, as its play-outs do.
    """
    seats = [strategy] + ["fair-share"] * 3
    result = pocha.simulate(seats, cards=5, deals=1500, seed=11, predictions=True, play="greedy")
    found = prediction_bias(result.tables["predictions"]).set_index("quantity").loc[quantity]
    return found.bias, found.ci_low, found.ci_high, result.tables["results"]


def test_montecarlo_predictions_are_free_of_the_winners_curse():
    """The chosen bid's estimate from the play-outs that chose it is biased upwards; fresh ones are not."""
    fresh, low, high, results = bias(MonteCarlo(samples=4, assume=FairShare()))
    cursed, cursed_low, _, same = bias(InSample(samples=4, assume=FairShare()))
    assert same.drop(columns="strategy").equals(results.drop(columns="strategy"))  # the same bids on the same deals
    assert low < 0 < high  # no bias detected
    assert cursed_low > 0 and cursed > fresh + 1.0  # the same test flags the in-sample estimate


def test_a_prediction_must_have_one_value_per_deal():
    seats = ["tests/sample_strategy.py:Foretelling"] + ["zero"] * 3
    rows = pocha.simulate(seats, cards=2, deals=20, predictions=True).tables["predictions"]
    assert len(rows) == 20 and rows.predicted_points.isna().all() and (rows.predicted_tricks == 0).all()
    with pytest.raises(StrategyError, match=r"Foretelling:length=3' at position \d .* predicted tricks of shape"):
        pocha.simulate(["tests/sample_strategy.py:Foretelling:length=3"] + ["zero"] * 3, cards=2, predictions=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"strategies": ["random", "zero", "fair-share", "aces-trumps"]}, "no strategy of the line-up predicts"),
        ({"resume": "saved.ckpt"}, "a resumed run cannot record the deals it skips"),
    ],
)
def test_predictions_refused_where_they_would_say_nothing(options, message):
    with pytest.raises(PochaError, match=message):
        pocha.simulate(options.pop("strategies", "expected"), deals=10, predictions=True, **options)


def test_predictions_are_written_read_back_and_drawn(tmp_path):
    folder = tmp_path / "run"
    seats = "-s montecarlo:samples=8 -s expected -s expected -s expected"
    result = invoke(f"simulate {seats} -k 3,6 -n 300 --predictions --out {folder}")
    assert result.exit_code == 0, result.output
    assert "Predictions (all hand sizes; bias: mean predicted - realised" in result.stdout
    listed = json.loads((folder / "run.json").read_text())["files"]
    assert listed["predictions.csv"] == 2 * 300 * 4
    _, tables = load_run(folder)
    written = pd.read_csv(folder / "predictions.csv")
    assert tuple(written.columns) == PREDICTION_COLUMNS and len(tables["predictions"]) == len(written)
    shown = prediction_bias(written)
    assert list(shown.quantity) == ["tricks", "points", "tricks"] and (shown.ci_low < shown.ci_high).all()
    bins = calibration(written)
    assert bins.groupby(["strategy", "quantity"], sort=False).hands.sum().tolist() == [600, 600, 1800]
    assert invoke(f"report {folder}").exit_code == 0
    assert (folder / "calibration.png").read_bytes().startswith(b"\x89PNG")
    page = (folder / "report.html").read_text()
    assert "<h2>Predictions</h2>" in page and 'alt="calibration"' in page and "predictions.csv" in page


def test_runs_without_predictions_draw_no_calibration(tmp_path):
    assert invoke(f"simulate -s expected -k 2 -n 50 --out {tmp_path / 'run'} --plot").exit_code == 0
    assert not (tmp_path / "run" / "calibration.png").exists()


def test_the_predictions_intervals_follow_the_run_s_confidence():
    """Issue 45: the bias's interval is at the run's level, and its caption says so (it was 95% at every level)."""
    shown = invoke("simulate -s expected -k 2 -n 200 --predictions --confidence 0.9")
    assert shown.exit_code == 0, shown.output
    assert "±90%: its half-width" in shown.stdout and "bias ±90%" in " ".join(shown.stdout.split())
    rows = pocha.simulate("expected", cards=2, deals=200, predictions=True).tables["predictions"]
    at_95, at_90 = prediction_bias(rows), prediction_bias(rows, 0.9)
    assert (at_90.ci_high - at_90.bias < at_95.ci_high - at_95.bias).all()
    assert (calibration(rows, 0.9).ci_high < calibration(rows).ci_high).all()
