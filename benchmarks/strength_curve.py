"""Strength against time per card of pimc's settings (worlds x tricks solved), 4 players, ludoteka rules.

For each setting, ``expected@pimc:SETTING`` plays a duplicate comparison against ``expected@pimc``
(greedy play-outs, the baseline) at each hand size given, and every seat at that setting plays
deals on one thread to time it: milliseconds per card played (forced cards included), the median
of 3 runs. Prints one row per setting and hand size; docs/card-play.md quotes the table. Run from
anywhere with pocha installed: ``python benchmarks/strength_curve.py [DEALS] [TIMED] [CARDS,...] [SETTING ...]``
(settings named: only those, and no baseline row).
"""

import statistics
import sys
import time

import pocha

SETTINGS = (
    "solve=2",
    "solve=3",
    "solve=4",
    "samples=16",
    "samples=32",
    "samples=16,solve=3",
    "samples=32,solve=3",
)
BASELINE = "expected@pimc"


def ms_per_card(setting: str, cards: int, deals: int) -> float:
    """Median milliseconds a card of deals played by four seats at ``setting``, one thread."""
    strategy = f"expected@pimc:{setting}"
    pocha.simulate([strategy], cards=[cards], deals=10, threads=1)  # compiled before the clock runs
    times = []
    for seed in range(3):
        start = time.perf_counter()
        pocha.simulate([strategy], cards=[cards], deals=deals, threads=1, seed=seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000 / (deals * 4 * cards)


def main() -> None:
    """Run every setting (or those named after the arguments) at every hand size and print the table."""
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    timed = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    sizes = [int(size) for size in sys.argv[3].split(",")] if len(sys.argv) > 3 else [4, 7, 10]
    settings = sys.argv[4:] or SETTINGS
    print("setting | cards | points a hand over expected@pimc (±95%) | ms per card", flush=True)
    for cards in sizes if not sys.argv[4:] else ():
        print(f"samples=8 (baseline) | {cards} | 0 | {ms_per_card('samples=8', cards, timed):.3f}", flush=True)
    for setting in settings:
        contender = f"expected@pimc:{setting}"
        pairs = pocha.compare([contender, BASELINE], cards=sizes, deals=deals, seed=1).pairs()
        for cards in sizes:
            row = pairs[pairs.cards == str(cards)].iloc[0]
            sign = 1 if row.strategy_a == contender else -1
            gain, half = sign * row.mean_diff, (row.ci_high - row.ci_low) / 2
            print(
                f"{setting} | {cards} | {gain:+.2f} ± {half:.2f} | {ms_per_card(setting, cards, timed):.3f}", flush=True
            )


if __name__ == "__main__":
    main()
