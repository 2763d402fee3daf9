"""Microseconds per solved world: the open-hand solver (``pocha.kernels.solve``) by tricks left, 4 players.

Each world is a deal of 10 cards a seat (ludoteka, random bids 0..10) played greedily until the
tricks left remain, then solved from there, as ``pimc:solve=N`` meets its worlds; the solve of
every world starts from an empty table (a new generation). Prints, per number of tricks left, the
median and the mean microseconds of a solve under max^n and under paranoid (seat 0 as the root).
Run from the repository's root: ``python benchmarks/solve_speed.py [WORLDS] [MOST_TRICKS]``.
"""

import sys
import time

import numpy as np

from pocha.game.rules import make_rules
from pocha.kernels.codes import PLAY_CODES
from pocha.kernels.pimc import finish_greedy
from pocha.kernels.solve import MAXN, TABLE_BITS, forget, new_table, solve
from pocha.kernels.trick import Trick, trump_masks


def worlds(count: int, left: int, seed: int) -> list[tuple[np.ndarray, Trick, np.ndarray, np.ndarray]]:
    """``count`` positions of 4 x 10 deals with ``left`` tricks to go: (hands, trick, won, bids)."""
    rules, rng = make_rules("ludoteka", 4), np.random.default_rng(seed)
    found = []
    for _ in range(count):
        deck = rng.permutation(rules.deck())
        hands = np.array([sum(1 << int(card) for card in deck[10 * s : 10 * s + 10]) for s in range(4)], np.uint64)
        trumps, _ = trump_masks(int(deck[39]))
        bids, won = rng.integers(0, 11, 4), np.zeros(4, np.int64)
        start = Trick(trumps, 0, 0, np.uint64(0), ~np.uint64(0), 0)
        leader = finish_greedy(hands, start, won, bids, PLAY_CODES["pocha"], left) if left < 10 else 0
        found.append((hands, Trick(trumps, leader, 0, np.uint64(0), ~np.uint64(0), leader), won, bids))
    return found


def main() -> None:
    """Time the solves and print the table."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    table, score = new_table(TABLE_BITS), make_rules("ludoteka", 4).scoring.points_grid(10)
    print("tricks left | max^n median µs | max^n mean µs | paranoid median µs | paranoid mean µs")
    for left in range(1, most + 1):
        row = []
        for root in (MAXN, 0):
            times = []
            for hands, trick, won, bids in worlds(count, left, seed=left):
                forget(table)
                start = time.perf_counter()
                solve(hands, trick, won, bids, score, PLAY_CODES["pocha"], root, table)
                times.append(time.perf_counter() - start)
            row += [np.median(times) * 1e6, np.mean(times) * 1e6]
        print(f"{left} | " + " | ".join(f"{value:,.1f}" for value in row), flush=True)


if __name__ == "__main__":
    main()
