"""Statistics: add a chunk's boards, each deal with all its plays, into the additive accumulators."""

import numpy as np

from pocha.kernels.jit import jit


@jit
def tally_boards(numbers, size_index, seating, bids, outcome, moments, cross, hand_fields, errors):
    """Add a batch of boards to integer accumulators (exact, so chunks merge in any order).

    A board is one deal over all its plays: numbers int64[deal] (fixes the dealer); per play (one,
    or one per rotation of the seating in duplicate) seating int64[play, deal, seat], the strategy
    of each seat, bids int64[play, deal, seat] and the plays' ``Outcome`` (won, points, alike).
    Each board's sums per strategy and bidding position (0 = first bidder; the last slot for all
    positions) of points T, hands H and exact bids E are made in a small array and closed at once,
    so no array of boards is written and read back:
    moments int64[8, strategy, position + 1, size] gets T, T^2, H, H^2, T*H, E, E^2, E*H
    (``pocha.tally.MOMENTS``); cross int64[size, strategy, strategy] gets T_a * T_b over all positions.
    hand_fields int64[strategy, position, size, 4]: sums of exact (0/1), bid, won and |won - bid|
    (``pocha.tally.HAND_FIELDS``); errors int64[strategy, size, won - bid + k_max].
    """
    won, points = outcome
    plays, players = bids.shape[0], bids.shape[2]
    strategies, slots = moments.shape[1], moments.shape[2]
    every = np.uint64(slots - 1)
    offset = errors.shape[2] // 2
    board = np.zeros((strategies, slots, 3), np.int64)
    sums = np.zeros((strategies, slots, 8), np.int64)  # a slot's eight moments side by side: 15% faster
    products = np.zeros((strategies, strategies), np.int64)
    fields = np.zeros((strategies, players, 4), np.int64)  # hand_fields and errors of this size, added at the end
    errs = np.zeros((strategies, errors.shape[2]), np.int64)
    for d in range(numbers.shape[0]):
        mano = (numbers[d] + 1) % players
        for r in range(plays):
            for s in range(players):
                # unsigned indexes: numba skips its fix-up of negative ones (15% of the tally)
                g = np.uint64(seating[r, d, s])
                position = np.uint64(s - mano if s >= mano else s - mano + players)
                b = bids[r, d, s]
                w = won[r, d, s]
                t = points[r, d, s]
                exact = np.int64(b == w)
                for slot in (position, every):
                    board[g, slot, 0] += t
                    board[g, slot, 1] += 1
                    board[g, slot, 2] += exact
                fields[g, position, 0] += exact
                fields[g, position, 1] += b
                fields[g, position, 2] += w
                fields[g, position, 3] += abs(w - b)
                errs[g, np.uint64(w - b + offset)] += 1
        for g in range(strategies):
            for other in range(strategies):
                products[g, other] += board[g, every, 0] * board[other, every, 0]
        for g in range(strategies):
            for p in range(slots):
                t = board[g, p, 0]
                h = board[g, p, 1]
                e = board[g, p, 2]
                board[g, p, 0] = 0  # cleared as it is read, for the next board
                board[g, p, 1] = 0
                board[g, p, 2] = 0
                sums[g, p, 0] += t
                sums[g, p, 1] += t * t
                sums[g, p, 2] += h
                sums[g, p, 3] += h * h
                sums[g, p, 4] += t * h
                sums[g, p, 5] += e
                sums[g, p, 6] += e * e
                sums[g, p, 7] += e * h
    for m in range(8):
        for g in range(strategies):
            for p in range(slots):
                moments[m, g, p, size_index] += sums[g, p, m]
    for g in range(strategies):
        for other in range(strategies):
            cross[size_index, g, other] += products[g, other]
        for p in range(players):
            for f in range(4):
                hand_fields[g, p, size_index, f] += fields[g, p, f]
        for x in range(errs.shape[1]):
            errors[g, size_index, x] += errs[g, x]
