"""How much the play tells of the hidden hands, read by the learned play: the true deal's gain in log-likelihood.

See ``pocha.engine.evidence``.

    python benchmarks/play_inference.py [--preset P] [-p PLAYERS] [-k SIZES] [-n DEALS] [--worlds W] [--play POLICY]
                                        [--seed S] [--reading TEMPERATURE,FLOOR]

Every seat plays ``--play`` (learned by default); the play is read by the table's learned model at its
fitted reading of its scores as chances (or ``--reading``), each truth against ``--worlds`` blind worlds. The figure, by
hand size: the mean gain in nats, with its 95% half-width (0: the play tells nothing; above 0: it points
at the truth; e^gain is how many times more probability the true hands get).
"""

import argparse
import statistics

from pocha.engine.evidence import evidence_gains
from pocha.engine.policies import parse_policy
from pocha.game.presets import make_rules
from pocha.game.sizes import read_cards


def main() -> None:
    """Print the table by hand size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="ludoteka")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("-k", "--cards", default="3,6,10")
    parser.add_argument("-n", "--deals", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--play", default="learned")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reading", default="", help="TEMPERATURE,FLOOR (default: the model's fitted ones)")
    given = parser.parse_args()
    rules = make_rules(given.preset, players=given.players)
    print("cards  choices  gain (nats)  ±95%")
    for cards in read_cards(given.cards, rules):
        reading = tuple(float(part) for part in given.reading.split(",")) if given.reading else None
        play = parse_policy(given.play)
        true, drawn = evidence_gains(rules, cards, given.deals, given.worlds, play, given.seed, reading)
        gains = list(true - drawn)
        half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
        print(f"{cards:>5}  {len(gains):>7,}  {statistics.fmean(gains):>11.3f}  {half:.3f}")


if __name__ == "__main__":
    main()
