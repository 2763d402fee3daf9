"""``pocha advise`` against what happens: a table whose other players really bid by the model advise assumes.

The simulation here shares nothing with advise's sampling: numpy deals the unseen cards, each earlier
bidder draws its bid from the model's probabilistic form (the assumed strategy's bid, a bid d away
exp(-sharpness d) as likely), and only the deals whose earlier bids are the ones advise was told are kept
(rejection: the exact conditioning advise approximates by weights). Then every candidate bid is played out
with the later bidders answering it, every seat greedy.
"""

import numpy as np
import pytest
from conftest import LUDOTEKA

from pocha.engine.advice import advise, read_situation
from pocha.engine.confidence import Z95
from pocha.errors import PochaError
from pocha.game.cards import mask_of
from pocha.game.rules import forbidden_bids
from pocha.kernels.codes import POLICY_GREEDY
from pocha.kernels.play import Chunk, DealRules, Outcome, Policies, play_batch_plain
from pocha.strategies.base import BidContext, Strategy
from pocha.strategies.heuristics import Expected
from pocha.strategies.table import TableStrategy

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

MODELS = {
    "expected": (Expected(), 3.0),
    "table": (TableStrategy(), 1.5),
}  # (model, sharpness): a sharp one, the default


def model_bids(situation, model: Strategy, hands: np.ndarray, position: int, earlier: np.ndarray) -> np.ndarray:
    """The model's bid at ``position`` in every dealt world (hands uint64[world, position])."""
    rules, k = situation.rules, situation.cards
    worlds = len(hands)
    return model.bid(
        BidContext(
            rules=rules,
            cards=k,
            position=position,
            hands=np.ascontiguousarray(hands[:, position]),
            trump_card=np.full(worlds, situation.trump_card, np.int64),
            earlier_bids=np.ascontiguousarray(earlier[:, :position]),
            forbidden=forbidden_bids(rules, k, np.ascontiguousarray(earlier[:, :position])),
            seed=0,
            numbers=np.arange(worlds, dtype=np.int64),
        )
    )


def simulated(situation, assume: str, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(mean points, their standard errors) per candidate bid, and the deals kept, at a table bidding by the model."""
    model, sharpness = MODELS[assume]
    rules, k, position, players = situation.rules, situation.cards, situation.position, situation.rules.players
    rng = np.random.default_rng(seed)
    unseen = np.array([c for c in rules.deck() if c not in situation.hand and c != situation.trump_card])
    drawn = np.argsort(rng.random((deals, len(unseen))), axis=1)[:, : k * (players - 1)]
    cards = unseen[drawn].reshape(deals, players - 1, k)
    hands = np.zeros((deals, players), np.uint64)
    others = [p for p in range(players) if p != position]  # seats are positions: the dealer sits last
    for j, seat in enumerate(others):
        hands[:, seat] = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards[:, j].astype(np.uint64)), axis=1)
    hands[:, position] = mask_of(situation.hand)
    bids = np.zeros((deals, players), np.int64)
    kept = np.ones(deals, bool)
    for j, told in enumerate(situation.bids):  # each earlier bidder draws its bid from the model's form
        bid = model_bids(situation, model, hands, j, bids)
        weight = np.exp(-sharpness * np.abs(np.arange(k + 1)[None, :] - bid[:, None]))
        drawn_bid = (weight.cumsum(axis=1) / weight.sum(axis=1, keepdims=True) > rng.random((deals, 1))).argmax(axis=1)
        kept &= drawn_bid == told
        bids[:, j] = told
    hands, bids = hands[kept], bids[kept]
    points = np.zeros((k + 1, len(hands)))
    for candidate in range(k + 1):
        bids[:, position] = candidate
        for later in range(position + 1, players):
            bids[:, later] = model_bids(situation, model, hands, later, bids)
        numbers = np.full(len(hands), players - 1, np.int64)  # the dealer is the last seat
        chunk = Chunk(k, numbers, hands.copy(), np.full(len(hands), situation.trump_card, np.int64), bids.copy())
        outcome = Outcome(np.zeros((len(hands), players), np.int64), np.zeros((len(hands), players), np.int64))
        none = np.zeros((1, players), np.int64)
        greedy = np.full((1, players), POLICY_GREEDY, np.int64)
        policies = Policies(greedy, none, none, none, none, none - 1, greedy, none)
        play_batch_plain(seed, chunk, DealRules.of(rules, k), policies, outcome)
        points[candidate] = outcome.points[:, position]
    return points.mean(axis=1), points.std(axis=1) / np.sqrt(len(hands)), len(hands)


@pytest.mark.parametrize("assume", list(MODELS))
@pytest.mark.parametrize(
    ("hand", "trump", "position", "bids"),
    [
        ("1C", "7O", 3, "0,0,0"),  # the example: three players who bid 0 hold little
        ("1O 3O 12C 5E 2B", "7O", 2, "1,0"),  # the README's example
        ("12C 5E 2B", "7O", 3, "2,1,0"),  # a weak hand after strong bids: the dealer
        ("3O 12E 10B", "4O", 1, "2"),  # after a strong bid
    ],
)
def test_advice_matches_a_table_that_bids_by_its_model(hand, trump, position, bids, assume):
    """Each legal bid's expected points agree with the simulated table within the two 95% intervals combined.

    A margin of 1.7 on the combined half-width (3.3 standard errors: a miss one time in a thousand per bid),
    as a handful of bids are checked at once; not reading the bids misses by more than 5 (the next test).
    """
    situation = read_situation(LUDOTEKA, hand, trump, position, bids)
    model, sharpness = MODELS[assume]
    advice = advise(situation, samples=6000, seed=1, rollout="greedy", assume=(assume, model), sharpness=sharpness)
    mean, error, kept = simulated(situation, assume, 60_000, seed=2)
    assert kept > 1000
    legal = ~np.isnan(advice.points)
    allowed = 1.7 * np.hypot(advice.points_error, Z95 * error)
    assert np.all(np.abs(advice.points - mean)[legal] <= allowed[legal]), (advice.points, mean, allowed)


def test_advice_not_reading_the_bids_misses_that_table():
    """The check has teeth: advice that ignores the bids (sharpness 0, the advise of before) is far outside it."""
    situation = read_situation(LUDOTEKA, "1C", "7O", 3, "0,0,0")
    advice = advise(situation, samples=6000, seed=1, rollout="greedy", assume=("expected", Expected()), sharpness=0)
    mean, error, _ = simulated(situation, "expected", 60_000, seed=2)
    assert np.all(np.abs(advice.points - mean) > 5 * np.hypot(advice.points_error, Z95 * error))


def test_advice_solving_the_play_outs():
    """``solve``: one card plays itself (the same figures); a longer hand's figures move; a bad value is one line."""
    one = read_situation(LUDOTEKA, "1C", "7O", 1, "0")
    plain, solved = (
        advise(one, samples=500, seed=1, rollout="greedy", assume=("expected", Expected()), sharpness=0, solve=solve)
        for solve in (0, 1)
    )
    assert np.array_equal(plain.points, solved.points, equal_nan=True) and "solved" in solved.model
    five = read_situation(LUDOTEKA, "1O 3O 12C 5E 2B", "7O", 2, "1,0")
    plain, solved = (
        advise(five, samples=500, seed=1, rollout="greedy", assume=("expected", Expected()), sharpness=0, solve=solve)
        for solve in (0, 5)
    )
    assert not np.array_equal(plain.points, solved.points, equal_nan=True) and solved.to_dict()["model"]["solve"] == 5
    for solve, rollout, message in ((21, "greedy", "from 0 to 20, not 21"), (2, "pimc", "needs --play greedy")):
        with pytest.raises(PochaError, match=message):
            advise(five, samples=10, seed=1, rollout=rollout, assume=("expected", Expected()), sharpness=0, solve=solve)


def one_piece(total: int, first: int = 16):
    """``pieces`` of the play-outs as one kernel call: the advice before issue 46."""
    return iter([(0, total)])


@pytest.mark.parametrize(
    "asked",
    [
        {"play": "greedy"},
        {"play": "learned", "position": 2, "bids": "3,2"},
        {"play": "random", "assume": "expected", "sharpness": 0},
        {"play": "greedy", "solve": 3},
        {"play": "greedy", "bids": "2,2,0,1", "played": ""},  # card advice
        {"play": "learned", "position": 1, "bids": "2,2,0,1", "played": "1C", "hand": "1O 3O 12C 5E 2B 7B 3C 4E"},
    ],
)
def test_advice_played_a_piece_at_a_time_is_the_advice_of_one_call(asked, monkeypatch):
    """In pieces, each going on with the random streams where the last left them: one call's figures, to the bit.

    Issue 46: advise held the main thread until its last play-out (549 s, deaf to Ctrl-C, saying nothing).
    """
    from pocha.advising import advise as advise_hand

    hand = asked.pop("hand", "1O 3O 12C 5E 2B 7B 1C 3C 12O 11O")
    with monkeypatch.context() as whole:
        whole.setattr("pocha.strategies.playouts.pieces", one_piece)
        whole.setattr("pocha.engine.player.pieces", one_piece)
        at_once = advise_hand(hand, "7O", samples=90, seed=3, **asked)
    monkeypatch.setattr("pocha.interrupt.PIECE_SECONDS", 0.0)  # a first piece of 16, then one play-out a piece
    told = []
    in_pieces = advise_hand(hand, "7O", samples=90, seed=3, progress=lambda *now: told.append(now), **asked)
    assert in_pieces.to_dict() == at_once.to_dict()
    assert told[0] == (0, 90) and told[1] == (16, 90) and told[-1] == (90, 90) and len(told) == 2 + 90 - 16
