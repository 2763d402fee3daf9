"""A chunk's deals under the run's deal conditions, and how often the conditions are met.

Predealt cards, the turned card and ``--where`` expressions are met in the dealing kernel; a
plug-in predicate (``./cond.py:fn``) is asked in Python about many deals at once (``WhereContext``),
its refused deals dealt again at their next attempts. Attempt ``a`` of deal ``i`` depends on (seed,
hand size, ``i``, ``a``) alone and each deal keeps its first attempt that meets every condition, so a
deal's cards depend only on the seed and its number: chunks, threads and machines change nothing.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from pocha.errors import PochaError
from pocha.game.cards import LANE_BITS
from pocha.game.conditions import PLUG_IN, DealConditions
from pocha.game.rules import Rules
from pocha.kernels.deal import DRAWN, deal_batch, deal_conditioned
from pocha.kernels.play import Chunk
from pocha.kernels.seats import seats_to_positions
from pocha.kernels.where import program
from pocha.strategies.base import answer_of
from pocha.strategies.registry import getattr_or_error, load_file
from pocha.words import counted

MOST_ATTEMPTS = 1_000_000  # attempts a deal may take: at the least acceptance, a deal runs out once in e^100
LEAST_ACCEPTANCE = 1e-4  # the share of first attempts the conditions must accept for a run to start
PROBE_DEALS = 100_000  # deals dealt once each to measure the acceptance before a run (``acceptance``)
ROUND_ROWS = 1 << 16  # attempts a plug-in is asked about at once, at most (at least one a deal still dealt)


@dataclass(frozen=True)
class WhereContext:
    """What a ``--where`` plug-in sees of a chunk of deals; it returns one truth per deal (a bool array).

    The deals are attempts of any deals, in no set order: the answer must depend on the deal alone.
    """

    rules: Rules
    cards: int  # the hand size
    numbers: np.ndarray  # int64[deal]: the deals' numbers (deal i has dealer i % players)
    hands: np.ndarray  # uint64[deal, seat]: each hand as a mask (``pocha.game.cards.cards_of`` lists one)
    by_position: np.ndarray  # uint64[deal, position]: the same hands from the first bidder (0) to the dealer
    trump_card: np.ndarray  # int64[deal]: the turned card, or the dealer's last; NO_TRUMP (-1) in a deal without

    @property
    def size(self) -> int:
        """How many deals are asked about."""
        return len(self.numbers)

    @property
    def trumps(self) -> np.ndarray:
        """uint64[deal]: every card of the trump suit (0 in a deal without trump)."""
        suits = (np.maximum(self.trump_card, 0) >> 4).astype(np.uint64)
        return np.where(self.trump_card >= 0, np.uint64(0xFFFF) << (np.uint64(LANE_BITS) * suits), np.uint64(0))


Predicate = Callable[[WhereContext], np.ndarray]


class Dealt(NamedTuple):
    """A chunk dealt under conditions, and the attempts its deals took: one a deal when every first attempt holds."""

    chunk: Chunk
    attempts: int


def deal(rules: Rules, seed: int, cards: int, numbers: np.ndarray, conditions: DealConditions | None = None) -> Dealt:
    """The deals with these numbers, each the first of its attempts that meets the conditions; bids not made yet.

    A deal that meets them in none of MOST_ATTEMPTS attempts stops the run with one line.
    """
    chunk = empty_chunk(rules, cards, numbers)
    if conditions is None or conditions.free:
        deal_batch(seed, cards, numbers, rules.deck(), chunk.hands, chunk.trump_card, not rules.has_trump(cards))
        return Dealt(chunk, len(numbers))
    conditions.check_sizes([cards])
    if conditions.plug_ins:
        return plug_in_deal(rules, seed, chunk, conditions)
    if not conditions.conditional:
        attempted(rules, seed, chunk, conditions, 0, span=1)
        return Dealt(chunk, len(numbers))
    kept = attempted(rules, seed, chunk, conditions, 0, span=MOST_ATTEMPTS)
    attempts = int(np.minimum(kept + 1, MOST_ATTEMPTS).sum())
    if kept.max(initial=0) == MOST_ATTEMPTS:
        raise run_out(chunk, int(np.argmax(kept == MOST_ATTEMPTS)), int((kept < MOST_ATTEMPTS).sum()), attempts)
    return Dealt(chunk, attempts)


def empty_chunk(rules: Rules, cards: int, numbers: np.ndarray) -> Chunk:
    """A chunk of these deals to deal into."""
    size = len(numbers)
    hands, bids = np.empty((size, rules.players), np.uint64), np.zeros((size, rules.players), np.int64)
    return Chunk(cards, numbers, hands, np.empty(size, np.int64), bids)


def attempted(
    rules: Rules, seed: int, chunk: Chunk, conditions: DealConditions, first: int, span: int, cycle: int = 1
) -> np.ndarray:
    """Deal into ``chunk`` each row's first attempt from ``first + row % cycle`` on that meets the expressions.

    Returns int64[row]: the attempt kept, past the ``span`` tried where none of them did.
    """
    fixed = np.zeros((2, rules.players), np.uint64)
    for row, hands in enumerate((conditions.positions, conditions.seats)):
        for place, ids in enumerate(hands):
            fixed[row, place] = sum(1 << card for card in ids)
    kept = np.empty(len(chunk.numbers), np.int64)
    deal_conditioned(
        seed,
        chunk.cards,
        chunk.numbers,
        rules.deck(),
        fixed,
        DRAWN if conditions.trump_card is None else conditions.trump_card,
        not rules.has_trump(chunk.cards),
        program(conditions.where, rules),
        first=first,
        cycle=cycle,
        span=span,
        hands=chunk.hands,
        trump_card=chunk.trump_card,
        attempt=kept,
    )
    return kept


def plug_in_deal(rules: Rules, seed: int, chunk: Chunk, conditions: DealConditions) -> Dealt:
    """``deal`` with plug-ins: rounds of attempts, each deal still dealt given the same next few; its first kept.

    A round asks about about twice the attempts the acceptance so far needs a deal, so few rounds are
    needed; which attempt a deal keeps does not depend on the rounds.
    """
    predicates = [(spec, predicate(spec)) for spec in conditions.plug_ins]
    size, cards = len(chunk.numbers), chunk.cards
    waiting, tried, met = np.arange(size), 0, 0
    kept = np.zeros(size, np.int64)
    following = 0  # the next attempt of every deal still waiting
    while len(waiting):
        if following == MOST_ATTEMPTS:
            found = size - len(waiting)
            raise run_out(chunk, int(waiting[0]), found, int(kept.sum()) + found + following * len(waiting))
        wanted = math.ceil(2 * tried / met) if met else 1
        per = max(1, min(wanted, ROUND_ROWS // len(waiting), MOST_ATTEMPTS - following))
        rows = np.repeat(waiting, per)
        first = following + np.tile(np.arange(per, dtype=np.int64), len(waiting))
        trial = empty_chunk(rules, cards, chunk.numbers[rows])
        holds = attempted(rules, seed, trial, conditions, following, 1, cycle=per) == first
        for spec, function in predicates:
            asked = np.flatnonzero(holds)
            holds[asked] = answer(spec, function, where_context(rules, trial, asked))
        tried, met = tried + len(rows), met + int(holds.sum())
        grid = holds.reshape(len(waiting), per)
        found = grid.any(axis=1)
        chosen = (np.arange(len(waiting)) * per + grid.argmax(axis=1))[found]
        done = waiting[found]
        chunk.hands[done], chunk.trump_card[done], kept[done] = (
            trial.hands[chosen],
            trial.trump_card[chosen],
            first[chosen],
        )
        waiting, following = waiting[~found], following + per
    return Dealt(chunk, int(kept.sum()) + size)


def run_out(chunk: Chunk, row: int, found: int, attempts: int) -> PochaError:
    """The line that stops a run: the deal at ``row`` met the conditions in none of its attempts."""
    return PochaError(
        f"where: deal {chunk.numbers[row]:,} of {counted(chunk.cards, 'card')} met the conditions in none of "
        f"{MOST_ATTEMPTS:,} attempts, after {found:,} of its chunk's {len(chunk.numbers):,} deals did (1 in "
        f"{attempts / max(found, 1):,.0f} attempts); loosen the conditions or choose other hand sizes"
    )


@cache
def predicate(spec: str) -> Predicate:
    """The function a ``path.py:function`` plug-in names, loaded once (as strategy files are)."""
    found = PLUG_IN.match(spec)
    if found is None:
        raise PochaError(f"where '{spec}': not a predicate in a file; write path/to/file.py:function")
    module = load_file(Path(found["path"]), spec, "where")
    function = getattr_or_error(module, found["function"], spec, "where")
    if not callable(function):
        raise PochaError(f"where '{spec}': {found['function']} is not a function")
    return function


def answer(spec: str, function: Predicate, context: WhereContext) -> np.ndarray:
    """A plug-in's truths for the deals of ``context``, checked: one bool (or 0/1) per deal."""
    truths = np.asarray(answer_of(f"where '{spec}'", lambda: function(context), PochaError))
    if truths.shape != (context.size,) or truths.dtype.kind not in "bui":
        raise PochaError(
            f"where '{spec}': returned {truths.dtype} of shape {truths.shape}; expected one truth per deal "
            f"(a bool array of {counted(context.size, 'deal')})"
        )
    return truths.astype(bool)


def where_context(rules: Rules, chunk: Chunk, rows: np.ndarray) -> WhereContext:
    """Some deals of a chunk as a plug-in sees them."""
    hands = np.ascontiguousarray(chunk.hands[rows])
    numbers = chunk.numbers[rows]
    by_position = np.empty((rules.players, len(rows)), np.uint64)
    seats_to_positions(hands, numbers, by_position)
    return WhereContext(rules, chunk.cards, numbers, hands, by_position.T.copy(), chunk.trump_card[rows])


def acceptance(rules: Rules, seed: int, cards: int, conditions: DealConditions, deals: int = PROBE_DEALS) -> float:
    """The share of deals of ``cards`` cards that meet the conditions: deals 0..deals-1 of the run, dealt once each."""
    if not conditions.conditional:
        return 1.0
    chunk = empty_chunk(rules, cards, np.arange(deals, dtype=np.int64))
    holds = attempted(rules, seed, chunk, conditions, 0, 1) == 0
    for spec in conditions.plug_ins:
        asked = np.flatnonzero(holds)
        holds[asked] = answer(spec, predicate(spec), where_context(rules, chunk, asked))
    return float(holds.mean())


def check_acceptance(rules: Rules, seed: int, sizes: Sequence[int], conditions: DealConditions) -> dict[int, float]:
    """Each hand size's share of deals that meet the conditions; refused (one line) where too few do to deal them."""
    shares = {cards: acceptance(rules, seed, cards, conditions) for cards in sizes}
    low = [cards for cards, share in shares.items() if share < LEAST_ACCEPTANCE]
    if low:
        cards = low[0]
        met = round(shares[cards] * PROBE_DEALS)
        raise PochaError(
            f"where: {met:,} of {PROBE_DEALS:,} deals of {counted(cards, 'card')} meet the conditions; "
            f"too few to deal them (at least 1 in {1 / LEAST_ACCEPTANCE:,.0f} must): loosen them or choose other "
            "hand sizes"
        )
    return shares
