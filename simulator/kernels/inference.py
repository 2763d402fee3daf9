"""Inference from the play: how likely a world makes every card the other seats have played, under the learned play.

A pimc seat that reads the play (``pimc:infer=play``) weighs each world it draws by this likelihood
(times the bids' own, ``bids_log_likelihood``) before it picks the worlds it plays out. The deal is
replayed from the first lead with the world's hands as dealt: at each choice another seat made, that
seat's view is rebuilt (its hand in the world then, the cards gone, what the play had revealed, the
tricks won) and the learned play scores its n distinct legal cards; the chance of the card it played
is (1 - floor) softmax(score / temperature) + floor / n, both fitted on held-out teacher positions
(``pocha.engine.play_training.fitted_reading``): the floor keeps a card the model would not play
possible, since the others are not the model. A world whose hands explain the others' plays well is likelier.
"""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, highest_bit, lowest_bit, popcount
from pocha.kernels.jit import jit
from pocha.kernels.learned import card_scores
from pocha.kernels.trick import Trick, distinct_cards, duties, legal_cards, trump_masks
from pocha.kernels.view import play_in_view, seat_view


@jit
def play_log_likelihood(world, view, deal_rules, model, moves, work):
    """The log of the chance the other seats played ``moves`` were ``world`` (uint64[seat], the hands now) the deal.

    model: (models, index, reading), the ``kernels.learned.Model``, the model the others are read by and
    its (temperature, floor). moves int64[card]: the deal's cards in the order played, as many as ``view.played`` holds.
    work: a pimc ``Work`` (masks rows 8 to 10 and ints row 8 take the replay, ``scores`` and ``layers``
    the network's scratch). Choices among equivalent cards count as one: the card played stands for its
    run (``distinct_cards``), and a forced card adds nothing.
    """
    models, index, reading = model
    temperature, floor = reading[0], reading[1]
    players = world.shape[0]
    hands, may_hold, played = work.masks[8][:players], work.masks[9][:players], work.masks[10][:players]
    won = work.ints[8][:players]
    count = 0
    for other in range(players):
        count += popcount(view.played[other])
        hands[other] = world[other] | view.played[other]
        may_hold[other] = deal_rules.deck
        played[other] = ZERO
        won[other] = 0
    trumps, trump_bit = trump_masks(view.trump_card)
    gone = ZERO if deal_rules.full else trump_bit
    duty = duties(trumps, deal_rules.play_rule)
    deal = (deal_rules.deck, view.trump_card, view.dealer)
    leader = (view.dealer + 1) % players
    led, beat, winner = ZERO, ~ZERO, leader
    scores = work.scores
    total = 0.0
    for i in range(count):
        j = i % players
        if j == 0:
            led, beat, winner = ZERO, ~ZERO, leader
        seat = (leader + j) % players
        card = moves[i]
        bit = ONE << np.uint64(card)
        hand = hands[seat]
        if seat != view.seat:
            legal = legal_cards(hand, led, beat, duty)
            seen = seat_view(seat, hand, gone, deal, may_hold, won, view.bids, played)
            candidates = distinct_cards(legal, seen.unseen | seen.shown, beat)
            if candidates & (candidates - ONE):
                trick = Trick(trumps, leader, j, led, beat, winner)
                card_scores(seen, trick, deal_rules, candidates, models, index, scores, work.layers)
                chosen = highest_bit(candidates & ((bit << ONE) - ONE))  # the lowest card of the played one's run
                top = -np.inf
                rest = candidates
                while rest:
                    top = max(top, scores[lowest_bit(rest)])
                    rest &= rest - ONE
                spread = 0.0
                rest = candidates
                while rest:
                    spread += np.exp((scores[lowest_bit(rest)] - top) / temperature)
                    rest &= rest - ONE
                softmax = np.exp((scores[chosen] - top) / temperature) / spread
                total += np.log((1.0 - floor) * softmax + floor / popcount(candidates))
        hands[seat] = hand ^ bit
        public = (gone, played, may_hold)
        gone, led, beat, winner = play_in_view(card, seat, (trumps, led, beat, winner), public, deal_rules.play_rule)
        if j == players - 1:
            won[winner] += 1
            leader = winner
    return total
