"""Whole games: the schedule's hands one after another, points carried over, ties broken.

Vectorised like the core: each hand of the schedule is one batch over a chunk of games. Game
``g`` plays its hand ``j`` as deal number ``g * STRIDE + j`` (so the deal passes one seat every
hand), tie-break hands included; it depends only on the seed and ``g``.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from reports.game_stats import GameTally
from reports.stats import Tally
from simulator import PochaError
from simulator.engine import DEFAULT_CHUNK, Chunk, Lineup, check_run, collect_bids, deal_chunk, play_chunk
from simulator.rules import Rules
from strategies.base import Strategy

MAX_TIE_HANDS = 1000  # extra one-card hands before a still-tied game is given up (won by nobody)


@dataclass
class GameResult:
    """Games played: per-hand statistics by hand size, game statistics, and whether the run finished."""

    hands: Tally
    games: GameTally
    complete: bool = True


def play_games(
    rules: Rules,
    lineup: Lineup,
    games: int,
    seed: int = 0,
    policy: str = "greedy",
    rotate: bool = True,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> GameResult:
    """Play ``games`` whole games; with ``rotate``, game ``g`` seats the line-up moved ``g`` seats on.

    Tied leaders after the schedule play extra one-card hands among all players until one leads.
    Ctrl-C stops after the chunks of games finished so far.
    """
    schedule = rules.hand_sizes()
    check_run(rules, lineup, schedule, policy, chunk_size)
    if games < 1:
        raise PochaError(f"games: must be at least 1, not {games}")
    sizes = tuple(sorted(set(schedule)))
    stride = len(schedule) + MAX_TIE_HANDS
    base = lineup.seating()
    seats_held = np.bincount(base, minlength=len(lineup.labels))
    strategies = list(zip(lineup.labels, lineup.strategies, strict=True))
    hands = Tally.empty(lineup.labels, rules.players, sizes)
    results = GameTally.empty(lineup.labels, seats_held)
    try:
        for first in range(0, games, chunk_size):
            numbers = np.arange(first, min(first + chunk_size, games), dtype=np.int64)
            rotation = numbers % rules.players if rotate else np.zeros_like(numbers)
            seating = base[(np.arange(rules.players) - rotation[:, None]) % rules.players]
            part = Tally.empty(hands.strategies, hands.players, hands.sizes)
            scores = np.zeros((len(numbers), rules.players), np.int64)
            for j, cards in enumerate(schedule):
                chunk, won, points = play_hand(rules, strategies, seating, seed, policy, cards, numbers * stride + j)
                board_points, board_hands = part.board_arrays(len(numbers))
                part.add_play(
                    sizes.index(cards), chunk.deals, seating, chunk.bids, won, points, board_points, board_hands
                )
                part.add_boards(sizes.index(cards), board_points, board_hands)
                scores += points
            extra = np.zeros(len(numbers), np.int64)
            tied = np.flatnonzero(leaders(scores).sum(axis=1) > 1)
            for t in range(MAX_TIE_HANDS):
                if not tied.size:
                    break
                deals = numbers[tied] * stride + len(schedule) + t
                scores[tied] += play_hand(rules, strategies, seating[tied], seed, policy, 1, deals)[2]
                extra[tied] += 1
                tied = tied[leaders(scores[tied]).sum(axis=1) > 1]
            top = leaders(scores)
            wins = top & (top.sum(axis=1, keepdims=True) == 1)
            hands = hands.merge(part)
            results.add(seating, scores, wins.astype(np.int64), extra)
            if progress is not None:
                progress(len(numbers))
    except KeyboardInterrupt:
        return GameResult(hands, results, complete=False)
    return GameResult(hands, results)


def leaders(scores: np.ndarray) -> np.ndarray:
    """bool[game, seat]: the seats with the top score of their game."""
    return scores == scores.max(axis=1, keepdims=True)


def play_hand(
    rules: Rules, strategies: list[tuple[str, Strategy]], seating: np.ndarray, seed: int, policy: str, cards: int,
    deals: np.ndarray,
) -> tuple[Chunk, np.ndarray, np.ndarray]:  # fmt: skip
    """Deal, bid and play one hand of a batch of games: ``(chunk, won, points)``."""
    chunk = deal_chunk(rules, seed, cards, deals)
    collect_bids(rules, strategies, seating, seed, policy, chunk)
    won, points, _, _ = play_chunk(rules, seed, policy, chunk)
    return chunk, won, points
