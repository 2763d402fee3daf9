import numpy as np
import pytest
from conftest import lineup

from pocha.errors import PochaError
from pocha.games import leaders, play_games
from pocha.reports.game_stats import game_summary, quantile
from pocha.reports.stats import summary
from pocha.rules import make_rules
from pocha.tally import GameTally

RULES = make_rules(players=4)
LINEUP = lineup("expected", "aces-trumps", "fair-share", "random")


def test_a_game_plays_the_whole_schedule_and_someone_wins():
    result = play_games(RULES, LINEUP, 300, seed=1)
    assert result.complete
    frame = summary(result.hands)
    every = frame[(frame.position == "all") & (frame.cards != "all")]
    # 22 hands: sizes 1..9 twice, 10 four times; every strategy holds one seat
    assert every.set_index(["strategy", "cards"]).hands.loc["expected"].tolist() == [600] * 9 + [1200]
    games = game_summary(result.games)
    assert games.win_rate.sum() == pytest.approx(1.0)
    assert result.games.unresolved == 0


def test_results_do_not_depend_on_the_chunk_size():
    one = play_games(RULES, LINEUP, 100, seed=4, chunk_size=7)
    two = play_games(RULES, LINEUP, 100, seed=4)
    assert game_summary(one.games).equals(game_summary(two.games))
    assert np.array_equal(one.hands.moments, two.hands.moments)
    assert one.games.tie_break_hands == two.games.tie_break_hands


def test_rotation_removes_the_seat_advantage():
    """Four labels of one strategy (same law, own draws): each wins about a quarter (within 4 standard errors)."""
    twins = lineup(*(f"sample_strategy:Noisy:salt={salt}" for salt in range(4)))
    games = game_summary(play_games(RULES, twins, 4000, seed=2).games)
    assert len(games) == 4 and games.seats.tolist() == [1] * 4
    assert np.all(np.abs(games.win_rate - 0.25) < 4 * games.win_se)
    without = game_summary(play_games(RULES, twins, 4000, seed=2, rotate=False).games)
    assert without.win_rate.sum() == pytest.approx(1.0)


def test_ties_are_broken_by_one_card_hands():
    """Three 'zero' bidders on the short schedule tie often; every game still ends with one leader."""
    rules = make_rules(players=3, schedule="short")
    result = play_games(rules, lineup("zero", "fair-share", "zero"), 2000, seed=3)
    played = result.games
    assert played.tie_break_games > 0 and played.tie_break_hands >= played.tie_break_games
    assert played.unresolved == 0
    assert played.sums[0].sum() == played.games  # exactly one winner per game


def test_leaders():
    scores = np.array([[10, 30, 30], [5, 0, -5]])
    assert leaders(scores).tolist() == [[False, True, True], [True, False, False]]


def test_score_quantiles_and_merge():
    assert quantile({-5: 1, 10: 2, 40: 1}, 0.5) == 10
    assert quantile({-5: 1, 10: 2, 40: 1}, 0.95) == 40
    one = GameTally.empty(("a",), np.array([1]))
    one.add(np.zeros((2, 1), np.int64), np.array([[10], [30]]), np.array([[1], [0]]), np.array([0, 2]))
    both = one.merge(one)
    assert both.games == 4 and both.tie_break_games == 2 and both.tie_break_hands == 4 and both.scores[0][30] == 2


def test_bad_game_arguments():
    with pytest.raises(PochaError, match="games"):
        play_games(RULES, LINEUP, 0)
    with pytest.raises(PochaError, match="schedule"):
        make_rules(schedule="marathon")


def test_wilson_interval_by_hand():
    from pocha.reports.game_stats import wilson

    low, high = wilson(0.0, 20_000)
    assert low == pytest.approx(0.0, abs=1e-12) and high == pytest.approx(1.959963984540054**2 / 20_000, rel=1e-3)
    low, high = wilson(0.5, 100)  # the textbook case: 0.404..0.596
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
