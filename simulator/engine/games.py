"""Whole games: the schedule's hands one after another, points carried over, ties parted by the tie-break rule.

Every game draws its first dealer by lot (from the seed and the game's number); the deal then
passes one seat every hand. With rotation, game ``g`` seats the line-up moved ``g`` seats on from
that first dealer, so over any ``players`` consecutive games each strategy holds each seat relative
to the first dealer once; without it, the line-up keeps its seats and only the lot moves the deal.

Vectorised like the core: each hand of the schedule is one batch over a chunk of games. Hand ``j``
of game ``g`` (tie-break hands after the schedule's) is deal number ``(g * stride + j) * players +
dealer``: unique over games and hands, and ``number % players`` is its dealer, as the kernels read
it. A game depends only on the seed and ``g``, so chunks of games can be played on any backend.
"""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import Any

import numpy as np

from pocha.engine import trace
from pocha.engine.backends import Backend, Threads, auto_chunk
from pocha.engine.chunk import Chunk, check_run, collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.memory import keep_freed_memory
from pocha.engine.policies import GREEDY, PlayPolicy
from pocha.engine.runner import run_tasks
from pocha.engine.seating import Lineup
from pocha.engine.tally import GameTally, Tally
from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.kernels.codes import STREAM_LOT
from pocha.kernels.play import Policies
from pocha.kernels.streams import uniform_batch

MAX_TIE_HANDS = 1000  # extra one-card hands before a still-tied game is given up (its first place shared)


@dataclass
class GameResult:
    """Games played: per-hand statistics by hand size, game statistics, trace records, whether the run finished."""

    hands: Tally
    games: GameTally
    complete: bool = True
    records: list[dict[str, Any]] = field(default_factory=list, repr=False)  # traced deals, game by game

    @property
    def count(self) -> int:
        """Games played."""
        return self.games.games

    def merge(self, other: "GameResult") -> "GameResult":
        """Both results' games together (trace records are written as they come, not kept)."""
        return GameResult(self.hands.merge(other.hands), self.games.merge(other.games), self.complete)


@dataclass(frozen=True)
class GamePlan:
    """Everything that fixes a games run; picklable for worker processes."""

    rules: Rules
    lineup: Lineup
    seed: int
    policy: PlayPolicy  # of the seats that name none
    rotate: bool
    traced: int = 0  # games to trace, from game 0

    @property
    def sizes(self) -> tuple[int, ...]:
        """The distinct hand sizes of the schedule (the hand tally's sizes)."""
        return tuple(sorted(set(self.rules.hand_sizes())))

    def empty(self) -> GameResult:
        """No game played yet."""
        held = np.bincount(self.lineup.seating(), minlength=len(self.lineup.labels))
        hands = Tally.empty(self.lineup.labels, self.rules.players, self.sizes)
        return GameResult(hands, GameTally.empty(self.lineup.labels, held))


def play_games(
    rules: Rules,
    lineup: Lineup,
    games: int,
    seed: int = 0,
    policy: PlayPolicy = GREEDY,
    rotate: bool = True,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    trace_stream: Any = None,
    trace_games: int | None = None,
) -> GameResult:
    """Play ``games`` whole games (see the module docstring); Ctrl-C stops after the chunks finished so far.

    trace_stream: where to write ``pocha-trace/1`` lines (header included) for every deal of the
    first ``trace_games`` games (all when None), game by game in play order (ordered backends only).
    """
    if games < 1:
        raise PochaError(f"games: must be at least 1, not {games}")
    backend = backend if backend is not None else Threads(1)
    chunk_size = chunk_size or auto_chunk(games, backend)
    check_run(rules, lineup, rules.hand_sizes(), chunk_size)
    traced = 0
    if trace_stream is not None:
        if not backend.ordered:
            raise PochaError("trace: games are traced on the local backend only")
        traced = games if trace_games is None else trace_games
        trace.write_lines(trace_stream, [trace.header(rules, [s.label for s in lineup.seats], seed, policy.label)])
    plan = GamePlan(rules, lineup, seed, policy, rotate, traced)
    chunks = ((first, min(chunk_size, games - first)) for first in range(0, games, chunk_size))  # made as needed

    def merge(total: GameResult, part: GameResult) -> GameResult:
        if trace_stream is not None:
            trace.write_lines(trace_stream, part.records)
        return total.merge(part)

    result, complete = run_tasks(backend, partial(play_game_chunk, plan), chunks, plan.empty(), merge, progress)
    return replace(result, complete=complete)


def first_dealers(seed: int, games: np.ndarray, players: int) -> np.ndarray:
    """int64[game]: each game's first dealer, drawn by lot from stream STREAM_LOT of the game's number."""
    draws = np.empty((len(games), 1))
    uniform_batch(seed, 0, games, STREAM_LOT, draws)
    return np.minimum((draws[:, 0] * players).astype(np.int64), players - 1)


def game_seating(lineup: np.ndarray, games: np.ndarray, first: np.ndarray, rotate: bool) -> np.ndarray:
    """int64[game, seat]: the strategy index at each seat of each game.

    lineup int64[seat]: the line-up's strategy indexes. With rotation the strategy at place ``i``
    of the line-up sits ``i + g`` seats after game ``g``'s first dealer; without, at seat ``i``.
    """
    players = len(lineup)
    if not rotate:
        return np.broadcast_to(lineup, (len(games), players)).copy()
    after_first_dealer = (np.arange(players)[None, :] - first[:, None]) % players
    return lineup[(after_first_dealer - games[:, None]) % players]


def first_place(scores: np.ndarray, running: np.ndarray) -> np.ndarray:
    """bool[game, seat]: the seats still in the running with the top score among them."""
    top = np.where(running, scores, np.iinfo(np.int64).min).max(axis=1, keepdims=True)
    return running & (scores == top)


def break_ties(
    scores: np.ndarray, tie_break: str, extra_hand: Callable[[np.ndarray, int], np.ndarray]
) -> tuple[np.ndarray, np.ndarray, int]:
    """Part tied leaders by the tie-break rule (``Rules.tie_break``); scores int64[game, seat] gain the extra hands.

    extra_hand(rows, t) plays tie-break hand ``t`` of the games ``rows`` (every player plays) and
    returns their points int64[row, seat]. ``all``: every score counts, until one seat leads;
    ``tied``: only the seats tied so far stay in the running; ``one``: a single hand, after which
    a tie stands. Returns (first bool[game, seat]: one seat, or several sharing first place;
    extra hands per game int64[game]; games still tied when MAX_TIE_HANDS ran out).
    """
    running = np.ones(scores.shape, bool)
    first = first_place(scores, running)
    tied = np.flatnonzero(first.sum(axis=1) > 1)
    extra = np.zeros(len(scores), np.int64)
    limit = 1 if tie_break == "one" else MAX_TIE_HANDS
    for t in range(limit):
        if not tied.size:
            break
        scores[tied] += extra_hand(tied, t)
        extra[tied] += 1
        if tie_break == "tied":
            running[tied] = first[tied]
        first[tied] = first_place(scores[tied], running[tied])
        tied = tied[first[tied].sum(axis=1) > 1]
    return first, extra, len(tied) if tie_break != "one" else 0


@dataclass(frozen=True)
class GameHands:
    """A chunk of games at the table: their numbers, first dealers and seating; plays one hand at a time."""

    plan: GamePlan
    numbers: np.ndarray  # int64[game]
    first: np.ndarray  # int64[game]: first dealers
    seating: np.ndarray  # int64[game, seat]

    def deals(self, hand: int, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """int64[game]: the deal numbers of hand ``hand`` of the games ``rows`` (see the module docstring)."""
        players = self.plan.rules.players
        stride = len(self.plan.rules.hand_sizes()) + MAX_TIE_HANDS
        return (self.numbers[rows] * stride + hand) * players + (self.first[rows] + hand) % players

    @cached_property
    def policies(self) -> Policies:
        """The play policies of every game's seats (``seat_policies``): the same at every hand."""
        return seat_policies(self.plan.lineup.players(self.plan.policy), self.seating)

    def play(
        self, hand: int, cards: int, rows: np.ndarray | slice, records: list[list[dict[str, Any]]]
    ) -> tuple[Chunk, np.ndarray, np.ndarray]:
        """Deal, bid and play hand ``hand`` of the games ``rows``: ``(chunk, won, points)``.

        The traced games among them add their deal records to ``records`` (one list per game).
        """
        plan, rules = self.plan, self.plan.rules
        numbers = self.numbers[rows]
        strategies = plan.lineup.players(plan.policy)
        chunk = deal_chunk(rules, plan.seed, cards, self.deals(hand, rows))
        seating = self.seating[rows]
        collect_bids(rules, strategies, seating, plan.seed, chunk)
        record = bool(numbers[0] < plan.traced)
        codes, samples = self.policies
        policies = Policies(np.ascontiguousarray(codes[rows]), np.ascontiguousarray(samples[rows]))
        won, points, plays, leaders = play_chunk(rules, plan.seed, chunk, policies, record)
        if record:
            shown = int(np.searchsorted(numbers, plan.traced))
            lines = trace.deal_records(rules, chunk.deals, chunk, plays, leaders, won, points, shown)
            for row, line in zip(np.arange(len(self.numbers))[rows][:shown], lines, strict=True):
                seats = [plan.lineup.labels[g] for g in self.seating[row]]
                records[row].append({**line, "game": int(self.numbers[row]), "hand": hand, "strategies": seats})
        return chunk, won, points


def play_game_chunk(plan: GamePlan, chunk: tuple[int, int]) -> GameResult:
    """Play games ``first .. first + count - 1`` to the end: their hand tally, game tally and trace records."""
    keep_freed_memory()
    start, count = chunk
    rules, players = plan.rules, plan.rules.players
    schedule = rules.hand_sizes()
    numbers = np.arange(start, start + count, dtype=np.int64)
    first = first_dealers(plan.seed, numbers, players)
    table = GameHands(plan, numbers, first, game_seating(plan.lineup.seating(), numbers, first, plan.rotate))
    part = plan.empty()
    records: list[list[dict[str, Any]]] = [[] for _ in range(min(count, max(0, plan.traced - start)))]
    scores = np.zeros((count, players), np.int64)
    for j, cards in enumerate(schedule):
        dealt, won, points = table.play(j, cards, slice(None), records)
        board = part.hands.board_sums(count)
        size_index = plan.sizes.index(cards)
        part.hands.add_play(size_index, dealt.deals, table.seating, dealt.bids, won, points, board)
        part.hands.add_boards(size_index, board)
        scores += points

    def extra_hand(rows: np.ndarray, t: int) -> np.ndarray:
        return table.play(len(schedule) + t, 1, rows, records)[2]

    top, extra, unresolved = break_ties(scores, rules.tie_break, extra_hand)
    part.games.add(table.seating, scores, top, extra, unresolved)
    part.records = [line for game in records for line in game]
    return part
