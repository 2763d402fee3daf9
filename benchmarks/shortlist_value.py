"""What a montecarlo shortlist costs a bid: the bids chosen with and without one, valued on fresh play-outs.

    python benchmarks/shortlist_value.py [--preset P] [-p PLAYERS] [--scoring S] [-k SIZES] [-n DEALS]
                                         [--seed S] [--shortlists 2,3] [--bidder SPEC]

``-n`` deals of each size are dealt and bid by ``expected`` (the earlier bids a bidder sees); at every
position the bidder (``--bidder``, pimc play-outs of 128 worlds by default) bids with every bid played
out and with each shortlist, and each chosen bid is valued by the mean points of twice as many fresh
play-outs of its deal (other seeds, so the bid chosen on noisy estimates is not valued on the same
noise). Prints, by hand size, each shortlist's points a bid against every bid played out, with its
95% half-width, and how often the two bids differ (often by a tie broken by the noise alone).
"""

import argparse
from dataclasses import replace

import numpy as np

from pocha import Player
from pocha.engine.chunk import collect_bids, deal_chunk, position_contexts
from pocha.engine.policies import parse_policy
from pocha.engine.seating import Competitor
from pocha.game.presets import make_rules
from pocha.game.scoring import parse_scoring
from pocha.game.sizes import read_cards
from pocha.strategies import registry
from pocha.strategies.heuristics import Expected
from pocha.strategies.playouts import expected_points

FRESH_SEED = 1_000_003  # the valuing play-outs' seeds: away from the choosing ones


def main() -> None:
    """Print the table by hand size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="oh-hell")
    parser.add_argument("-p", "--players", type=int, default=3)
    parser.add_argument("--scoring", default="tricks+10", help="a scoring name (OpenSpiel's oh_hell's by default)")
    parser.add_argument("-k", "--cards", default="8,10")
    parser.add_argument("-n", "--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--shortlists", default="2,3")
    parser.add_argument("--bidder", default="montecarlo:rollout=pimc,samples=128")
    given = parser.parse_args()
    rules = make_rules(given.preset, players=given.players, scoring=parse_scoring(given.scoring))
    Player(f"{given.bidder}@greedy", rules, learn_tables=True)  # the table it assumes of the others, learned if lacking
    full = registry.load(given.bidder)[1]
    shortlists = [int(part) for part in given.shortlists.split(",")]
    print("cards  shortlist  points a bid against every bid  ±95%  bids differ")
    for cards in read_cards(given.cards, rules):
        chunk = deal_chunk(rules, given.seed, cards, np.arange(given.deals))
        collect_bids(rules, [Competitor("expected", Expected(), parse_policy("greedy"))], np.zeros(0), 0, chunk)
        gains: dict[int, list[np.ndarray]] = {size: [] for size in shortlists}
        differ: dict[int, list[np.ndarray]] = {size: [] for size in shortlists}
        for ctx in position_contexts(rules, chunk, given.seed, "greedy"):
            fresh = replace(full, samples=2 * full.samples).trick_counts(replace(ctx, seed=FRESH_SEED + ctx.seed))
            value, rows = expected_points(fresh, rules, cards), np.arange(ctx.size)
            every = full.bid(ctx)
            for size in shortlists:
                short = replace(full, shortlist=size).bid(ctx)
                gains[size].append(value[rows, short] - value[rows, every])
                differ[size].append(short != every)
        for size in shortlists:
            gain = np.concatenate(gains[size])
            half = 1.96 * gain.std(ddof=1) / np.sqrt(len(gain))
            print(f"{cards:5}  {size:9}  {gain.mean():+30.3f}  {half:.3f}  {np.concatenate(differ[size]).mean():11.0%}")


if __name__ == "__main__":
    main()
