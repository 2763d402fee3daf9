"""The figures say what their captions say: a called difference is never drawn near grey, the pairs by
hand size share one scale (sizes read alike across panels), and no variant's line hides under another's."""

import os
from pathlib import Path

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.testing.compare import compare_images

import pocha
from pocha.engine.variants import GAME_GROUPS
from pocha.reports.plots import (
    calibration_plot,
    dealer_gap_by_size,
    pair_matrix,
    pairs_by_size,
    render_figures,
    win_probability,
)
from pocha.reports.runs import load_run

GREY = 0.9  # the "no difference detected" cells' grey


@pytest.fixture(scope="module")
def compared():
    result = pocha.compare(["expected", "aces-trumps", "fair-share", "random"], cards=[1, 2, 3, 6], deals=300)
    return result.record, result.tables


def test_a_called_difference_is_never_drawn_near_grey(compared):
    """issue 34: -0.15 ± 0.02, called, drawn almost grey beside a difference of 11 points."""
    image = pair_matrix(*compared).axes[0].images[0]
    low, high = image.norm.vmin, image.norm.vmax
    for value in [*np.linspace(low, high, 101), -1e-3 * high, 1e-3 * high]:
        if value:
            shade = np.array(image.cmap(image.norm(value))[:3])
            assert np.abs(shade - GREY).max() > 0.2, (value, shade)


def test_the_pairs_by_hand_size_share_one_scale_with_zero_and_every_band_in_sight(compared):
    """Issue 46: each panel its own scale made a gap of 0.15 look as large as one of 11."""
    run, tables = compared
    pairs = tables["pairs"][tables["pairs"].cards != "all"]
    panels = [axes for axes in pairs_by_size(run, tables).axes if axes.get_visible()]
    assert len(panels) == 6 and len({axes.get_ylim() for axes in panels}) == 1
    bottom, top = panels[0].get_ylim()
    low, high = min(0.0, pairs.ci_low.min()), max(0.0, pairs.ci_high.max())
    assert bottom <= low and high <= top and top - bottom < 1.3 * (high - low)


def test_a_variant_equal_to_another_still_shows_its_line():
    """Issue 46: in dealer_gap_by_size a line with the same values as another lay under it, leaving no trace."""
    same = ["ludoteka:schedule=1-3", "ludoteka:schedule=1-3:tie-break=one"]  # alike but for the tie-breaks
    result = pocha.variants(same, players=3, games=GAME_GROUPS, strong="expected@greedy", weak="zero@greedy")
    lines = [
        line for line in dealer_gap_by_size(result.record, result.tables).axes[0].lines if line.get_label()[0] != "_"
    ]
    assert len(lines) == 2 and np.array_equal(lines[0].get_ydata(), lines[1].get_ydata())
    assert not np.array_equal(lines[0].get_xdata(), lines[1].get_xdata())


def test_the_dealer_gap_ticks_every_hand_size_as_the_other_figures_do():
    """The walk of issue 46: variants' dealer gap ticked 2, 4, ..., 10 where points_by_size ticks 1, 2, ..., 10."""
    result = pocha.variants(["ludoteka:schedule=1-6"], players=3, games=GAME_GROUPS, strong="expected", weak="zero")
    assert list(dealer_gap_by_size(result.record, result.tables).axes[0].get_xticks()) == [1, 2, 3, 4, 5, 6]


def inside_the_figure(figure) -> bool:
    """Whether every text of a figure (title, subtitle, labels) is drawn within its edges."""
    figure.canvas.draw()
    width = figure.bbox.width
    texts = [*figure.texts, *(text for axes in figure.axes for text in axes.texts)]
    return all(box.x0 >= 0 and box.x1 <= width for box in (text.get_window_extent() for text in texts))


def test_a_figure_of_one_panel_keeps_its_title_whole():
    """The walk of issue 46: two strategies' pairs_by_size (one panel), a tricks-only calibration: titles cut."""
    pair = pocha.compare(["expected", "aces-trumps"], cards=[1, 2, 3], deals=100)
    predicted = pocha.simulate(["expected"], cards=[1, 2, 3], deals=100, predictions=True)
    figure = pairs_by_size(pair.record, pair.tables)
    assert inside_the_figure(figure) and all(tick == int(tick) for tick in figure.axes[0].get_xticks())
    assert inside_the_figure(calibration_plot(predicted.record, predicted.tables))


def test_each_chance_of_winning_is_written_clear_of_its_error_bar_and_inside_the_frame():
    """The figure wrote each chance touching its interval's upper cap (the highest one touching the frame)."""
    result = pocha.play_games(games=200)
    figure = win_probability(result.record, result.tables)
    figure.canvas.draw()
    (axes,) = figure.axes
    (caps,) = [container.lines[1] for container in axes.containers if isinstance(container, ErrorbarContainer)]
    upper = max(caps, key=lambda line: line.get_ydata().sum())
    cap_tops = axes.transData.transform(np.column_stack([upper.get_xdata(), upper.get_ydata()]))[:, 1]
    cap_tops += upper.get_markeredgewidth() / 2 * figure.dpi / 72
    frame = axes.get_window_extent()
    labels = [text.get_window_extent() for text in axes.texts]
    gap = 2 * figure.dpi / 72  # at least 2 points of white
    assert len(labels) == len(cap_tops) == 4
    for box, cap_top in zip(labels, cap_tops, strict=True):
        assert box.y0 - cap_top >= gap and frame.y1 - box.y1 >= gap, (box, cap_top, frame)


EXAMPLES = Path(__file__).parents[1] / "reports" / "examples"  # the README's and docs/output.md's figures


@pytest.mark.parametrize("name", ["points_by_size", "pair_matrix", "pairs_by_size"])
def test_the_docs_figures_are_what_pocha_draws_of_their_run(name, tmp_path):
    """Issue 46: the README's pair matrix wrote ±0.02 and hand sizes 2, 4, ..., a fresh run ± 0.02 and 1, 2, ...

    reports/examples holds the tables and run.json of the run the pages name; its figures drawn now
    must match the pages' (RMS under 1 of 255: a text or a tick changed is 6 or 7). Drawn again with
    POCHA_WRITE_GOLDEN=1 after a change meant to show.
    """
    drawn = render_figures(*load_run(EXAMPLES))[name]
    shown = EXAMPLES / f"{name}.png"
    if os.environ.get("POCHA_WRITE_GOLDEN"):
        shown.write_bytes(drawn)
    (tmp_path / f"{name}.png").write_bytes(drawn)
    assert compare_images(str(shown), str(tmp_path / f"{name}.png"), tol=1.0) is None
