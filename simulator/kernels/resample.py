"""OpenSpiel's own resampler of ``oh_hell`` in numba: the cards the other seats really hold, dealt among them again.

``OhHellState::ResampleFromInfostate`` (OpenSpiel 2.0's oh_hell.cc) is what OpenSpiel's IS-MCTS bot
searches with when given no resampler of its own. It is leaky: it never deals a card left in the
stock, only shuffles the cards the other seats hold, so a searcher that uses it knows which cards
are out (docs/openspiel.md). ``leaky_world`` draws its worlds the same way, so that
``ismcts:engine=numba,resampler=openspiel`` is OpenSpiel's leaky bot at numba's speed:

1. Each other seat keeps the cards it has played and needs as many again as it still holds.
2. In OpenSpiel's card order, again and again until nothing changes: a held card that exactly one
   seat still needing cards may hold (not void in its suit) goes to that seat.
3. The cards left are shuffled, and so are the seats that held hidden cards; each seat in turn takes
   the cards it may hold, in the shuffled order, until it has enough; the cards still left go, from
   the end, to the seats still short (only when the voids over-constrain, which a real deal never does).

OpenSpiel draws its shuffles from a Mersenne twister, these from pocha's streams: the worlds are
drawn with the same chances, not the same worlds.
"""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, popcount
from pocha.kernels.jit import jit
from pocha.kernels.streams import below, next_state


@jit
def leaky_world(view, dealt, order, world, state, ints):
    """Deal into ``world`` (uint64[seat], the hands now) the cards the seats other than ``view.seat`` really hold.

    view: the mover's ``pimc.View`` (its hand; ``may_hold``: under oh_hell's follow-suit rule, every
    card but the suits a seat failed to follow); dealt uint64[seat]: the deal as it really is (the
    leak); order int64[card]: the deck's card ids in OpenSpiel's order (step 2 goes through them so).
    ints int64[>= 3, 64]: scratch. Returns the advanced state.
    """
    players, seat = world.shape[0], view.seat
    cards, seats, need = ints[0], ints[1], ints[2]
    hidden = ZERO  # "shuffleable": the cards the other seats hold now
    shuffled = 0  # the seats that hold any (OpenSpiel's hidden players)
    for other in range(players):
        world[other] = view.hand if other == seat else ZERO
        held = ZERO if other == seat else dealt[other] & ~view.played[other]
        need[other] = popcount(held)
        hidden |= held
        if need[other] > 0:
            seats[shuffled] = other
            shuffled += 1
    changed = True
    while changed:  # phase 1: a card only one seat still short may hold is that seat's
        changed = False
        for i in range(order.shape[0]):
            bit = ONE << np.uint64(order[i])
            if not hidden & bit:
                continue
            sole, count = -1, 0
            for other in range(players):
                if other != seat and need[other] > 0 and view.may_hold[other] & bit:
                    sole = other
                    count += 1
                    if count > 1:
                        break
            if count == 1:
                world[sole] |= bit
                need[sole] -= 1
                hidden &= ~bit
                changed = True
    count = 0
    for i in range(order.shape[0]):  # phase 2: the cards left, shuffled
        if hidden >> np.uint64(order[i]) & ONE:
            cards[count] = order[i]
            count += 1
    state = shuffle(cards, count, state)
    state = shuffle(seats, shuffled, state)
    for k in range(shuffled):  # each seat in turn takes the cards it may hold, in order
        other = seats[k]
        for i in range(count):
            if need[other] == 0:
                break
            if cards[i] >= 0 and view.may_hold[other] >> np.uint64(cards[i]) & ONE:
                world[other] |= ONE << np.uint64(cards[i])
                cards[i] = -1
                need[other] -= 1
    last = count - 1
    for k in range(shuffled):  # the voids over-constrain: the rest from the end, voids aside
        other = seats[k]
        while need[other] > 0 and last >= 0:
            if cards[last] >= 0:
                world[other] |= ONE << np.uint64(cards[last])
                need[other] -= 1
            last -= 1
    return state


@jit
def shuffle(items, count, state):
    """Shuffle ``items[:count]`` (int64) in place, uniformly (Fisher-Yates); returns the advanced state."""
    for i in range(count - 1, 0, -1):
        state = next_state(state)
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
