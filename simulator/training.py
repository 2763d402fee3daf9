"""``pocha train``: learn a trick table (see ``strategies.table``) from simulated deals.

The deals are cut into chunks like a run's, played on a backend (threads by default); each chunk
returns integer counts, so the table is the same for any backend, thread count or chunk size.
"""

from collections.abc import Callable
from functools import partial

import numpy as np

from simulator import PochaError, kernels
from simulator.backends import Backend, Threads, auto_chunk
from simulator.engine import Lineup, Seat, check_run, collect_bids, deal_chunk, play_chunk
from simulator.memory import keep_freed_memory
from simulator.rules import Rules, forbidden_bids
from strategies.base import BidContext
from strategies.heuristics import Expected
from strategies.table import TrickTable, features, table_shape

TRAINING_BIDDER = "expected"  # every seat bids so while the table learns


def count_chunk(rules: Rules, seed: int, policy: str, chunk: tuple[int, int, int]) -> tuple[int, np.ndarray]:
    """Play deals ``first .. first + count - 1`` of hand size ``cards``: ``count``, and hands per cell (int64, flat)."""
    keep_freed_memory()
    cards, first, count = chunk
    players = rules.players
    numbers = np.arange(first, first + count, dtype=np.int64)
    dealt = deal_chunk(rules, seed, cards, numbers)
    collect_bids(rules, [(TRAINING_BIDDER, Expected())], np.zeros(dealt.hands.shape, np.int64), seed, policy, dealt)
    won = play_chunk(rules, seed, policy, dealt)[0]
    by_position = [np.empty((players, count), dtype) for dtype in (np.uint64, np.int64, np.int64)]
    for by_seat, out in zip((dealt.hands, dealt.bids, won), by_position, strict=True):
        kernels.seats_to_positions(by_seat, numbers, out)
    hands, bids, tricks = by_position
    shape = table_shape(rules)
    cells = []
    for position in range(players):
        earlier = np.ascontiguousarray(bids[:position].T)
        ctx = BidContext(
            rules, cards, position, hands[position], dealt.trump_card, earlier,
            forbidden_bids(rules, cards, earlier), seed, numbers, policy,
        )  # fmt: skip
        cells.append(np.ravel_multi_index(np.column_stack([features(ctx), tricks[position]]).T, shape))
    return count, np.bincount(np.concatenate(cells), minlength=int(np.prod(shape))).astype(np.int64)


def train_table(
    rules: Rules,
    deals: int,
    seed: int = 0,
    policy: str = "greedy",
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> TrickTable:
    """Learn a trick table from ``deals`` deals of every hand size 1..full deal.

    Every seat bids ``expected``; per feature cell of each hand, the tricks it took are counted.
    backend: where the chunks are played (default: this thread).
    """
    if deals < 1:
        raise PochaError(f"deals: must be at least 1, not {deals}")
    backend = backend if backend is not None else Threads(1)
    sizes = list(range(1, rules.full_deal + 1))
    chunk_size = chunk_size or auto_chunk(deals, backend, len(sizes))
    check_run(rules, Lineup((Seat(TRAINING_BIDDER, Expected()),) * rules.players), sizes, policy, chunk_size)
    chunks = [(k, first, min(chunk_size, deals - first)) for k in sizes for first in range(0, deals, chunk_size)]
    counts = np.zeros(int(np.prod(table_shape(rules))), np.int64)
    for count, part in backend.run(partial(count_chunk, rules, seed, policy), chunks):
        counts += part
        if progress is not None:
            progress(count)
    return TrickTable(rules, policy, counts.reshape(table_shape(rules)), deals)
