"""One chunk of deals through a hand: dealt, bid position by position with every bid checked, played, scored.

Deal number ``i`` of hand size ``k`` depends only on ``(seed, k, i)``; its dealer is seat
``i % players``. The engine, whole games and training all play their deals through here.
"""

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from pocha.engine.dealing import deal
from pocha.engine.policies import PlayPolicy
from pocha.engine.predictions import Predicted
from pocha.engine.seating import Competitor, Lineup
from pocha.errors import PochaError
from pocha.game.conditions import DealConditions
from pocha.game.rules import Rules, forbidden_bids
from pocha.kernels.codes import PLAY_CODES as PLAY_CODES  # the play rules' codes, for the tests
from pocha.kernels.codes import POLICY_PIMC
from pocha.kernels.labels import no_record
from pocha.kernels.pimc import Reading
from pocha.kernels.play import Chunk, DealRules, Outcome, PlayLog, Policies, play_batch, play_batch_plain
from pocha.kernels.seats import positions_to_seats, seats_to_positions
from pocha.strategies.base import BidContext, checked_bids, checked_prediction
from pocha.strategies.heuristics import expected_tables
from pocha.strategies.play_models import run_models
from pocha.words import counted


def deal_chunk(
    rules: Rules, seed: int, cards: int, numbers: np.ndarray, conditions: DealConditions | None = None
) -> Chunk:
    """Shuffle and deal the deals with these numbers, bids not made yet; under ``conditions``, the deals that meet them.

    (``dealing.deal`` also counts the attempts the conditions took.)
    """
    return deal(rules, seed, cards, numbers, conditions).chunk


def collect_bids(
    rules: Rules,
    strategies: Sequence[Competitor],
    seating: np.ndarray,
    seed: int,
    chunk: Chunk,
    predicted: Predicted | None = None,
) -> None:
    """Ask each position's strategies for their bids, in bidding order, and check them into ``chunk.bids``.

    strategies: the players by index; seating: int64[deal, seat], the strategy index at each seat.
    predicted: where the predicting strategies' predictions of their bids go, when they are recorded.
    """
    players, cards = rules.players, chunk.cards
    size = len(chunk.hands)
    hands = np.empty((players, size), np.uint64)  # [position, deal]: contiguous per position
    seats_to_positions(chunk.hands, chunk.numbers, hands)
    if len(strategies) > 1:
        acting = np.empty((players, size), np.int64)
        seats_to_positions(np.ascontiguousarray(seating), chunk.numbers, acting)
    bids = np.zeros((players, size), np.int64)
    for position in range(players):
        earlier = bids[:position].T
        forbidden = forbidden_bids(rules, cards, earlier)
        for g, player in enumerate(strategies):
            picked = slice(None) if len(strategies) == 1 else np.flatnonzero(acting[position] == g)
            ctx = BidContext(
                rules=rules,
                cards=cards,
                position=position,
                hands=hands[position, picked],
                trump_card=chunk.trump_card[picked],
                earlier_bids=earlier[picked],
                forbidden=forbidden[picked],
                seed=seed,
                numbers=chunk.numbers[picked],
                policy=player.policy.label,
            )
            if ctx.size:
                bids[position, picked] = checked_bids(player.label, player.strategy, ctx)
                if predicted is not None:
                    chosen = bids[position, picked]
                    predicted.add(position, picked, checked_prediction(player.label, player.strategy, ctx, chosen))
    positions_to_seats(bids, chunk.numbers, chunk.bids)


def position_contexts(rules: Rules, chunk: Chunk, seed: int, policy: str) -> list[BidContext]:
    """What each bidding position saw when it bid: its hand and the real earlier bids (``chunk.bids`` made).

    For asking other strategies what they would have bid in the same place (training, bid models).
    """
    players, size = rules.players, len(chunk.hands)
    hands, bids = np.empty((players, size), np.uint64), np.empty((players, size), np.int64)
    seats_to_positions(chunk.hands, chunk.numbers, hands)
    seats_to_positions(chunk.bids, chunk.numbers, bids)
    contexts = []
    for position in range(players):
        earlier = np.ascontiguousarray(bids[:position].T)
        contexts.append(
            BidContext(
                rules=rules,
                cards=chunk.cards,
                position=position,
                hands=hands[position],
                trump_card=chunk.trump_card,
                earlier_bids=earlier,
                forbidden=forbidden_bids(rules, chunk.cards, earlier),
                seed=seed,
                numbers=chunk.numbers,
                policy=policy,
            )
        )
    return contexts


class SeatPolicies(NamedTuple):
    """Each seat's play policy as the kernels take it, [deal or 1, seat]: one row serves every deal seated alike."""

    codes: np.ndarray  # int64: the policy (POLICIES)
    samples: np.ndarray  # int64: a pimc seat's worlds per card
    sharpness: np.ndarray  # float64: how sharply a pimc seat reads the bids (0: not at all)
    exhaustive: np.ndarray  # int64: 1 when a pimc seat weighs every legal card, not one of equivalent ones
    solve: np.ndarray  # int64: the last tricks of a pimc seat's play-outs solved exactly (0: none)
    paranoid: np.ndarray  # int64: 1 when its solver plays the other seats against it
    model: np.ndarray  # int64: a learned seat's model, or a pimc seat's play-outs', an index of ``models`` (-1: none)
    rollout: np.ndarray  # int64: how a pimc seat's worlds are played out (a policy code: greedy or learned)
    infer: np.ndarray  # int64: 1 when a pimc seat reads the play by its model (``kernels.inference``)
    models: tuple[str, ...] = ()  # the models' specs (``PlayPolicy.model``; "": the table's default)

    def rows(self, rows: np.ndarray | slice) -> "SeatPolicies":
        """The policies of some deals' seats."""
        seated: dict[str, Any] = {name: np.ascontiguousarray(getattr(self, name)[rows]) for name in self._fields[:-1]}
        return self._replace(**seated)


def seat_policies(strategies: Sequence[Competitor], seating: np.ndarray) -> SeatPolicies:
    """The play policies of the strategies at each seat.

    seating int64[deal, seat], or int64[1, seat] when every deal seats them alike (one row serves all).
    """
    return policies_table([player.policy for player in strategies]).rows(seating)


def same_policy(policy: PlayPolicy, chunk: Chunk) -> SeatPolicies:
    """Every seat of the chunk playing ``policy``."""
    return policies_table([policy]).rows(np.zeros((1, chunk.hands.shape[1]), np.int64))


def policies_table(policies: Sequence[PlayPolicy]) -> SeatPolicies:
    """The ``SeatPolicies`` of one row whose entry i is ``policies[i]`` (``rows`` then seats them)."""
    models = tuple(dict.fromkeys(policy.model for policy in policies if policy.uses_model))
    return SeatPolicies(
        codes=np.array([policy.code for policy in policies], np.int64),
        samples=np.array([policy.samples for policy in policies], np.int64),
        sharpness=np.array([policy.sharpness for policy in policies], np.float64),
        exhaustive=np.array([policy.exhaustive for policy in policies], np.int64),
        solve=np.array([policy.solve for policy in policies], np.int64),
        paranoid=np.array([policy.paranoid for policy in policies], np.int64),
        model=np.array([models.index(p.model) if p.uses_model else -1 for p in policies], np.int64),
        rollout=np.array([policy.rollout_code for policy in policies], np.int64),
        infer=np.array([policy.infer == "play" for policy in policies], np.int64),
        models=models,
    )


def play_chunk(
    rules: Rules, seed: int, chunk: Chunk, policies: SeatPolicies, traced: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play a bid chunk out, each seat by its policy (``seat_policies``): ``(won, points, plays, leaders)``.

    plays and leaders (the ``PlayLog``) are empty unless ``traced``. The pimc seats read the bids
    through the ``expected`` strategy at this hand size (``kernels.pimc.Reading``); the learned seats
    play their models (``strategies.play_models``).
    """
    size, players = chunk.hands.shape
    outcome = Outcome(np.empty((size, players), np.int64), np.empty((size, players), np.int64))
    logged = size if traced else 0
    log = PlayLog(np.empty((logged, chunk.cards, players), np.int64), np.empty((logged, chunk.cards + 1), np.int64))
    codes, samples, sharpness, exhaustive, solve, paranoid, model, rollout, infer, models = policies
    reading = Reading(sharpness, *expected_tables(rules, chunk.cards))
    deal_rules = DealRules.of(rules, chunk.cards, reading)
    kernel_policies = Policies(codes, samples, exhaustive, solve, paranoid, model, rollout, infer)
    if traced or (codes >= POLICY_PIMC).any():
        learned = run_models(rules, models, tuple(int(i) for i in np.unique(model[infer == 1])))
        play_batch(seed, chunk, deal_rules, kernel_policies, outcome, log, learned, no_record())
    else:
        play_batch_plain(seed, chunk, deal_rules, kernel_policies, outcome)
    return (*outcome, *log)


def check_run(rules: Rules, lineup: Lineup, sizes: Sequence[int], chunk_size: int, in_turn: bool = False) -> None:
    """Refuse a run the rules or the engine cannot do, before any work.

    in_turn: more strategies than seats may be given, seated in turn (``Comparison.rotations``).
    """
    if len(lineup.seats) != rules.players and not (in_turn and len(lineup.seats) > rules.players):
        raise PochaError(f"strategy: {counted(len(lineup.seats), 'strategy', 'strategies')} for {rules.players} seats")
    if chunk_size < 1:
        raise PochaError(f"chunk-size: must be at least 1, not {chunk_size}")
    for cards in sizes:
        rules.check_cards(cards)
