"""``pocha train``: learn a trick table (see ``pocha.strategies.table``) from simulated deals, or one on first use.

The deals are cut into chunks like a run's (``DealChunks``) and played by the runner; each chunk
returns integer counts, so the table is the same for any backend, thread count or chunk size.
Here ``deals_per_size`` is a count, ``cards`` the hand sizes and ``numbers`` deal numbers.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pocha.engine.atomic import atomic_path, check_folder_writable
from pocha.engine.backends import Backend, Threads
from pocha.engine.chunk import check_run, collect_bids, deal_chunk, play_chunk, position_contexts, same_policy
from pocha.engine.policies import parse_policy
from pocha.engine.runner import Outputs, run
from pocha.engine.seating import Competitor, Entrant, Lineup
from pocha.engine.simulate import DealChunks
from pocha.engine.workload import Part
from pocha.errors import PochaError
from pocha.kernels.cache import prune
from pocha.kernels.seats import seats_to_positions
from pocha.strategies.heuristics import Expected
from pocha.strategies.table import LEARN_SEED, DefaultTable, TrickTable, features, table_shape

TRAINING_BIDDER = "expected"  # every seat bids so while the table learns


@dataclass(frozen=True, kw_only=True)
class Training(DealChunks):
    """A trick table learned from ``deals_per_size`` deals of each hand size 1..full deal, every seat bidding expected.

    Its total is int64[cell], hands per feature cell and tricks taken (flat).
    """

    cards: tuple[int, ...] = ()  # always every hand size 1..full deal

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(range(1, self.rules.full_deal + 1)))
        super().__post_init__()

    def check(self, backend: Backend, traced: bool, predicted: bool) -> None:
        """Refuse rules that cannot deal every hand size to a table of the training bidder."""
        super().check(backend, traced, predicted)
        lineup = Lineup((Entrant(TRAINING_BIDDER, Expected()),) * self.rules.players)
        check_run(self.rules, lineup, self.cards, self.chunk)

    def run(self, index: int) -> Part[np.ndarray]:
        """Play chunk ``index`` and count its hands per cell."""
        task = self.task(index)
        rules, seed, policy, cards = self.rules, self.seed, self.policy, self.cards[task.size_index]
        players = rules.players
        numbers = np.arange(task.first, task.first + task.count, dtype=np.int64)
        dealt = deal_chunk(rules, seed, cards, numbers)
        bidder = Competitor(TRAINING_BIDDER, Expected(), policy)
        collect_bids(rules, [bidder], np.zeros(dealt.hands.shape, np.int64), seed, dealt)
        won = play_chunk(rules, seed, dealt, same_policy(policy, dealt))[0]
        tricks = np.empty((players, task.count), np.int64)
        seats_to_positions(won, numbers, tricks)
        shape = table_shape(rules)
        cells = [
            np.ravel_multi_index(np.column_stack([features(ctx), tricks[ctx.position]]).T, shape)
            for ctx in position_contexts(rules, dealt, seed, policy.label)
        ]
        return Part(np.bincount(np.concatenate(cells), minlength=int(np.prod(shape))).astype(np.int64))

    def empty(self) -> np.ndarray:
        """No hand counted yet."""
        return np.zeros(int(np.prod(table_shape(self.rules))), np.int64)

    def merge(self, total: np.ndarray, part: np.ndarray) -> np.ndarray:
        """Both counts together."""
        return total + part

    def to_dict(self) -> dict[str, Any]:
        """The run as plain data."""
        return {
            "rules": self.rules.to_dict(),
            **super().to_dict(),
            "cards": list(self.cards),
            "deals_per_size": self.deals_per_size,
        }


def train_table(plan: Training, outputs: Outputs = Outputs(), backend: Backend = Threads(1)) -> TrickTable | None:
    """Learn a trick table (every seat bidding ``expected``, tricks counted per feature cell); None after Ctrl-C."""
    counted = run(plan, backend, outputs)
    if not counted.complete:
        return None
    return TrickTable(
        plan.rules, plan.policy.label, counted.total.reshape(table_shape(plan.rules)), plan.deals_per_size
    )


def learn_default(default: DefaultTable, backend: Backend, progress: Callable[[int], None] | None) -> TrickTable | None:
    """Learn a default table into pocha's cache folder, written whole (``DefaultTable``); None after Ctrl-C."""
    folder = default.path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PochaError(
            f"table: cannot make the cache folder '{folder}' ({error.strerror or error}); "
            "set POCHA_CACHE_DIR to a folder you can write"
        ) from None
    check_folder_writable(folder, "table cache (POCHA_CACHE_DIR)")
    prune(folder.parent)  # other versions' tables, unused for a month
    plan = Training(
        rules=default.rules, deals_per_size=default.deals, seed=LEARN_SEED, policy=parse_policy(default.play)
    )
    table = train_table(plan, Outputs(progress=progress), backend)
    if table is not None:
        with atomic_path(default.path) as temporary:
            table.save(temporary)
    return table
