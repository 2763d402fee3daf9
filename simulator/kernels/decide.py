"""One seat's next card from what it sees, as the batch's play loop would choose it; what each card promises; worlds.

``pocha.Player`` and ``pocha advise --played`` ask through here: the cards played are replayed from
the first lead as the play loop keeps its public view (``play_deal``), then the seat chooses. An
outside searcher (OpenSpiel's IS-MCTS at ``pocha match``) draws its worlds with ``seat_worlds``; how
much the play tells of the hands is measured with ``play_evidence``.
"""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, lowest_bit, popcount
from pocha.kernels.choice import greedy_card, random_card
from pocha.kernels.codes import (
    POLICY_GREEDY,
    POLICY_LEARNED,
    POLICY_RANDOM,
    STREAM_CARD_ADVICE,
    STREAM_PLAY,
)
from pocha.kernels.inference import play_log_likelihood
from pocha.kernels.jit import jit
from pocha.kernels.labels import no_record
from pocha.kernels.learned import learned_card, no_model
from pocha.kernels.pimc import (
    CANDIDATES,
    bid_log_weights,
    deal_world,
    play_out,
    read_worlds,
    scratch,
    searches,
    world_limits,
    worlds_pool,
)
from pocha.kernels.play import pimc_choice
from pocha.kernels.streams import decision_state, stream_state
from pocha.kernels.trick import Trick, duties, legal_cards, trump_masks
from pocha.kernels.view import play_in_view, seat_view


@jit
def seat_position(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, work):
    """``(view, trick, legal)``: what ``seat``, dealt ``dealt`` (uint64), sees after ``played_cards`` (int64[n]).

    bids int64[seat]; work: a ``scratch`` whose masks rows 4 and 5 take the view's may_hold and played, and
    whose ``moves`` the cards played.
    """
    players = bids.shape[0]
    trumps, trump_bit = trump_masks(trump_card)
    may_hold, played = work.masks[4][:players], work.masks[5][:players]
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
        if other == seat:
            hand ^= ONE << np.uint64(card)
        work.moves[i] = card
        public = (gone, played, may_hold)
        gone, led, beat, winner = play_in_view(card, other, (trumps, led, beat, winner), public, deal_rules.play_rule)
        if j == players - 1:
            won[winner] += 1
            leader = winner
    placed = played_cards.shape[0] % players
    if placed == 0:
        led, beat, winner = ZERO, ~ZERO, leader
    duty = duties(trumps, deal_rules.play_rule)
    view = seat_view(seat, hand, gone, (deal_rules.deck, trump_card, dealer), may_hold, won, bids, played)
    return view, Trick(trumps, leader, placed, led, beat, winner), legal_cards(hand, led, beat, duty)


@jit
def seat_card(seed, deal, deal_rules, setting, models, seat, dealt, trump_card, dealer, bids, played_cards):
    """The card ``seat`` plays next in deal number ``deal`` (``seat_position``'s arguments; setting: the policy).

    setting: (policy code, samples, exhaustive, sharpness, solve, paranoid, rollout, infer); models: the model
    of a learned seat or of a pimc seat's learned play-outs (rollout POLICY_LEARNED) or play reading
    (infer 1), the first of a ``kernels.learned.Model``. A pimc seat draws from the choice's own
    stream (``decision_state`` of the deal's play stream), so the card is the batch's. A random seat
    draws from it too (in the batch a random seat shares the deal's stream: its card is another, as likely).
    """
    policy, samples, exhaustive, sharpness, depth, paranoid, rollout, infer = setting
    solved = min(depth, popcount(dealt)) if searches(policy, depth) else 0
    work = scratch(worlds_pool(samples, sharpness, 0 if infer else -1), bids.shape[0], solved)
    view, trick, legal = seat_position(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, work)
    state = decision_state(stream_state(seed, popcount(dealt), deal, STREAM_PLAY), played_cards.shape[0])
    if not legal & (legal - ONE):
        return lowest_bit(legal)
    if policy == POLICY_RANDOM:
        return random_card(legal, state)
    if policy == POLICY_GREEDY:
        return greedy_card(legal, trick.led, trick.trumps, trick.beat, view.won[seat] < view.bids[seat])
    if policy == POLICY_LEARNED and popcount(view.hand) > depth:  # its last ``depth`` tricks played as pimc
        return learned_card(view, legal, trick, deal_rules, models, 0, work.scores, work.layers)
    playout = 0 if rollout == POLICY_LEARNED else -1
    setting = (samples, exhaustive, sharpness, depth, paranoid, playout, 0 if infer else -1)
    card, _ = pimc_choice(
        view, legal, trick, deal_rules, setting, True, state, work, record=no_record(), row=0, models=models
    )
    return card


@jit
def seat_worlds(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, state, work):
    """Deals ``seat`` may be in, as pimc draws them: every seat's hand as dealt, one deal a row of ``work.worlds``.

    ``seat_position``'s arguments (bids may be any while the bidding goes on: a world does not read
    them; the seat may be any, not only the one to move). The cards the seat has not seen are dealt to
    the others, each as many as it holds, none its plays have ruled out (``sample_world``); the cards
    each played are added back. work: a ``scratch`` of as many worlds as wanted. Returns the advanced state.
    """
    players = bids.shape[0]
    view, trick, _ = seat_position(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, work)
    need, allowed = work.ints[6][:players], work.masks[1][:players]
    world_limits(view, trick, need, allowed)
    for other in range(players):  # counted from the cards each has played: ``seat`` need not be the one to move
        if other != seat:
            need[other] = popcount(dealt) - popcount(view.played[other]) - (other == view.holder)
    for world in work.worlds:
        state = deal_world(view, need, allowed, world, state, work.ints, work.masks[0])
        for other in range(players):
            world[other] |= view.played[other]
    return state


@jit
def card_worlds(seed, deal, deal_rules, sharpness, seat, dealt, trump_card, dealer, bids, played_cards, worlds):
    """Fill ``worlds`` (uint64[world, seat]) with the worlds card advice weighs ``seat``'s cards in; returns them.

    Returns the legal cards (a mask); ``seat_position``'s arguments. The worlds are drawn as pimc
    draws them, reading the bids with ``sharpness`` (0: not at all), from the deal's advice stream
    (``card_outcomes`` plays them).
    """
    count, players = worlds.shape
    work = scratch(count * CANDIDATES if sharpness > 0 else count, players)
    view, trick, legal = seat_position(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, work)
    state = decision_state(stream_state(seed, popcount(dealt), deal, STREAM_CARD_ADVICE), played_cards.shape[0])
    world_limits(view, trick, work.ints[6][:players], work.masks[1][:players])
    if sharpness > 0:
        bid_log_weights(view, deal_rules, sharpness, work.decay, work.log_weights[seat])
        read_worlds(view, deal_rules, count, (sharpness, no_model(), -1), state, work)
    else:
        need, allowed = work.ints[6][:players], work.masks[1][:players]
        for i in range(count):
            state = deal_world(view, need, allowed, work.worlds[i], state, work.ints, work.masks[0])
    worlds[:] = work.worlds[:count]
    return legal


@jit
def card_outcomes(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, models, worlds, out):
    """out[card id] += (exact bids, points, points squared) over ``worlds``, per card ``seat`` may play now.

    ``seat_position``'s arguments; worlds: ``card_worlds``' (any rows of them: a piece at a time adds up
    to them all). In each world every legal card is played and the deal finished by every seat greedy,
    or by the learned play of ``models``' first model (``kernels.learned.Model``; none: greedy).
    """
    work = scratch(0, bids.shape[0])
    view, trick, legal = seat_position(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, work)
    points = deal_rules.score[bids[seat]]
    playout = (0, 0, models, 0 if models.layout.shape[0] else -1)
    for i in range(worlds.shape[0]):
        rest = legal
        while rest:
            card = lowest_bit(rest)
            rest &= rest - ONE
            end = play_out(worlds[i], card, view, trick, deal_rules, playout, work)
            out[card, 0] += end == bids[seat]
            out[card, 1] += points[end]
            out[card, 2] += points[end] ** 2


@jit
def play_evidence(deal_rules, seat, hands, trump_card, dealer, bids, played_cards, model, state, work):
    """How much more likely than a world drawn blind the true deal is, read from the play: ``(true, drawn)``.

    hands uint64[seat]: every seat's hand as dealt (the truth); ``seat_position``'s other arguments;
    model: (models, index, reading) as ``play_log_likelihood`` takes it. true: the log-likelihood of
    the others' plays were the true hands the deal; drawn: the log of its mean over the worlds of
    ``work.worlds``, drawn as pimc draws them. Their difference is the log of how much more chance the
    true hands get among worlds weighed by the play than among worlds unweighed: above 0 on average
    when the play tells something true. Returns ``(true, drawn, state)``.
    """
    players = bids.shape[0]
    view, trick, _ = seat_position(deal_rules, seat, hands[seat], trump_card, dealer, bids, played_cards, work)
    truth = work.masks[2][:players]
    for other in range(players):
        truth[other] = hands[other] & ~view.played[other]
    true = play_log_likelihood(truth, view, deal_rules, model, work.moves, work)
    need, allowed = work.ints[6][:players], work.masks[1][:players]
    world_limits(view, trick, need, allowed)
    count = work.worlds.shape[0]
    for i in range(count):
        state = deal_world(view, need, allowed, work.worlds[i], state, work.ints, work.masks[0])
        work.keys[i] = play_log_likelihood(work.worlds[i], view, deal_rules, model, work.moves, work)
    top = work.keys.max()
    drawn = top + np.log(np.mean(np.exp(work.keys - top)))
    return true, drawn, state
