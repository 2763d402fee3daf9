"""Whole games: the schedule's hands one after another, points carried over, ties broken.

Vectorised like the core: each hand of the schedule is one batch over a chunk of games. Game
``g`` plays its hand ``j`` as deal number ``g * stride + j`` (so the deal passes one seat every
hand), tie-break hands included; it depends only on the seed and ``g``, so chunks of games can be
played on any backend.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from pocha.backends import Backend, Threads, auto_chunk
from pocha.deals import Chunk, check_run, collect_bids, deal_chunk, play_chunk
from pocha.errors import PochaError
from pocha.memory import keep_freed_memory
from pocha.rules import Rules
from pocha.runner import run_tasks
from pocha.seating import Lineup
from pocha.strategies.base import Strategy
from pocha.tally import GameTally, Tally

MAX_TIE_HANDS = 1000  # extra one-card hands before a still-tied game is given up (won by nobody)


@dataclass
class GameResult:
    """Games played: per-hand statistics by hand size, game statistics, and whether the run finished."""

    hands: Tally
    games: GameTally
    complete: bool = True

    @property
    def count(self) -> int:
        """Games played."""
        return self.games.games

    def merge(self, other: "GameResult") -> "GameResult":
        """Both results' games together."""
        return GameResult(self.hands.merge(other.hands), self.games.merge(other.games), self.complete)


@dataclass(frozen=True)
class GamePlan:
    """Everything that fixes a games run; picklable for worker processes."""

    rules: Rules
    lineup: Lineup
    seed: int
    policy: str
    rotate: bool

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
    policy: str = "greedy",
    rotate: bool = True,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> GameResult:
    """Play ``games`` whole games; with ``rotate``, game ``g`` seats the line-up moved ``g`` seats on.

    Tied leaders after the schedule play extra one-card hands among all players until one leads.
    Ctrl-C stops after the chunks of games finished so far.
    """
    if games < 1:
        raise PochaError(f"games: must be at least 1, not {games}")
    backend = backend if backend is not None else Threads(1)
    chunk_size = chunk_size or auto_chunk(games, backend)
    check_run(rules, lineup, rules.hand_sizes(), policy, chunk_size)
    plan = GamePlan(rules, lineup, seed, policy, rotate)
    chunks = [(first, min(chunk_size, games - first)) for first in range(0, games, chunk_size)]
    work = partial(play_game_chunk, plan)
    result, complete = run_tasks(backend, work, chunks, plan.empty(), GameResult.merge, progress)
    return replace(result, complete=complete)


def play_game_chunk(plan: GamePlan, chunk: tuple[int, int]) -> GameResult:
    """Play games ``first .. first + count - 1`` to the end: their hand tally and game tally."""
    keep_freed_memory()
    first, count = chunk
    rules, players = plan.rules, plan.rules.players
    schedule = rules.hand_sizes()
    stride = len(schedule) + MAX_TIE_HANDS
    strategies = list(zip(plan.lineup.labels, plan.lineup.strategies, strict=True))
    numbers = np.arange(first, first + count, dtype=np.int64)
    rotation = numbers % players if plan.rotate else np.zeros_like(numbers)
    seating = plan.lineup.seating()[(np.arange(players) - rotation[:, None]) % players]
    part = plan.empty()
    hands = part.hands
    scores = np.zeros((count, players), np.int64)
    for j, cards in enumerate(schedule):
        chunk_, won, points = play_hand(rules, strategies, seating, plan, cards, numbers * stride + j)
        board_points, board_hands = hands.board_arrays(count)
        size_index = plan.sizes.index(cards)
        hands.add_play(size_index, chunk_.deals, seating, chunk_.bids, won, points, board_points, board_hands)
        hands.add_boards(size_index, board_points, board_hands)
        scores += points
    extra = np.zeros(count, np.int64)
    tied = np.flatnonzero(leaders(scores).sum(axis=1) > 1)
    for t in range(MAX_TIE_HANDS):
        if not tied.size:
            break
        deals = numbers[tied] * stride + len(schedule) + t
        scores[tied] += play_hand(rules, strategies, seating[tied], plan, 1, deals)[2]
        extra[tied] += 1
        tied = tied[leaders(scores[tied]).sum(axis=1) > 1]
    top = leaders(scores)
    wins = top & (top.sum(axis=1, keepdims=True) == 1)
    part.games.add(seating, scores, wins.astype(np.int64), extra)
    return part


def leaders(scores: np.ndarray) -> np.ndarray:
    """bool[game, seat]: the seats with the top score of their game."""
    return scores == scores.max(axis=1, keepdims=True)


def play_hand(
    rules: Rules, strategies: list[tuple[str, Strategy]], seating: np.ndarray, plan: GamePlan, cards: int,
    deals: np.ndarray,
) -> tuple[Chunk, np.ndarray, np.ndarray]:  # fmt: skip
    """Deal, bid and play one hand of a batch of games: ``(chunk, won, points)``."""
    chunk = deal_chunk(rules, plan.seed, cards, deals)
    collect_bids(rules, strategies, seating, plan.seed, plan.policy, chunk)
    won, points, _, _ = play_chunk(rules, plan.seed, plan.policy, chunk)
    return chunk, won, points
