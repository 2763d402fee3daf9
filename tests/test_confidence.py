"""Intervals at a level other than 95%: every figure and word follows it, the default stays as it was."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.engine.confidence import Z95, check_confidence, normal_quantile
from pocha.errors import PochaError


def half_widths(result: "pocha.SimulationResult") -> np.ndarray:
    """The half-widths of the points and pairs intervals (the exact-bid rate's are clipped to 0..1)."""
    results, pairs = result.to_frame(), result.pairs()
    return np.concatenate([results.ci_high - results.mean_points, pairs.ci_high - pairs.mean_diff])


def test_a_99_percent_interval_is_wider_by_the_ratio_of_the_quantiles(tmp_path):
    at_95 = pocha.compare(["expected", "zero"], cards=3, deals=400)
    at_99 = pocha.compare(["expected", "zero"], cards=3, deals=400, confidence=0.99, out=tmp_path / "run")
    assert (half_widths(at_95) > 0).all()
    np.testing.assert_allclose(half_widths(at_99), half_widths(at_95) * normal_quantile(0.99) / Z95, rtol=1e-12)
    assert normal_quantile(0.99) == pytest.approx(2.5758293035489)
    assert at_99.to_frame().mean_points.equals(at_95.to_frame().mean_points)
    assert json.loads((tmp_path / "run" / "run.json").read_text())["confidence"] == 0.99
    assert "confidence" not in at_95.record.to_dict()  # the default's run.json is as it was


def test_the_text_and_the_report_say_the_level(tmp_path):
    runner = CliRunner()
    shown = runner.invoke(app, ["compare", "expected", "zero", "-k", "2", "-n", "100", "--confidence", "0.99"])
    assert shown.exit_code == 0, shown.output
    assert "±99%" in shown.stdout and "its 99% confidence interval" in shown.stdout and "95%" not in shown.stdout
    folder = tmp_path / "run"
    written = runner.invoke(app, ["game", "-g", "20", "--confidence", "0.9", "--out", str(folder)])
    assert written.exit_code == 0, written.output
    assert runner.invoke(app, ["report", str(folder)]).exit_code == 0
    page = (folder / "report.html").read_text()
    assert "Won (90% CI)" in page and "a 90% confidence interval" in page and "95%" not in page


REFUSED = "is not a level strictly between 0 and 1, such as 0.95"


@pytest.mark.parametrize(
    ("level", "said"),
    [
        (95, f"confidence: 95 {REFUSED}; for 95% give 0.95"),
        (99.9, f"confidence: 99.9 {REFUSED}; for 99.9% give 0.999"),
        (1.5, f"confidence: 1.5 {REFUSED}"),  # a slip, not plainly a percentage: it was told "for 1.5% give 0.015"
        (1.0, f"confidence: 1 {REFUSED}"),
        (0, f"confidence: 0 {REFUSED}"),
        (-1, f"confidence: -1 {REFUSED}"),
    ],
)
def test_a_level_outside_0_to_1_is_refused_in_one_line(level, said):
    with pytest.raises(PochaError) as refused:
        pocha.simulate(cards=2, deals=10, confidence=level)
    assert str(refused.value) == said
    shown = CliRunner().invoke(app, ["simulate", "-k", "2", "-n", "10", "--confidence", str(level)])
    assert shown.exit_code != 0 and said in shown.output and "Traceback" not in shown.output


def test_a_level_strictly_between_0_and_1_is_accepted():
    check_confidence(0.9)
    shown = CliRunner().invoke(app, ["simulate", "-k", "2", "-n", "10", "--confidence", "0.9"])
    assert shown.exit_code == 0 and "±90%" in shown.stdout, shown.output


def test_a_command_with_95_percent_intervals_only_refuses_another_level():
    with pytest.raises(PochaError, match="confidence: variants reports 95% intervals only"):
        pocha.variants(games=10, confidence=0.9)
