"""Statistics: add a chunk's hands into the additive boards, and close them into moments."""

import numpy as np

from pocha.kernels.jit import jit


@jit
def tally_plays(numbers, size_index, seating, bids, outcome, board, hand_fields, errors):
    """Add one play of a batch of deals to integer accumulators (exact, so chunks merge in any order).

    numbers int64[deal] (fixes the dealer); seating int64[deal, seat]: the strategy of each seat;
    bids int64[deal, seat] and the play's ``Outcome`` (won, points). Per board (the deal, over all its plays):
    board int64[deal, strategy, position + 1, 3] gets each strategy's points, hands and exact bids
    by bidding position (0 = first bidder), the last position slot for all positions.
    hand_fields int64[strategy, position, size, 4]: sums of exact (0/1), bid, won and |won - bid|
    (``pocha.tally.HAND_FIELDS``); errors int64[strategy, size, won - bid + k_max].
    """
    won, points = outcome
    players = bids.shape[1]
    every = board.shape[2] - 1
    offset = errors.shape[2] // 2
    for d in range(bids.shape[0]):
        mano = (numbers[d] + 1) % players
        for s in range(players):
            g = seating[d, s]
            position = s - mano if s >= mano else s - mano + players
            b = bids[d, s]
            w = won[d, s]
            for slot in (position, every):
                board[d, g, slot, 0] += points[d, s]
                board[d, g, slot, 1] += 1
                board[d, g, slot, 2] += b == w
            hand_fields[g, position, size_index, 0] += b == w
            hand_fields[g, position, size_index, 1] += b
            hand_fields[g, position, size_index, 2] += w
            hand_fields[g, position, size_index, 3] += abs(w - b)
            errors[g, size_index, w - b + offset] += 1


@jit
def close_boards(size_index, board, moments, cross):
    """Add finished boards to the moments: per (strategy, position) sums of T, T^2, H, H^2, T*H, E, E^2, E*H.

    board int64[board, strategy, position + 1, 3]: points T, hands H and exact bids E, as
    ``tally_plays`` fills it. moments int64[8, strategy, position + 1, size] (``pocha.tally.MOMENTS``);
    cross int64[size, strategy, strategy] gets T_a * T_b over all positions (the last slot).
    """
    boards, strategies, slots = board.shape[0], board.shape[1], board.shape[2]
    for g in range(strategies):
        for p in range(slots):
            sums = np.zeros(8, np.int64)
            for d in range(boards):
                t = board[d, g, p, 0]
                h = board[d, g, p, 1]
                e = board[d, g, p, 2]
                sums[0] += t
                sums[1] += t * t
                sums[2] += h
                sums[3] += h * h
                sums[4] += t * h
                sums[5] += e
                sums[6] += e * e
                sums[7] += e * h
            for m in range(8):
                moments[m, g, p, size_index] += sums[m]
        for other in range(strategies):
            products = 0
            for d in range(boards):
                products += board[d, g, slots - 1, 0] * board[d, other, slots - 1, 0]
            cross[size_index, g, other] += products
