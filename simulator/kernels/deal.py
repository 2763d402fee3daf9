"""Dealing: shuffle, hands as bitmasks, the turned trump card; under conditions, predealt cards and deals redrawn.

``deal_batch`` deals at random, as every run without conditions does; ``deal_conditioned`` places
predealt cards first and deals again until a condition holds. Both shuffle and deal with the same
helpers, so a deal that needs nothing of the conditions (attempt 0, nothing predealt) is the
same deal either way.
"""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, nth_card, popcount
from pocha.kernels.codes import NO_TRUMP, STREAM_DEAL
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.streams import attempt_state, below, draw, next_state, stream_state
from pocha.kernels.where import holds

DRAWN = -1  # the ``turned`` of a deal whose trump card is drawn, not fixed


@jit_inline
def shuffled(order, cards, left, draws, state):
    """``order[:left]`` set to ``cards[:left]``, its first ``draws`` places then drawn at random; the state after.

    A partial Fisher-Yates: only the cards that are dealt or turned are drawn.
    """
    for c in range(left):  # (element by element: numba's slice assignment took 14 ns a deal more)
        order[c] = cards[c]
    for j in range(draws):
        if j & 1 == 0:
            state = next_state(state)
            bits = draw(state)
        else:
            bits <<= np.uint64(32)
        r = j + np.int64(((bits >> np.uint64(32)) * np.uint64(left - j)) >> np.uint64(32))
        order[j], order[r] = order[r], order[j]
    return state


@jit_inline
def dealt_round(order, dealt, mano, hands):
    """Deal ``order[:dealt]`` one card at a time from the mano round: hands (uint64[seat]) of one deal."""
    players = hands.shape[0]
    seat = mano  # the mano gets the first card, then every players-th
    for first in range(players):
        hand = ZERO
        for j in range(first, dealt, players):
            hand |= ONE << np.uint64(order[j])
        hands[seat] = hand
        seat = seat + 1 if seat + 1 < players else 0


@jit
def deal_batch(seed, cards, numbers, deck, hands, trump_card, no_trump):
    """Shuffle and deal the deals numbered ``numbers`` (int64[row]), ``cards`` cards to each of the players.

    deck: int64[deck_size] card ids. Deal number ``i`` has dealer ``i % players``;
    cards go one at a time from the mano round to the dealer. Outputs: ``hands`` uint64[deals, seat]
    bitmasks; ``trump_card`` int64[deals]: the next card turned up, or the dealer's last card when
    the deal takes the whole deck; NO_TRUMP for every deal when ``no_trump`` (the rules play this
    hand size without trump: ``Rules.has_trump``). The cards are dealt the same either way.
    """
    players = hands.shape[1]
    size = deck.shape[0]
    dealt = cards * players
    draws = dealt + 1 if dealt < size else dealt
    order = deck.copy()
    for d in range(hands.shape[0]):
        deal = numbers[d]
        shuffled(order, deck, size, draws, stream_state(seed, cards, deal, STREAM_DEAL))
        dealt_round(order, dealt, (deal + 1) % players, hands[d])
        trump_card[d] = NO_TRUMP if no_trump else (order[dealt] if dealt < size else order[dealt - 1])


@jit
def deal_conditioned(
    seed, cards, numbers, deck, fixed, turned, no_trump, rows, first, cycle, span, hands, trump_card, attempt
):
    """``deal_batch`` under conditions: predealt cards placed, the turned card fixed, deals redrawn until ``rows`` hold.

    With predealt cards, each hand holds its own and then, from the mano to the dealer, as many of
    the shuffled rest of the deck as it lacks. fixed: uint64[2, player], the predealt cards by
    bidding position (row 0) and by seat (row 1). turned: the turned card when it is fixed (in a
    deal of the whole deck the dealer holds it), else DRAWN. rows: the condition's program
    (``kernels.where``; no rows for none). Row ``d`` tries attempts from ``first + d % cycle`` on,
    ``span`` of them (``attempt_state``: attempt 0 is the deal as ``deal_batch`` deals it), and keeps
    the first that meets the condition (``cycle`` rows of a deal, one attempt each, let a plug-in be
    asked about several attempts at once).

    Outputs as ``deal_batch``'s; in a deal of the whole deck whose dealer is given cards, the trump
    card is one of the dealer's cards at random. ``attempt`` int64[deal]: the attempt kept,
    ``first + d % cycle + span`` when none met the condition.
    """
    players = hands.shape[1]
    size = deck.shape[0]
    dealt = cards * players
    full = dealt >= size
    order = np.empty(size, np.int64)
    own = np.empty(players, np.uint64)
    given = np.zeros(players, np.int64)
    trump_bit = ZERO if turned == DRAWN else ONE << np.uint64(turned)
    in_hands = trump_bit if full else ZERO  # every predealt card: the same in every deal, wherever it goes
    for row in range(2):
        for place in range(players):
            in_hands |= fixed[row, place]
    predealt = (in_hands | trump_bit) != ZERO
    random = dealt - popcount(in_hands)  # the hands' cards dealt at random
    rest = np.empty(size, np.int64)  # the deck less the predealt cards and the turned one
    left = 0
    for c in range(size):
        if ((in_hands | trump_bit) >> np.uint64(deck[c])) & ONE == ZERO:
            rest[left] = deck[c]
            left += 1
    stack = np.empty(max(rows.shape[0], 1), np.int64)
    shift = 0  # d % cycle
    for d in range(hands.shape[0]):
        deal = numbers[d]
        mano = (deal + 1) % players
        dealer = mano - 1 if mano > 0 else players - 1
        if predealt:
            seat = mano
            for q in range(players):
                own[seat] = fixed[0, q] | fixed[1, seat]
                given[seat] = popcount(own[seat])
                seat = seat + 1 if seat + 1 < players else 0
            if full and turned != DRAWN:
                own[dealer] |= trump_bit
                given[dealer] = popcount(own[dealer])
        draws = random + 1 if not full and turned == DRAWN else random  # (here, not before the loop: 30 ns a deal)
        start = stream_state(seed, cards, deal, STREAM_DEAL)
        attempt[d] = first + shift + span
        for a in range(first + shift, first + shift + span):
            state = shuffled(order, rest, left, draws, attempt_state(start, a))
            if random == dealt:
                dealt_round(order, dealt, mano, hands[d])
            else:  # each hand its predealt cards, then the next of the shuffled rest it lacks, from the mano on
                taken, seat = 0, mano
                for _ in range(players):
                    hand = own[seat]
                    for j in range(taken, taken + cards - given[seat]):
                        hand |= ONE << np.uint64(order[j])
                    hands[d, seat] = hand
                    taken += cards - given[seat]
                    seat = seat + 1 if seat + 1 < players else 0
            if no_trump:
                trump_card[d] = NO_TRUMP
            elif turned != DRAWN:
                trump_card[d] = turned
            elif not full:
                trump_card[d] = order[random]
            elif given[dealer] == 0:
                trump_card[d] = order[random - 1]  # the dealer's last card, dealt last either way
            else:
                trump_card[d] = nth_card(hands[d, dealer], below(next_state(state), cards))
            if rows.shape[0] == 0 or holds(rows, hands[d], mano, trump_card[d], cards, stack):
                attempt[d] = a
                break
        shift = shift + 1 if shift + 1 < cycle else 0
