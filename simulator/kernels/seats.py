"""Seats and bidding positions: the same row of a deal read from the dealer's left or by seat."""

from pocha.kernels.jit import jit


@jit
def seats_to_positions(by_seat, numbers, out):
    """out[position, deal] = by_seat[deal, seat of that position] (position 0 = the dealer's left)."""
    players = by_seat.shape[1]
    for d in range(by_seat.shape[0]):
        seat = (numbers[d] + 1) % players
        for q in range(players):
            out[q, d] = by_seat[d, seat]
            seat += 1
            if seat == players:
                seat = 0


@jit
def positions_to_seats(by_position, numbers, out):
    """The inverse of ``seats_to_positions``: out[deal, seat] = by_position[position of that seat, deal]."""
    players = out.shape[1]
    for d in range(out.shape[0]):
        seat = (numbers[d] + 1) % players
        for q in range(players):
            out[d, seat] = by_position[q, d]
            seat += 1
            if seat == players:
                seat = 0
