"""The figures say what their captions say: a called difference is never drawn near grey, and a
small pair's crossover is not flattened by another pair's scale."""

import numpy as np
import pytest

import pocha
from pocha.reports.plots import pair_matrix, pairs_by_size

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


def test_each_pair_by_hand_size_has_its_own_scale_with_zero_in_sight(compared):
    run, tables = compared
    pairs = tables["pairs"][tables["pairs"].cards != "all"]
    panels = [axes for axes in pairs_by_size(run, tables).axes if axes.get_visible()]
    spans = []
    for axes, (_, pair) in zip(panels, pairs.groupby(["strategy_a", "strategy_b"], sort=False), strict=True):
        bottom, top = axes.get_ylim()
        low, high = min(0.0, pair.ci_low.min()), max(0.0, pair.ci_high.max())
        assert bottom <= low and high <= top and top - bottom < 1.3 * (high - low)
        spans.append(top - bottom)
    assert max(spans) > 2 * min(spans)  # scales that differ: one axis for all would have flattened the small
