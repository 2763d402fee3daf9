"""Deals per second of dealing alone, with and without deal conditions (``pocha.engine.dealing.deal``), 4 players.

Each case deals chunks of 16,384 deals (the engine's chunk) in this thread, as a run deals them, and
is timed in CPU time of the thread (so other processes on the machine cost it less); the cases take
turns, round after round, and the figure is the median over the rounds. A case with a condition
also says the share of attempts it keeps (its acceptance). The plug-in is the ``--where`` expression
``trumps(dealer) >= 2`` written as a Python predicate over the chunk's arrays.
Run from the repository's root: ``python benchmarks/deal_speed.py [ROUNDS]`` (one thread:
``NUMBA_NUM_THREADS=1``; dealing itself runs in one thread).
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from pocha.engine.backends import DEFAULT_CHUNK
from pocha.engine.dealing import deal
from pocha.game.conditions import read_conditions
from pocha.game.presets import make_rules

PLUG_IN = """import numpy as np


def trumps_at_dealer(ctx):
    held = ctx.by_position[:, -1] & ctx.trumps
    return np.unpackbits(held.view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1) >= 2
"""
CASES = {  # name -> (hands, trump, where)
    "none": ((), None, ()),
    "1=1O": (("1=1O",), None, ()),
    "1=1O, trump 7O": (("1=1O",), "7O", ()),
    "1=1O 3O 12O": (("1=1O 3O 12O",), None, ()),
    "trumps(dealer) >= 2": ((), None, ("trumps(dealer) >= 2",)),
    "1=1O 3O 12O, hcp(dealer) >= 8": (("1=1O 3O 12O",), None, ("hcp(dealer) >= 8",)),
    "plug-in trumps at dealer >= 2": ((), None, ("<plug-in>",)),
}


def main(rounds: int) -> None:
    """Print, per hand size and case, the deals per second (and the acceptance of a conditional case)."""
    rules = make_rules("ludoteka", 4)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cond.py"
        path.write_text(PLUG_IN)
        plug_in = f"{path}:trumps_at_dealer"
        conditions = {
            name: read_conditions(rules, hands, trump, [plug_in if w == "<plug-in>" else w for w in where])
            for name, (hands, trump, where) in CASES.items()
        }
        print(f"{rules.players} players, {rules.deck_size} cards; median of {rounds} rounds of {DEFAULT_CHUNK:,} deals")
        for cards in (1, 5, 10):
            times: dict[str, list[float]] = {name: [] for name in CASES}
            kept: dict[str, float] = {}
            fits = {
                name: c for name, c in conditions.items() if not c.problems(cards) and (cards > 1 or not c.conditional)
            }
            for index in range(rounds + 1):  # the first round compiles and loads: not timed
                numbers = np.arange(index * DEFAULT_CHUNK, (index + 1) * DEFAULT_CHUNK, dtype=np.int64)
                for name, chosen in fits.items():
                    start = time.thread_time()
                    dealt = deal(rules, 0, cards, numbers, chosen)
                    if index:
                        times[name].append(time.thread_time() - start)
                    kept[name] = DEFAULT_CHUNK / dealt.attempts
            for name in fits:
                rate = DEFAULT_CHUNK / statistics.median(times[name])
                share = f", {kept[name]:.1%} of attempts kept" if fits[name].conditional else ""
                print(f"{cards:>2} cards, {name:<30} {rate / 1e6:6.2f} M deals/s{share}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
