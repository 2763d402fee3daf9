"""``pocha models``: the bids a table makes, and how well each model of a bidder predicts them (log score)."""

import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from conftest import lineup
from test_cli import invoke

import pocha
from pocha.engine.backends import Threads
from pocha.engine.models import BidRows, ModelBids, record_bids
from pocha.engine.seating import Entrant
from pocha.game.presets import make_rules
from pocha.reports.models import MOST_FITTED_SHARPNESS, Cells, fit, log_scores, model_table


def rows_of(*rows: tuple[int, int, int, int, int, list[int]]) -> BidRows:
    """BidRows from (cards, deal, position, bid, forbidden, model bids) tuples."""
    columns = list(zip(*rows, strict=True))
    return BidRows(*(np.array(column, np.int64) for column in columns))


def slow_log_score(bid: int, model: int, cards: int, forbidden: int, sharpness: float) -> float:
    """log P(bid) when the legal bid b weighs exp(-sharpness |b - model|), written out."""
    weights = {b: math.exp(-sharpness * abs(b - model)) for b in range(cards + 1) if b != forbidden}
    return math.log(weights[bid] / sum(weights.values()))


ROWS = [  # (cards, deal, position, bid, forbidden, model bids): two deals of 3 players
    (1, 0, 0, 0, -1, [0, 1]),
    (1, 0, 1, 1, -1, [0, 1]),
    (1, 0, 2, 1, 0, [1, 1]),  # a one-card dealer under the hook rule `always`: 0 forbidden
    (3, 0, 0, 2, -1, [1, 3]),
    (3, 0, 1, 0, -1, [0, 2]),
    (3, 0, 2, 3, 1, [2, 0]),  # the dealer may not bid 1
]
HAND_BUILT = rows_of(*ROWS)


@pytest.mark.parametrize("sharpness", [0.0, 0.7, 2.5])
@pytest.mark.parametrize("model", [0, 1])
def test_the_log_score_is_the_written_out_likelihood(model, sharpness):
    expected = [
        slow_log_score(bid, bids[model], cards, forbidden, sharpness) for cards, _, _, bid, forbidden, bids in ROWS
    ]
    assert log_scores(HAND_BUILT, model, sharpness) == pytest.approx(expected, rel=1e-12)


def test_a_fit_is_the_best_sharpness_and_each_deals_mean():
    rows = HAND_BUILT.take(np.arange(3, 6))  # one deal of 3 players
    found = fit(rows, 0, 3)
    best = np.mean(log_scores(rows, 0, found.sharpness))
    assert found.per_deal == pytest.approx([best])
    for other in (0.0, found.sharpness * 0.9, found.sharpness * 1.1, MOST_FITTED_SHARPNESS):
        assert np.mean(log_scores(rows, 0, other)) <= best + 1e-12


def test_the_cells_are_the_rows_distinct_values_in_order():
    """The cells pack each row's values into one number (fast); they are what ``np.unique`` of the rows gives."""
    rows = synthetic_rows(deals=300, players=4, cards=5, sharpness=1.5).joined(HAND_BUILT)
    for model in (0, 1):
        columns = np.column_stack([rows.cards, rows.model_bids[:, model], rows.forbidden, rows.bid])
        values, of_row, counts = np.unique(columns, axis=0, return_inverse=True, return_counts=True)
        cells = Cells.of(rows, model)
        assert cells.values.tolist() == values.tolist() and cells.counts.tolist() == counts.tolist()
        assert cells.of_row.tolist() == of_row.ravel().tolist()
        assert [cards for cards, _ in cells.by_size] == [1, 3, 5]


def synthetic_rows(deals: int, players: int, cards: int, sharpness: float) -> BidRows:
    """Bids drawn from model 0's probabilistic form at ``sharpness``; model 1 is model 0 one bid higher."""
    generator = np.random.default_rng(5)
    size = deals * players
    model = generator.integers(0, cards + 1, size)
    position = np.tile(np.arange(players), deals)
    forbidden = np.where(position == players - 1, generator.integers(0, cards + 1, size), -1)
    model = np.where(model == forbidden, (model + 1) % (cards + 1), model)
    weights = np.exp(-sharpness * np.abs(np.arange(cards + 1)[None, :] - model[:, None]))
    weights[np.arange(cards + 1)[None, :] == forbidden[:, None]] = 0
    chances = weights / weights.sum(axis=1, keepdims=True)
    bid = (generator.random(size)[:, None] > chances.cumsum(axis=1)).sum(axis=1)
    return BidRows(
        cards=np.full(size, cards),
        numbers=np.repeat(np.arange(deals), players),
        position=position,
        bid=bid,
        forbidden=forbidden,
        model_bids=np.column_stack([model, np.minimum(model + 1, cards)]),
    )


def test_the_model_that_drew_the_bids_scores_best_at_about_its_sharpness():
    rows = synthetic_rows(deals=5_000, players=4, cards=5, sharpness=1.5)
    scores = model_table(rows, ["truth", "off"], {"truth": ["truth"], "off": ["off"]}, 4).set_index("model")
    truth, off = scores.loc["truth"], scores.loc["off"]
    assert truth.sharpness == pytest.approx(1.5, abs=0.1)
    assert truth.diff_to_best == 0 and off.diff_ci_high < 0
    assert truth.ci_low < truth.log_score < truth.ci_high


def test_a_family_scores_as_its_best_member():
    rows = synthetic_rows(deals=2_000, players=4, cards=5, sharpness=1.5)
    family = model_table(rows, ["truth", "off"], {"both": ["off", "truth"]}, 4)
    assert list(family.spec) == ["truth"] and family.diff_to_best.tolist() == [0.0]


def test_the_rows_are_the_table_s_bids_and_each_model_s_in_the_same_place():
    plan = dict(rules=make_rules(players=3), cards=[2, 5], deals_per_size=150, seed=4)
    models = (Entrant.of("expected"), Entrant.of("zero"))
    table = lineup(*["expected"] * 3)
    recorded = [
        record_bids(ModelBids(lineup=table, models=models, chunk_size=size, **plan), backend=backend)
        for size, backend in ((None, Threads(1)), (16, Threads(2)))
    ]
    rows = recorded[0].total
    assert len(rows) == 2 * 150 * 3 and recorded[0].complete
    for column in ("cards", "numbers", "position", "bid", "forbidden", "model_bids"):
        assert np.array_equal(getattr(rows, column), getattr(recorded[1].total, column))  # chunks and threads apart
    assert np.array_equal(rows.model_bids[:, 0], rows.bid)  # expected bidding as expected bids
    assert set(rows.model_bids[:, 1]) <= {0, 1} and (rows.model_bids[:, 1] != rows.forbidden).all()
    dealer = rows.position == 2
    earlier = rows.bid.reshape(-1, 3)[:, :2].sum(axis=1)
    assert np.array_equal(
        rows.forbidden[dealer], np.where(earlier <= rows.cards[dealer], rows.cards[dealer] - earlier, -1)
    )
    assert (rows.forbidden[~dealer] == -1).all()


def test_a_models_run_is_recorded_as_every_run_is(tmp_path):
    """Issue 45: ``pocha models`` is a kind, its record made of its plan's fields (it held ``sizes`` and ``deals``).

    It writes no run folder: ``pocha report`` refuses a run.json of one in a line.
    """
    result = pocha.score_models(
        "expected", models={"fitted": ["expected:bias=0.5", "expected"]}, cards=2, deals=40, players=3, threads=1
    )
    assert result.complete and result.record.command == "models" and result.record.played == 40
    assert result.record.section.families == ("fitted", "fitted") and result.record.section.cards == (2,)
    assert result.scores[["model", "spec", "cards"]].values.tolist() == [["fitted", "expected", "2"]]
    assert pocha.reports.kinds.record_from(json.loads(json.dumps(result.record.to_dict()))) == result.record
    (tmp_path / "run.json").write_text(json.dumps(result.record.to_dict() | {"files": {"scores.csv": 1}}))
    report = invoke(f"report {tmp_path}")
    assert report.exit_code == 1 and report.stderr.count("\n") == 1
    assert f"report: '{tmp_path}' holds a models run, which writes no run folder to report on" in report.stderr


@pytest.mark.slow
def test_the_default_models_score_a_montecarlo_table():
    result = pocha.score_models(cards=[1, 2], deals=64, players=3, threads=1)
    assert result.complete and set(result.scores.cards) == {"1", "2", "all"}
    assert list(result.scores.model.unique()) == list(pocha.api.DEFAULT_MODELS)
    fitted = result.scores[result.scores.model == "expected, bias fitted"]
    assert all(spec.startswith("expected:bias=") for spec in fitted.spec)
    assert (result.scores.diff_to_best <= 0).all() and (result.scores.groupby("cards").diff_to_best.max() == 0).all()


def test_the_command_prints_the_scores_and_a_model_that_is_the_table_is_certain():
    result = invoke("models -p 3 -k 1,3 -n 60 -s expected -m expected -m fair-share --threads 1")
    assert result.exit_code == 0, result.output
    assert "How well each model predicts the bids made" in result.stdout and "By hand size" in result.stdout
    csv = invoke("models -p 3 -k 3 -n 60 -s expected -m expected -m fair-share --format csv")
    scores = pd.read_csv(io.StringIO(csv.stdout)).set_index("model")
    assert scores.loc["expected", "log_score"] == pytest.approx(0, abs=1e-6)
    assert scores.loc["expected", "sharpness"] == pytest.approx(MOST_FITTED_SHARPNESS, abs=1e-3)
    assert scores.loc["fair-share", "diff_ci_high"] < 0
    data = json.loads(invoke("models -p 3 -k 3 -n 60 -s expected -m expected -m fair-share --format json").stdout)
    run = data["run"]
    assert run["rules"]["players"] == 3 and run["cards"] == [3] and run["complete"] and run["command"] == "models"
    assert run["models"] == run["families"] == ["expected", "fair-share"] and run["played"] == 60
    assert [row["cards"] for row in data["scores"]] == [3, 3] and data["scores"][0]["model"] == "expected"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("-m nonsense", "strategy: unknown name 'nonsense'"),
        ("-m expected@pimc", "model: 'expected@pimc' names a card play"),
        ("-m expected:bias=0 -m expected:bias=0.0", "model: expected:bias=0.0 given more than once"),
        ("-n 0", "deals: must be from 1 to"),
        ("-k 11", "cards"),
        ("-s expected -s zero", "strategy: 2 given for 4 players"),
        ("--format xml", "format: unknown 'xml'"),
    ],
)
def test_the_command_refuses_bad_input_with_one_line(args, message):
    result = invoke(f"models -k 1 -n 10 {args}")
    assert result.exit_code == 1 and message in result.stderr, result.output
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.usefixtures("unprobed")
def test_ctrl_c_prints_the_deals_finished():
    stopper = "sample_strategy:Interrupting:after=6"
    result = invoke(f"models -s {stopper} -s zero -s zero -s zero -m zero -k 3 -n 1000 --chunk-size 100 --threads 1")
    assert result.exit_code == 130, result.output
    assert "stopped: 100 of 1,000 deals played; the results cover those only\n" in result.stdout
    assert result.stderr == "Interrupted: the results above cover the finished deals only.\n"


@pytest.mark.usefixtures("unprobed")
def test_a_stopped_run_names_the_hand_sizes_it_did_not_play_in_every_format():
    """Issue 46: a stopped run said "all hand sizes" of sizes it never played, and its CSV did not say it stopped."""
    stopper = "sample_strategy:Interrupting:after=9"  # stops in the third chunk: one of each of sizes 1 and 2
    run = f"models -s {stopper} -s zero -s zero -s zero -m zero -k 1-3 -n 1000 --chunk-size 100 --threads 1"
    note = "stopped: 200 of 3,000 deals played; the results cover those only (none at 3 cards; the other hand sizes"
    shown = invoke(run)
    assert shown.exit_code == 130 and f"{note} played 100 deals)\n" in shown.stdout, shown.output
    assert (
        "all hand sizes" not in shown.stdout
        and "(hand sizes 1, 2, the deals finished before the stop; 3 not" in shown.stdout
    )
    assert re.search(r"\n +1 +2 +3\nzero .* not played\n", shown.stdout)
    csv = invoke(f"{run} --format csv")
    assert csv.exit_code == 130 and csv.stdout.startswith(f"# {note}")
    assert set(pd.read_csv(io.StringIO(csv.stdout), comment="#").cards) == {"1", "2", "all"}
