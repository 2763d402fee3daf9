"""``pocha train``: learn a trick table (see ``strategies.table``) from simulated deals."""

from collections.abc import Callable

import numpy as np

from simulator import PochaError
from simulator.backends import DEFAULT_CHUNK
from simulator.engine import Lineup, Seat, check_run, collect_bids, deal_chunk, play_chunk
from simulator.rules import Rules, forbidden_bids
from strategies.base import BidContext
from strategies.heuristics import Expected
from strategies.table import TrickTable, features, table_shape

TRAINING_BIDDER = "expected"  # every seat bids so while the table learns


def train_table(
    rules: Rules,
    deals: int,
    seed: int = 0,
    policy: str = "greedy",
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> TrickTable:
    """Learn a trick table from ``deals`` deals of every hand size 1..full deal.

    Every seat bids ``expected``; per feature cell of each hand, the tricks it took are counted.
    """
    sizes = list(range(1, rules.full_deal + 1))
    lineup = Lineup((Seat(TRAINING_BIDDER, Expected()),) * rules.players)
    chunk_size = chunk_size or DEFAULT_CHUNK
    check_run(rules, lineup, sizes, policy, chunk_size)
    if deals < 1:
        raise PochaError(f"deals: must be at least 1, not {deals}")
    shape = table_shape(rules)
    counts = np.zeros(int(np.prod(shape)), np.int64)
    strategies = list(zip(lineup.labels, lineup.strategies, strict=True))
    for cards in sizes:
        for first in range(0, deals, chunk_size):
            numbers = np.arange(first, min(first + chunk_size, deals), dtype=np.int64)
            chunk = deal_chunk(rules, seed, cards, numbers)
            seating = np.zeros(chunk.hands.shape, np.int64)
            collect_bids(rules, strategies, seating, seed, policy, chunk)
            won, _, _, _ = play_chunk(rules, seed, policy, chunk)
            rows = np.arange(len(numbers))
            by_position = np.stack(
                [chunk.bids[rows, (numbers + 1 + q) % rules.players] for q in range(rules.players)], 1
            )
            for position in range(rules.players):
                seat = (numbers + 1 + position) % rules.players
                earlier = by_position[:, :position]
                ctx = BidContext(
                    rules, cards, position, chunk.hands[rows, seat], chunk.trump_card, earlier,
                    forbidden_bids(rules, cards, earlier), seed, numbers, policy,
                )  # fmt: skip
                cells = np.column_stack([features(ctx), won[rows, seat]])
                counts += np.bincount(np.ravel_multi_index(cells.T, shape), minlength=counts.size)
            if progress is not None:
                progress(len(numbers))
    return TrickTable(rules, policy, counts.reshape(shape), deals)
