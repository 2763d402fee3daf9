"""``pocha train``: learn a trick table (see ``pocha.strategies.table``) from simulated deals.

The deals are cut into chunks like a run's, played on a backend (threads by default); each chunk
returns integer counts, so the table is the same for any backend, thread count or chunk size.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from pocha.engine.backends import Backend, Threads, auto_chunk
from pocha.engine.chunk import check_run, collect_bids, deal_chunk, play_chunk, same_policy
from pocha.engine.memory import keep_freed_memory
from pocha.engine.policies import GREEDY, PlayPolicy
from pocha.engine.runner import run_tasks
from pocha.engine.seating import Lineup, Player, Seat
from pocha.errors import PochaError
from pocha.game.rules import Rules, forbidden_bids
from pocha.kernels.seats import seats_to_positions
from pocha.strategies.base import BidContext
from pocha.strategies.heuristics import Expected
from pocha.strategies.table import TrickTable, features, table_shape

TRAINING_BIDDER = "expected"  # every seat bids so while the table learns


@dataclass(frozen=True)
class Counts:
    """Hands per feature cell and tricks taken (int64, flat) from ``count`` deals."""

    count: int
    cells: np.ndarray

    def merge(self, other: "Counts") -> "Counts":
        """Both counts together."""
        return Counts(self.count + other.count, self.cells + other.cells)


def count_chunk(rules: Rules, seed: int, policy: PlayPolicy, chunk: tuple[int, int, int]) -> Counts:
    """Play deals ``first .. first + count - 1`` of hand size ``cards`` and count their hands per cell."""
    keep_freed_memory()
    cards, first, count = chunk
    players = rules.players
    numbers = np.arange(first, first + count, dtype=np.int64)
    dealt = deal_chunk(rules, seed, cards, numbers)
    bidder = Player(TRAINING_BIDDER, Expected(), policy)
    collect_bids(rules, [bidder], np.zeros(dealt.hands.shape, np.int64), seed, dealt)
    won = play_chunk(rules, seed, dealt, same_policy(policy, dealt))[0]
    by_position = [np.empty((players, count), dtype) for dtype in (np.uint64, np.int64, np.int64)]
    for by_seat, out in zip((dealt.hands, dealt.bids, won), by_position, strict=True):
        seats_to_positions(by_seat, numbers, out)
    hands, bids, tricks = by_position
    shape = table_shape(rules)
    cells = []
    for position in range(players):
        earlier = np.ascontiguousarray(bids[:position].T)
        ctx = BidContext(
            rules, cards, position, hands[position], dealt.trump_card, earlier,
            forbidden_bids(rules, cards, earlier), seed, numbers, policy.label,
        )  # fmt: skip
        cells.append(np.ravel_multi_index(np.column_stack([features(ctx), tricks[position]]).T, shape))
    return Counts(count, np.bincount(np.concatenate(cells), minlength=int(np.prod(shape))).astype(np.int64))


def train_table(
    rules: Rules,
    deals: int,
    seed: int = 0,
    policy: PlayPolicy = GREEDY,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> TrickTable | None:
    """Learn a trick table from ``deals`` deals of every hand size 1..full deal; None if Ctrl-C stopped it.

    Every seat bids ``expected``; per feature cell of each hand, the tricks it took are counted.
    backend: where the chunks are played (default: this thread).
    """
    if deals < 1:
        raise PochaError(f"deals: must be at least 1, not {deals}")
    backend = backend if backend is not None else Threads(1)
    sizes = list(range(1, rules.full_deal + 1))
    chunk_size = chunk_size or auto_chunk(deals, backend, len(sizes))
    check_run(rules, Lineup((Seat(TRAINING_BIDDER, Expected()),) * rules.players), sizes, chunk_size)
    chunks = ((k, first, min(chunk_size, deals - first)) for first in range(0, deals, chunk_size) for k in sizes)
    empty = Counts(0, np.zeros(int(np.prod(table_shape(rules))), np.int64))
    work = partial(count_chunk, rules, seed, policy)
    counts, complete = run_tasks(backend, work, chunks, empty, Counts.merge, progress)
    if not complete:
        return None
    return TrickTable(rules, policy.label, counts.cells.reshape(table_shape(rules)), deals)
