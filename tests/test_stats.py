"""The statistics against computations by hand (no numpy statistics, no scipy) and coverage checks."""

import io
import json
import math
import statistics

import numpy as np
import pandas as pd
import pytest
from conftest import lineup, numbers

from pocha.engine.chunk import collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.confidence import Z95
from pocha.engine.policies import GREEDY, parse_policy
from pocha.engine.runner import Outputs
from pocha.engine.simulate import Comparison, Deals, simulate
from pocha.engine.tally import Tally
from pocha.game.presets import make_rules
from pocha.reports.stats import (
    holm,
    holm_levels,
    pair_differences,
    ratio_and_error,
    stratified,
    summary,
    verdict,
    wilson,
    with_holm,
)


def by_hand_ratio(totals: list[float], hands: list[float]) -> tuple[float, float]:
    """Ratio estimator written out: r = sum T / sum H; se = sqrt(B / (B - 1) * sum (T - r H)^2) / sum H."""
    r = sum(totals) / sum(hands)
    boards = len(totals)
    residual = sum((t - r * h) ** 2 for t, h in zip(totals, hands, strict=True))
    return r, math.sqrt(boards / (boards - 1) * residual) / sum(hands)


def sums(totals, hands):
    return (
        len(totals),
        sum(totals),
        sum(t * t for t in totals),
        sum(hands),
        sum(h * h for h in hands),
        sum(t * h for t, h in zip(totals, hands, strict=True)),
    )


def test_ratio_estimator_by_hand():
    totals, hands = [10, -5, 25, 0, 15, -10], [1, 1, 2, 0, 1, 1]
    assert ratio_and_error(*sums(totals, hands)) == pytest.approx(by_hand_ratio(totals, hands))
    # with one hand on every board it is the mean and the standard error of the mean
    values = [10, -5, 25, 10, -15]
    mean, error = ratio_and_error(*sums(values, [1] * 5))
    assert mean == pytest.approx(statistics.mean(values))
    assert error == pytest.approx(statistics.stdev(values) / math.sqrt(5))
    assert np.isnan(ratio_and_error(*sums([10], [1]))[1])


def test_stratified_by_hand():
    mean, error = stratified(np.array([1.0, 3.0]), np.array([2.0, 4.0]), np.array([0.4, 0.2]))
    assert mean == pytest.approx(0.25 * 2 + 0.75 * 4)
    assert error == pytest.approx(math.sqrt(0.25**2 * 0.16 + 0.75**2 * 0.04))


def traced_run(seats, sizes, deals, **options):
    rules = make_rules(players=len(seats.seats))
    stream = io.StringIO()
    result = simulate(
        Deals(
            rules=rules,
            lineup=seats,
            cards=sizes,
            deals_per_size=deals,
            seed=3,
            policy=parse_policy("random"),
            chunk_size=33,
            **options,
        ),
        Outputs(trace=stream),
    )
    return result.total, [json.loads(line) for line in stream.getvalue().splitlines()[1:]]


def test_summary_matches_the_traced_deals():
    """Every figure of the summary, recomputed by hand from the trace of the same run."""
    seats = lineup("expected", "random", "expected")
    tally, deals = traced_run(seats, [5], 200)
    frame = summary(tally).set_index(["strategy", "cards", "position"])
    for label, mine in (("expected", [0, 2]), ("random", [1])):
        for position in [0, 1, 2, "all"]:

            def at(deal, seat, mine=mine, position=position):
                return seat in mine and (position == "all" or (seat - deal["dealer"] - 1) % 3 == position)

            totals = [sum(d["points"][s] for s in range(3) if at(d, s)) for d in deals]
            hands = [sum(1 for s in range(3) if at(d, s)) for d in deals]
            row = frame.loc[(label, "5", "all" if position == "all" else str(position + 1))]
            mean, error = by_hand_ratio(totals, hands)
            assert (row.deals, row.hands) == (200, sum(hands))
            assert row.mean_points == pytest.approx(mean) and row.se_points == pytest.approx(error)
            assert row.ci_high - row.mean_points == pytest.approx(Z95 * error)
            played = [(d, s) for d in deals for s in range(3) if at(d, s)]
            assert row.exact_rate == pytest.approx(statistics.mean(d["bids"][s] == d["won"][s] for d, s in played))
            assert row.mean_bid == pytest.approx(statistics.mean(d["bids"][s] for d, s in played))
            assert row.mean_won == pytest.approx(statistics.mean(d["won"][s] for d, s in played))
            assert row.mean_abs_error == pytest.approx(
                statistics.mean(abs(d["won"][s] - d["bids"][s]) for d, s in played)
            )


def test_exact_rates_have_wilsons_interval_over_the_hands_their_error_is_worth():
    """Issue 46: at a small -n a cell bid exactly every time read 100% (100%-100%), a normal interval clipped to 1.

    Wilson's, as the game table's win rates, over rate (1 - rate) / se^2 hands (the board-level error's
    worth), or the hands where the error tells nothing: inside 0..1, never empty.
    """
    seats = lineup("expected", "random", "expected")
    tally, deals = traced_run(seats, [1], 6)
    frame = summary(tally).set_index(["strategy", "cards", "position"])
    ends = 0
    for label, mine in (("expected", [0, 2]), ("random", [1])):
        for position in [0, 1, 2, "all"]:

            def at(deal, seat, mine=mine, position=position):
                return seat in mine and (position == "all" or (seat - deal["dealer"] - 1) % 3 == position)

            exact = [sum(d["bids"][s] == d["won"][s] for s in range(3) if at(d, s)) for d in deals]
            hands = [sum(1 for s in range(3) if at(d, s)) for d in deals]
            rate, error = by_hand_ratio(exact, hands)
            worth = rate * (1 - rate) / error**2 if error > 0 else sum(hands)
            row = frame.loc[(label, "1", "all" if position == "all" else str(position + 1))]
            assert (row.exact_ci_low, row.exact_ci_high) == pytest.approx(wilson(rate, worth))
            assert row.exact_ci_low <= rate <= row.exact_ci_high and row.exact_ci_low < row.exact_ci_high
            ends += rate in (0.0, 1.0)
    assert ends  # a cell the normal interval left empty


def test_pairs_and_all_sizes_match_the_traced_deals():
    seats = lineup("expected", "random", "expected")
    tally, deals = traced_run(seats, [2, 6], 150)
    pairs = pair_differences(tally).set_index("cards").iloc
    per_size = {}
    for cards in (2, 6):
        diffs = [
            statistics.mean([d["points"][0], d["points"][2]]) - d["points"][1] for d in deals if d["cards"] == cards
        ]
        per_size[cards] = (statistics.mean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs)))
        row = pair_differences(tally).query(f"cards == '{cards}'").iloc[0]
        assert (row.strategy_a, row.strategy_b) == ("expected", "random")
        assert row.mean_diff == pytest.approx(per_size[cards][0]) and row.se_diff == pytest.approx(per_size[cards][1])
    row = pairs[2]
    assert row.name == "all"
    assert row.mean_diff == pytest.approx((per_size[2][0] + per_size[6][0]) / 2)
    assert row.se_diff == pytest.approx(math.sqrt(per_size[2][1] ** 2 + per_size[6][1] ** 2) / 2)


def test_verdicts():
    row = {"strategy_a": "a", "strategy_b": "b", "mean_diff": 1.32, "holm_ci_low": 1.24, "holm_ci_high": 1.40}
    assert verdict(type("Row", (), row | {"p_holm": 1e-5})) == (
        "a ahead of b by 1.32 ± 0.08 points per hand (adjusted p < 0.001)"
    )
    row.update(mean_diff=-0.5, holm_ci_low=-0.7, holm_ci_high=-0.3, p_holm=0.0123)
    assert verdict(type("Row", (), row)) == "b ahead of a by 0.50 ± 0.20 points per hand (adjusted p = 0.012)"
    row.update(mean_diff=0.05, holm_ci_low=-0.1, holm_ci_high=0.2, p_holm=0.6)
    assert verdict(type("Row", (), row)) == "a vs b: no difference detected (+0.05 ± 0.15, adjusted p = 0.600)"
    alone = verdict(type("Row", (), row), adjusted=False)  # one pair: its p-value is its own
    assert alone == "a vs b: no difference detected (+0.05 ± 0.15, p = 0.600)"


def test_holm_on_a_textbook_example():
    """Holm's own reading of p = 0.01, 0.04, 0.03, 0.005 (Wikipedia, Holm-Bonferroni method, example).

    Sorted, the levels are 0.05/4, 0.05/3, 0.05/2, 0.05: 0.005 and 0.01 are rejected, 0.03 is not
    (above 0.025), and testing stops there, so 0.04 is not either.
    """
    p = np.array([0.01, 0.04, 0.03, 0.005])
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_levels(p) == pytest.approx([0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4])
    assert list(holm(p) < 0.05) == [True, False, False, True]
    # R's p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm"); a NaN (too few deals) stays out of the family
    assert holm(np.array([0.01, 0.02, np.nan, 0.03, 0.04, 0.05])) == pytest.approx(
        [0.05, 0.08, np.nan, 0.09, 0.09, 0.09], nan_ok=True
    )
    assert holm(np.array([0.5])) == pytest.approx([0.5]) and holm_levels(np.array([0.5])) == pytest.approx([0.05])


def test_holm_interval_leaves_out_zero_exactly_when_a_verdict_is_called():
    rng = np.random.default_rng(3)
    for _ in range(200):
        diff, se = rng.normal(0, 1, 6) * rng.uniform(0, 4, 6), rng.uniform(0.5, 1.5, 6)
        pairs = with_holm(
            pd.DataFrame(
                {"strategy_a": "a", "strategy_b": "b", "cards": "all", "deals": 10, "mean_diff": diff, "se_diff": se}
                | {"ci_low": diff - Z95 * se, "ci_high": diff + Z95 * se}
            )
        )
        called = (pairs.holm_ci_low > 0) | (pairs.holm_ci_high < 0)
        assert list(called) == list(pairs.p_holm < 0.05)
        assert (pairs.holm_ci_high - pairs.holm_ci_low >= pairs.ci_high - pairs.ci_low - 1e-12).all()


def test_holm_keeps_false_verdicts_at_5_percent_where_raw_intervals_do_not():
    """The null case of a compare of 4 equal strategies: 6 paired z statistics, correlated as pairs of 4 means are.

    Of 4,000 simulated runs, the share with any verdict is at most 5% (plus 3 binomial standard
    deviations, 1.0%) after Holm; unadjusted, it is far above (about 20%).
    """
    rng = np.random.default_rng(25)
    means = rng.normal(size=(4000, 4))
    a, b = np.triu_indices(4, 1)
    z = (means[:, a] - means[:, b]) / np.sqrt(2)
    p = np.array([[math.erfc(abs(value) / math.sqrt(2)) for value in run] for run in z])
    adjusted = np.array([holm(run) for run in p])
    assert (adjusted < 0.05).any(axis=1).mean() <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 4000)
    assert (p < 0.05).any(axis=1).mean() > 0.15


def test_compares_of_equal_strategies_call_few_adjusted_verdicts():
    """Four labels of one noisy strategy in plain seating (6 pairs, no true difference), 200 seeds.

    The share of runs with any adjusted verdict is at most 5% (7 of 200 with these seeds); with the
    raw 95% intervals about a quarter of the runs call one.
    """
    rules = make_rules(players=4)
    equals = lineup(*(f"sample_strategy:Noisy:salt={salt}" for salt in range(4)))
    adjusted = raw = 0
    for seed in range(200):
        tally = simulate(Deals(rules=rules, lineup=equals, cards=[2, 3], deals_per_size=100, seed=seed)).total
        overall = pair_differences(tally).query("cards == 'all'")
        adjusted += bool(((overall.holm_ci_low > 0) | (overall.holm_ci_high < 0)).any())
        raw += bool(((overall.ci_low > 0) | (overall.ci_high < 0)).any())
    assert adjusted <= 0.05 * 200
    assert raw > 0.15 * 200


def test_a_strategy_against_itself_under_another_label_gets_no_verdict():
    """expected and expected:bias=0 bid alike: in duplicate every deal's difference is 0, p = 1, no verdict."""
    seats = lineup("expected", "expected:bias=0", "expected", "expected:bias=0")
    tally = simulate(
        Comparison(rules=make_rules(players=4), lineup=seats, cards=[2, 5], deals_per_size=200, seed=4, duplicate=True)
    ).total
    pairs = pair_differences(tally)
    assert (pairs.mean_diff == 0).all() and (pairs.p_value == 1).all()
    overall = pairs[pairs.cards == "all"].iloc[0]
    assert overall.p_holm == 1 and "no difference detected" in verdict(overall)


def test_tallies_merge_exactly():
    rules = make_rules(players=4)
    seats = lineup(*["random"] * 4)
    whole = simulate(Deals(rules=rules, lineup=seats, cards=[3], deals_per_size=100, seed=1)).total
    parts = []
    for start, count in ((0, 60), (60, 40)):
        part = Tally.empty(whole.strategies, 4, whole.sizes)
        chunk = deal_chunk(rules, 1, 3, numbers(start, count))
        seating = np.zeros((count, 4), np.int64)
        players = seats.competitors(GREEDY)
        collect_bids(rules, players, seating, 1, chunk)
        won, points, _, _ = play_chunk(rules, 1, chunk, seat_policies(players, seating))
        part.add_boards(0, chunk.numbers, [(seating, chunk.bids, won, points)])
        parts.append(part)
    merged = parts[1].merge(parts[0])
    for name in ("boards", "moments", "cross", "hand_fields", "errors"):
        assert np.array_equal(getattr(merged, name), getattr(whole, name))


def coverage(estimate, truth: float, runs: int = 200) -> int:
    return sum(low <= truth <= high for low, high in (estimate(seed) for seed in range(runs)))


def test_position_intervals_cover_the_truth():
    """About 95% of the 95% CIs of the first bidder's mean contain the true mean.

    With one card, 'zero' scores 10 unless it takes the trick (-5). The truth comes from 400,000
    deals (its error, ~0.01, is small next to the small runs' half-width of ~0.7, 100 hands each).
    Tolerance: of 200 intervals, the covering count lies within 4 binomial standard deviations (+-12) of 190.
    """
    rules = make_rules(players=4)
    seats = lineup(*["zero"] * 4)
    first = "position == '1'"
    truth = (
        summary(simulate(Deals(rules=rules, lineup=seats, cards=[1], deals_per_size=400_000, seed=12345)).total)
        .query(first)
        .mean_points.iloc[0]
    )

    def interval(seed):
        row = (
            summary(simulate(Deals(rules=rules, lineup=seats, cards=[1], deals_per_size=400, seed=seed)).total)
            .query(first)
            .iloc[0]
        )
        return row.ci_low, row.ci_high

    assert abs(coverage(interval, truth) - 190) <= 12


@pytest.mark.parametrize("duplicate", [False, True])
def test_pair_intervals_cover_zero_between_equals(duplicate):
    """Two labels of one noisy strategy (same law, different draws): the true difference is 0 by symmetry.

    About 95% of 200 paired intervals must hold 0 (tolerance +-12, 4 binomial standard deviations).
    """
    rules = make_rules(players=4)
    a, b = "sample_strategy:Noisy:salt=1", "sample_strategy:Noisy:salt=2"
    twins = lineup(a, b, a, b)

    def interval(seed):
        row = pair_differences(
            simulate(
                Comparison(rules=rules, lineup=twins, cards=[3], deals_per_size=300, seed=seed, duplicate=duplicate)
            ).total
        ).iloc[0]
        return row.ci_low, row.ci_high

    assert abs(coverage(interval, 0.0) - 190) <= 12
