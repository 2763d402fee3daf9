"""How a hand scores: the ``Scoring`` of a rule set, the named systems (``--scoring NAME``) and the option read.

Four whole numbers: the exact bonus, per trick when exact, per trick when missed, per trick off.
"""

from dataclasses import asdict, astuple, dataclass, fields
from typing import Any

import numpy as np

from pocha.errors import PochaError
from pocha.words import counted

MOST_POINTS = 1_000_000  # the largest scoring number: a hand's points and a run's sums stay far inside int64


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """The points of one hand, from four whole numbers (by keyword only: four in a row are easily misread).

    Exact bid: ``exact + per_trick * won``; missed: ``per_trick_missed * won + miss_per_trick * |won - bid|``.

    >>> int(Scoring().points(bid=2, won=2)), int(Scoring().points(bid=2, won=0))  # 10 + 2 * 5; 2 * -5
    (20, -10)
    """

    exact: int = 10  # bonus for taking exactly the tricks bid
    per_trick: int = 5  # added per trick taken, exact bids only
    per_trick_missed: int = 0  # per trick taken when the bid is missed (older traces lack it: 0)
    miss_per_trick: int = -5  # per trick of difference between bid and tricks taken, missed bids only

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MOST_POINTS:
                raise PochaError(
                    f"scoring.{name}: must be a whole number from -{MOST_POINTS:,} to {MOST_POINTS:,}, not {value!r}"
                )
        if self.miss_per_trick > 0:
            raise PochaError(
                f"scoring: {self.spec} would pay a missed bid {counted(self.miss_per_trick, 'point')} per trick off, "
                "the more the further off; M, per trick off, must be 0 or less (10,5,-5)"
            )

    def points(self, bid: Any, won: Any) -> Any:
        """Points of a bid and the tricks won (ints or int arrays alike): the one scoring formula."""
        missed = self.per_trick_missed * won + self.miss_per_trick * np.abs(won - bid)
        return np.where(bid == won, self.exact + self.per_trick * won, missed)

    def points_grid(self, cards: int) -> np.ndarray:
        """int64[bid, won]: the points of every bid and trick count 0..cards (what the kernels score with)."""
        bid, won = np.meshgrid(np.arange(cards + 1), np.arange(cards + 1), indexing="ij")
        return np.asarray(self.points(bid, won), dtype=np.int64)

    def check_missing_pays_less(self, cards: int) -> None:
        """Refuse a scoring under which, in hands of up to ``cards`` cards, a missed bid scores more than the exact one.

        (The same tricks taken: a bid can only be judged against the bid that would have matched them.)
        """
        grid = self.points_grid(cards)
        exact = np.diag(grid).copy()
        np.fill_diagonal(grid, np.iinfo(np.int64).min)
        missed = grid.max(axis=0)
        if (missed > exact).any():
            won = int(np.argmax(missed > exact))
            bid = int(np.argmax(grid[:, won]))
            raise PochaError(
                f"scoring: under {self.spec} a bid of {bid} that takes {counted(won, 'trick')} scores {missed[won]}, "
                f"more than the exact bid of {won} ({exact[won]}); a missed bid must not pay more than a made one"
            )

    @property
    def spec(self) -> str:
        """The numbers as ``--scoring`` takes them: ``E,T,M``, or ``E,T,W,M`` when a missed bid's tricks count."""
        numbers = astuple(self) if self.per_trick_missed else (self.exact, self.per_trick, self.miss_per_trick)
        return ",".join(map(str, numbers))

    @property
    def name(self) -> str | None:
        """The name of the scoring system it is (the first of SCORINGS), None for another."""
        return next((name for name, (scoring, _) in SCORINGS.items() if scoring == self), None)

    @property
    def label(self) -> str:
        """Its name, else its ``spec``."""
        return self.name or self.spec

    def in_words(self) -> str:
        """What an exact and a missed bid score, e.g. ``exact 10 + 5 per trick; missed -5 per trick off``."""
        exact = f"exact {self.exact}" + (f" + {self.per_trick} per trick" if self.per_trick else "")
        missed = [f"{self.per_trick_missed} per trick taken"] if self.per_trick_missed else []
        missed += [f"{self.miss_per_trick} per trick off"] if self.miss_per_trick else []
        return f"{exact}; missed {', '.join(missed) or 0}"


SCORINGS = {  # name -> (the system, what it is); --scoring NAME
    "pocha": (Scoring(), "the Spanish texts' (every preset's)"),
    "tricks+10": (
        Scoring(exact=10, per_trick=1, per_trick_missed=1, miss_per_trick=0),
        "every trick taken scores, made or not (BoardGameArena's analyses; OpenSpiel's oh_hell by default)",
    ),
    "exact-only": (
        Scoring(exact=10, per_trick=1, per_trick_missed=0, miss_per_trick=0),
        "tricks score only when the bid is made",
    ),
    "bonus-only": (
        Scoring(exact=10, per_trick=0, per_trick_missed=0, miss_per_trick=0),
        "only an exact bid scores, whatever the tricks",
    ),
    "openspiel-penalty": (
        Scoring(exact=10, per_trick=1, per_trick_missed=0, miss_per_trick=-1),
        "OpenSpiel's oh_hell with off_bid_penalty=true",
    ),
}


def parse_scoring(text: str) -> Scoring:
    """A scoring option: a name of SCORINGS, or ``E,T,M`` (``10,5,-5``) or ``E,T,W,M`` (``10,1,1,0``)."""
    if text.strip().lower() in SCORINGS:
        return SCORINGS[text.strip().lower()][0]
    try:
        numbers = [int(word) for word in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) not in (3, 4):
        raise PochaError(
            f"scoring: '{text}' is neither a name ({', '.join(SCORINGS)}) nor numbers E,T,W,M or E,T,M such as "
            "10,5,-5 (exact bonus, per trick when exact, per trick when missed (left out: 0), per trick off)"
        )
    names = [item.name for item in fields(Scoring) if len(numbers) == 4 or item.name != "per_trick_missed"]
    return Scoring(**dict(zip(names, numbers, strict=True)))
