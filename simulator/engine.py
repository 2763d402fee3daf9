"""A run: deal chunks, collect bids position by position from the strategies, play, tally.

Deal number ``i`` of hand size ``k`` depends only on ``(seed, k, i)``; its dealer is seat
``i % players``. A ``Lineup`` seats the strategies; in duplicate every deal is played once per
rotation of the seating, so every strategy bids every seat's cards.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from reports.stats import Tally
from simulator import PochaError, kernels, trace
from simulator.backends import Backend, Threads, auto_chunk
from simulator.memory import keep_freed_memory
from simulator.rules import Rules, forbidden_bids
from strategies.base import BidContext, Strategy

if TYPE_CHECKING:
    from simulator.checkpoint import Checkpoint

POLICIES, PLAY_CODES = kernels.POLICIES, kernels.PLAY_CODES


class StrategyError(PochaError):
    """A strategy returned bids the rules do not allow."""


@dataclass(frozen=True)
class Seat:
    """A seat's strategy and the label it is reported under."""

    label: str
    strategy: Strategy


@dataclass(frozen=True)
class Lineup:
    """The strategies at the table, seat by seat; seats sharing a label are one strategy."""

    seats: tuple[Seat, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        """Distinct strategy labels, in seat order of first appearance (the tally's strategies)."""
        return tuple(dict.fromkeys(seat.label for seat in self.seats))

    @property
    def strategies(self) -> list[Strategy]:
        """One strategy object per label."""
        first: dict[str, Strategy] = {}
        for seat in self.seats:
            first.setdefault(seat.label, seat.strategy)
        return list(first.values())

    def seating(self, rotation: int = 0) -> np.ndarray:
        """int64[seat]: the strategy index at each seat, the line-up moved ``rotation`` seats on."""
        index = [self.labels.index(seat.label) for seat in self.seats]
        return np.roll(np.array(index, np.int64), rotation)


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
                bids[position, picked] = checked_bids(label, strategy.bid(ctx), ctx)
    kernels.positions_to_seats(bids, chunk.deals, chunk.bids)


def checked_bids(label: str, bids: object, ctx: BidContext) -> np.ndarray:
    """The strategy's bids if they are whole numbers in 0..k and never the forbidden bid; else StrategyError."""
    array = np.asarray(bids)
    where = f"strategy '{label}' at position {ctx.position + 1} with {ctx.cards} cards"
    if array.shape != (ctx.size,) or not np.issubdtype(array.dtype, np.integer):
        raise StrategyError(
            f"{where} returned {array.dtype} bids of shape {array.shape}; expected {ctx.size} whole numbers"
        )
    wrong = np.flatnonzero((array < 0) | (array > ctx.cards))
    if wrong.size:
        i = wrong[0]
        raise StrategyError(f"{where} bid {array[i]} in deal {ctx.deals[i]}; bids are 0..{ctx.cards}")
    hooked = np.flatnonzero(array == ctx.forbidden)
    if hooked.size:
        i = hooked[0]
        raise StrategyError(
            f"{where} bid {array[i]} as dealer in deal {ctx.deals[i]}, which the hook rule forbids "
            f"(the bids would sum to the {ctx.cards} tricks)"
        )
    return array.astype(np.int64, copy=False)


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
    scoring = np.array([rules.scoring.exact, rules.scoring.per_trick, rules.scoring.miss_per_trick], np.int64)
    kernels.play_batch(
        seed, chunk.cards, chunk.deals, chunk.hands, chunk.trump_card, chunk.bids,
        PLAY_CODES[rules.play], POLICIES[policy], scoring, won, points, plays, leaders,
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


@dataclass
class Result:
    """A run's tally, and whether it ran to the end (False after Ctrl-C: the tally holds the finished boards)."""

    tally: Tally
    complete: bool = True


@dataclass(frozen=True)
class Task:
    """One chunk of a run: ``count`` deals of hand size ``sizes[size_index]`` from deal number ``first``."""

    index: int  # position in the run's task list (what a checkpoint remembers)
    size_index: int
    first: int
    count: int


@dataclass(frozen=True)
class Plan:
    """Everything that fixes a run's results; picklable, so worker processes can play its tasks."""

    rules: Rules
    lineup: Lineup
    sizes: tuple[int, ...]
    deals: int
    seed: int
    policy: str
    duplicate: bool
    chunk_size: int

    def tasks(self) -> list[Task]:
        """The run's chunks, hand size by hand size."""
        starts = [(i, first) for i in range(len(self.sizes)) for first in range(0, self.deals, self.chunk_size)]
        return [Task(n, i, first, min(self.chunk_size, self.deals - first)) for n, (i, first) in enumerate(starts)]

    def fingerprint(self) -> dict[str, Any]:
        """The options as plain data, to recognise the same run again (checkpoints)."""
        return {
            "rules": self.rules.to_dict(),
            "strategies": [seat.label for seat in self.lineup.seats],
            "sizes": list(self.sizes),
            "deals": self.deals,
            "seed": self.seed,
            "policy": self.policy,
            "duplicate": self.duplicate,
            "chunk_size": self.chunk_size,
        }

    def empty_tally(self) -> Tally:
        """Zeroed accumulators for this run."""
        return Tally.empty(self.lineup.labels, self.rules.players, self.sizes)


@dataclass
class TaskResult:
    """A played chunk: its tally and, when asked, its trace records."""

    task: Task
    tally: Tally
    records: list[dict[str, Any]]


def play_task(plan: Plan, task: Task, traced: int = 0) -> TaskResult:
    """Deal, bid, play and tally one chunk (in every rotation of the seating, in duplicate).

    traced: the run-wide number of deals to trace; the chunk records those it holds.
    """
    keep_freed_memory()
    rules, lineup = plan.rules, plan.lineup
    cards = plan.sizes[task.size_index]
    strategies = list(zip(lineup.labels, lineup.strategies, strict=True))
    numbers = np.arange(task.first, task.first + task.count, dtype=np.int64)
    number = task.size_index * plan.deals + task.first  # run-wide number of the chunk's first deal
    record = number < traced
    chunk = deal_chunk(rules, plan.seed, cards, numbers)
    part = plan.empty_tally()
    board_points, board_hands = part.board_arrays(task.count)
    records: list[dict[str, Any]] = []
    for rotation in range(rules.players if plan.duplicate else 1):
        seating = np.broadcast_to(lineup.seating(rotation), chunk.hands.shape)
        collect_bids(rules, strategies, seating, plan.seed, plan.policy, chunk)
        won, points, plays, leaders = play_chunk(rules, plan.seed, plan.policy, chunk, record)
        part.add_play(task.size_index, numbers, seating, chunk.bids, won, points, board_points, board_hands)
        if record:
            records = trace.deal_records(
                rules, number, chunk, plays, leaders, won, points, min(task.count, traced - number)
            )
    part.add_boards(task.size_index, board_points, board_hands)
    return TaskResult(task, part, records)


def simulate(
    rules: Rules,
    lineup: Lineup,
    sizes: Sequence[int],
    deals: int,
    seed: int = 0,
    policy: str = "greedy",
    duplicate: bool = False,
    chunk_size: int | None = None,
    trace_stream: IO[str] | None = None,
    trace_deals: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    checkpoint: "Checkpoint | None" = None,
) -> Result:
    """Play ``deals`` deals (boards) of each hand size in ``sizes`` and tally them.

    duplicate: play every deal once per rotation of the seating. trace_stream: where to write
    ``pocha-trace/1`` lines (header included) for the first ``trace_deals`` deals of the run (all
    when None; plain seating, ordered backends only). progress: called with each chunk's deal
    count. backend: where chunks are played (default: this thread). chunk_size: deals per chunk
    (default: the resumed run's, else ``auto_chunk``; results do not depend on it). checkpoint:
    saves the finished chunks now and then and on Ctrl-C, and may resume a run. Ctrl-C stops the
    run after the boards finished so far.
    """
    if deals < 1:
        raise PochaError(f"deals: must be at least 1, not {deals}")
    backend = backend if backend is not None else Threads(1)
    if chunk_size is None:
        saved = checkpoint.saved_chunk_size() if checkpoint else None
        chunk_size = saved or auto_chunk(deals, backend, len(sizes))
    check_run(rules, lineup, sizes, policy, chunk_size)
    if trace_stream is not None and (duplicate or not backend.ordered):
        raise PochaError("trace: deals are traced in plain seating on the local backend only")
    plan = Plan(rules, lineup, tuple(sizes), deals, seed, policy, duplicate, chunk_size)
    tally, done = checkpoint.start(plan) if checkpoint else (plan.empty_tally(), set())
    traced = 0
    if trace_stream is not None:
        traced = deals * len(sizes) if trace_deals is None else trace_deals
        trace.write_lines(trace_stream, [trace.header(rules, [s.label for s in lineup.seats], seed, policy)])
    todo = [task for task in plan.tasks() if task.index not in done]
    if progress is not None and done:
        progress(sum(task.count for task in plan.tasks() if task.index in done))
    try:
        for result in backend.run(partial(play_task, plan, traced=traced), todo):
            tally = tally.merge(result.tally)
            done.add(result.task.index)
            if trace_stream is not None:
                trace.write_lines(trace_stream, result.records)
            if progress is not None:
                progress(result.task.count)
            if checkpoint:
                checkpoint.tick(plan, tally, done)
    except KeyboardInterrupt:
        if checkpoint:
            checkpoint.save(plan, tally, done)
        return Result(tally, complete=False)
    if checkpoint:
        checkpoint.save(plan, tally, done)
    return Result(tally)
