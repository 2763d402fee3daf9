from dataclasses import replace

import numpy as np
import pytest
import reference
from conftest import LUDOTEKA
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_strategies import context

from pocha.engine.backends import Threads
from pocha.engine.chunk import deal_chunk
from pocha.engine.training import Training, train_table
from pocha.errors import PochaError
from pocha.game.presets import PRESETS, make_rules
from pocha.game.rules import forbidden_bids
from pocha.game.scoring import Scoring, parse_scoring
from pocha.strategies.base import BidContext
from pocha.strategies.heuristics import Expected
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.table import (
    CAPS,
    FEATURES,
    MIN_HANDS,
    TableStrategy,
    TrickTable,
    conditions,
    default_table,
    features,
    load_table,
    table_strategies,
)


def feature(ctx, name):
    return features(ctx)[:, FEATURES.index(name)].tolist()


def test_features_of_a_hand_built_hand():
    ctx = context(["1O 3O 12O 7O 1C 3E"], "2O")  # trumps oros: 1 3 12 high, 7 low; ace of copas; three of espadas
    row = dict(zip(FEATURES, features(ctx)[0].tolist(), strict=True))
    assert row == {
        "cards": 5,
        "position": 0,
        "high_trumps": 3,
        "low_trumps": 1,
        "side_aces": 1,
        "side_seconds": 1,
        "voids": 1,
        "bids_so_far": 1,
    }


def test_features_follow_the_rank_order():
    italian = make_rules("italian")
    ctx = context(["1O 12O 11O 3O 3C"], "2O", rules=italian)  # natural order: 1 12 11 are the top three, 3 is low
    assert (
        feature(ctx, "high_trumps") == [3] and feature(ctx, "low_trumps") == [1] and feature(ctx, "side_seconds") == [0]
    )


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(3, 8), st.sampled_from(["dealer-card", "none"]), st.data())
def test_features_match_the_reference_on_random_deals(preset, players, full_deal_trump, data):
    try:
        rules = make_rules(preset, players=players, full_deal_trump=full_deal_trump)
    except PochaError:
        assume(False)  # the preset has no deck for this many players
    cards = data.draw(st.integers(1, rules.full_deal))
    position = data.draw(st.integers(0, players - 1))
    seed = data.draw(st.integers(0, 2**32))
    chunk = deal_chunk(rules, seed, cards, np.arange(40, dtype=np.int64))
    earlier = np.random.default_rng(seed).integers(0, cards + 1, (40, position))
    ctx = BidContext(
        rules=rules,
        cards=cards,
        position=position,
        hands=chunk.hands[:, 0],
        trump_card=chunk.trump_card,
        earlier_bids=earlier,
        forbidden=forbidden_bids(rules, cards, earlier),
        seed=seed,
        numbers=chunk.numbers,
    )
    caps = [CAPS.get(name, 1 << 30) for name in FEATURES]
    for d, row in enumerate(features(ctx).tolist()):
        hand = [c for c in range(64) if int(chunk.hands[d, 0]) >> c & 1]
        trump_card = int(chunk.trump_card[d]) if reference.has_trump(rules, cards) else None
        plain = reference.table_features(hand, trump_card, earlier[d].tolist(), cards, players, len(rules.ranks))
        assert row == [min(value, cap) for value, cap in zip(plain, caps, strict=True)]


def test_caps_and_bids_so_far():
    ctx = context(["4O 5O 6O 7O 10O 11O 12O 2C"], "2O")
    assert feature(ctx, "low_trumps") == [4] and feature(ctx, "high_trumps") == [1]
    hand = "1O 3O 12O 11O 10O 7O 6O 5O"  # 8 cards, 4 players: an even share at position 2 is 4 tricks
    assert feature(context([hand], "2O", [1, 1]), "bids_so_far") == [0]
    assert feature(context([hand], "2O", [2, 2]), "bids_so_far") == [1]
    assert feature(context([hand], "2O", [3, 4]), "bids_so_far") == [2]


def test_training_on_two_threads_learns_the_same_table(small_table):
    table, _ = small_table
    again = train_table(
        Training(rules=make_rules(players=4), deals_per_size=300, seed=5, chunk_size=64), backend=Threads(2)
    )
    assert np.array_equal(again.counts, table.counts)


def test_a_table_saves_loads_and_counts_every_hand(small_table):
    table, path = small_table
    again = TrickTable.load(path)
    assert np.array_equal(again.counts, table.counts) and again.rules == table.rules and again.policy == "greedy"
    assert table.counts.sum() == 300 * 10 * 4  # every hand of every size, once


def test_thin_cells_fall_back_to_coarser_ones_then_to_expected(small_table):
    table, _ = small_table
    ctx = context(["1O 3O 12O 11O 10O 7O 6O 5O 4O 2O", "2C 2E 2B 4C 4E 4B 5C 5E 5B 6C"], "1C")
    _, found = table.distributions(features(ctx), 10)
    level_hands = [
        level[tuple(np.where(np.array(level.shape[:-1]) == 1, 0, features(ctx)).T)].sum(axis=1)
        for level in table.levels
    ]
    assert all(np.diff(np.array(level_hands), axis=0).min(axis=1) >= 0)  # coarser cells hold more hands
    assert found.tolist() == [max(hands) >= MIN_HANDS for hands in zip(*level_hands, strict=True)]
    empty = TrickTable(table.rules, "greedy", np.zeros_like(table.counts))
    assert not empty.distributions(features(ctx), 10)[1].any()


def test_table_strategy_bids_legally_and_uses_expected_when_it_knows_nothing(small_table, tmp_path):
    table, path = small_table
    ctx = context(["1O 3O 12O 11O 10O", "2C 2E 2B 4C 4E"], "7O", [1, 1, 1])
    bids = TableStrategy(str(path)).bid(ctx)
    assert (bids != ctx.forbidden).all() and ((bids >= 0) & (bids <= 5)).all()
    empty_path = tmp_path / "empty.npz"
    TrickTable(table.rules, "greedy", np.zeros_like(table.counts)).save(empty_path)
    assert TableStrategy(str(empty_path)).bid(ctx).tolist() == Expected().bid(ctx).tolist()


def test_the_per_size_lookup_gives_each_cell_its_own_expected_points(small_table):
    table, _ = small_table
    for cards in (1, 6, 10):
        shape = table.counts.shape[1:-1]
        rng = np.random.default_rng(cards)
        cells = np.column_stack([np.full(500, cards - 1), *(rng.integers(0, n, 500) for n in shape)])
        points, found = table.expected_points(LUDOTEKA, cards)
        chances, direct_found = table.distributions(cells, cards)
        index = table.cell_index(cells)
        assert np.allclose(points[index], chances @ LUDOTEKA.scoring.points_grid(cards).T)
        assert np.array_equal(found[index], direct_found)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shipped_tables_load_and_are_used(players):
    rules = make_rules(players=players)
    hand = "1O 3O 12O 11O 10O 7O"
    ctx = context([hand, "4C 4E 5B 6C 7E 10B"], "5O", rules=rules)  # no twos: 3 players play without them
    for play, name in (("greedy", f"players-{players}.npz"), ("pimc:samples=16", f"players-{players}-pimc.npz")):
        default = default_table(rules, play)
        assert default.shipped and default.path.name == name and default.play == play.partition(":")[0]
        table = load_table(str(default.path))
        assert table.rules.players == players and table.counts.sum() > 1_000_000 and table.fits(rules, play)
        assert table.distributions(features(ctx), 6)[1].all()  # both hands have a cell with enough data
        bids = TableStrategy().bid(replace(ctx, policy=play))
        assert bids[0] >= 4 and bids[1] <= 1


def test_a_table_for_other_rules_is_refused(small_table):
    _, path = small_table
    ctx = context(["1O 12O 11O"], "2O", rules=make_rules("italian"))
    with pytest.raises(PochaError, match="learned for ranks 1 3 12 11 10 7 6 5 4 2; this run has ranks 1 12 11"):
        TableStrategy(str(path)).bid(ctx)
    with pytest.raises(PochaError, match="learned for hook beyond one card; this run has hook never"):
        TableStrategy(str(path)).bid(context(["1O 12O 11O"], "2O", rules=make_rules(hook="never")))
    trumpless = make_rules(full_deal_trump="none")  # the largest hand plays otherwise
    with pytest.raises(PochaError, match="for largest hand with trump; this run has largest hand without trump"):
        TableStrategy(str(path)).bid(context(["1O 12O 11O"], "2O", rules=trumpless))
    with pytest.raises(PochaError, match="no table learned yet for these rules and greedy play"):
        TableStrategy().bid(context(["1O 3O"], "4O", rules=make_rules(players=6)))
    with pytest.raises(PochaError, match="cannot read"):
        TableStrategy("no-such-table.npz").bid(context(["1O 3O"], "2O"))


def test_the_hook_matters_only_beyond_one_card_and_the_scoring_only_to_pimc(small_table):
    table, _ = small_table  # ludoteka: hook except-one-card
    portuguese = make_rules("portuguese", players=4)  # hook always, another tie-break: the same deals learned
    assert np.array_equal(train_table(Training(rules=portuguese, deals_per_size=300, seed=5)).counts, table.counts)
    assert table.fits(portuguese) and not table.fits(make_rules(hook="never"))
    other_scoring = make_rules(scoring=Scoring(exact=10, per_trick=2, miss_per_trick=-10))
    assert table.fits(other_scoring) and not table.fits(LUDOTEKA, "pimc")
    assert conditions(LUDOTEKA, "pimc") != conditions(other_scoring, "pimc:samples=4")
    assert conditions(LUDOTEKA, "pimc") == conditions(portuguese, "pimc:samples=4")
    counted, uncounted = (make_rules(scoring=parse_scoring(name)) for name in ("tricks+10", "exact-only"))
    assert conditions(counted, "pimc") != conditions(uncounted, "pimc")  # they differ in a missed bid's tricks only
    assert conditions(counted, "greedy") == conditions(uncounted, "greedy") == conditions(LUDOTEKA, "greedy")


def test_pimc_bids_from_the_greedy_table_where_no_pimc_table_ships():
    italian = make_rules("italian", players=4)
    assert default_table(italian, "pimc").play == "greedy" and not default_table(italian, "pimc").shipped
    assert default_table(italian, "random").play == "random"
    assert default_table(make_rules(players=4, hook="never"), "pimc").path.name.startswith("players-4-greedy-")


def test_the_table_strategies_inside_a_strategy_are_found():
    inner = TableStrategy(deals=7)
    assert list(table_strategies(MonteCarlo(assume=inner))) == [inner]
    assert list(table_strategies(Expected())) == []


def test_training_checks_its_arguments():
    with pytest.raises(PochaError, match="deals"):
        train_table(Training(rules=LUDOTEKA, deals_per_size=0))
