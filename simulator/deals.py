"""One chunk of deals through a hand: dealt, bid position by position with every bid checked, played, scored.

Deal number ``i`` of hand size ``k`` depends only on ``(seed, k, i)``; its dealer is seat
``i % players``. The engine, whole games and training all play their deals through here.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pocha import kernels
from pocha.errors import PochaError
from pocha.rules import Rules, forbidden_bids
from pocha.seating import Lineup
from pocha.strategies.base import BidContext, Strategy, checked_bids

POLICIES, PLAY_CODES = kernels.POLICIES, kernels.PLAY_CODES


@dataclass
class Chunk:
    """A batch of deals of one hand size; arrays are indexed [deal, seat]."""

    cards: int
    deals: np.ndarray  # int64[deal]: deal numbers (randomness and dealer)
    hands: np.ndarray  # uint64[deal, seat] as dealt
    trump_card: np.ndarray  # int64[deal]
    bids: np.ndarray  # int64[deal, seat]


def deal_chunk(rules: Rules, seed: int, cards: int, deals: np.ndarray) -> Chunk:
    """Shuffle and deal the numbered deals, bids not made yet."""
    size = len(deals)
    hands = np.empty((size, rules.players), np.uint64)
    trump_card = np.empty(size, np.int64)
    kernels.deal_batch(seed, cards, deals, rules.deck(), hands, trump_card)
    return Chunk(cards, deals, hands, trump_card, np.zeros((size, rules.players), np.int64))


def collect_bids(rules: Rules, strategies: Sequence[tuple[str, Strategy]], seating: np.ndarray, seed: int,
                 policy: str, chunk: Chunk) -> None:  # fmt: skip
    """Ask each position's strategies for their bids, in bidding order, and check them into ``chunk.bids``.

    strategies: (label, strategy) by index; seating: int64[deal, seat], the strategy index at each seat.
    """
    players, cards = rules.players, chunk.cards
    size = len(chunk.hands)
    hands = np.empty((players, size), np.uint64)  # [position, deal]: contiguous per position
    kernels.seats_to_positions(chunk.hands, chunk.deals, hands)
    if len(strategies) > 1:
        acting = np.empty((players, size), np.int64)
        kernels.seats_to_positions(np.ascontiguousarray(seating), chunk.deals, acting)
    bids = np.zeros((players, size), np.int64)
    for position in range(players):
        earlier = bids[:position].T
        forbidden = forbidden_bids(rules, cards, earlier)
        for g, (label, strategy) in enumerate(strategies):
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
                deals=chunk.deals[picked],
                policy=policy,
            )
            if ctx.size:
                bids[position, picked] = checked_bids(label, strategy, ctx)
    kernels.positions_to_seats(bids, chunk.deals, chunk.bids)


def play_chunk(
    rules: Rules, seed: int, policy: str, chunk: Chunk, record: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play a bid chunk out: ``(won, points, plays, leaders)``; plays and leaders are empty unless ``record``."""
    size, players = chunk.hands.shape
    won = np.empty((size, players), np.int64)
    points = np.empty((size, players), np.int64)
    recorded = size if record else 0
    plays = np.empty((recorded, chunk.cards, players), np.int64)
    leaders = np.empty((recorded, chunk.cards + 1), np.int64)
    kernels.play_batch(
        seed, chunk.cards, chunk.deals, chunk.hands, chunk.trump_card, chunk.bids,
        PLAY_CODES[rules.play], POLICIES[policy], rules.scoring.table(chunk.cards), won, points, plays, leaders,
    )  # fmt: skip
    return won, points, plays, leaders


def check_run(rules: Rules, lineup: Lineup, sizes: Sequence[int], policy: str, chunk_size: int) -> None:
    """Refuse a run the rules or the engine cannot do, before any work."""
    if len(lineup.seats) != rules.players:
        raise PochaError(f"strategy: {len(lineup.seats)} strategies for {rules.players} seats")
    if chunk_size < 1:
        raise PochaError(f"chunk size: must be at least 1, not {chunk_size}")
    if policy not in POLICIES:
        raise PochaError(f"play: unknown policy '{policy}'; accepted: {', '.join(POLICIES)}")
    for cards in sizes:
        rules.check_cards(cards)
