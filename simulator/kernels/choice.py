"""The card a simple play policy picks among the legal ones: random, or greedy (bid-aware)."""

import numpy as np

from pocha.kernels.bits import LANES, ONE, ZERO, highest_bit, lowest_bit, nth_card, popcount, strengths
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.streams import below


@jit
def cheapest(mask, trumps):
    """Weakest card of a non-empty mask: the lowest non-trump strength (lowest suit on ties), else the lowest trump."""
    plain = mask & ~trumps
    if plain == ZERO:
        return lowest_bit(mask)
    low = lowest_bit(strengths(plain))
    return lowest_bit(plain & (LANES << np.uint64(low)))


@jit
def dearest(mask, trumps):
    """Strongest card of a non-empty mask: the highest trump, else the highest strength (lowest suit on ties)."""
    if mask & trumps:
        return highest_bit(mask & trumps)
    high = highest_bit(strengths(mask))
    return lowest_bit(mask & (LANES << np.uint64(high)))


@jit_inline
def random_card(legal, state):
    """The random policy: a card uniform among the legal ones (``state`` already advanced)."""
    return nth_card(legal, below(state, popcount(legal)))


@jit_inline
def greedy_card(legal, led, trumps, beat, short):
    """The greedy policy (bid-aware; ``short`` = fewer tricks won than bid), forced cards included.

    - leading: the strongest card while short, else the weakest;
    - short: the weakest legal card that takes the lead (is in ``beat``), or the weakest legal card if none does;
    - bid made: the strongest legal card that does not take the lead, or the weakest if all do.
    "Weakest/strongest" order trumps above other suits, then by strength (see ``cheapest``).
    """
    if not legal & (legal - ONE):
        return lowest_bit(legal)
    if led == ZERO:
        return dearest(legal, trumps) if short else cheapest(legal, trumps)
    if short:
        takers = legal & beat
        return cheapest(takers if takers else legal, trumps)
    duckers = legal & ~beat
    return dearest(duckers, trumps) if duckers else cheapest(legal, trumps)


@jit
def best_card(cards, totals):
    """The card of ``cards`` with the highest total (by card id), the lowest on ties."""
    best = lowest_bit(cards)
    rest = cards & (cards - ONE)
    while rest:
        card = lowest_bit(rest)
        rest &= rest - ONE
        if totals[card] > totals[best]:
            best = card
    return best
