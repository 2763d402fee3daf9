"""``pocha models``: the bids a table makes, and what each candidate model of a bidder bids in their place.

Every deal is dealt and bid by the line-up as in a run of deals; no card is played, since a bid
depends only on the deal and the bids before it. At each bidding position every model bids the
same hand after the same real earlier bids, under the same hook rule, with random streams apart
from the table's (the seed salted as montecarlo salts its assumed bidders').
``pocha.reports.models`` scores the models on these rows.
Here ``deals_per_size`` is a count, ``cards`` the hand sizes and ``numbers`` deal numbers.
"""

from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from pocha.engine.backends import Backend, Threads
from pocha.engine.chunk import check_run, collect_bids, deal_chunk, position_contexts
from pocha.engine.dealing import Conditioned, conditions_at, conditions_entry
from pocha.engine.runner import Outputs, RunTotal, run
from pocha.engine.seating import Entrant, Lineup
from pocha.engine.simulate import DealChunks
from pocha.engine.workload import Part, seated
from pocha.errors import PochaError
from pocha.kernels.seats import seats_to_positions
from pocha.strategies.base import checked_bids
from pocha.strategies.playouts import ASSUMED_SEED_SALT


@dataclass(frozen=True)
class BidRows:
    """One row per hand bid: where it was bid, the bid made, the bid the hook forbade, and each model's bid."""

    cards: np.ndarray  # int64[row]: the hand size
    numbers: np.ndarray  # int64[row]: the deal number within its hand size
    position: np.ndarray  # int64[row]: 0 = the first bidder
    bid: np.ndarray  # int64[row]: the bid the table made
    forbidden: np.ndarray  # int64[row]: the bid the hook rule forbade, -1 for none
    model_bids: np.ndarray  # int64[row, model]: each model's bid in the same place

    @classmethod
    def empty(cls, models: int) -> "BidRows":
        """No row yet."""
        none = np.empty(0, np.int64)
        return cls(none, none, none, none, none, np.empty((0, models), np.int64))

    def __len__(self) -> int:
        return len(self.bid)

    def joined(self, other: "BidRows") -> "BidRows":
        """The rows of both."""
        return BidRows(
            *(np.concatenate([getattr(self, item.name), getattr(other, item.name)]) for item in fields(self))
        )

    def take(self, rows: np.ndarray) -> "BidRows":
        """Some of the rows: a boolean mask or row indexes."""
        return BidRows(*(getattr(self, item.name)[rows] for item in fields(self)))

    def in_order(self) -> "BidRows":
        """The rows by hand size, deal and position: the same whatever order the parts came in."""
        return self.take(np.lexsort((self.position, self.numbers, self.cards)))


@dataclass(frozen=True, kw_only=True)
class ModelBids(DealChunks):
    """The bids of ``lineup`` on ``deals_per_size`` deals of each of its ``cards``, and the ``models``' bids beside.

    The plan of ``pocha models``; its total is the ``BidRows`` of every deal. policy: of the seats
    that name none, what the bidders bid for. families: each model's family, by model, scored as its
    best member (none given: each model its own). conditioned: the deal conditions every deal meets
    (None: any deal).
    """

    lineup: Lineup
    models: tuple[Entrant, ...]
    families: tuple[str, ...] = ()
    conditioned: Conditioned | None = None

    @property
    def bidders(self) -> Lineup:
        """The table, and the models bidding beside it (for the run's play)."""
        return Lineup((*self.lineup.seats, *self.models))

    def check(self, backend: Backend, traced: bool, predicted: bool) -> None:
        """Refuse a run without a model, or whose rules cannot deal its table."""
        if not self.models:
            raise PochaError("model: give at least one model to score")
        super().check(backend, traced, predicted)
        check_run(self.rules, self.lineup, self.cards, self.chunk)

    def run(self, index: int) -> Part[BidRows]:
        """Deal and bid chunk ``index``; ask every model for its bid at every position."""
        task = self.task(index)
        rules, cards, players = self.rules, self.cards[task.size_index], self.rules.players
        numbers = np.arange(task.first, task.first + task.count, dtype=np.int64)
        dealt = deal_chunk(rules, self.seed, cards, numbers, conditions_at(self.conditioned, cards))
        seating = np.broadcast_to(self.lineup.seating(), dealt.hands.shape)
        collect_bids(rules, self.lineup.competitors(self.policy), seating, self.seed, dealt)
        bids = np.empty((players, task.count), np.int64)
        seats_to_positions(dealt.bids, numbers, bids)
        contexts = position_contexts(rules, dealt, self.seed ^ ASSUMED_SEED_SALT, self.policy.label)
        forbidden = np.array([ctx.forbidden for ctx in contexts])
        model_bids = np.empty((players, task.count, len(self.models)), np.int64)
        for position, ctx in enumerate(contexts):
            for m, model in enumerate(self.models):
                model_bids[position, :, m] = checked_bids(model.label, model.strategy, replace(ctx, _draws=0))
        rows = BidRows(
            cards=np.full(players * task.count, cards, np.int64),
            numbers=np.tile(numbers, players),
            position=np.repeat(np.arange(players, dtype=np.int64), task.count),
            bid=bids.ravel(),
            forbidden=forbidden.ravel(),
            model_bids=model_bids.reshape(-1, len(self.models)),
        )
        return Part(rows)

    def empty(self) -> BidRows:
        """No row yet."""
        return BidRows.empty(len(self.models))

    def merge(self, total: BidRows, part: BidRows) -> BidRows:
        """Both parts' rows (``in_order`` sorts them once the run is done)."""
        return total.joined(part)

    def to_dict(self) -> dict[str, Any]:
        """The run as plain data."""
        return {
            "rules": self.rules.to_dict(),
            **seated(self.lineup, self.policy),
            **super().to_dict(),
            "models": [model.label for model in self.models],
            "families": list(self.families) or [model.label for model in self.models],
            "cards": list(self.cards),
            "deals_per_size": self.deals_per_size,
            **conditions_entry(self.conditioned),
        }


def record_bids(bids: ModelBids, outputs: Outputs = Outputs(), backend: Backend = Threads(1)) -> RunTotal[BidRows]:
    """Deal and bid the plan's deals, each model bidding beside the table; Ctrl-C keeps the chunks finished."""
    recorded = run(bids, backend, outputs)
    return RunTotal(recorded.total.in_order(), recorded.complete)
