import io

import numpy as np
import pytest

from reports.stats import summary
from simulator import PochaError
from simulator.engine import Seat, StrategyError, simulate
from simulator.rules import make_rules
from strategies.registry import load

RULES = make_rules(players=4)
LINEUP = [Seat(*load(spec)) for spec in ("expected", "aces-trumps", "random", "zero")]


def run(chunk_size, trace_deals=None, seats=LINEUP, rules=RULES, sizes=(1, 4, 10), deals=301, policy="random"):
    stream = io.StringIO()
    tally = simulate(rules, seats, list(sizes), deals, seed=7, policy=policy, chunk_size=chunk_size,
                     trace_stream=stream, trace_deals=trace_deals)  # fmt: skip
    return tally, stream.getvalue()


def test_results_do_not_depend_on_the_chunk_size():
    base_tally, base_trace = run(1 << 14)
    for chunk_size in (1, 7, 100):
        tally, text = run(chunk_size)
        assert np.array_equal(tally.seat_stats, base_tally.seat_stats)
        assert np.array_equal(tally.group_stats, base_tally.group_stats)
        assert summary(tally).to_csv() == summary(base_tally).to_csv()
        assert text == base_trace


def test_trace_covers_the_first_deals_only_when_asked():
    _, text = run(50, trace_deals=120)
    lines = text.splitlines()
    assert len(lines) == 1 + 120
    _, everything = run(50)
    assert len(everything.splitlines()) == 1 + 3 * 301
    assert everything.splitlines()[:121] == lines


def test_every_size_gets_the_same_deals_and_every_strategy_every_position():
    tally, _ = run(64, trace_deals=0)
    frame = summary(tally)
    by_position = frame[(frame.position != "all") & (frame.cards != "all")]
    # 301 deals: positions rotate with the dealer, so each gets 75 or 76
    assert set(by_position.hands) <= {75, 76}
    assert set(frame[frame.position == "all"].deals) == {301, 903}


def test_a_hand_size_plays_the_same_deals_in_any_run():
    one, _ = run(50, sizes=(4,))
    three, _ = run(50)
    assert np.array_equal(one.seat_stats[:, :, 0], three.seat_stats[:, :, 1])


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
        run(64, seats=[Seat(*load(spec))] * 4, sizes=(4,))


def test_a_forbidden_bid_is_refused():
    # everyone bids 1 of 4: the dealer may not make it 4
    with pytest.raises(StrategyError, match="hook rule forbids"):
        run(64, seats=[Seat(*load("sample_strategy:Broken:value=1"))] * 4, sizes=(4,))
    run(64, seats=[Seat(*load("sample_strategy:Broken:value=1"))] * 4, sizes=(1,))  # not with one card


def test_run_arguments_are_checked():
    with pytest.raises(PochaError, match="3 strategies for 4 seats"):
        simulate(RULES, LINEUP[:3], [4], 10)
    with pytest.raises(PochaError, match="deals"):
        simulate(RULES, LINEUP, [4], 0)
    with pytest.raises(PochaError, match="1..10"):
        simulate(RULES, LINEUP, [11], 10)
    with pytest.raises(PochaError, match="policy"):
        simulate(RULES, LINEUP, [4], 10, policy="clever")


def test_progress_counts_every_deal():
    done = []
    simulate(RULES, LINEUP, [2, 3], 250, chunk_size=100, progress=done.append)
    assert done == [100, 100, 50, 100, 100, 50]
