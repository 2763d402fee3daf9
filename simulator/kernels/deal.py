"""Dealing: predealt cards placed, the rest shuffled and dealt, the turned card; dealt again until a condition holds."""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, nth_card, popcount
from pocha.kernels.codes import NO_TRUMP, STREAM_DEAL
from pocha.kernels.jit import jit
from pocha.kernels.streams import attempt_state, below, draw, next_state, stream_state
from pocha.kernels.where import holds

DRAWN = -1  # the ``turned`` of a deal whose trump card is drawn, not fixed


@jit
def deal_batch(seed, cards, numbers, deck, fixed, turned, no_trump, rows, first, span, hands, trump_card, attempt):
    """Deal the deals numbered ``numbers`` (int64[row]), ``cards`` cards to each of the players.

    deck: int64[deck_size] card ids. Deal number ``i`` has dealer ``i % players``; cards go one at a
    time from the mano round to the dealer, a hand's predealt cards taking its first rounds and the
    others the deck's cards left, shuffled. fixed: uint64[2, player], the predealt cards by bidding
    position (row 0) and by seat (row 1); turned: the turned card when it is fixed (in a deal of the
    whole deck the dealer holds it), else DRAWN. rows: the condition's program (``kernels.where``, no
    rows for none). Deal ``d`` tries attempts ``first[d] .. first[d] + span - 1`` (``attempt_state``:
    attempt 0 is the deal as dealt without conditions) and keeps the first that meets the condition.

    Outputs: ``hands`` uint64[deal, seat]; ``trump_card`` int64[deal]: the next card turned up, or
    the dealer's last card when the deal takes the whole deck (one of the dealer's cards at random when
    some are predealt); NO_TRUMP for every deal when ``no_trump`` (the rules play this hand size
    without trump: ``Rules.has_trump``), the cards dealt the same either way; ``attempt`` int64[deal]:
    the attempt kept, ``first[d] + span`` when none met the condition.
    """
    players = hands.shape[1]
    size = deck.shape[0]
    dealt = cards * players
    full = dealt >= size
    order = np.empty(size, np.int64)
    rest = np.empty(size, np.int64)
    own = np.empty(players, np.uint64)
    given = np.zeros(players, np.int64)
    predealt = turned != DRAWN or (fixed != ZERO).any()
    stack = np.empty(max(rows.shape[0], 1), np.int64)
    for d in range(hands.shape[0]):
        deal = numbers[d]
        mano, dealer = (deal + 1) % players, deal % players
        placed = ZERO if turned == DRAWN else ONE << np.uint64(turned)
        random = dealt
        if predealt:
            seat = mano
            for q in range(players):
                own[seat] = fixed[0, q] | fixed[1, seat]
                seat = seat + 1 if seat + 1 < players else 0
            if turned != DRAWN and full:
                own[dealer] |= placed
            for seat in range(players):
                given[seat] = popcount(own[seat])
                random -= given[seat]
                placed |= own[seat]
        left = 0
        if placed == ZERO:
            source = deck
            left = size
        else:
            source = rest
            for c in range(size):
                if (placed >> np.uint64(deck[c])) & ONE == ZERO:
                    rest[left] = deck[c]
                    left += 1
        draws = random + 1 if not full and turned == DRAWN else random  # the hands' cards, and the turned one
        start = stream_state(seed, cards, deal, STREAM_DEAL)
        a = first[d]
        while a < first[d] + span:
            state = attempt_state(start, a)
            for c in range(left):  # (element by element: numba's slice assignment took 14 ns a deal more)
                order[c] = source[c]
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
            else:  # round by round from the mano, a hand's predealt cards filling its first rounds
                for seat in range(players):
                    hands[d, seat] = own[seat]
                taken = 0
                for round in range(cards):
                    seat = mano
                    for _ in range(players):
                        if round >= given[seat]:
                            hands[d, seat] |= ONE << np.uint64(order[taken])
                            taken += 1
                        seat = seat + 1 if seat + 1 < players else 0
            if no_trump:
                trump_card[d] = NO_TRUMP
            elif turned != DRAWN:
                trump_card[d] = turned
            elif not full:
                trump_card[d] = order[random]
            elif given[dealer] == 0:
                trump_card[d] = order[random - 1]  # the last slot is the dealer's
            else:
                trump_card[d] = nth_card(hands[d, dealer], below(next_state(state), cards))
            if rows.shape[0] == 0 or holds(rows, hands[d], mano, trump_card[d], cards, stack):
                break
            a += 1
        attempt[d] = a
