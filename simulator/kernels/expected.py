"""The ``expected`` strategy's sum: each card's chance to take a trick, added over the hand."""

import numpy as np

from pocha.kernels.bits import LANE_MASK, ONE, ZERO, lane, lowest_bit, popcount
from pocha.kernels.jit import jit
from pocha.kernels.trick import trump_masks


@jit
def suit_lanes(hands, out):
    """out[deal, suit] = the cards of that suit in hands[deal], as a strength mask (``BidContext.lanes``)."""
    for d in range(hands.shape[0]):
        for suit in range(4):
            out[d, suit] = lane(hands[d], suit)


@jit
def unseen_lanes(lanes, trump_card, deck_lane, turned, out):
    """out[deal, suit] = the strengths of ``deck_lane`` not in lanes[deal, suit], nor the trump card when ``turned``."""
    for d in range(lanes.shape[0]):
        for suit in range(4):
            out[d, suit] = np.uint64(deck_lane) & ~lanes[d, suit]
        if turned:
            out[d, trump_card[d] >> 4] &= ~(ONE << np.uint64(trump_card[d] & 15))


@jit
def spread_by_four(lane16):
    """The 16 bits of a lane moved to every fourth bit of a uint64 (bit i to bit 4 i)."""
    x = lane16 & LANE_MASK
    x = (x ^ (x << np.uint64(24))) & np.uint64(0x000000FF000000FF)
    x = (x ^ (x << np.uint64(12))) & np.uint64(0x000F000F000F000F)
    x = (x ^ (x << np.uint64(6))) & np.uint64(0x0303030303030303)
    return (x ^ (x << np.uint64(3))) & np.uint64(0x1111111111111111)


@jit
def expected_sum(hand, unseen, trump_card, survive, not_ruffed):
    """The sum over the held cards of survive[stronger unseen, guards] * (its suit's chance not to be ruffed).

    hand, unseen uint64: the hand and the cards its holder does not see; trump_card: the card naming trump;
    survive float64[h, g]; not_ruffed float64[unseen of the suit, unseen trumps] for the plain suits
    (1 for trumps). The terms are added as numpy added them, suits in order within a strength, then
    strengths in order, so bids match to the last bit. A card not held added 0.0 there, so only the
    held cards are visited, in that order.
    """
    trumps, _ = trump_masks(trump_card)
    trump = trump_card >> 4  # -1 for NO_TRUMP: no suit is trump
    trumps_unseen = popcount(unseen & trumps)
    held = ZERO  # the hand in strength-major order: bit 4 * strength + suit
    for suit in range(4):
        held |= spread_by_four(lane(hand, suit)) << np.uint64(suit)
    total = row = 0.0
    current = 0
    while held:  # the held cards, strengths in order and suits in order within one
        index = lowest_bit(held)
        held &= held - ONE
        strength, suit = index >> 2, index & 3
        if strength != current:  # a strength's terms are summed, then added to the total
            total += row
            row = 0.0
            current = strength
        shift = np.uint64(strength)
        others = lane(unseen, suit)
        stronger = popcount(others >> (shift + ONE))
        guards = popcount(lane(hand, suit) & ((ONE << shift) - ONE))
        row += survive[stronger, guards] * (1.0 if suit == trump else not_ruffed[popcount(others), trumps_unseen])
    return total + row


@jit
def expected_sums(lanes, unseen, trump_card, survive, not_ruffed, out):
    """out[deal] = ``expected_sum`` of each deal's hand; lanes, unseen uint64[deal, suit] are its strength masks."""
    for d in range(lanes.shape[0]):
        hand = seen = ZERO
        for suit in range(4):
            hand |= lanes[d, suit] << np.uint64(16 * suit)
            seen |= unseen[d, suit] << np.uint64(16 * suit)
        out[d] = expected_sum(hand, seen, trump_card[d], survive, not_ruffed)
