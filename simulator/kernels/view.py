"""What a seat about to play knows of the deal besides the trick: its ``View``, as pimc and the learned play read it."""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import ONE, ZERO
from pocha.kernels.jit import jit_inline
from pocha.kernels.trick import place_card, revealed, trump_masks


class View(NamedTuple):
    """What a seat about to play knows of the deal besides the trick.

    seat, hand uint64: the seat and its cards; unseen uint64: the cards it has not seen (not in its
    hand, not played, not the turned-up trump); shown: the dealer's shown trump card in a full deal
    while the dealer (``holder``) still holds it, else 0 (holder -1); may_hold uint64[seat]: per
    seat the cards its plays have not ruled out; won, bids int64[seat]; dealer; trump_card: the
    turned card (the dealer's last in a full deal; NO_TRUMP in a deal without trump); played uint64[seat]:
    per seat the cards it has played.
    """

    seat: int
    hand: np.uint64
    unseen: np.uint64
    shown: np.uint64
    holder: int
    may_hold: np.ndarray
    won: np.ndarray
    bids: np.ndarray
    dealer: int
    trump_card: int
    played: np.ndarray


@jit_inline
def seat_view(seat, hand, gone, deal, may_hold, won, bids, played):
    """The ``View`` of ``seat`` holding ``hand`` when the cards ``gone`` are played or turned up (a pimc seat's).

    deal: (the deck as a mask, the trump card, the dealer). In a deal of the whole deck the dealer's
    trump card is shown to the others until it is played.
    """
    deck, trump_card, dealer = deal
    _, trump_bit = trump_masks(trump_card)
    shown = trump_bit if seat != dealer and not gone & trump_bit else ZERO
    unseen = deck & ~(hand | gone | shown)
    holder = dealer if shown else -1
    return View(
        seat, hand, unseen, shown, holder, may_hold, won, bids, dealer=dealer, trump_card=trump_card, played=played
    )


@jit_inline
def play_in_view(card, seat, trick, public, play_rule):
    """``seat`` plays ``card`` to ``trick`` (trumps, led, beat, winner) as all see it: ``(gone, led, beat, winner)``.

    public: (gone, played, may_hold): the cards gone (uint64), and per seat the cards it played and
    those its plays have not ruled out (uint64[seat], updated in place), as the play loop keeps them.
    """
    trumps, led, beat, winner = trick
    gone, played, may_hold = public
    bit = ONE << np.uint64(card)
    played[seat] |= bit
    may_hold[seat] &= ~revealed(card, led, trumps, beat, play_rule)
    led, beat, winner = place_card(bit, seat, led, beat, winner, trumps)
    return gone | bit, led, beat, winner
