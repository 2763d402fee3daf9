"""One seat's next card from what it sees, as the batch's play loop would choose it (``pocha.Player``)."""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, lowest_bit, popcount
from pocha.kernels.choice import greedy_card, random_card
from pocha.kernels.codes import POLICY_GREEDY, POLICY_RANDOM, STREAM_PLAY
from pocha.kernels.jit import jit
from pocha.kernels.pimc import scratch
from pocha.kernels.play import pimc_choice, seat_view
from pocha.kernels.streams import decision_state, stream_state
from pocha.kernels.trick import Trick, duties, legal_cards, place_card, revealed, trump_masks


@jit
def seat_card(seed, deal, deal_rules, setting, seat, dealt, trump_card, dealer, bids, played_cards):
    """The card ``seat`` plays next in deal number ``deal``, dealt ``dealt`` (uint64), after ``played_cards``.

    played_cards int64[n]: in play order from the first lead; setting: (policy code, samples,
    exhaustive, sharpness); bids int64[seat]. The cards played are replayed as the play loop keeps its
    public view (``play_deal``); a pimc seat then draws from the choice's own stream, so the card is
    the batch's. A random seat draws from it too (in the batch a random seat shares the deal's
    stream: its card is another, as likely).
    """
    policy, samples, exhaustive, sharpness = setting
    start = stream_state(seed, popcount(dealt), deal, STREAM_PLAY)  # the deal's, as ``play_deals`` starts it
    players = bids.shape[0]
    trumps, trump_bit = trump_masks(trump_card)
    follow, void = duties(trumps, deal_rules.play_rule)
    work = scratch(samples * 2 if sharpness > 0 else samples, players)  # CANDIDATES worlds per world when reading
    may_hold, played = work.masks[4], work.masks[5]
    won = np.zeros(players, np.int64)
    for other in range(players):
        may_hold[other] = deal_rules.deck
        played[other] = ZERO
    gone = ZERO if deal_rules.full else trump_bit
    hand = dealt
    leader = (dealer + 1) % players
    led, beat, winner = ZERO, ~ZERO, leader
    for i in range(played_cards.shape[0]):
        j = i % players
        if j == 0:
            led, beat, winner = ZERO, ~ZERO, leader
        other = (leader + j) % players
        card = played_cards[i]
        bit = ONE << np.uint64(card)
        if other == seat:
            hand ^= bit
        gone |= bit
        played[other] |= bit
        may_hold[other] &= ~revealed(card, led, trumps, beat, deal_rules.play_rule)
        led, beat, winner = place_card(bit, other, led, beat, winner, trumps)
        if j == players - 1:
            won[winner] += 1
            leader = winner
    placed = played_cards.shape[0] % players
    if placed == 0:
        led, beat, winner = ZERO, ~ZERO, leader
    legal = legal_cards(hand, led, beat, follow, void)
    state = decision_state(start, played_cards.shape[0])
    if not legal & (legal - ONE):
        return lowest_bit(legal)
    if policy == POLICY_RANDOM:
        return random_card(legal, state)
    if policy == POLICY_GREEDY:
        return greedy_card(legal, led, trumps, beat, won[seat] < bids[seat])
    view = seat_view(seat, hand, gone, deal_rules.deck, trump_bit, dealer, may_hold, won, bids, trump_card, played)
    trick = Trick(trumps, leader, placed, led, beat, winner)
    card, _ = pimc_choice(view, legal, trick, deal_rules, (samples, exhaustive, sharpness), True, state, work)
    return card
