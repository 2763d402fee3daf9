"""Sampling play (pimc): deal the unseen cards consistently with what the play has shown, play each world out."""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import ONE, ZERO, lowest_bit, nth_card, popcount
from pocha.kernels.choice import greedy_card
from pocha.kernels.jit import jit
from pocha.kernels.streams import below, next_state
from pocha.kernels.trick import Trick, duties, legal_cards, place_card


@jit
def sample_world(hidden, need, allowed, out, state, ints, held):
    """Deal ``need[s]`` of the ``hidden`` cards to each seat ``s``, each inside ``allowed[s]``; into ``out``.

    out uint64[seat] gets the dealt cards added; hidden cards left over lie in the stock (a deal
    that is not full). The cards go in a random order, each to a random seat that may hold it and
    has room; when none has room, an augmenting path moves cards between seats to make some, and a
    card no path can place stays in the stock. This is Kuhn's matching, so every seat's need is met
    whenever some deal meets them all (the true one does). ints int64[5, 64] and held uint64[64]
    are scratch (``scratch``). Returns the advanced state.
    """
    players = need.shape[0]
    cards, room, via, source, queue = ints[0], ints[1], ints[2], ints[3], ints[4]
    # via: the card an augmenting path moves into a seat; source: the seat it comes from (-1: the new card)
    count = 0
    rest = hidden
    while rest:
        cards[count] = lowest_bit(rest)
        count += 1
        rest &= rest - ONE
    for i in range(count - 1, 0, -1):  # Fisher-Yates
        state = next_state(state)
        j = below(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    for seat in range(players):
        room[seat] = need[seat]
        held[seat] = ZERO
    for i in range(count):
        card = cards[i]
        bit = ONE << np.uint64(card)
        state = next_state(state)
        start = below(state, players)
        placed = False
        for step in range(players):
            seat = (start + step) % players
            if room[seat] > 0 and allowed[seat] & bit:
                held[seat] |= bit
                room[seat] -= 1
                placed = True
                break
        if placed:
            continue
        for seat in range(players):
            via[seat] = -1
        head = tail = 0
        for seat in range(players):
            if allowed[seat] & bit:
                via[seat] = card
                source[seat] = -1
                queue[tail] = seat
                tail += 1
        end = -1
        while head < tail and end < 0:
            seat = queue[head]
            head += 1
            mine = held[seat]
            while mine and end < 0:
                moved = lowest_bit(mine)
                mine &= mine - ONE
                for other in range(players):
                    if via[other] < 0 and allowed[other] & (ONE << np.uint64(moved)):
                        via[other] = moved
                        source[other] = seat
                        if room[other] > 0:
                            end = other
                            break
                        queue[tail] = other
                        tail += 1
        if end < 0:  # no seat can take it, even by moving cards: it lies in the stock
            continue
        seat = end
        room[seat] -= 1
        while seat >= 0:  # each seat on the path takes the card moved into it and gives up the next one
            held[seat] |= ONE << np.uint64(via[seat])
            if source[seat] >= 0:
                held[source[seat]] &= ~(ONE << np.uint64(via[seat]))
            seat = source[seat]
    for seat in range(players):
        out[seat] |= held[seat]
    return state


@jit
def finish_greedy(hands, trick, won, bids, play_rule):
    """Play a deal out from the middle of ``trick`` (a ``Trick``), every seat greedy; tricks are counted into ``won``.

    hands uint64[seat] (consumed); won, bids int64[seat].
    """
    trumps, leader, placed, led, beat, winner = trick
    players = hands.shape[0]
    seat = (leader + placed) % players
    follow, void = duties(trumps, play_rule)
    while True:
        for _ in range(placed, players):
            legal = legal_cards(hands[seat], led, beat, follow, void)
            bit = ONE << np.uint64(greedy_card(legal, led, trumps, beat, won[seat] < bids[seat]))
            hands[seat] ^= bit
            led, beat, winner = place_card(bit, seat, led, beat, winner, trumps)
            seat = seat + 1 if seat + 1 < players else 0
        won[winner] += 1
        if hands[winner] == ZERO:
            return
        seat = leader = winner
        placed, led, beat = 0, ZERO, ~ZERO


@jit
def scratch():
    """Work arrays a batch of deals lends its pimc seats (no allocation per card): ``(ints, masks)``.

    ints int64[8, 64], masks uint64[5, 64]; ``sample_world`` and ``pimc_card`` share them out.
    """
    return np.empty((8, 64), np.int64), np.empty((5, 64), np.uint64)


class View(NamedTuple):
    """What a seat about to play knows of the deal besides the trick.

    seat, hand uint64: the seat and its cards; unseen uint64: the cards it has not seen (not in its
    hand, not played, not the turned-up trump); shown: the dealer's shown trump card in a full deal
    while the dealer (``holder``) still holds it, else 0 (holder -1); may_hold uint64[seat]: per
    seat the cards its plays have not ruled out; won, bids int64[seat].
    """

    seat: int
    hand: np.uint64
    unseen: np.uint64
    shown: np.uint64
    holder: int
    may_hold: np.ndarray
    won: np.ndarray
    bids: np.ndarray


@jit
def pimc_card(view, legal, trick, deal_rules, samples, state, work):
    """The legal card with the most expected points for ``view.seat`` over ``samples`` worlds consistent with its view.

    view: a ``View``; trick: the ``Trick`` it plays to; deal_rules: ``DealRules``. Each world deals the
    unseen cards to the other seats (``sample_world``); each legal card is played in it and the
    deal finished greedily by every seat; the seat's points under ``deal_rules.score`` are summed. Ties
    go to the lowest card id. work: ``scratch()``. Returns ``(card, state)``.
    """
    seat, hand, unseen, shown, holder, may_hold, won, bids = view
    trumps, leader, placed = trick.trumps, trick.leader, trick.placed
    ints, masks = work
    players = won.shape[0]
    tricks_left = popcount(hand)
    choices = popcount(legal)
    totals, need, outcome = ints[5], ints[6], ints[7]
    held, allowed, world, hands = masks[0], masks[1], masks[2], masks[3]
    for c in range(choices):
        totals[c] = 0
    for other in range(players):
        played_now = (other - leader) % players < placed
        need[other] = 0 if other == seat else tricks_left - played_now - (other == holder)
        allowed[other] = ZERO if other == seat else may_hold[other] & unseen
    for _ in range(samples):
        for other in range(players):
            world[other] = hand if other == seat else (shown if other == holder else ZERO)
        state = sample_world(unseen, need[:players], allowed[:players], world[:players], state, ints, held)
        rest = legal
        for c in range(choices):
            card = lowest_bit(rest)
            rest &= rest - ONE
            for other in range(players):
                hands[other] = world[other]
                outcome[other] = won[other]
            bit = ONE << np.uint64(card)
            hands[seat] ^= bit
            led, beat, winner = place_card(bit, seat, trick.led, trick.beat, trick.winner, trumps)
            after = Trick(trumps, leader, placed + 1, led, beat, winner)
            finish_greedy(hands[:players], after, outcome[:players], bids, deal_rules.play_rule)
            totals[c] += deal_rules.score[bids[seat], outcome[seat]]
    best = 0
    for c in range(1, choices):
        if totals[c] > totals[best]:
            best = c
    return nth_card(legal, best), state
