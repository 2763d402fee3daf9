"""Dealing: shuffle, hands as bitmasks, the turned trump card."""

import numpy as np

from pocha.kernels.bits import ONE, ZERO
from pocha.kernels.codes import NO_TRUMP, STREAM_DEAL
from pocha.kernels.jit import jit
from pocha.kernels.streams import draw, next_state, stream_state


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
        state = stream_state(seed, cards, deal, STREAM_DEAL)
        for c in range(size):  # (element by element: numba's slice assignment took 14 ns a deal more)
            order[c] = deck[c]
        for j in range(draws):  # partial Fisher-Yates: only the cards that are dealt or turned
            if j & 1 == 0:
                state = next_state(state)
                bits = draw(state)
            else:
                bits <<= np.uint64(32)
            r = j + np.int64(((bits >> np.uint64(32)) * np.uint64(size - j)) >> np.uint64(32))
            order[j], order[r] = order[r], order[j]
        seat = (deal + 1) % players  # the mano gets the first card, then every players-th
        for first in range(players):
            hand = ZERO
            for j in range(first, dealt, players):
                hand |= ONE << np.uint64(order[j])
            hands[d, seat] = hand
            seat = seat + 1 if seat + 1 < players else 0
        trump_card[d] = NO_TRUMP if no_trump else (order[dealt] if dealt < size else order[dealt - 1])
