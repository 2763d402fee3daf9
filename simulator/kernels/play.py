"""Playing whole deals: the trick loop over seats, with each seat's play policy."""

import numpy as np

from pocha.kernels.bits import ONE, ZERO, lowest_bit, popcount
from pocha.kernels.choice import greedy_card, random_card
from pocha.kernels.codes import POLICY_GREEDY, POLICY_PIMC, POLICY_RANDOM, STREAM_PLAY
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.pimc import pimc_card, scratch
from pocha.kernels.streams import next_state, stream_state
from pocha.kernels.trick import duties, legal_cards, place_card, revealed, suit_cards


@jit_inline
def play_deal(d, hands, trump_card, full, deck, leader, tricks, bids, play_rule, policies, samples, score, state, won,
              plays, leaders, ints, masks, plain):  # fmt: skip
    """Play ``tricks`` tricks of deal ``d`` from ``hands`` (uint64[seat], consumed), ``leader`` leading the first.

    Tricks are counted into ``won[d]``; a deal may be played in parts (greedy and random seats only:
    a pimc seat's record of the deal starts with the call).

    Each seat plays by its policy (``policies[d, seat]``, with ``samples[d, seat]`` for pimc; a
    single row serves every deal). The
    public record a pimc seat reads is kept as the play goes: the cards played, and per seat the
    cards its plays have ruled out (``revealed``). full: the deal takes the whole deck (the dealer
    holds the trump card, shown); deck: the deck's cards as a mask. The play is recorded when
    ``plays`` is not empty (trace runs): ``plays[d, trick, order]`` card ids from the leader on,
    ``leaders[d, trick]`` the leader of each trick and ``leaders[d, tricks]`` the winner of the last
    one. ints, masks: ``scratch()``. Returns the advanced random state and the next leader.

    plain: no seat is pimc and the play is not recorded. Give it as a constant: the compiler then
    drops the pimc seats' bookkeeping from the loop (random play 11% faster without it).
    """
    players = hands.shape[0]
    record = not plain and plays.shape[0] > 0
    trumps = suit_cards(trump_card >> 4)
    follow, void = duties(trumps, play_rule)
    trump_bit = ONE << np.uint64(trump_card)
    dealer = (leader - 1) % players
    gone = ZERO if full else trump_bit  # the turned-up card is nobody's
    may_hold = masks[4]
    row = d if policies.shape[0] > 1 else 0  # one row of policies may serve every deal
    watched = False  # the public record is kept only when a pimc seat reads it
    for seat in range(0 if plain else players):
        may_hold[seat] = deck
        watched |= policies[row, seat] == POLICY_PIMC
    for t in range(tricks):
        led, beat, winner = ZERO, ~ZERO, leader
        if record:
            leaders[d, t] = leader
        seat = leader
        for j in range(players):
            hand = hands[seat]
            legal = legal_cards(hand, led, beat, follow, void)
            if legal & (legal - ONE):
                state = next_state(state)
                policy = policies[row, seat]
                if policy == POLICY_RANDOM:
                    card = random_card(legal, state)
                elif plain or policy == POLICY_GREEDY:
                    card = greedy_card(legal, led, trumps, beat, won[d, seat] < bids[d, seat])
                else:
                    shown = trump_bit if full and seat != dealer and not gone & trump_bit else ZERO
                    unseen = deck & ~(hand | gone | shown)
                    card, state = pimc_card(seat, hand, legal, trumps, unseen, shown, dealer if shown else -1, may_hold,
                                            j, led, beat, winner, won[d], bids[d], samples[row, seat], play_rule,
                                            score, state, ints, masks)  # fmt: skip
            else:
                card = lowest_bit(legal)
            bit = ONE << np.uint64(card)
            hands[seat] = hand ^ bit
            if watched:
                gone |= bit
                may_hold[seat] &= ~revealed(card, led, trumps, beat, play_rule)
            if record:
                plays[d, t, j] = card
            led, beat, winner = place_card(bit, seat, led, beat, winner, trumps)
            seat = seat + 1 if seat + 1 < players else 0
        won[d, winner] += 1
        leader = winner
    if record:
        leaders[d, tricks] = leader
    return state, leader


@jit_inline
def play_deals(seed, cards, deals, hands, trump_card, deck, bids, play_rule, policies, samples, score, won, points,
               plays, leaders, plain):  # fmt: skip
    """Play a batch of deals and score them (``play_batch``; ``plain`` as for ``play_deal``, a constant)."""
    players = hands.shape[1]
    own = np.empty(players, np.uint64)
    ints, masks = scratch()
    full = cards * players == popcount(deck)
    for d in range(hands.shape[0]):
        deal = deals[d]
        for s in range(players):
            own[s] = hands[d, s]
            won[d, s] = 0
        state = stream_state(seed, cards, deal, STREAM_PLAY)
        play_deal(d, own, trump_card[d], full, deck, (deal + 1) % players, cards, bids, play_rule, policies, samples,
                  score, state, won, plays, leaders, ints, masks, plain)  # fmt: skip
        for s in range(players):
            points[d, s] = score[bids[d, s], won[d, s]]


@jit
def play_batch(seed, cards, deals, hands, trump_card, deck, bids, play_rule, policies, samples, score, won, points,
               plays, leaders):  # fmt: skip
    """Play a batch of deals and score them.

    deals int64[deal]: deal numbers (dealer and random stream); hands uint64[deal, seat] (not modified);
    trump_card int64[deal]; deck uint64: the deck's cards as a mask; bids int64[deal, seat];
    policies, samples int64[deal or 1, seat]: each seat's play policy (POLICIES) and its samples
    (pimc), one row for every deal when the seating is the same;
    score int64[bid, won]: the points of each bid and trick count (``Scoring.table``). Outputs: won,
    points int64[deal, seat]; plays int64[deal, trick, order] and leaders int64[deal, trick + 1]
    when recording, else of length 0. A choice among several legal cards draws from stream
    STREAM_PLAY of the deal (pimc seats draw more, for their worlds); forced plays draw nothing.
    ``play_batch_plain`` plays the same when no seat is pimc and nothing is recorded.
    """
    play_deals(seed, cards, deals, hands, trump_card, deck, bids, play_rule, policies, samples, score, won, points,
               plays, leaders, False)  # fmt: skip


@jit
def play_batch_plain(seed, cards, deals, hands, trump_card, deck, bids, play_rule, policies, score, won, points):
    """``play_batch`` for random and greedy seats, not recorded: the lean copy of the play loop.

    Alone in its kernel, it compiles in two thirds of the time of both copies (a cold run's largest compile).
    A pimc seat is refused (ValueError): this loop would play it as greedy.
    """
    players = hands.shape[1]
    for row in range(policies.shape[0]):
        for seat in range(players):
            if policies[row, seat] == POLICY_PIMC:
                raise ValueError("play_batch_plain: a pimc seat needs play_batch")
    play_deals(seed, cards, deals, hands, trump_card, deck, bids, play_rule, policies, np.zeros((1, players), np.int64),
               score, won, points, np.empty((0, 0, 0), np.int64), np.empty((0, 0), np.int64), True)  # fmt: skip
