"""Whole games: the schedule, the first dealer by lot, fair seating, the tie-break rules, game traces."""

import io
import json
from collections import Counter

import numpy as np
import pytest
from conftest import lineup
from test_conformance import check_deal

from pocha.engine.games import (
    MAX_TIE_HANDS,
    Games,
    break_ties,
    first_dealers,
    first_place,
    game_seating,
    play_games,
)
from pocha.engine.policies import GREEDY
from pocha.engine.runner import Outputs
from pocha.engine.tally import GAME_SUMS, MOMENTS, GameTally
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.game.rules import SCHEDULES
from pocha.reports.game_stats import game_summary, quantile
from pocha.reports.stats import summary

RULES = make_rules(players=4)
LINEUP = lineup("expected", "aces-trumps", "fair-share", "random")
CHEAP = (
    "zero",
    "fair-share",
    "aces-trumps",
    "random",
    "expected",
    "expected:bias=0.5",
    "expected:bias=-0.5",
    "expected:bias=1",
)


def test_a_game_plays_the_whole_schedule_and_someone_wins():
    result = play_games(Games(rules=RULES, lineup=LINEUP, games=300, seed=1))
    assert result.complete
    frame = summary(result.total.hand_tally)
    every = frame[(frame.position == "all") & (frame.cards != "all")]
    # 22 hands: sizes 1..9 twice, 10 four times; every strategy holds one seat
    assert every.set_index(["strategy", "cards"]).hands.loc["expected"].tolist() == [600] * 9 + [1200]
    games = game_summary(result.total.game_tally)
    assert games.win_rate.sum() == pytest.approx(1.0) and games.shared_rate.sum() == 0
    assert result.total.game_tally.unresolved == 0 and result.total.game_tally.shared_games == 0


def test_results_do_not_depend_on_the_chunk_size():
    one = play_games(Games(rules=RULES, lineup=LINEUP, games=100, seed=4, chunk_size=7))
    two = play_games(Games(rules=RULES, lineup=LINEUP, games=100, seed=4))
    assert game_summary(one.total.game_tally).equals(game_summary(two.total.game_tally))
    assert np.array_equal(one.total.hand_tally.moments, two.total.hand_tally.moments)
    assert one.total.game_tally.tie_break_hands == two.total.game_tally.tie_break_hands


@pytest.mark.parametrize("schedule", [*SCHEDULES, "2,1,3,1"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_every_strategy_holds_every_seat_equally_often(players, schedule):
    """From the run's own tallies: hands per (strategy, bidding position, hand size) are equal over positions."""
    rules = make_rules("portuguese" if players == 7 else "ludoteka", players, schedule=schedule)
    strategies = lineup(*CHEAP[:players])
    labels = strategies.labels
    assert len(labels) == players
    result = play_games(Games(rules=rules, lineup=strategies, games=2 * players, seed=players))
    hands = result.total.hand_tally.moments[MOMENTS.index("H"), :, :players, :]  # [strategy, position, size]
    per_size = Counter(rules.hand_sizes())
    for s, size in enumerate(result.total.hand_tally.sizes):
        assert np.all(hands[:, :, s] == 2 * per_size[size]), (size, hands[:, :, s])


def test_the_first_dealer_is_drawn_by_lot_per_game():
    games = np.arange(4000, dtype=np.int64)
    first = first_dealers(7, games, 4)
    counts = np.bincount(first, minlength=4)
    assert np.all(np.abs(counts - 1000) < 5 * np.sqrt(4000 * 0.25 * 0.75))  # every seat, not only even ones
    assert np.array_equal(first[100:200], first_dealers(7, games[100:200], 4))  # the game's number, not the chunk
    assert not np.array_equal(first, first_dealers(8, games, 4))


def test_seating_moves_one_seat_a_game_from_the_first_dealer():
    first = np.array([2, 0, 3], np.int64)
    games = np.array([0, 1, 2], np.int64)
    seating = game_seating(np.array([0, 1, 2, 3]), games, first, rotate=True)
    # game 0: line-up place i sits i seats after the first dealer (seat 2); game 1: i + 1 after seat 0
    assert seating.tolist() == [[2, 3, 0, 1], [3, 0, 1, 2], [3, 0, 1, 2]]
    assert game_seating(np.array([0, 1, 2, 3]), games, first, rotate=False).tolist() == [[0, 1, 2, 3]] * 3


def test_without_rotation_the_seating_stays_and_the_lot_moves_the_deal():
    result = play_games(Games(rules=RULES, lineup=LINEUP, games=400, seed=2, rotate=False))
    frame = summary(result.total.hand_tally)
    ones = frame[(frame.cards == "1") & (frame.position != "all")].set_index(["strategy", "position"]).hands
    assert ones.min() > 50  # every strategy bid from every position, not only from one or two


def test_deal_numbers_are_unique_and_name_their_dealer():
    rules = make_rules(players=6, schedule="short")
    games = Games(
        rules=rules, lineup=lineup(*["zero"] * 6), games=50, seed=0, policy=GREEDY, rotate=True, chunk_size=50
    )
    numbers = np.arange(50, dtype=np.int64)
    table = games.seat(numbers, 0)
    first = table.first
    assert np.array_equal(first, first_dealers(0, numbers, 6))
    hands = len(rules.hand_sizes()) + MAX_TIE_HANDS
    deals = np.stack([table.deal_numbers(j) for j in range(hands)])  # [hand, game]
    assert len(np.unique(deals)) == deals.size
    assert np.array_equal(deals % 6, (first[None, :] + np.arange(hands)[:, None]) % 6)


def test_first_place():
    scores = np.array([[10, 30, 30], [5, 0, -5]])
    everyone = np.ones(scores.shape, bool)
    assert first_place(scores, everyone).tolist() == [[False, True, True], [True, False, False]]
    assert first_place(scores, np.array([[True, False, False]] * 2)).tolist() == [[True, False, False]] * 2


def scripted(hands):
    """An extra_hand function that returns the given points, hand by hand, for every game asked."""

    def extra_hand(rows, t):
        return np.array([hands[t]] * len(rows), np.int64)

    return extra_hand


@pytest.mark.parametrize(
    ("tie_break", "hands", "first", "extra"),
    [
        # every score counts: the trailing player wins the first extra hand outright
        ("all", [[0, 0, 25]], [False, False, True], 1),
        # only the tied players count: the third player's 35 does not win; the second hand parts the two
        ("tied", [[0, 0, 25], [10, -5, 0]], [True, False, False], 2),
        # one extra hand, still tied: first place is shared
        ("one", [[10, 10, -5]], [True, True, False], 1),
        # one extra hand that parts them
        ("one", [[-5, 10, 10]], [False, True, False], 1),
    ],
)
def test_tie_breaks_from_a_hand_built_score(tie_break, hands, first, extra):
    scores = np.array([[30, 30, 10]], np.int64)
    top, played, unresolved = break_ties(scores, tie_break, scripted(hands))
    assert top[0].tolist() == first and played.tolist() == [extra] and unresolved == 0
    assert scores[0].tolist() == (np.array([30, 30, 10]) + np.sum(hands[:extra], axis=0)).tolist()


@pytest.mark.parametrize(
    ("hands", "first", "extra"),
    [
        # the italian game: seat 2 falls behind seats 0 and 1, then draws level with seat 0, who
        # leads seat 1: still tied, so on to a third hand
        ([[10, 10, 0, 0], [0, -5, 10, 0], [15, 0, 0, 0]], [True, False, False, False], 3),
        # the turkish game: seat 0 falls behind, then leads every tied player: it wins
        ([[-5, 0, 0, 0], [15, 5, 5, 0]], [True, False, False, False], 2),
    ],
)
def test_tied_plays_on_until_one_of_the_tied_players_leads_all_the_others(hands, first, extra):
    """``tied``: the players tied after the schedule stay contenders to the end, behind or not."""
    scores = np.array([[60, 60, 60, 20]], np.int64)
    top, played, unresolved = break_ties(scores, "tied", scripted(hands))
    assert top[0].tolist() == first and played.tolist() == [extra] and unresolved == 0


def test_a_tie_that_outlasts_the_limit_is_shared_and_counted():
    scores = np.array([[30, 30, 10], [40, 0, 0]], np.int64)
    top, played, unresolved = break_ties(scores, "all", lambda rows, t: np.zeros((len(rows), 3), np.int64))
    assert top.tolist() == [[True, True, False], [True, False, False]]
    assert played.tolist() == [MAX_TIE_HANDS, 0] and unresolved == 1


@pytest.mark.parametrize("tie_break", ["all", "tied", "one"])
def test_tie_break_rules_in_whole_games(tie_break):
    """Three 'zero' bidders on the short schedule tie often."""
    rules = make_rules(players=3, schedule="short", tie_break=tie_break)
    played = play_games(
        Games(rules=rules, lineup=lineup("zero", "fair-share", "zero"), games=2000, seed=3)
    ).total.game_tally
    assert played.tie_break_games > 0 and played.unresolved == 0
    wins, shared = played.sums[GAME_SUMS.index("W")].sum(), played.sums[GAME_SUMS.index("S")].sum()
    if tie_break == "one":
        assert played.tie_break_hands == played.tie_break_games and played.shared_games > 0
        assert wins + played.shared_games == played.games and shared >= 2 * played.shared_games
    else:
        assert wins == played.games and played.shared_games == 0


def test_a_game_trace_replays_the_scores_and_the_seating():
    """An independent check from the trace alone: every deal is legal, the deal passes one seat a hand
    from the first dealer, the seating moves one seat a game, and the final scores are the tally's."""
    rules = make_rules(players=3, schedule="short")
    seats = lineup("zero", "fair-share", "aces-trumps")
    stream = io.StringIO()
    result = play_games(Games(rules=rules, lineup=seats, games=9, seed=5, chunk_size=4), Outputs(trace=stream))
    header, *deals = (json.loads(line) for line in stream.getvalue().splitlines())
    assert header["format"] == "pocha-trace/3" and header["rules"]["schedule"] == "short"
    by_game: dict[int, list[dict]] = {}
    for deal in deals:
        by_game.setdefault(deal["game"], []).append(deal)
        check_deal(rules, deal)
    assert list(by_game) == list(range(9))
    finals: dict[str, Counter] = {label: Counter() for label in seats.labels}
    offsets = []
    for game, hands in by_game.items():
        assert [deal["hand"] for deal in hands] == list(range(len(hands)))
        assert [deal["cards"] for deal in hands[:12]] == rules.hand_sizes()
        assert all(deal["cards"] == 1 for deal in hands[12:])
        first = hands[0]["dealer"]
        assert [deal["dealer"] for deal in hands] == [(first + j) % 3 for j in range(len(hands))]
        seating = hands[0]["strategies"]
        assert all(deal["strategies"] == seating for deal in hands)
        offsets.append(((seating.index("zero") - first) % 3 - game) % 3)
        score = np.sum([deal["points"] for deal in hands], axis=0)
        for seat, label in enumerate(seating):
            finals[label][int(score[seat])] += 1
    assert len(set(offsets)) == 1  # zero sits one seat further from the first dealer every game
    assert finals == {label: result.total.game_tally.scores[g] for g, label in enumerate(seats.labels)}


def test_score_quantiles_and_merge():
    assert quantile({-5: 1, 10: 2, 40: 1}, 0.5) == 10
    assert quantile({-5: 1, 10: 2, 40: 1}, 0.95) == 40
    one = GameTally.empty(("a",), np.array([1]))
    one.add(np.zeros((2, 1), np.int64), np.array([[10], [30]]), np.array([[True], [True]]), np.array([0, 2]), 0)
    both = one.merge(one)
    assert both.games == 4 and both.tie_break_games == 2 and both.tie_break_hands == 4 and both.scores[0][30] == 2


def test_bad_game_arguments():
    with pytest.raises(PochaError, match="games"):
        play_games(Games(rules=RULES, lineup=LINEUP, games=0))
    with pytest.raises(PochaError, match="schedule"):
        make_rules(schedule="marathon")
    with pytest.raises(PochaError, match="tie-break: unknown rule 'coin'"):
        make_rules(tie_break="coin")


def test_rotation_removes_the_seat_advantage():
    """Four labels of one strategy (same law, own draws): each wins about a quarter (within 4 standard errors)."""
    twins = lineup(*(f"sample_strategy:Noisy:salt={salt}" for salt in range(4)))
    games = game_summary(play_games(Games(rules=RULES, lineup=twins, games=4000, seed=2)).total.game_tally)
    assert len(games) == 4 and games.seats.tolist() == [1] * 4
    assert np.all(np.abs(games.win_rate - 0.25) < 4 * games.win_se)


def test_wilson_interval_by_hand():
    from pocha.reports.stats import wilson

    low, high = wilson(0.0, 20_000)
    assert low == pytest.approx(0.0, abs=1e-12) and high == pytest.approx(1.959963984540054**2 / 20_000, rel=1e-3)
    assert wilson(0.0, 40)[0] == 0.0 and wilson(1.0, 40)[1] == 1.0  # not -6.9e-18: a game table printed "-0.0%"
    low, high = wilson(0.5, 100)  # the textbook case: 0.404..0.596
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
