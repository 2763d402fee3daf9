"""A run: deal chunks, collect bids position by position from the strategies, play, tally.

Deal ``i`` of hand size ``k`` depends only on ``(seed, k, i)``; its dealer is seat ``i % players``
and seats keep their strategies, so every strategy bids from every position in turn.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

import numpy as np

from reports.stats import Tally
from simulator import PochaError, kernels, trace
from simulator.rules import Rules
from strategies.base import BidContext, Strategy

POLICIES = {"random": kernels.POLICY_RANDOM, "greedy": kernels.POLICY_GREEDY}
PLAY_CODES = {"pocha": kernels.PLAY_POCHA, "trump": kernels.PLAY_TRUMP, "follow": kernels.PLAY_FOLLOW}
DEFAULT_CHUNK = 1 << 14


class StrategyError(PochaError):
    """A strategy returned bids the rules do not allow."""


@dataclass(frozen=True)
class Seat:
    """A seat's strategy and the label it is reported under."""

    label: str
    strategy: Strategy


@dataclass
class Chunk:
    """One chunk of deals of one hand size; arrays are indexed [deal, seat]."""

    cards: int
    first_deal: int  # number of the first deal within its hand size
    hands: np.ndarray  # uint64[deal, seat] as dealt
    trump_card: np.ndarray  # int64[deal]
    bids: np.ndarray  # int64[deal, seat]


def deal_chunk(rules: Rules, seed: int, cards: int, first_deal: int, size: int) -> Chunk:
    """Shuffle and deal ``size`` deals, bids not made yet."""
    hands = np.empty((size, rules.players), np.uint64)
    trump_card = np.empty(size, np.int64)
    kernels.deal_batch(seed, cards, first_deal, rules.deck(), hands, trump_card)
    return Chunk(cards, first_deal, hands, trump_card, np.zeros((size, rules.players), np.int64))


def collect_bids(rules: Rules, seats: Sequence[Seat], seed: int, chunk: Chunk) -> None:
    """Ask each position's strategies for their bids, in bidding order, and check them into ``chunk.bids``."""
    players, cards = rules.players, chunk.cards
    size = len(chunk.hands)
    deals = chunk.first_deal + np.arange(size, dtype=np.int64)
    rows = np.arange(size)
    strategies: dict[str, Strategy] = {}  # one strategy object per label: seats sharing a label bid together
    for each in seats:
        strategies.setdefault(each.label, each.strategy)
    group_of_seat = np.array([list(strategies).index(each.label) for each in seats])
    by_position = np.zeros((size, players), np.int64)
    for position in range(players):
        seat = (deals + 1 + position) % players
        forbidden = forbidden_bids(rules, cards, by_position[:, :position])
        for g, (label, strategy) in enumerate(strategies.items()):
            picked = slice(None) if len(strategies) == 1 else np.flatnonzero(group_of_seat[seat] == g)
            ctx = BidContext(
                rules=rules,
                cards=cards,
                position=position,
                hands=chunk.hands[rows[picked], seat[picked]],
                trump_card=chunk.trump_card[picked],
                earlier_bids=by_position[picked, :position],
                forbidden=forbidden[picked],
                seed=seed,
                deals=deals[picked],
            )
            by_position[picked, position] = checked_bids(label, strategy.bid(ctx), ctx)
        chunk.bids[rows, seat] = by_position[:, position]


def forbidden_bids(rules: Rules, cards: int, earlier_bids: np.ndarray) -> np.ndarray:
    """int64[m]: the bid the hook rule forbids to the bidder after ``earlier_bids`` (int64[m, position]), -1 for none.

    Only the dealer (the last bidder) is restricted: not the bid that makes the sum equal ``cards``.
    """
    size, position = earlier_bids.shape
    if position < rules.players - 1 or not rules.hook_applies(cards):
        return np.full(size, -1, np.int64)
    rest = cards - earlier_bids.sum(axis=1)
    return np.where(rest >= 0, rest, -1)


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
        seed, chunk.cards, chunk.first_deal, chunk.hands, chunk.trump_card, chunk.bids,
        PLAY_CODES[rules.play], POLICIES[policy], scoring, won, points, plays, leaders,
    )  # fmt: skip
    return won, points, plays, leaders


def simulate(
    rules: Rules,
    seats: Sequence[Seat],
    sizes: Sequence[int],
    deals: int,
    seed: int = 0,
    policy: str = "greedy",
    chunk_size: int = DEFAULT_CHUNK,
    trace_stream: IO[str] | None = None,
    trace_deals: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play ``deals`` deals of each hand size in ``sizes`` and return the tally.

    trace_stream: where to write ``pocha-trace/1`` lines (header included), for the first
    ``trace_deals`` deals of the run (all when None). progress: called with each chunk's deal count.
    """
    if len(seats) != rules.players:
        raise PochaError(f"strategy: {len(seats)} strategies for {rules.players} seats; give one, or one per seat")
    if deals < 1:
        raise PochaError(f"deals: must be at least 1, not {deals}")
    if chunk_size < 1:
        raise PochaError(f"chunk size: must be at least 1, not {chunk_size}")
    if policy not in POLICIES:
        raise PochaError(f"play: unknown policy '{policy}'; accepted: {', '.join(POLICIES)}")
    for cards in sizes:
        rules.check_cards(cards)
    labels = tuple(seat.label for seat in seats)
    tally = Tally.empty(labels, tuple(sizes))
    traced = deals * len(sizes) if trace_deals is None else trace_deals
    if trace_stream is not None:
        trace.write_lines(trace_stream, [trace.header(rules, labels, seed, policy)])
    for size_index, cards in enumerate(sizes):
        for first in range(0, deals, chunk_size):
            size = min(chunk_size, deals - first)
            number = size_index * deals + first  # run-wide number of the chunk's first deal
            chunk = deal_chunk(rules, seed, cards, first, size)
            collect_bids(rules, seats, seed, chunk)
            record = trace_stream is not None and number < traced
            won, points, plays, leaders = play_chunk(rules, seed, policy, chunk, record)
            tally.add(size_index, first, chunk.bids, won, points)
            if record and trace_stream is not None:
                keep = min(size, traced - number)
                records = trace.deal_records(
                    rules, number, first, chunk.hands[:keep], chunk.trump_card[:keep], chunk.bids[:keep],
                    plays[:keep], leaders[:keep], won[:keep], points[:keep],
                )  # fmt: skip
                trace.write_lines(trace_stream, records)
            if progress is not None:
                progress(size)
    return tally
