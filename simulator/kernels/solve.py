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
MOST_SOLVE = 20  # tricks a solve may take on: a whole deal of 20 cards (2 players, 40 cards)
MAXN = -1  # the root of a max^n solve: no seat is played against
TABLE_BITS = 18  # entries of the largest table: 2^18, 8 MB (``table_bits``)
NO_POINTS = 1 << 40  # beyond any deal's points: the open window of a paranoid search


class Stack(NamedTuple):
    """The search's frames, one a card on the way down from the root, indexed by depth (``STACK`` each).

    A loop over frames, not recursion: numba's disk cache loads a recursive kernel broken (it crashes).
    """

    seat: np.ndarray  # the seat to play
    placed: np.ndarray  # the cards on its trick
    leader: np.ndarray
    winner: np.ndarray  # the seat winning the trick so far
    mover: np.ndarray  # the seat whose points the choice is made on (the seat to play; a paranoid root)
    maximising: np.ndarray  # 1: the most points for the mover, 0: the fewest (a paranoid opponent)
    goal: np.ndarray  # the mover's best reachable points: a card reaching them ends the frame
    best: np.ndarray  # the mover's points of the best card so far
    alpha: np.ndarray  # a paranoid search's window on the root's points
    beta: np.ndarray
    entry: np.ndarray  # the table entry the frame's value goes into (a trick's start), -1 for none
    led: np.ndarray  # the trick, as ``place_card`` keeps it
    beat: np.ndarray
    won: np.ndarray  # the packed tricks won before the frame
    hand: np.ndarray  # the seat's cards
    rest: np.ndarray  # the cards still to try
    best_value: np.ndarray  # the packed future tricks of the best card so far
    left: np.ndarray  # a table entry's key: the cards left, and ``state_key``
    state: np.ndarray
    bonus: np.ndarray  # the trick that ended just before the frame, added to its value


STACK = 66  # frames: one a card of a deal of 64 cards, and the root's


CARDS, STATE, VALUE, STAMP = 0, 1, 2, 3  # the columns of a table entry


class Table(NamedTuple):
    """A transposition table of trick-boundary positions, reused across solves (``new_table``), and the frames.

    entries uint64[entry, 4]: per entry the cards left (CARDS), the leader and the tricks won so far
    (STATE, ``state_key``), the packed future tricks (VALUE) and the generation that wrote it
    (STAMP): one entry's columns side by side, so a probe reads one cache line; generation
    uint64[1]: the current one (``forget`` moves it on).
    """

    entries: np.ndarray
    generation: np.ndarray
    stack: Stack


@jit
def new_table(bits):
    """An empty ``Table`` of 2^bits entries (bits 0: a table of one entry, for callers that never solve)."""
    size = 1 << bits
    ints = np.zeros((11, STACK), np.int64)
    masks = np.zeros((9, STACK), np.uint64)
    stack = Stack(
        seat=ints[0],
        placed=ints[1],
        leader=ints[2],
        winner=ints[3],
        mover=ints[4],
        maximising=ints[5],
        goal=ints[6],
        best=ints[7],
        alpha=ints[8],
        beta=ints[9],
        entry=ints[10],
        led=masks[0],
        beat=masks[1],
        won=masks[2],
        hand=masks[3],
        rest=masks[4],
        best_value=masks[5],
        left=masks[6],
        state=masks[7],
        bonus=masks[8],
    )
    return Table(np.zeros((size, 4), np.uint64), np.ones(1, np.uint64), stack)


@jit
def table_bits(depth):
    """The bits of a table for solves of up to ``depth`` tricks: 2 a trick and 4 more, at most TABLE_BITS (0: no solve).

    A table larger than its solves need costs more than it saves: ``pocha.Player`` makes one a card,
    and 2^18 entries (8 MB) take about 0.3 ms to allocate and clear, 2^10 about 0.03 ms. Entries
    that collide are overwritten, which loses a value, never changes one.
    """
    return min(TABLE_BITS, 2 * depth + 4) if depth > 0 else 0


@jit
def forget(table):
    """Make every entry of ``table`` stale: before a solve of other hands or other bids."""
    table.generation[0] += ONE


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
    return np.int64(mixed & np.uint64(table.entries.shape[0] - 1))


@jit
def last_trick(hands, leader, trumps):
    """The packed trick of the last cards (one a seat), ``leader`` leading."""
    players = hands.shape[0]
    led, beat, winner, seat = ZERO, ~ZERO, leader, leader
    for _ in range(players):
        led, beat, winner = place_card(hands[seat], seat, led, beat, winner, trumps)
        seat = seat + 1 if seat + 1 < players else 0
    return one_trick(winner)


@jit
def enter(d, hands, game, seat, placed, leader, trick, won, window):
    """Set up frame ``d``: ``seat`` to play the ``placed``-th card of ``trick`` (led, beat, winner), the cards to try.

    won: the packed tricks so far; window: a paranoid search's (alpha, beta).
    """
    stack, players = game.table.stack, hands.shape[0]
    led, beat, winner = trick
    hand = hands[seat]
    legal = legal_cards(hand, led, beat, game.duty)
    if legal & (legal - ONE):
        others = ZERO
        for other in range(players):
            others |= hands[other] if other != seat else ZERO
        legal = distinct_cards(legal, others, beat)
    root = game.root
    maximising = root in (MAXN, seat)
    mover = seat if root == MAXN else root
    played = (mover - leader) % players < placed  # the mover's card is on the trick: one more trick to count
    low, high = points_range(game.score, game.bids[mover], tricks_of(won, mover), popcount(hands[mover]) + played)
    stack.seat[d], stack.placed[d], stack.leader[d], stack.winner[d] = seat, placed, leader, winner
    stack.mover[d], stack.maximising[d] = mover, maximising
    stack.goal[d], stack.best[d] = (high, -NO_POINTS) if maximising else (low, NO_POINTS)
    stack.alpha[d], stack.beta[d] = window
    stack.entry[d], stack.bonus[d] = -1, ZERO
    stack.led[d], stack.beat[d], stack.won[d], stack.hand[d], stack.rest[d] = led, beat, won, hand, legal
    stack.best_value[d] = ZERO


@jit
def search(hands, game, seat, placed, leader, trick, won, window):
    """The packed tricks each seat takes from a position, ``seat`` to play the ``placed``-th card of ``trick``.

    hands uint64[seat] (restored on return); trick: (led, beat, winner) as ``place_card`` keeps
    them; won: the packed tricks so far; window: a paranoid search's (alpha, beta) on the root's points.
    A frame a card: a card tried goes one frame down (a trick's start looked up in the table first),
    a frame out of cards hands its best value up.
    """
    players, root, table = hands.shape[0], game.root, game.table
    stack = table.stack
    enter(0, hands, game, seat, placed, leader, trick=trick, won=won, window=window)
    d = 0
    while True:
        rest = stack.rest[d]
        if rest:  # the next card of frame d
            bit = rest & (ZERO - rest)
            stack.rest[d] = rest ^ bit
            seat = stack.seat[d]
            hands[seat] = stack.hand[d] ^ bit
            after = place_card(bit, seat, stack.led[d], stack.beat[d], stack.winner[d], game.trumps)
            placed, won, window = stack.placed[d] + 1, stack.won[d], (stack.alpha[d], stack.beta[d])
            if placed < players:
                d += 1
                following = seat + 1 if seat + 1 < players else 0
                enter(d, hands, game, following, placed, stack.leader[d - 1], trick=after, won=won, window=window)
                continue
            winner = after[2]
            value = one_trick(winner)
            if popcount(hands[winner]) == 1:  # the last trick: every card forced
                value += last_trick(hands, winner, game.trumps)
            elif hands[winner] != ZERO:  # a new trick: its value from the table, else from a frame of its own
                won += value
                left = ZERO
                for other in range(players):
                    left |= hands[other]
                state = state_key(winner, won, root)
                entry = slot(left, state, table)
                entries = table.entries
                if (
                    entries[entry, STAMP] == table.generation[0]
                    and entries[entry, CARDS] == left
                    and entries[entry, STATE] == state
                ):
                    value += entries[entry, VALUE]
                else:
                    if root != MAXN:  # a trick's start is searched whole: its value goes into the table exact
                        window = points_range(
                            game.score, game.bids[root], tricks_of(won, root), popcount(left) // players
                        )
                    d += 1
                    enter(d, hands, game, winner, 0, winner, trick=(ZERO, ~ZERO, winner), won=won, window=window)
                    stack.entry[d], stack.left[d], stack.state[d], stack.bonus[d] = entry, left, state, value
                    continue
        else:  # frame d is done: its best value goes up
            value = stack.best_value[d]
            entry = stack.entry[d]
            if entry >= 0:
                entries = table.entries
                entries[entry, CARDS], entries[entry, STATE] = stack.left[d], stack.state[d]
                entries[entry, VALUE], entries[entry, STAMP] = value, table.generation[0]
            value += stack.bonus[d]
            if d == 0:
                return value
            d -= 1
        # the card frame d tried is worth ``value``
        hands[stack.seat[d]] = stack.hand[d]
        mover = stack.mover[d]
        points = game.score[game.bids[mover], tricks_of(stack.won[d], mover) + tricks_of(value, mover)]
        if stack.maximising[d] and points > stack.best[d]:
            stack.best[d], stack.best_value[d] = points, value
            stack.alpha[d] = max(stack.alpha[d], points)
        elif not stack.maximising[d] and points < stack.best[d]:
            stack.best[d], stack.best_value[d] = points, value
            stack.beta[d] = min(stack.beta[d], points)
        if stack.best[d] == stack.goal[d] or (root != MAXN and stack.alpha[d] >= stack.beta[d]):
            stack.rest[d] = ZERO  # nothing left can do better for the mover (a tie goes to the lower card, tried first)


@jit
def solve(hands, trick, won, bids, score, play_rule, root, table):
    """The packed tricks each seat takes from the position on, the rest of the deal played exactly.

    hands uint64[seat]: the cards each seat still holds (restored on return); trick: the ``Trick``
    in progress (a complete one, ``placed`` = players, counts to its winner); won int64[seat]:
    tricks so far; bids int64[seat]; score int64[bid, won]; play_rule: PLAY_CODES; root: MAXN, or
    the seat a paranoid search plays for; table: a ``Table`` whose entries are for these hands and
    bids (``forget`` them otherwise).
    """
    players = hands.shape[0]
    left = ZERO
    for seat in range(players):
        left |= hands[seat]
    leader, placed, state = trick.leader, trick.placed, (trick.led, trick.beat, trick.winner)
    packed, bonus = pack(won), ZERO
    if placed == players:
        bonus = one_trick(trick.winner)
        packed += bonus
        leader, placed, state = trick.winner, 0, (ZERO, ~ZERO, trick.winner)
    if left == ZERO:
        return bonus
    game = Game(bids, score, duties(trick.trumps, play_rule), trick.trumps, root, table)
    window = (-NO_POINTS, NO_POINTS)
    if root != MAXN:  # the tricks left, the one in progress included: the leader's cards and its card on it
        window = points_range(score, bids[root], tricks_of(packed, root), popcount(hands[leader]) + (placed > 0))
    seat = (leader + placed) % players
    return bonus + search(hands, game, seat, placed, leader, state, packed, window)
