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
from typing import Any, NamedTuple

import numpy as np

from pocha.errors import PochaError
from pocha.game.cards import LANE_BITS
from pocha.game.conditions import PLUG_IN, DealConditions, written_sizes
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
PROBE_DEALS = 100_000  # the most deals dealt once each to measure the acceptance before a run (``probe``)
PROBE_ROUND = 10_000  # deals the probe deals at a time
PROBE_MET = 10_000  # deals that meet the conditions after which the probe stops (their share then within 2%)
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


def met(rules: Rules, seed: int, cards: int, conditions: DealConditions, numbers: np.ndarray) -> int:
    """How many of the deals ``numbers`` meet the conditions as first dealt (their attempt 0)."""
    chunk = empty_chunk(rules, cards, numbers)
    holds = attempted(rules, seed, chunk, conditions, 0, 1) == 0
    for spec in conditions.plug_ins:
        asked = np.flatnonzero(holds)
        holds[asked] = answer(spec, predicate(spec), where_context(rules, chunk, asked))
    return int(holds.sum())


def probe(rules: Rules, seed: int, cards: int, conditions: DealConditions) -> tuple[int, int]:
    """``(met, dealt)``: the run's deals 0, 1, ... of ``cards`` cards dealt once each, until PROBE_MET meet them.

    Rounds of PROBE_ROUND deals, PROBE_DEALS at most: a common condition is known after a few rounds
    (a plug-in asked about few deals), a rare one after enough deals to tell it from none.
    """
    found = dealt = 0
    while found < PROBE_MET and dealt < PROBE_DEALS:
        found += met(rules, seed, cards, conditions, np.arange(dealt, dealt + PROBE_ROUND, dtype=np.int64))
        dealt += PROBE_ROUND
    return found, dealt


@dataclass(frozen=True)
class Conditioned:
    """A run's deal conditions, the hand sizes they apply to and the share of deals that meet them at each.

    shares: ``(hand size, share)`` for every size they apply to: of the run's deals dealt once each
    (``probe``), the share that meets them (1 without ``--where``). A run deals only these sizes,
    except whole games, whose other hands are dealt freely.
    """

    conditions: DealConditions
    shares: tuple[tuple[int, float], ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        """The hand sizes the conditions apply to."""
        return tuple(cards for cards, _ in self.shares)

    def to_dict(self) -> dict[str, Any]:
        """The conditions as run.json and the trace header hold them, with the share that meets them at each size."""
        return self.conditions.to_dict() | {"acceptance": {str(cards): share for cards, share in self.shares}}


def conditions_at(conditioned: Conditioned | None, cards: int) -> DealConditions | None:
    """The conditions a deal of ``cards`` cards is dealt under: None (freely) where they do not apply."""
    return conditioned.conditions if conditioned is not None and cards in conditioned.sizes else None


def dealt_alike(first: Conditioned | None, other: Conditioned | None, cards: int) -> bool:
    """Whether two rule sets' deals of ``cards`` cards meet the same conditions, or none (alike decks deal alike)."""
    a, b = conditions_at(first, cards), conditions_at(other, cards)
    if a is None or b is None:
        return a is b
    same = (a.positions, a.seats, a.trump_card, a.plug_ins) == (b.positions, b.seats, b.trump_card, b.plug_ins)
    return same and np.array_equal(program(a.where, a.rules), program(b.where, b.rules))


def conditions_entry(conditioned: Conditioned | None) -> dict[str, Any]:
    """A plan's ``conditions`` entry of run.json: none for a run without conditions (its record unchanged)."""
    return {} if conditioned is None else {"conditions": conditioned.to_dict()}


def condition_sizes(
    rules: Rules, seed: int, conditions: DealConditions, sizes: Sequence[int], every: bool
) -> tuple[Conditioned, dict[int, str]]:
    """The conditions at the hand sizes where deals can meet them, and each size left out with why.

    every: the sizes are all a run deals without naming them (``--cards all``, a game's schedule):
    a size no deal can meet, or too few (below LEAST_ACCEPTANCE), is left out; else it is refused
    in one line. A plug-in that cannot answer is refused here too, before any work.
    """
    if not every:
        conditions.check_sizes(sizes)
    shares: dict[int, float] = {}
    left_out: dict[int, str] = {}
    for cards in sizes:
        problems = conditions.problems(cards)
        found, dealt = (0, 0) if problems else probe(rules, seed, cards, conditions)
        if problems:
            left_out[cards] = problems[0]
        elif found < LEAST_ACCEPTANCE * dealt:
            if not every:
                raise PochaError(
                    f"where: {found:,} of {dealt:,} deals of {counted(cards, 'card')} meet the conditions; too few "
                    f"to deal them (at least 1 in {1 / LEAST_ACCEPTANCE:,.0f} must): loosen them or choose other "
                    "hand sizes"
                )
            left_out[cards] = f"{found:,} of {dealt:,} deals meet the conditions"
        else:
            shares[cards] = found / dealt
    if not shares:
        raise PochaError(f"where: no deal of this run can meet the conditions: {why_left_out(left_out)}")
    return Conditioned(conditions, tuple(shares.items())), left_out


def why_left_out(left_out: dict[int, str]) -> str:
    """The hand sizes left out, grouped by why: ``1-2 cards (hand: ...); 3 cards (where: 0 of 100,000 ...)``."""
    grouped: dict[str, list[int]] = {}
    for cards, why in left_out.items():
        grouped.setdefault(why, []).append(cards)
    return "; ".join(
        f"{written_sizes(sizes)} {'card' if sizes == [1] else 'cards'} ({why})" for why, sizes in grouped.items()
    )
