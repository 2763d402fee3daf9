import io
import json
import math

import numpy as np
import pytest

from reports.stats import Z95, Tally, mean_and_error, summary
from simulator.engine import Seat, simulate
from simulator.rules import make_rules
from strategies.registry import load


def test_mean_and_error_by_hand():
    values = [10, -5, 25, 10, -15]
    mean, error = mean_and_error(len(values), sum(values), sum(v * v for v in values))
    expected_mean = 5.0
    variance = sum((v - expected_mean) ** 2 for v in values) / 4
    assert mean == pytest.approx(expected_mean)
    assert error == pytest.approx(math.sqrt(variance / 5))
    assert np.isnan(mean_and_error(1, 10, 100)[1])


def test_summary_matches_the_traced_deals():
    """Every figure of the summary, recomputed by hand from the trace of the same run."""
    rules = make_rules(players=3)
    seats = [Seat(*load(s)) for s in ("expected", "random", "expected")]
    stream = io.StringIO()
    tally = simulate(rules, seats, [5], 200, seed=3, policy="random", chunk_size=33, trace_stream=stream)
    deals = [json.loads(line) for line in stream.getvalue().splitlines()[1:]]
    frame = summary(tally).set_index(["strategy", "cards", "position"])

    for label, seat_list in (("expected", [0, 2]), ("random", [1])):
        for position in range(3):
            hands = [(d, s) for d in deals for s in seat_list if (s - d["dealer"] - 1) % 3 == position]
            points = [d["points"][s] for d, s in hands]
            row = frame.loc[(label, "5", str(position + 1))]
            mean = np.mean(points)
            assert row.hands == len(hands)
            assert row.mean_points == pytest.approx(mean)
            assert row.se_points == pytest.approx(np.std(points, ddof=1) / np.sqrt(len(points)))
            assert row.exact_rate == pytest.approx(np.mean([d["bids"][s] == d["won"][s] for d, s in hands]))
            assert row.mean_bid == pytest.approx(np.mean([d["bids"][s] for d, s in hands]))
            assert row.mean_won == pytest.approx(np.mean([d["won"][s] for d, s in hands]))
            assert row.ci_high - row.mean_points == pytest.approx(Z95 * row.se_points)
        # all positions: the CI comes from each deal's total over the strategy's seats
        totals = [sum(d["points"][s] for s in seat_list) for d in deals]
        row = frame.loc[(label, "5", "all")]
        assert row.deals == 200 and row.hands == 200 * len(seat_list)
        assert row.mean_points == pytest.approx(np.mean(totals) / len(seat_list))
        assert row.se_points == pytest.approx(np.std(totals, ddof=1) / np.sqrt(200) / len(seat_list))


def test_tallies_merge_exactly():
    rules = make_rules(players=4)
    seats = [Seat(*load("random"))] * 4
    whole = simulate(rules, seats, [3], 100, seed=1)
    first, second = (Tally.empty(whole.labels, whole.sizes) for _ in range(2))
    from simulator.engine import collect_bids, deal_chunk, play_chunk

    for tally, start in ((first, 0), (second, 60)):
        chunk = deal_chunk(rules, 1, 3, start, 60 if start == 0 else 40)
        collect_bids(rules, seats, 1, chunk)
        won, points, _, _ = play_chunk(rules, 1, "greedy", chunk)
        tally.add(0, start, chunk.bids, won, points)
    merged = second.merge(first)
    assert np.array_equal(merged.seat_stats, whole.seat_stats)
    assert np.array_equal(merged.group_stats, whole.group_stats)


def test_confidence_intervals_cover_the_truth():
    """Over 200 small runs, about 95% of the 95% CIs of the first bidder's mean contain the true mean.

    With one card, 'zero' scores 10 unless it takes the trick (-5). The true mean comes from a run of
    400,000 deals (its own error, ~0.01, is small next to the small runs' half-width of ~0.7, 100
    hands each). Tolerance: the count of covering intervals lies within 4 binomial standard
    deviations (+-12) of 190.
    """
    rules = make_rules(players=4)
    seats = [Seat(*load("zero"))] * 4
    first_bidder = "position == '1'"
    truth = summary(simulate(rules, seats, [1], 400_000, seed=12345)).query(first_bidder).mean_points.iloc[0]
    covered = 0
    for seed in range(200):
        row = summary(simulate(rules, seats, [1], 400, seed=seed)).query(first_bidder).iloc[0]
        covered += row.ci_low <= truth <= row.ci_high
    assert abs(covered - 190) <= 12
