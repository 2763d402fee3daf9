"""A teacher's labels for the learned play: each position a pimc seat chose in, with its value of every card.

The position is kept whole (the seat's ``View`` and the ``Trick``), not as features: features are
worked out from it when a model is fitted (``positions_features``), so a new feature needs no new labels.
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import ONE, lowest_bit
from pocha.kernels.jit import jit
from pocha.kernels.learned import STATE_WIDTH, card_features, state_features
from pocha.kernels.trick import Trick
from pocha.kernels.view import View


class Record(NamedTuple):
    """Positions a teacher labelled, arrays [position, ...] filled up to ``count[0]`` (length 0: none recorded).

    ints int64[position, 8]: seat, dealer, trump card, shown trump's holder, trick leader, cards on the
    trick, its winner so far, the deal's row in its chunk. masks uint64[position, 6]: hand, unseen,
    shown, trumps, led, beat. seats uint64[position, 2, seat]: may_hold and played. counts
    int64[position, 2, seat]: won and bids. values float64[position, 64]: the teacher's mean points of each
    card it weighed (one of each run of equivalent legal cards), NaN for the others.
    """

    ints: np.ndarray
    masks: np.ndarray
    seats: np.ndarray
    counts: np.ndarray
    values: np.ndarray
    count: np.ndarray


def new_record(positions: int, players: int) -> Record:
    """Room for ``positions`` labelled positions at a table of ``players``."""
    return Record(
        np.zeros((positions, 8), np.int64),
        np.zeros((positions, 6), np.uint64),
        np.zeros((positions, 2, players), np.uint64),
        np.zeros((positions, 2, players), np.int64),
        np.full((positions, 64), np.nan),
        np.zeros(1, np.int64),
    )


@jit
def no_record():
    """The ``Record`` of a play that labels nothing."""
    return Record(
        np.zeros((0, 8), np.int64),
        np.zeros((0, 6), np.uint64),
        np.zeros((0, 2, 0), np.uint64),
        np.zeros((0, 2, 0), np.int64),
        np.zeros((0, 64)),
        np.zeros(1, np.int64),
    )


@jit
def label(record, view, trick, cards, totals, samples, row):
    """Keep the position of ``view`` and ``trick``, and ``totals`` of ``cards`` over ``samples`` worlds.

    A full record keeps nothing more (its room is the most positions a chunk can have).
    """
    i = record.count[0]
    if i >= record.ints.shape[0]:
        return
    record.count[0] = i + 1
    ints, masks = record.ints[i], record.masks[i]
    ints[0], ints[1], ints[2], ints[3] = view.seat, view.dealer, view.trump_card, view.holder
    ints[4], ints[5], ints[6], ints[7] = trick.leader, trick.placed, trick.winner, row
    masks[0], masks[1], masks[2] = view.hand, view.unseen, view.shown
    masks[3], masks[4], masks[5] = trick.trumps, trick.led, trick.beat
    for seat in range(view.won.shape[0]):
        record.seats[i, 0, seat], record.seats[i, 1, seat] = view.may_hold[seat], view.played[seat]
        record.counts[i, 0, seat], record.counts[i, 1, seat] = view.won[seat], view.bids[seat]
    rest = cards
    while rest:
        card = lowest_bit(rest)
        rest &= rest - ONE
        record.values[i, card] = totals[card] / samples


@jit
def recorded_position(record, i):
    """Position ``i`` of ``record`` as the seat saw it: ``(view, trick)``."""
    ints, masks = record.ints[i], record.masks[i]
    view = View(
        ints[0],
        masks[0],
        masks[1],
        masks[2],
        ints[3],
        record.seats[i, 0],
        record.counts[i, 0],
        record.counts[i, 1],
        dealer=ints[1],
        trump_card=ints[2],
        played=record.seats[i, 1],
    )
    return view, Trick(masks[3], ints[4], ints[5], masks[4], masks[5], ints[6])


@jit
def positions_features(record, deal_rules, states, cards, position, card_ids):
    """The features of every weighed card of ``record``'s positions: one row per (position, card).

    states float64[row, STATE_WIDTH], cards float64[row, CARD_WIDTH]: filled; position int64[row]: the
    position of the row; card_ids int64[row]: its card. Rows are as many as ``record.values``' numbers.
    """
    state = np.empty(STATE_WIDTH)
    r = 0
    for i in range(record.count[0]):
        view, trick = recorded_position(record, i)
        state_features(view, trick, deal_rules, state)
        for card in range(64):
            if not np.isnan(record.values[i, card]):
                states[r] = state
                card_features(card, view, trick, deal_rules, cards[r])
                position[r], card_ids[r] = i, card
                r += 1
    return r
