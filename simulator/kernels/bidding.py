"""Bidding kernels: random bids, the legal bid nearest an estimate or worth most, the bid check, table features."""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import lane, popcount
from pocha.kernels.jit import jit
from pocha.kernels.streams import next_state, stream_state, uniform
from pocha.kernels.trick import suit_cards


@jit
def random_bids(seed, cards, numbers, stream, forbidden, out):
    """out[deal] = a bid uniform among 0..cards less forbidden[deal] (-1: none), by the first uniform of ``stream``.

    The ``random`` strategy: floor(u * choices), stepping over the forbidden bid, with u as ``uniform_batch`` draws it.
    """
    for d in range(out.shape[0]):
        restricted = forbidden[d] >= 0
        bid = np.int64(
            np.floor(uniform(next_state(stream_state(seed, cards, numbers[d], stream))) * (cards + 1 - restricted))
        )
        out[d] = bid + (restricted and bid >= forbidden[d])


@jit
def trumps_and_side_aces(hands, trump_card, aces, out):
    """out[deal] = the trumps in hands[deal] plus its ``aces`` (a mask) of the other suits (``AcesTrumps``)."""
    for d in range(hands.shape[0]):
        trumps = suit_cards(trump_card[d] >> 4)
        out[d] = popcount(hands[d] & trumps) + popcount(hands[d] & aces & ~trumps)


@jit
def nearest_legal_bid(estimate, cards, forbidden):
    """``nearest_legal`` of one estimate (float64, not NaN) under 0..cards and ``forbidden`` (-1: none)."""
    bid = np.int64(min(max(np.floor(estimate + 0.5), 0.0), np.float64(cards)))
    if bid == forbidden:
        step = 1 if estimate >= bid else -1
        bid = bid - step if not 0 <= bid + step <= cards else bid + step
    return bid


@jit
def nearest_legal_bids(estimates, cards, forbidden, out):
    """out[deal] = ``nearest_legal`` of estimates[deal] (float64) under 0..cards and forbidden[deal]; -1 for NaN."""
    for d in range(out.shape[0]):
        estimate = estimates[d]
        # NaN: no bid, which the engine's check reports
        out[d] = -1 if np.isnan(estimate) else nearest_legal_bid(estimate, cards, forbidden[d])


@jit
def illegal_bids(bids, cards, forbidden):
    """``(first bid outside 0..cards, first bid equal to forbidden[deal])``, as deal indices, -1 for none."""
    outside = hooked = -1
    for d in range(bids.shape[0]):
        if outside < 0 and not 0 <= bids[d] <= cards:
            outside = d
        if hooked < 0 and bids[d] == forbidden[d]:
            hooked = d
    return outside, hooked


@jit
def best_legal_bids(points, forbidden, out):
    """out[deal] = the bid with the most points[deal, bid], never forbidden[deal] (the lower bid on ties)."""
    for d in range(points.shape[0]):
        best = -1
        for b in range(points.shape[1]):
            if b != forbidden[d] and (best < 0 or points[d, b] > points[d, best]):
                best = b
        out[d] = best


class Bidder(NamedTuple):
    """Where a bidder sits: the hand size, the players and its bidding position."""

    cards: int
    players: int
    position: int  # 0 = first bidder


@jit
def hand_features(hands, trump_card, earlier_sum, bidder, strongest, caps, out):
    """The numba body of ``features``: out[deal, FEATURES], each capped at caps[FEATURES].

    earlier_sum int64[deal]: the earlier bids' sum; bidder: a ``Bidder``; strongest: the strength of
    the deck's strongest rank (ranks - 1). bids_so_far compares 2 * players * (sum - position * k /
    players) with +-players, so it is exact in integers.
    """
    cards, players, position = bidder
    top_three = np.uint64(0)
    for i in range(min(3, strongest + 1)):
        top_three |= np.uint64(1) << np.uint64(strongest - i)
    for d in range(len(hands)):
        trump = trump_card[d] >> 4
        high = low = aces = seconds = voids = 0
        for suit in range(4):
            held = lane(hands[d], suit)
            if suit == trump:
                high = popcount(held & top_three)
                low = popcount(held) - high
            else:
                aces += np.int64((held >> np.uint64(strongest)) & np.uint64(1))
                if strongest > 0:
                    seconds += np.int64((held >> np.uint64(strongest - 1)) & np.uint64(1))
                voids += held == 0
        lead = 2 * (earlier_sum[d] * players - position * cards)
        share = 0 if lead < -players else (2 if lead > players else 1)
        values = (cards - 1, position, high, low, aces, seconds, voids, share)
        for f in range(len(values)):
            out[d, f] = min(values[f], caps[f])
