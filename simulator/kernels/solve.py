"""The exact play of a deal with every hand known (open hands), from any position, under the rule set's scoring.

max^n (``MAXN`` as the root): each seat, on its turn, plays the card that gives it the most points
at the end of the deal (``score[bid, won]``), the others playing the same way; among cards equal
for it, the lowest card id (pimc's tie rule). Paranoid (a seat as the root): that seat maximises
its points and every other seat minimises them, with alpha-beta cuts.

A value is the tricks each seat takes from the position on, ``SEAT_BITS`` bits a seat packed in a
uint64 (a paranoid search makes only the root's count exact). A transposition table (``Table``)
holds the values of the positions at trick boundaries, keyed by the cards left (ownership is fixed
within one solve) and the leader and the tricks won so far; it is allocated once and reused, a
new generation (``forget``) making every entry stale instead of clearing it. Of equivalent cards
only the lowest is tried (``trick.distinct_cards``): with the lowest-id tie rule that is exact.
Forced cards are played without branching; a mover stops trying cards once one gives it the most
points it can still reach.
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import ONE, ZERO, popcount
from pocha.kernels.jit import jit
from pocha.kernels.trick import Duties, distinct_cards, duties, legal_cards, place_card

SEAT_BITS = 6  # bits of one seat's trick count in a packed value: 10 seats fill 60 bits, up to 63 tricks each
FIELD = np.uint64((1 << SEAT_BITS) - 1)
LEADER_SHIFT = np.uint64(60)  # a table key's leader, above the packed tricks won
MAXN = -1  # the root of a max^n solve: no seat is played against
TABLE_BITS = 18  # entries of a solving seat's table: 2^18, 8 MB
NO_POINTS = 1 << 40  # beyond any deal's points: the open window of a paranoid search


class Table(NamedTuple):
    """A transposition table of trick-boundary positions, reused across solves (``new_table``).

    cards uint64[entry]: the cards left; state uint64[entry]: the leader and the tricks won so
    far (``state_key``); value uint64[entry]: the packed future tricks; stamp int64[entry]: the
    generation that wrote it; generation int64[1]: the current one (``forget`` moves it on).
    """

    cards: np.ndarray
    state: np.ndarray
    value: np.ndarray
    stamp: np.ndarray
    generation: np.ndarray


@jit
def new_table(bits):
    """An empty ``Table`` of 2^bits entries (bits 0: a table of one entry, for callers that never solve)."""
    size = 1 << bits
    return Table(
        np.empty(size, np.uint64),
        np.empty(size, np.uint64),
        np.empty(size, np.uint64),
        np.zeros(size, np.int64),
        np.ones(1, np.int64),
    )


@jit
def forget(table):
    """Make every entry of ``table`` stale: before a solve of other hands or other bids."""
    table.generation[0] += 1


class Game(NamedTuple):
    """What stays the same through one solve: bids int64[seat], score int64[bid, won], the ``Duties``, trumps, root."""

    bids: np.ndarray
    score: np.ndarray
    duty: Duties
    trumps: np.uint64
    root: int  # MAXN, or the seat the paranoid search plays for
    table: Table


@jit
def tricks_of(value, seat):
    """One seat's count of a packed value."""
    return np.int64((value >> np.uint64(SEAT_BITS * seat)) & FIELD)


@jit
def one_trick(seat):
    """The packed value of one trick to ``seat``."""
    return ONE << np.uint64(SEAT_BITS * seat)


@jit
def pack(won):
    """int64[seat] counts as a packed value."""
    value = ZERO
    for seat in range(won.shape[0]):
        value += np.uint64(won[seat]) << np.uint64(SEAT_BITS * seat)
    return value


@jit
def points_range(score, bid, won, left):
    """``(lowest, highest)``: the points a seat that bid ``bid`` and won ``won`` can end with, ``left`` tricks to go."""
    low = high = score[bid, won]
    for end in range(won + 1, won + left + 1):
        low, high = min(low, score[bid, end]), max(high, score[bid, end])
    return low, high


@jit
def state_key(leader, won, root):
    """A table key's second half: the leader above the tricks won that matter (a paranoid root's only)."""
    if root != MAXN:
        won &= FIELD << np.uint64(SEAT_BITS * root)
    return won | (np.uint64(leader) << LEADER_SHIFT)


@jit
def slot(left, state, table):
    """The entry of a key (the cards left, ``state_key``): a multiplicative hash of both halves."""
    mixed = left * np.uint64(0x9E3779B97F4A7C15) ^ state * np.uint64(0xC2B2AE3D27D4EB4F)
    mixed ^= mixed >> np.uint64(31)
    return np.int64(mixed & np.uint64(table.stamp.shape[0] - 1))


@jit
def search(hands, seat, placed, leader, led, beat, winner, won, game, alpha, beta):
    """The packed tricks each seat takes from a position, ``seat`` to play the ``placed``-th card of the trick.

    hands uint64[seat] (restored on return); led, beat, winner: the trick (``place_card``); won: the
    packed tricks so far. alpha, beta: a paranoid search's window on the root's points.
    """
    players = hands.shape[0]
    if placed == players:  # the trick is complete: a new one, or the end
        trick = one_trick(winner)
        if hands[winner] == ZERO:
            return trick
        won += trick
        left = ZERO
        for other in range(players):
            left |= hands[other]
        table, state = game.table, state_key(winner, won, game.root)
        entry = slot(left, state, table)
        if table.stamp[entry] == table.generation[0] and table.cards[entry] == left and table.state[entry] == state:
            return trick + table.value[entry]
        root = game.root
        if root != MAXN:  # a boundary is searched whole: its value goes into the table exact
            alpha, beta = points_range(game.score, game.bids[root], tricks_of(won, root), popcount(left) // players)
        value = search(hands, winner, 0, winner, ZERO, ~ZERO, winner, won, game, alpha, beta)
        table.cards[entry], table.state[entry], table.value[entry] = left, state, value
        table.stamp[entry] = table.generation[0]
        return trick + value
    hand = hands[seat]
    after = seat + 1 if seat + 1 < players else 0
    legal = legal_cards(hand, led, beat, game.duty)
    if legal & (legal - ONE):
        others = ZERO
        for other in range(players):
            others |= hands[other] if other != seat else ZERO
        legal = distinct_cards(legal, others, beat)
    root = game.root
    maximising = root in (MAXN, seat)
    mover = seat if root == MAXN else root  # whose points the choice is made on
    bid, so_far = game.bids[mover], tricks_of(won, mover)
    played = (mover - leader) % players < placed  # the mover's card is on the trick: one more trick to count
    low, high = points_range(game.score, bid, so_far, popcount(hands[mover]) + played)
    best_value, best = ZERO, -NO_POINTS if maximising else NO_POINTS
    rest = legal
    while rest:
        bit = rest & (ZERO - rest)
        rest ^= bit
        hands[seat] = hand ^ bit
        next_led, next_beat, next_winner = place_card(bit, seat, led, beat, winner, game.trumps)
        value = search(hands, after, placed + 1, leader, next_led, next_beat, next_winner, won, game, alpha, beta)
        hands[seat] = hand
        points = game.score[bid, so_far + tricks_of(value, mover)]
        if maximising and points > best:
            best, best_value = points, value
            alpha = max(alpha, points)
        elif not maximising and points < best:
            best, best_value = points, value
            beta = min(beta, points)
        if best == (high if maximising else low) or (root != MAXN and alpha >= beta):
            break  # nothing left can do better for the mover (a tie goes to the lower card, tried first)
    return best_value


@jit
def solve(hands, trick, won, bids, score, play_rule, root, table):
    """The packed tricks each seat takes from the position on, the rest of the deal played exactly.

    hands uint64[seat]: the cards each seat still holds (restored on return); trick: the ``Trick``
    in progress (``placed`` < players); won int64[seat]: tricks so far; bids int64[seat];
    score int64[bid, won]; play_rule: PLAY_CODES; root: MAXN, or the seat a paranoid search plays
    for; table: a ``Table`` whose entries are for these hands and bids (``forget`` them otherwise).
    """
    players = hands.shape[0]
    left = ZERO
    most = 0  # the tricks left, the one in progress included: a seat yet to play to it holds most cards
    for seat in range(players):
        left |= hands[seat]
        most = max(most, popcount(hands[seat]))
    if left == ZERO:
        return ZERO
    game = Game(bids, score, duties(trick.trumps, play_rule), trick.trumps, root, table)
    packed, alpha, beta = pack(won), -NO_POINTS, NO_POINTS
    if root != MAXN:
        alpha, beta = points_range(score, bids[root], won[root], most)
    leader, placed = trick.leader, trick.placed
    seat = (leader + placed) % players
    return search(hands, seat, placed, leader, trick.led, trick.beat, trick.winner, packed, game, alpha, beta)
