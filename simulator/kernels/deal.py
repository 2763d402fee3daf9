"""Dealing: predealt cards placed, the rest shuffled and dealt, the turned card; dealt again until a condition holds."""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, nth_card, popcount
from pocha.kernels.codes import NO_TRUMP, STREAM_DEAL
from pocha.kernels.jit import jit
from pocha.kernels.streams import attempt_state, below, draw, next_state, stream_state
from pocha.kernels.where import holds

DRAWN = -1  # the ``turned`` of a deal whose trump card is drawn, not fixed


@jit
def deal_batch(
    seed, cards, numbers, deck, fixed, turned, no_trump, rows, first, cycle, span, hands, trump_card, attempt
):
    """Deal the deals numbered ``numbers`` (int64[row]), ``cards`` cards to each of the players.

    deck: int64[deck_size] card ids. Deal number ``i`` has dealer ``i % players``; cards go one at a
    time from the mano round to the dealer. With predealt cards, each hand holds its own and then,
    from the mano to the dealer, as many of the shuffled rest of the deck as it lacks.
    fixed: uint64[2, player], the predealt cards by bidding position (row 0) and by seat (row 1).
    turned: the turned card when it is fixed (in a deal of the whole deck the dealer holds it), else
    DRAWN. rows: the condition's program (``kernels.where``; no rows for none). Row ``d`` tries
    attempts from ``first + d % cycle`` on, ``span`` of them (``attempt_state``: attempt 0 is the deal
    as dealt without conditions), and keeps the first that meets the condition (``cycle`` rows of a
    deal, one attempt each, let a plug-in be asked about several attempts at once).

    Outputs: ``hands`` uint64[deal, seat]; ``trump_card`` int64[deal]: the next card turned up, or
    the dealer's last card when the deal takes the whole deck (one of the dealer's cards at random when
    some are predealt); NO_TRUMP for every deal when ``no_trump`` (the rules play this hand size
    without trump: ``Rules.has_trump``), the cards dealt the same either way; ``attempt`` int64[deal]:
    the attempt kept, ``first + d % cycle + span`` when none met the condition.
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
            state = attempt_state(start, a)
            for c in range(left):  # (element by element: numba's slice assignment took 14 ns a deal more)
                order[c] = rest[c]
            for j in range(draws):  # partial Fisher-Yates: only the cards that are dealt or turned
                if j & 1 == 0:
                    state = next_state(state)
                    bits = draw(state)
                else:
                    bits <<= np.uint64(32)
                r = j + np.int64(((bits >> np.uint64(32)) * np.uint64(left - j)) >> np.uint64(32))
                order[j], order[r] = order[r], order[j]
            if random == dealt:  # nothing predealt: the mano gets the first card, then every players-th
                seat = mano
                for q in range(players):
                    hand = ZERO
                    for j in range(q, dealt, players):
                        hand |= ONE << np.uint64(order[j])
                    hands[d, seat] = hand
                    seat = seat + 1 if seat + 1 < players else 0
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
