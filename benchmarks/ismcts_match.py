"""Two IS-MCTS searches in a match, as ``pocha match`` plays one (which seats only a pocha player as its player).

    python benchmarks/ismcts_match.py GAME SIZES DEALS SEED PLAYER OPPONENT

PLAYER, OPPONENT: what ``pocha match --against`` takes for IS-MCTS (``ismcts:simulations=N,engine=numba``).
Each deal is played once per seat (``play_rotated``, the deals and seeds of ``pocha match --seed SEED``):
PLAYER at that seat, OPPONENT at the others. Prints, per hand size and over all, PLAYER's points a
hand minus OPPONENT's, with its 95% half-width. With the numba search against OpenSpiel's Python
bot at the same simulations it checks the twin: a faithful one is within the interval of 0.
Run with ``NUMBA_NUM_THREADS=1``.
"""

import sys

import numpy as np

from pocha import openspiel as o


def main(game_text: str, sizes: str, deals: str, seed: str, player: str, opponent: str) -> None:
    """Print the paired difference by hand size and over all."""
    ours, theirs = o.opponent_side(player), o.opponent_side(opponent)
    base = game_text.rstrip(")") + ("," if "(" in game_text else "(")
    every = []
    for cards in map(int, sizes.split(",")):
        game = o.load_game(f"{base}num_tricks_fixed={cards})")
        rows = [o.play_rotated(game, ours, theirs, int(seed), deal) for deal in range(int(deals))]
        differences = [row["player_points"] - row["opponent_points"] for row in rows]
        every += differences
        print(f"{cards} cards: {summary(differences)}", flush=True)
    print(f"all: {summary(every)}")


def summary(differences: list[float]) -> str:
    """Mean and 95% half-width of the per-deal differences."""
    values = np.array(differences)
    return f"{values.mean():+.2f} ± {1.96 * values.std(ddof=1) / np.sqrt(len(values)):.2f} ({len(values)} deals)"


if __name__ == "__main__":
    main(*sys.argv[1:])
