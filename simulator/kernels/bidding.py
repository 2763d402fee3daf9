"""Bidding kernels: random bids, the legal bid nearest an estimate or worth most, the bid check, the table's bid."""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import lane, popcount
from pocha.kernels.expected import expected_sum
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.streams import next_state, stream_state, uniform
from pocha.kernels.trick import trump_masks


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
        trumps, _ = trump_masks(trump_card[d])
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


@jit_inline
def best_legal_bid(points, forbidden):
    """The bid with the most points[bid], never ``forbidden`` (-1: none; the lower bid on ties)."""
    best = -1
    for b in range(points.shape[0]):
        if b != forbidden and (best < 0 or points[b] > points[best]):
            best = b
    return best


@jit
def best_legal_bids(points, forbidden, out):
    """out[deal] = the bid with the most points[deal, bid], never forbidden[deal] (the lower bid on ties)."""
    for d in range(points.shape[0]):
        out[d] = best_legal_bid(points[d], forbidden[d])


class Bidder(NamedTuple):
    """Where a bidder sits: the hand size, the players and its bidding position."""

    cards: int
    players: int
    position: int  # 0 = first bidder


@jit_inline
def hand_values(hand, trump_card, bidder, strongest):
    """The table's FEATURES of one hand but the last (bids_so_far: ``share_of``), not yet capped."""
    strongest_three = np.uint64(0)
    for i in range(min(3, strongest + 1)):
        strongest_three |= np.uint64(1) << np.uint64(strongest - i)
    trump = trump_card >> 4  # -1 for NO_TRUMP: no suit is trump
    high = low = aces = seconds = voids = 0
    for suit in range(4):
        held = lane(hand, suit)
        if suit == trump:
            high = popcount(held & strongest_three)
            low = popcount(held) - high
        else:
            aces += np.int64((held >> np.uint64(strongest)) & np.uint64(1))
            if strongest > 0:
                seconds += np.int64((held >> np.uint64(strongest - 1)) & np.uint64(1))
            voids += held == 0
    return (bidder.cards - 1, bidder.position, high, low, aces, seconds, voids)


@jit_inline
def share_of(bidder, earlier_sum):
    """The bids_so_far feature: 0, 1 or 2 as the earlier bids sum below, about or above an even share."""
    cards, players, position = bidder
    lead = 2 * (earlier_sum * players - position * cards)
    return 0 if lead < -players else (2 if lead > players else 1)


@jit
def hand_features(hands, trump_card, earlier_sum, bidder, strongest, caps, out):
    """The numba body of ``features``: out[deal, FEATURES], each capped at caps[FEATURES].

    earlier_sum int64[deal]: the earlier bids' sum; bidder: a ``Bidder``; strongest: the strength of
    the deck's strongest rank (ranks - 1). bids_so_far compares 2 * players * (sum - position * k /
    players) with +-players, so it is exact in integers.
    """
    for d in range(len(hands)):
        values = hand_values(hands[d], trump_card[d], bidder, strongest)
        for f in range(len(values)):
            out[d, f] = min(values[f], caps[f])
        out[d, len(values)] = min(share_of(bidder, earlier_sum[d]), caps[len(values)])


class TableModel(NamedTuple):
    """The ``table`` strategy at one hand size, as a kernel bids with it (``TrickTable.model``)."""

    players: int
    cards: int
    points: np.ndarray  # float64[cell, bid]: each cell's expected points of bids 0..k
    best: np.ndarray  # int64[cell]: the bid worth most in each cell when none is forbidden
    found: np.ndarray  # bool[cell]: whether the cell (or a coarser one) holds enough hands
    strides: np.ndarray  # int64[FEATURES]: a feature's step in the cell index (0 for the hand size)
    caps: np.ndarray  # int64[FEATURES]
    strongest: int  # the strength of the deck's strongest rank
    hook: bool  # the hook rule binds the dealer at this hand size
    deck: np.uint64  # the deck's cards as a mask
    turned: bool  # the trump card is turned up (nobody's), not the dealer's last card
    survive: np.ndarray  # the ``expected`` strategy's tables at this hand size, for the thin cells
    not_ruffed: np.ndarray


@jit_inline
def forbidden_bid(model, position, earlier_sum):
    """The bid the hook rule forbids at ``position`` after bids summing to ``earlier_sum``, -1 for none."""
    if not model.hook or position < model.players - 1 or earlier_sum > model.cards:
        return -1
    return model.cards - earlier_sum


@jit_inline
def hand_cell(model, hand, trump_card, position):
    """The index in ``model.points`` of the hand's cell with bids_so_far 0: ``share_cell`` adds the rest."""
    values = hand_values(hand, trump_card, Bidder(model.cards, model.players, position), model.strongest)
    cell = 0
    for f in range(len(values)):
        cell += min(values[f], model.caps[f]) * model.strides[f]
    return cell


@jit_inline
def share_cell(model, share):
    """What the bids_so_far feature ``share`` (``share_of``) adds to a cell's index."""
    return min(share, model.caps[-1]) * model.strides[-1]


@jit_inline
def table_cell(model, hand, trump_card, earlier_sum, position):
    """The index of the hand's cell in ``model.points``."""
    share = share_of(Bidder(model.cards, model.players, position), earlier_sum)
    return hand_cell(model, hand, trump_card, position) + share_cell(model, share)


@jit_inline
def cell_bid(model, cell, hand, trump_card, forbidden):
    """The ``table`` strategy's bid in a cell: the legal bid worth most, or ``expected``'s bid if the cell is thin.

    A loop that bids calls it only where ``model.best[cell]`` may not be the bid (forbidden, or a
    thin cell): called for every bid, the inlined whole costs three times as much (measured).
    """
    if model.found[cell]:
        return best_legal_bid(model.points[cell], forbidden)
    unseen = model.deck & ~hand
    if model.turned:
        unseen &= ~(np.uint64(1) << np.uint64(trump_card))
    estimate = expected_sum(hand, unseen, trump_card, model.survive, model.not_ruffed)
    return nearest_legal_bid(estimate, model.cards, forbidden)
