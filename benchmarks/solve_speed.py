"""Microseconds per solved world: the open-hand solver (``pocha.kernels.solve``) by tricks left, 4 players.

Each world is a deal of 10 cards a seat (ludoteka, random bids 0..10) played greedily until the
tricks left remain, then solved from there, as ``pimc:solve=N`` meets its worlds; the solve of
every world starts from an empty table (a new generation). The worlds are solved in one compiled
loop (a call from Python would cost more than a small solve), timed whole: prints, per number of
tricks left, the mean microseconds of a solve under max^n and under paranoid (seat 0 as the root),
the median of 3 rounds.
Run from the repository's root: ``python benchmarks/solve_speed.py [WORLDS] [MOST_TRICKS]``.
"""

import statistics
import sys
import time

import numpy as np

from pocha.game.rules import make_rules
from pocha.kernels.bits import ZERO
from pocha.kernels.codes import PLAY_CODES
from pocha.kernels.jit import jit
from pocha.kernels.pimc import finish_greedy
from pocha.kernels.solve import MAXN, TABLE_BITS, forget, new_table, solve
from pocha.kernels.trick import Trick, trump_masks


def worlds(count: int, left: int, seed: int) -> tuple[np.ndarray, ...]:
    """``count`` 4 x 10 deals with ``left`` tricks to go: hands, won and bids [world, seat], leaders, trumps."""
    rules, rng = make_rules("ludoteka", 4), np.random.default_rng(seed)
    hands, won = np.zeros((count, 4), np.uint64), np.zeros((count, 4), np.int64)
    bids, leaders, trumps = rng.integers(0, 11, (count, 4)), np.zeros(count, np.int64), np.zeros(count, np.uint64)
    for w in range(count):
        deck = rng.permutation(rules.deck())
        hands[w] = [sum(1 << int(card) for card in deck[10 * s : 10 * s + 10]) for s in range(4)]
        trumps[w], _ = trump_masks(int(deck[39]))
        start = Trick(trumps[w], 0, 0, np.uint64(0), ~np.uint64(0), 0)
        leaders[w] = finish_greedy(hands[w], start, won[w], bids[w], PLAY_CODES["pocha"], left) if left < 10 else 0
    return hands, won, bids, leaders, trumps


@jit
def solve_all(hands, won, bids, leaders, trumps, score, play_rule, root, table):
    """Solve every world from an empty table; the sum of the packed values (kept, so that no solve is skipped)."""
    total = ZERO
    for w in range(hands.shape[0]):
        forget(table)
        trick = Trick(trumps[w], leaders[w], 0, ZERO, ~ZERO, leaders[w])
        total += solve(hands[w], trick, won[w], bids[w], score, play_rule, root, table)
    return total


def main() -> None:
    """Time the solves and print the table."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    table, score, rule = new_table(TABLE_BITS), make_rules("ludoteka", 4).scoring.points_grid(10), PLAY_CODES["pocha"]
    print("tricks left | max^n µs | paranoid µs")
    for left in range(1, most + 1):
        row, found = [], worlds(count, left, seed=left)
        for root in (MAXN, 0):
            solve_all(*(part[:1] for part in found), score, rule, root, table)  # compiled before the clock runs
            times = []
            for _ in range(3):
                start = time.perf_counter()
                solve_all(*found, score, rule, root, table)
                times.append(time.perf_counter() - start)
            row.append(statistics.median(times) * 1e6 / count)
        print(f"{left} | " + " | ".join(f"{value:,.1f}" for value in row), flush=True)


if __name__ == "__main__":
    main()
