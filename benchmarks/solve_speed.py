"""Microseconds per solved world: the open-hand solver (``pocha.kernels.solve``) by tricks left.

Each world is a deal of 10 cards a seat (random bids 0..10; 4 players under ludoteka's rules unless
told otherwise) played greedily until the tricks left remain, then solved from there, as
``pimc:solve=N`` meets its worlds, in a table of the size pimc gives such a solve (``table_bits``);
the solve of every world starts from an empty table (a new generation). The worlds are solved in
one compiled loop (a call from Python would cost more than a small solve), timed whole: prints,
per number of tricks left, the mean microseconds of a solve under max^n and under paranoid (seat 0
as the root), the median of 3 rounds.
Run from the repository's root: ``python benchmarks/solve_speed.py [WORLDS] [MOST_TRICKS] [PRESET PLAYERS]``
(``... 40 6 oh-hell 3``: 3 players of 10 cards from 52 French cards, follow suit, as at OpenSpiel's table).
"""

import statistics
import sys
import time

import numpy as np

from pocha.game.presets import make_rules
from pocha.game.rules import Rules
from pocha.kernels.bits import ZERO
from pocha.kernels.codes import PLAY_CODES
from pocha.kernels.jit import jit
from pocha.kernels.pimc import finish_greedy
from pocha.kernels.solve import MAXN, forget, new_table, solve, table_bits
from pocha.kernels.trick import Trick, trump_masks

CARDS = 10  # a seat's cards in every world


def worlds(rules: Rules, count: int, left: int, seed: int) -> tuple[np.ndarray, ...]:
    """``count`` deals of CARDS a seat, ``left`` tricks to go: hands, won and bids [world, seat], leaders, trumps."""
    rng, players = np.random.default_rng(seed), rules.players
    hands, won = np.zeros((count, players), np.uint64), np.zeros((count, players), np.int64)
    bids = rng.integers(0, CARDS + 1, (count, players))
    leaders, trumps = np.zeros(count, np.int64), np.zeros(count, np.uint64)
    for w in range(count):
        deck = rng.permutation(rules.deck())
        hands[w] = [sum(1 << int(card) for card in deck[CARDS * s : CARDS * (s + 1)]) for s in range(players)]
        trumps[w], _ = trump_masks(int(deck[-1]))
        start = Trick(trumps[w], 0, 0, np.uint64(0), ~np.uint64(0), 0)
        rule = PLAY_CODES[rules.play_rule]
        leaders[w] = finish_greedy(hands[w], start, won[w], bids[w], rule, left) if left < CARDS else 0
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
    most = int(sys.argv[2]) if len(sys.argv) > 2 else CARDS
    rules = make_rules(sys.argv[3], int(sys.argv[4])) if len(sys.argv) > 4 else make_rules("ludoteka", 4)
    score, rule = rules.scoring.points_grid(CARDS), PLAY_CODES[rules.play_rule]
    print("tricks left | max^n µs | paranoid µs")
    for left in range(1, most + 1):
        row, found, table = [], worlds(rules, count, left, seed=left), new_table(table_bits(left))
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
