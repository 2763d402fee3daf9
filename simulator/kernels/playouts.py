"""Monte Carlo bidding: complete the unseen hands, read and answer the bids as the table, play each candidate out."""

import numpy as np

from pocha.kernels.bidding import (
    Bidder,
    cell_bid,
    forbidden_bid,
    hand_cell,
    share_cell,
    share_of,
    table_cell,
)
from pocha.kernels.bits import ONE, ZERO, popcount
from pocha.kernels.codes import POLICY_RANDOM
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.labels import no_record
from pocha.kernels.learned import no_model
from pocha.kernels.pimc import finish_greedy, scratch
from pocha.kernels.play import Batch, no_log, play_deal
from pocha.kernels.solve import MAXN, forget, new_table, solve, table_bits, tricks_of
from pocha.kernels.streams import below, next_state
from pocha.kernels.trick import Trick, trump_masks


@jit
def unseen_cards(own_hands, trump_card, deck):
    """int64[deal, deck_size]: the cards each deal's bidder cannot see, in deck order, then -1s.

    own_hands uint64[deal]; trump_card int64[deal] (the turned card is seen); deck int64[deck_size].
    Where ``sample_completions`` starts shuffling them.
    """
    unseen = np.full((own_hands.shape[0], deck.shape[0]), -1, np.int64)
    for d in range(own_hands.shape[0]):
        _, trump_bit = trump_masks(trump_card[d])
        count = 0
        for c in range(deck.shape[0]):
            bit = ONE << np.uint64(deck[c])
            if not (own_hands[d] & bit) and bit != trump_bit:
                unseen[d, count] = deck[c]
                count += 1
    return unseen


@jit
def sample_completions(states, unseen, cards, numbers, position, own_hands, trump_card, out_hands):
    """Deal the cards a bidder cannot see to the other seats, ``samples`` ways per deal.

    states uint64[deal] and unseen int64[deal, deck_size]: each deal's stream state (``stream_states``
    of STREAM_SAMPLE) and unseen cards (``unseen_cards``), left as the deal's last sample leaves them,
    so that the next call deals the samples that follow. numbers int64[deal] (the dealer is ``deal %
    players``); position: the bidder's bidding position (0 = first); own_hands uint64[deal];
    trump_card int64[deal]. out_hands uint64[deal * samples, seat]: row ``d * samples + s`` is sample
    s of deal d, the bidder's own hand in its seat. The turned-up trump card is dealt to nobody; in
    a full deal it stays in the dealer's hand (if there is one: not NO_TRUMP).
    """
    players = out_hands.shape[1]
    samples = out_hands.shape[0] // max(own_hands.shape[0], 1)
    full = cards * players == unseen.shape[1]
    for d in range(own_hands.shape[0]):
        dealer = numbers[d] % players
        bidder = (dealer + 1 + position) % players
        _, trump_bit = trump_masks(trump_card[d])
        dealer_holds_trump = full and bidder != dealer and trump_bit != ZERO
        cards_left, count = unseen[d], unseen.shape[1] - popcount(own_hands[d] | trump_bit)
        state = states[d]
        for s in range(samples):
            row = d * samples + s
            for seat in range(players):
                out_hands[row, seat] = ZERO
            out_hands[row, bidder] = own_hands[d]
            if dealer_holds_trump:
                out_hands[row, dealer] = trump_bit
            j = 0
            for seat in range(players):
                if seat == bidder:
                    continue
                need = cards - 1 if (dealer_holds_trump and seat == dealer) else cards
                hand = out_hands[row, seat]
                for _ in range(need):  # partial Fisher-Yates over the unseen cards
                    state = next_state(state)
                    r = j + below(state, count - j)
                    card = cards_left[r]
                    cards_left[r] = cards_left[j]
                    cards_left[j] = card
                    hand |= ONE << np.uint64(card)
                    j += 1
                out_hands[row, seat] = hand
        states[d] = state


@jit
def table_weights(model, held, trump_card, earlier_bids, likelihood, weights):
    """weights[world] *= how likely each earlier bid is in the sampled world, its bidder bidding as the table would.

    model: a ``TableModel``; held uint64[position, world]: the sampled hands by bidding position;
    trump_card int64[world]; earlier_bids int64[world, position]: the bids made before the bidder's;
    likelihood float64[model's bid, forbidden + 1, bid]: ``bid_likelihood`` of every case.
    """
    for w in range(weights.shape[0]):
        total = 0
        for p in range(earlier_bids.shape[1]):
            forbidden = forbidden_bid(model, p, total)
            bid = earlier_bids[w, p]
            cell = table_cell(model, held[p, w], trump_card[w], total, p)
            modelled = model.best[cell]
            if modelled == forbidden or not model.found[cell]:
                modelled = cell_bid(model, cell, held[p, w], trump_card[w], forbidden)
            weights[w] *= likelihood[modelled, forbidden + 1, bid]
            total += bid


@jit
def table_answers(model, held, trump_card, numbers, earlier_bids, own_bids, bids):
    """bids[world, candidate, seat]: the bids when the bidder bids own_bids[world, candidate], the table answering.

    held uint64[position, world], trump_card int64[world], earlier_bids int64[world, position]: as
    ``table_weights``; numbers int64[world]: the deal numbers (the dealer is ``number % players``).
    A later bidder's bid depends on the bids before it only through bids_so_far and the bid the hook
    forbids: its cell is found once a world.
    """
    players, position = held.shape[0], earlier_bids.shape[1]
    cells = np.empty(players, np.int64)  # a later bidder's cell with bids_so_far 0, -1 not yet found
    for w in range(bids.shape[0]):
        cells[:] = -1
        trump = trump_card[w]
        first = (numbers[w] + 1) % players  # the seat of position 0
        earlier = 0
        for q in range(position):
            earlier += earlier_bids[w, q]
        for c in range(bids.shape[1]):
            seat = first
            for q in range(position):
                bids[w, c, seat] = earlier_bids[w, q]
                seat = seat + 1 if seat + 1 < players else 0
            total = earlier + own_bids[w, c]
            bids[w, c, seat] = own_bids[w, c]
            for q in range(position + 1, players):
                seat = seat + 1 if seat + 1 < players else 0
                share, forbidden = share_of(Bidder(model.cards, players, q), total), forbidden_bid(model, q, total)
                if cells[q] < 0:
                    cells[q] = hand_cell(model, held[q, w], trump, q)
                cell = cells[q] + share_cell(model, share)
                bid = model.best[cell]
                if bid == forbidden or not model.found[cell]:
                    bid = cell_bid(model, cell, held[q, w], trump, forbidden)
                bids[w, c, seat] = bid
                total += bid


@jit_inline
def copy_deal(from_hands, from_won, hands, won):
    """Copy a deal in play (hands uint64[seat], won int64[1, seat]) into other arrays."""
    for seat in range(hands.shape[0]):
        hands[seat] = from_hands[seat]
        won[0, seat] = from_won[seat]


@jit_inline
def same_bids(bids, row, a, b, bidder):
    """Whether candidates ``a`` and ``b`` of ``row`` give every seat but the bidder the same bid."""
    for seat in range(bids.shape[2]):  # noqa: SIM110 - numba compiles the loop, not all() over a generator
        if seat != bidder and bids[row, a, seat] != bids[row, b, seat]:
            return False
    return True


@jit_inline
def same_sample(chunk, a, b):
    """Whether rows ``a`` and ``b`` of the sampled deals hold the same hands and bids."""
    for seat in range(chunk.hands.shape[1]):
        if chunk.hands[a, seat] != chunk.hands[b, seat]:
            return False
    for candidate in range(chunk.bids.shape[1]):
        for seat in range(chunk.bids.shape[2]):
            if chunk.bids[a, candidate, seat] != chunk.bids[b, candidate, seat]:
                return False
    return True


@jit_inline
def deal_start(chunk, first, position):
    """The leader (mano) and the bidder's seat of the deal whose samples start at row ``first``."""
    players = chunk.hands.shape[1]
    mano = (chunk.numbers[first] + 1) % players
    return mano, (mano + position) % players


@jit
def rollout_counts(states, chunk, position, deal_rules, rollout, weights, counts):
    """Play every sampled deal out once per candidate bid of the bidder, every seat by ``policy``; count its tricks.

    chunk: the sampled deals, a ``Chunk`` whose rows are ``samples`` samples of each deal in turn
    (their deal number and trump card repeated) and whose bids are int64[row, candidate, seat]: the
    table's bids when the bidder bids each candidate 0..k (the later bidders answer it), or one set
    for every candidate (a candidate axis of 1); the bidder's own entry is replaced by the candidate.
    deal_rules: ``DealRules``; rollout: ``Policies`` of one row, every seat random or greedy (pimc:
    ``whole_rollout_counts``). weights float64[row]: what each sample counts for (1 each, or how
    likely the sampled world makes the bids seen so far). counts float64[deal, bid, tricks] gets, per
    deal and candidate bid 0..k, the weight of the samples the bidder took each number of tricks in.
    Under the random policy bids do not change the play: each sample is played once for all bids.
    Under greedy, a bidder with bid b plays as one short of its bid until it has won b tricks and
    as one that made it from then on: so the candidates the table bids alike for (all of them, unless
    a later bidder answers the candidate) share one line of play (bid above k), each bid branching
    off after the trick that brings the bidder to it. The same play-outs as one per bid, for about a
    third of the tricks. Greedy play draws nothing at random, so a sample the same as the one before
    it (a world resampling picked again) is not played again: its tricks are counted again. states
    uint64[deal]: each deal's stream state (``stream_states`` of STREAM_ROLLOUT first), left where its
    draws ended, so that the samples of a deal may come in several calls.
    """
    cards, _, hands, trump_card, bids = chunk
    players = hands.shape[1]
    samples = hands.shape[0] // max(counts.shape[0], 1)
    per_candidate = bids.shape[1] > 1
    line, branch = np.empty(players, np.uint64), np.empty(players, np.uint64)
    won, branch_won = np.empty((1, players), np.int64), np.empty((1, players), np.int64)
    row_bids = np.empty((1, players), np.int64)
    policy = rollout.codes[0, 0]
    work = scratch()
    on_line = Batch(deal_rules, rollout, row_bids, won, no_log(), work, no_model(), no_record())
    on_branch = Batch(deal_rules, rollout, row_bids, branch_won, no_log(), work, no_model(), no_record())
    no_won = np.zeros(players, np.int64)
    group = np.empty(cards + 1, np.bool_)  # the candidates the line being played counts for
    done = np.empty(cards + 1, np.bool_)
    outcome = np.empty(cards + 1, np.int64)  # the bidder's tricks under each candidate bid, in the sample
    for d in range(counts.shape[0]):
        first = d * samples
        mano, bidder = deal_start(chunk, first, position)
        state = states[d]
        for row in range(first, first + samples):
            if policy == POLICY_RANDOM:
                for seat in range(players):  # (not a slice assignment: slower in numba)
                    row_bids[0, seat] = bids[row, 0, seat]
                copy_deal(hands[row], no_won, line, won)
                row_bids[0, bidder] = 0
                state, _ = play_deal(0, line, trump_card[row], mano, cards, state, on_line, True)
                outcome[:] = won[0, bidder]
            elif row == first or not same_sample(chunk, row - 1, row):  # (greedy play draws nothing at random)
                done[:] = False
                for lead in range(cards + 1):  # one line per group of candidates the table bids alike for
                    if done[lead]:
                        continue
                    for bid in range(cards + 1):
                        group[bid] = not done[bid] and (not per_candidate or same_bids(bids, row, lead, bid, bidder))
                        done[bid] |= group[bid]
                    for seat in range(players):
                        row_bids[0, seat] = bids[row, lead if per_candidate else 0, seat]
                    if group[0]:
                        copy_deal(hands[row], no_won, line, won)
                        row_bids[0, bidder] = 0
                        state, _ = play_deal(0, line, trump_card[row], mano, cards, state, on_line, True)
                        outcome[0] = won[0, bidder]
                    if not group[1:].any():
                        continue
                    copy_deal(hands[row], no_won, line, won)
                    leader = mano
                    for t in range(cards):  # the line, a trick at a time
                        row_bids[0, bidder] = cards + 1
                        state, leader = play_deal(0, line, trump_card[row], leader, 1, state, on_line, True)
                        if leader == bidder and group[won[0, bidder]]:  # its bid of won[0, bidder] branches off, made
                            copy_deal(line, won[0], branch, branch_won)
                            row_bids[0, bidder] = won[0, bidder]
                            rest = cards - 1 - t
                            state, _ = play_deal(0, branch, trump_card[row], leader, rest, state, on_branch, True)
                            outcome[won[0, bidder]] = branch_won[0, bidder]
                    for bid in range(won[0, bidder] + 1, cards + 1):  # bids the line never reached: its tricks
                        if group[bid]:
                            outcome[bid] = won[0, bidder]
            for bid in range(cards + 1):
                counts[d, bid, outcome[bid]] += weights[row]
        states[d] = state


@jit
def whole_rollout_counts(states, chunk, position, deal_rules, rollout, models, weights, considered, counts):
    """``rollout_counts`` with every seat pimc or learned (``rollout``): each candidate bid is played out whole.

    models: the learned seats' (``kernels.learned.Model``). Such a seat's view of the deal starts with
    the play, so no line of play is shared. considered bool[deal, bid]: the candidates played out (a
    shortlist spends these costly play-outs on the bids a cheaper pass ranked best); the others count
    nothing. A kernel of its own, so that montecarlo's greedy play-outs never compile pimc.
    """
    cards, hands, trump_card, bids = chunk.cards, chunk.hands, chunk.trump_card, chunk.bids
    players = hands.shape[1]
    samples = hands.shape[0] // max(counts.shape[0], 1)
    hand, won, row_bids = (
        np.empty(players, np.uint64),
        np.empty((1, players), np.int64),
        np.empty((1, players), np.int64),
    )
    batch = Batch(deal_rules, rollout, row_bids, won, no_log(), scratch(), models, no_record())
    no_won = np.zeros(players, np.int64)
    for d in range(counts.shape[0]):
        mano, bidder = deal_start(chunk, d * samples, position)
        state = states[d]
        for row in range(d * samples, (d + 1) * samples):
            for bid in range(cards + 1):
                if not considered[d, bid]:
                    continue
                for seat in range(players):
                    row_bids[0, seat] = bids[row, bid if bids.shape[1] > 1 else 0, seat]
                row_bids[0, bidder] = bid
                copy_deal(hands[row], no_won, hand, won)
                state, _ = play_deal(0, hand, trump_card[row], mano, cards, state, batch, False)
                counts[d, bid, won[0, bidder]] += weights[row]
        states[d] = state


@jit
def solved_rollout_counts(chunk, position, deal_rules, depth, weights, counts):
    """``rollout_counts`` with every hand of the sampled world open: greedy until ``depth`` tricks are left, then exact.

    The last ``depth`` tricks of each play-out are solved (``solve``, max^n: every seat plays for
    its own points given the bids, the lowest card on ties); depth at least the hand size solves the
    whole deal. Each candidate bid is played out on its own (the solve depends on every bid); a
    sample the same as the one before it is counted again, not solved again. A kernel of its own,
    so that montecarlo's greedy play-outs never compile the solver.
    """
    cards, hands, trump_card, bids = chunk.cards, chunk.hands, chunk.trump_card, chunk.bids
    players = hands.shape[1]
    samples = hands.shape[0] // max(counts.shape[0], 1)
    hand, won, row_bids = np.empty(players, np.uint64), np.empty(players, np.int64), np.empty(players, np.int64)
    outcome = np.empty(cards + 1, np.int64)  # the bidder's tricks under each candidate bid, in the sample
    table = new_table(table_bits(min(depth, cards)))
    for d in range(counts.shape[0]):
        first = d * samples
        mano, bidder = deal_start(chunk, first, position)
        for row in range(first, first + samples):
            if row == first or not same_sample(chunk, row - 1, row):
                trumps, _ = trump_masks(trump_card[row])
                for bid in range(cards + 1):
                    for seat in range(players):
                        row_bids[seat] = bids[row, bid if bids.shape[1] > 1 else 0, seat]
                        hand[seat], won[seat] = hands[row, seat], 0
                    row_bids[bidder] = bid
                    leader = mano
                    if cards > depth:
                        start = Trick(trumps, mano, 0, ZERO, ~ZERO, mano)
                        leader = finish_greedy(hand, start, won, row_bids, deal_rules.play_rule, depth)
                    forget(table)  # other hands or other bids: the entries of the last solve are stale
                    outcome[bid] = won[bidder]
                    if hand[leader] != ZERO:
                        after = Trick(trumps, leader, 0, ZERO, ~ZERO, leader)
                        score, rule = deal_rules.score, deal_rules.play_rule
                        outcome[bid] += tricks_of(solve(hand, after, won, row_bids, score, rule, MAXN, table), bidder)
            for bid in range(cards + 1):
                counts[d, bid, outcome[bid]] += weights[row]
