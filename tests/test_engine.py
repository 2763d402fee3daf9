import io
from dataclasses import fields

import numpy as np
import pytest
from conftest import lineup

from pocha.engine.lineups import compared_lineup
from pocha.engine.policies import parse_policy
from pocha.engine.runner import Outputs
from pocha.engine.simulate import Comparison, Deals, simulate
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.reports.kinds.compare import CompareRun
from pocha.reports.stats import pair_differences, summary
from pocha.strategies.base import StrategyError

RULES = make_rules(players=4)
LINEUP = lineup("expected", "aces-trumps", "random", "zero")
ARRAYS = ("boards", "moments", "cross", "hand_fields", "errors")


def run(chunk_size=1 << 14, trace_deals=None, seats=LINEUP, sizes=(1, 4, 10), deals=301, duplicate=False, **options):
    stream = None if duplicate else io.StringIO()
    result = simulate(
        Comparison(
            rules=RULES,
            lineup=seats,
            cards=list(sizes),
            deals_per_size=deals,
            seed=7,
            policy=parse_policy("random"),
            duplicate=duplicate,
            chunk_size=chunk_size,
            trace_deals=trace_deals,
            **options,
        ),
        Outputs(trace=stream),
    )
    return result, (stream.getvalue() if stream else "")


@pytest.mark.parametrize("duplicate", [False, True])
def test_results_do_not_depend_on_the_chunk_size(duplicate):
    base, base_trace = run(duplicate=duplicate)
    for chunk_size in (1, 7, 100):
        result, text = run(chunk_size, duplicate=duplicate)
        for name in ARRAYS:
            assert np.array_equal(getattr(result.total, name), getattr(base.total, name)), name
        assert summary(result.total).to_csv() == summary(base.total).to_csv()
        assert text == base_trace


def test_trace_covers_the_first_deals_only_when_asked():
    _, text = run(50, trace_deals=120)
    lines = text.splitlines()
    assert len(lines) == 1 + 120
    _, everything = run(50)
    assert len(everything.splitlines()) == 1 + 3 * 301
    assert everything.splitlines()[:121] == lines


def test_every_size_gets_the_same_deals_and_every_strategy_every_position():
    result, _ = run(64, trace_deals=0)
    frame = summary(result.total)
    by_position = frame[(frame.position != "all") & (frame.cards != "all")]
    assert set(by_position.hands) <= {75, 76}  # 301 deals: positions rotate with the dealer
    assert set(frame[frame.position == "all"].deals) == {301, 903}


def test_duplicate_seats_every_strategy_at_every_seat_of_every_deal():
    result, _ = run(64, duplicate=True, deals=50)
    frame = summary(result.total)
    per_position = frame[(frame.position != "all") & (frame.cards != "all")]
    assert set(per_position.hands) == {50}  # each strategy bids each position of each deal once
    assert set(frame[frame.position == "all"].hands) == {200, 600}


@pytest.mark.parametrize("players", [3, 4])
def test_more_strategies_than_seats_take_turns_each_bidding_every_seat_once(players):
    """Five strategies at a smaller table: each deal played once per strategy, each at every seat once."""
    strategies = ("expected", "aces-trumps", "fair-share", "zero", "random")
    cycle = compared_lineup(strategies, None, players)
    result = simulate(
        Comparison(
            rules=make_rules(players=players), lineup=cycle, cards=[2, 3], deals_per_size=40, seed=3, chunk_size=16
        )
    )
    frame = summary(result.total)
    per_position = frame[(frame.position != "all") & (frame.cards != "all")]
    assert set(per_position.hands) == {40} and set(per_position.strategy) == set(strategies)
    assert len(pair_differences(result.total).query("cards == 'all'")) == 10  # every pair, paired by deal


@pytest.mark.parametrize(("field", "duplicate"), [("zero", True), (None, False)])
def test_more_strategies_than_seats_need_duplicate_and_no_field(field, duplicate):
    with pytest.raises(PochaError, match="5 strategies but 4 seats; more strategies than seats take turns"):
        compared_lineup(("expected", "aces-trumps", "fair-share", "random", "table"), field, 4, duplicate)


def test_duplicate_removes_the_cards_from_a_comparison_of_equals():
    """The same strategy under two labels plays the same cards the same way: every board's difference is 0."""
    twins = lineup("expected", "expected:bias=0.0", "expected", "expected:bias=0.0")
    result, _ = run(duplicate=True, seats=twins, deals=200)
    pairs = pair_differences(result.total)
    assert np.all(pairs.mean_diff == 0) and np.all(pairs.se_diff == 0)


def test_a_hand_size_plays_the_same_deals_in_any_run():
    one, _ = run(50, sizes=(4,))
    three, _ = run(50)
    assert np.array_equal(one.total.moments[..., 0], three.total.moments[..., 1])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("sample_strategy:Broken:value=99", r"strategy 'sample_strategy:Broken:value=99' at position 1 .* bid 99"),
        ("sample_strategy:Broken:value=-1", "bids are 0..4"),
        ("sample_strategy:Broken:value=1,as_float=true", "float64 bids"),
    ],
)
def test_bad_bids_name_the_strategy(spec, message):
    with pytest.raises(StrategyError, match=message):
        run(64, seats=lineup(*[spec] * 4), sizes=(4,))


def test_a_forbidden_bid_is_refused():
    # everyone bids 1 of 4: the dealer may not make it 4
    with pytest.raises(StrategyError, match="hook rule forbids"):
        run(64, seats=lineup(*["sample_strategy:Broken:value=1"] * 4), sizes=(4,))
    run(64, seats=lineup(*["sample_strategy:Broken:value=1"] * 4), sizes=(1,))  # not with one card


def test_run_arguments_are_checked():
    with pytest.raises(PochaError, match="3 strategies for 4 seats"):
        simulate(Deals(rules=RULES, lineup=lineup("zero", "zero", "zero"), cards=[4], deals_per_size=10))
    with pytest.raises(PochaError, match="deals"):
        simulate(Deals(rules=RULES, lineup=LINEUP, cards=[4], deals_per_size=0))
    with pytest.raises(PochaError, match="1..10"):
        simulate(Deals(rules=RULES, lineup=LINEUP, cards=[11], deals_per_size=10))
    with pytest.raises(PochaError, match="play: unknown 'clever'"):
        parse_policy("clever")
    with pytest.raises(PochaError, match="plain seating on the local backend only"):
        simulate(
            Comparison(rules=RULES, lineup=LINEUP, cards=[4], deals_per_size=10, duplicate=True),
            Outputs(trace=io.StringIO()),
        )


def test_progress_counts_every_deal():
    done = []
    simulate(
        Deals(rules=RULES, lineup=LINEUP, cards=[2, 3], deals_per_size=250, chunk_size=100),
        Outputs(progress=done.append),
    )
    assert done == [100, 100, 100, 100, 50, 50]  # hand sizes interleaved: 2, 3, 2, 3, 2, 3


def test_ctrl_c_keeps_the_finished_chunks():
    def stop_after_two(count, calls=[]):  # noqa: B006 - a counter shared by the calls of one run
        calls.append(count)
        if len(calls) == 2:
            raise KeyboardInterrupt

    result = simulate(
        Deals(rules=RULES, lineup=LINEUP, cards=[3], deals_per_size=1000, chunk_size=100),
        Outputs(progress=stop_after_two),
    )
    assert not result.complete
    assert result.total.boards.tolist() == [200]
    whole = simulate(Deals(rules=RULES, lineup=LINEUP, cards=[3], deals_per_size=200, chunk_size=100))
    for name in ARRAYS:
        assert np.array_equal(getattr(result.total, name), getattr(whole.total, name)), name


def test_a_plan_of_deals_holds_its_run_json_section_under_the_same_names():
    """Issue 45: the plan held ``sizes`` and ``deals`` and wrote them as ``cards`` and ``deals_per_size``."""
    plan = Comparison(rules=RULES, lineup=LINEUP, cards=[2, 3], deals_per_size=40, field="zero")
    written = plan.to_dict()
    for name in {item.name for item in fields(CompareRun)} - {"conditions"}:  # conditions: read from ``conditioned``
        value = getattr(plan, name)
        assert written[name] == (list(value) if isinstance(value, tuple) else value), name
