"""Sampling play (pimc): deal the unseen cards consistently with what the play has shown, play each world out.

A seat that reads the bids (``Reading``) draws ``CANDIDATES`` times more worlds than it plays and
plays those that best explain the bids: drawn without replacement by each world's likelihood
(``bids_log_likelihood``, ``likeliest_first``).
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bidding import nearest_legal_bid
from pocha.kernels.bits import ONE, ZERO, lowest_bit, popcount
from pocha.kernels.choice import best_card, greedy_card
from pocha.kernels.codes import POLICY_LEARNED, POLICY_PIMC
from pocha.kernels.expected import expected_sum
from pocha.kernels.inference import play_log_likelihood
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.learned import MOST_WIDTH, learned_card
from pocha.kernels.solve import MAXN, forget, new_table, solve, table_bits, tricks_of
from pocha.kernels.streams import below, next_state, uniform
from pocha.kernels.trick import Trick, duties, legal_cards, place_card
from pocha.kernels.view import play_in_view, seat_view


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
        seat = below(state, players)
        placed = False
        for _ in range(players):  # from a random seat round the table (no modulo: a division per seat)
            if room[seat] > 0 and allowed[seat] & bit:
                held[seat] |= bit
                room[seat] -= 1
                placed = True
                break
            seat = seat + 1 if seat + 1 < players else 0
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
def finish_greedy(hands, trick, won, bids, play_rule, stop):
    """Play a deal on from the middle of ``trick`` (a ``Trick``), every seat greedy, until ``stop`` tricks are left.

    Tricks are counted into ``won``. hands uint64[seat] (consumed); won, bids int64[seat]. Returns the
    leader of the next trick (once the deal is over, the last trick's winner).
    """
    trumps, leader, placed, led, beat, winner = trick
    players = hands.shape[0]
    seat = (leader + placed) % players
    duty = duties(trumps, play_rule)
    while True:
        for _ in range(placed, players):
            legal = legal_cards(hands[seat], led, beat, duty)
            bit = ONE << np.uint64(greedy_card(legal, led, trumps, beat, won[seat] < bids[seat]))
            hands[seat] ^= bit
            led, beat, winner = place_card(bit, seat, led, beat, winner, trumps)
            seat = seat + 1 if seat + 1 < players else 0
        won[winner] += 1
        if popcount(hands[winner]) <= stop:
            return winner
        seat = leader = winner
        placed, led, beat = 0, ZERO, ~ZERO


class Work(NamedTuple):
    """Work arrays a batch of deals lends its pimc seats (``scratch``): no allocation per card."""

    ints: np.ndarray  # int64[9, 64]: rows 0-4 for ``sample_world``, 5-7 ``pimc_card``, 8 ``play_log_likelihood``
    masks: np.ndarray  # uint64[11, 64]: rows 0-3 for ``pimc_card``, 4-5 the deal's public view (``play_deal``), 6-7
    # that view carried through a learned play-out (``finish_learned``), 8-10 the deal replayed
    # (``play_log_likelihood``)
    moves: np.ndarray  # int64[64]: the deal's cards in the order played so far (``play_deal``, ``seat_position``)
    worlds: np.ndarray  # uint64[world, seat]: the worlds a seat that reads the bids draws for one card
    keys: np.ndarray  # float64[world]: what each world is drawn by (``likeliest_first``)
    decay: np.ndarray  # float64[65]: scratch of ``bid_log_weights``
    log_weights: np.ndarray  # float64[seat, seat, 65]: a reading seat's ``bid_log_weights``, the same all deal
    table: tuple  # the solver's ``Table`` (one entry when no seat solves its worlds)
    scores: np.ndarray  # float64[64]: a learned seat's score of each card (``kernels.learned``)
    layers: np.ndarray  # float64[5, MOST_WIDTH]: its network's scratch


@jit
def scratch(worlds=0, players=0, depth=0):
    """The ``Work`` of a batch whose pimc seats draw up to ``worlds`` worlds per card at a table of ``players``.

    depth: the most tricks a seat solves (``solve``, no more than the hand size; 0: none), which sizes the table.
    """
    return Work(
        np.empty((9, 64), np.int64),
        np.empty((11, 64), np.uint64),
        np.empty(64, np.int64),
        np.empty((worlds, players), np.uint64),
        np.empty(worlds),
        np.empty(65),
        np.empty((players if worlds else 0, players, 65)),
        new_table(table_bits(depth)),
        scores=np.empty(64),
        layers=np.empty((5, MOST_WIDTH)),
    )


CANDIDATES = 2  # worlds drawn per world played by a seat that reads the bids (README: Strong card play)
PLAY_CANDIDATES = 4  # and by a seat that reads the play too (``infer=play``, docs/card-play.md)


@jit_inline
def worlds_pool(samples, sharpness, infer):
    """The worlds a pimc seat playing ``samples`` draws first to pick them from: 0 when it reads neither bids nor play.

    infer: the model it reads the play by (-1: it does not).
    """
    if infer >= 0:
        return samples * PLAY_CANDIDATES
    return samples * CANDIDATES if sharpness > 0 else 0


class Reading(NamedTuple):
    """How the pimc seats read the bids as evidence about the hands: each seat's sharpness, and the model bidder.

    The model bidder is the ``expected`` strategy: a seat's bid b has the chance exp(-sharpness * |b - m|)
    over its legal bids (``bid_log_weights``), m the model's bid for the seat's hand as dealt, at its
    bidding position after the bids before it (the hook rule's forbidden bid included).
    """

    sharpness: np.ndarray  # float64[deal or 1, seat], rows as ``Policies``: 0 reads nothing (pimc as it was)
    survive: np.ndarray  # float64: the expected strategy's tables at this hand size (``expected_sum``)
    not_ruffed: np.ndarray


@jit
def hook_forbidden(seat, cards, view, deal_rules):
    """The bid the hook rule forbade ``seat`` after the bids before it (``view.bids``), -1 for none."""
    if not deal_rules.hook or seat != view.dealer:  # the hook binds the dealer, who bids last
        return -1
    earlier = 0
    for other in range(view.bids.shape[0]):
        earlier += view.bids[other] if other != seat else 0
    return cards - earlier if earlier <= cards else -1


@jit
def model_bid(dealt, seat, view, deal_rules):
    """The ``Reading``'s model bidder's bid for ``seat`` dealt ``dealt`` (uint64): ``Expected().bid``'s.

    That is for the hand at the seat's bidding position after the bids before it (``view.bids``).
    """
    cards = popcount(dealt)
    turned = ZERO if deal_rules.full else ONE << np.uint64(view.trump_card)  # seen by every bidder
    survive, not_ruffed = deal_rules.reading.survive, deal_rules.reading.not_ruffed
    estimate = expected_sum(dealt, deal_rules.deck & ~(dealt | turned), view.trump_card, survive, not_ruffed)
    return nearest_legal_bid(estimate, cards, hook_forbidden(seat, cards, view, deal_rules))


@jit
def bid_log_weights(view, deal_rules, sharpness, decay, out):
    """out[seat, m]: the log of the chance of each seat's bid were m = 0..cards the model's bid.

    The legal bid b (0..cards, not the hook's forbidden one) has weight exp(-sharpness * |b - m|),
    normalised over the legal bids (``bid_likelihood`` of strategies.playouts). decay float64[cards + 1]
    is scratch.
    """
    bids = view.bids
    cards = popcount(view.hand | view.played[view.seat])
    for j in range(cards + 1):
        decay[j] = np.exp(-sharpness * j)
    for seat in range(bids.shape[0]):
        forbidden = hook_forbidden(seat, cards, view, deal_rules)
        for model in range(cards + 1):
            total = 0.0
            for b in range(cards + 1):
                if b != forbidden:
                    total += decay[abs(b - model)]
            out[seat, model] = -sharpness * abs(bids[seat] - model) - np.log(total)


@jit
def bids_log_likelihood(world, view, deal_rules, log_weights):
    """The log of the chance the other seats bid as they did, were ``world`` (uint64[seat], the hands now) the deal.

    Each other seat's hand as dealt (its cards in ``world`` and those it played) is bid by the
    ``Reading``'s model (``model_bid``); the chances of the bids made (``bid_log_weights``) multiply.
    """
    total = 0.0
    for other in range(world.shape[0]):
        if other != view.seat:
            total += log_weights[other, model_bid(world[other] | view.played[other], other, view, deal_rules)]
    return total


@jit
def deal_world(view, need, allowed, world, state, ints, held):
    """A world for ``view``'s seat into ``world`` (uint64[seat]): the cards it knows where they are, the unseen dealt.

    need, allowed, ints, held as ``sample_world`` takes them. Returns the advanced state.
    """
    for other in range(world.shape[0]):
        world[other] = view.hand if other == view.seat else (view.shown if other == view.holder else ZERO)
    return sample_world(view.unseen, need, allowed, world, state, ints, held)


@jit
def likeliest_first(worlds, keys, samples, state):
    """Move ``samples`` worlds to the front of ``worlds``, drawn without replacement by their likelihood.

    keys float64[world]: each world's log likelihood on entry. Each gets a Gumbel draw added, and
    the ``samples`` highest keys win: the Gumbel top-k trick, which draws without replacement with
    chances proportional to the likelihoods (a world never counts twice). Returns the advanced state.
    """
    count, players = worlds.shape
    for i in range(count):
        state = next_state(state)
        keys[i] -= np.log(-np.log(uniform(state)))
    if samples > SORTED_ABOVE and sorted_first(worlds, keys, samples):
        return state
    for j in range(samples):  # a partial selection sort, keys and worlds alike
        best = j
        for i in range(j + 1, count):
            if keys[i] > keys[best]:
                best = i
        keys[j], keys[best] = keys[best], keys[j]
        for seat in range(players):
            worlds[j, seat], worlds[best, seat] = worlds[best, seat], worlds[j, seat]
    return state


SORTED_ABOVE = 64  # worlds to pick above which a sort beats the selection's samples x worlds steps (card advice's)


@jit
def sorted_first(worlds, keys, samples):
    """``likeliest_first``'s front by a sort: every world and key, the highest key first; True when done.

    The front is the selection's, world for world, unless two of its keys (or its last and the next)
    tie or a key is NaN, which the selection breaks by where the worlds stand: then False, nothing moved.
    """
    order = np.argsort(-keys)
    for i in range(min(samples, keys.shape[0] - 1)):
        if not keys[order[i]] > keys[order[i + 1]]:
            return False
    if np.isnan(keys).any():  # sorted last, but the selection may pick one
        return False
    worlds[:] = worlds[order]
    keys[:] = keys[order]
    return True


@jit
def pimc_card(view, legal, trick, deal_rules, samples, sharpness, playout, state, work, prune=True, infer=-1):
    """The legal card with the most expected points for ``view.seat`` over ``samples`` worlds consistent with its view.

    view: a ``View``; trick: the ``Trick`` it plays to; deal_rules: ``DealRules``. Each world deals the
    unseen cards to the other seats (``sample_world``); each legal card is played in it and the
    deal finished by every seat (``play_out``: greedy or learned, the last tricks solved, as ``playout`` says);
    the seat's points under ``deal_rules.score`` are summed.
    sharpness above 0 reads the bids: ``CANDIDATES`` times as many worlds are drawn, and the
    ``samples`` played are drawn among them by how likely they make the others' bids
    (``bids_log_likelihood``, ``likeliest_first``; the log weights of the bids are the deal's, in
    ``work.log_weights[seat]``). infer, a model of ``playout``'s models (-1: none), reads the play too:
    ``PLAY_CANDIDATES`` times as many worlds, each as likely as it makes the others' cards played
    under that model as well (``play_log_likelihood``; the cards in ``work.moves``). Ties go to the
    lowest card id. A card stops being played out once
    it cannot reach the best total with the worlds left (``contenders``): the same card, fewer
    play-outs; ``prune=False`` plays every card in every world, so that ``work.ints[5]`` holds each
    legal card's total (a teacher's labels). work: ``scratch``'s. Returns ``(card, state)``.
    """
    seat, won, bids = view.seat, view.won, view.bids
    ints, masks, worlds = work.ints, work.masks, work.worlds
    players = won.shape[0]
    tricks_left = popcount(view.hand)
    totals, need = ints[5], ints[6]  # totals: the seat's points by card id
    held, allowed = masks[0], masks[1]
    rest = legal
    while rest:
        totals[lowest_bit(rest)] = 0
        rest &= rest - ONE
    world_limits(view, trick, need[:players], allowed[:players])
    reads = sharpness > 0 or infer >= 0
    if reads:  # every world drawn first, then the likeliest moved to the front
        state = read_worlds(view, deal_rules, samples, (sharpness, playout[2], infer), state, work)
    points = deal_rules.score[bids[seat]]
    low = high = points[won[seat]]  # the seat's points over the tricks it may still end with
    for end in range(won[seat] + 1, won[seat] + tricks_left + 1):
        low, high = min(low, points[end]), max(high, points[end])
    alive = legal  # the cards that may still have the most points
    for i in range(samples):
        world = worlds[i] if reads else masks[2][:players]
        if not reads:  # each world drawn as it is played (drawn still when no longer played: the stream goes on)
            state = deal_world(view, need[:players], allowed[:players], world, state, ints, held)
        if not alive & (alive - ONE):  # one card left: its total no longer matters
            if reads:
                break
            continue
        forget(work.table)  # the world's hands: the solver's entries of another world are stale
        rest = alive
        while rest:
            card = lowest_bit(rest)
            rest &= rest - ONE
            totals[card] += points[play_out(world, card, view, trick, deal_rules, playout, work)]
        if prune:
            alive = contenders(alive, totals, (samples - 1 - i) * (high - low))
    return best_card(alive, totals), state


@jit
def world_limits(view, trick, need, allowed):
    """Need int64[seat]: the cards each other seat still holds; allowed uint64[seat]: the unseen cards it may hold."""
    tricks_left = popcount(view.hand)
    for other in range(need.shape[0]):
        played_now = (other - trick.leader) % need.shape[0] < trick.placed
        need[other] = 0 if other == view.seat else tricks_left - played_now - (other == view.holder)
        allowed[other] = ZERO if other == view.seat else view.may_hold[other] & view.unseen


@jit
def read_worlds(view, deal_rules, samples, reading, state, work):
    """Draw ``samples`` worlds into ``work.worlds`` by how likely they make the bids and the play (``likeliest_first``).

    reading: (sharpness, models, infer): the bids are read when sharpness is above 0, the play when
    infer is a model of ``models`` (``play_log_likelihood``); ``worlds_pool`` says how many are
    dealt. ``world_limits`` fills work.ints[6] and work.masks[1] first.
    """
    sharpness, models, infer = reading
    players = view.won.shape[0]
    need, allowed, held = work.ints[6][:players], work.masks[1][:players], work.masks[0]
    drawn = worlds_pool(samples, sharpness, infer)
    for i in range(drawn):
        state = deal_world(view, need, allowed, work.worlds[i], state, work.ints, held)
    for i in range(drawn):
        key = 0.0
        if sharpness > 0:
            key = bids_log_likelihood(work.worlds[i], view, deal_rules, work.log_weights[view.seat])
        if infer >= 0:
            model = (models, infer, models.readings[infer])
            key += play_log_likelihood(work.worlds[i], view, deal_rules, model, work.moves, work)
        work.keys[i] = key
    return likeliest_first(work.worlds[:drawn], work.keys[:drawn], samples, state)


@jit_inline
def play_out(world, card, view, trick, deal_rules, playout, work):
    """The tricks ``view.seat`` ends with playing ``card`` to ``trick`` in ``world``, the others seats' cards known.

    playout: (depth, paranoid, models, index): every seat plays greedily, or by model ``index`` of
    ``models`` (a ``kernels.learned.Model``; -1: greedy) from its own view (``finish_learned``), until
    ``depth`` tricks are left; those are solved exactly (``solve``; max^n, or for ``view.seat``
    against the rest when paranoid); depth 0 never solves. work: ``scratch``'s (its table's entries
    this world's; masks[3] and ints[7] take the hands and the tricks).
    """
    players = world.shape[0]
    hands, outcome = work.masks[3][:players], work.ints[7][:players]
    for other in range(players):
        hands[other] = world[other]
        outcome[other] = view.won[other]
    depth, paranoid, models, index = playout
    onward = popcount(view.hand) > depth  # played on until ``depth`` tricks are left
    learned = onward and index >= 0
    after = trick
    if not learned:  # a learned play-out plays the seat's card itself, as one of its moves
        bit = ONE << np.uint64(card)
        hands[view.seat] ^= bit
        led, beat, winner = place_card(bit, view.seat, trick.led, trick.beat, trick.winner, trick.trumps)
        after = Trick(trick.trumps, trick.leader, trick.placed + 1, led, beat, winner)
    if onward:
        if learned:
            leader = finish_learned(
                hands, trick, outcome, view, card, deal_rules, depth, model=(models, index), work=work
            )
        else:
            leader = finish_greedy(hands, after, outcome, view.bids, deal_rules.play_rule, depth)
        if hands[leader] == ZERO:
            return outcome[view.seat]
        after = Trick(trick.trumps, leader, 0, ZERO, ~ZERO, leader)
    root = view.seat if paranoid else MAXN
    future = solve(hands, after, outcome, view.bids, deal_rules.score, deal_rules.play_rule, root, work.table)
    return outcome[view.seat] + tricks_of(future, view.seat)


@jit
def finish_learned(hands, trick, won, view, card, deal_rules, stop, model, work):
    """Play ``card`` of ``view.seat`` to ``trick``, then on with every seat learned, until ``stop`` tricks are left.

    hands uint64[seat]: the world (consumed); model: (models, index), the ``Model`` every seat plays.
    Each seat chooses from its own view of the world (``seat_view``), never from the others' hands:
    its hand, the cards gone, and what the play has revealed of every seat: the pimc seat's public
    view (``view.may_hold``, ``view.played``) carried on through the play-out in work.masks[6] and [7].
    Tricks are counted into ``won`` (int64[seat]). Returns the leader of the next trick.
    """
    models, index = model
    trumps, leader, placed, led, beat, winner = trick
    players = hands.shape[0]
    may_hold, played = work.masks[6][:players], work.masks[7][:players]
    for other in range(players):
        may_hold[other] = view.may_hold[other]
        played[other] = view.played[other]
    gone = deal_rules.deck & ~(view.hand | view.unseen | view.shown)  # public: the cards played, a turned card
    deal = (deal_rules.deck, view.trump_card, view.dealer)
    duty = duties(trumps, deal_rules.play_rule)
    seat, chosen = view.seat, card
    while True:
        for j in range(placed, players):
            hand = hands[seat]
            if chosen < 0:
                legal = legal_cards(hand, led, beat, duty)
                chosen = lowest_bit(legal)
                if legal & (legal - ONE):
                    seen = seat_view(seat, hand, gone, deal, may_hold, won, view.bids, played)
                    at = Trick(trumps, leader, j, led, beat, winner)
                    chosen = learned_card(seen, legal, at, deal_rules, models, index, work.scores, work.layers)
            bit = ONE << np.uint64(chosen)
            hands[seat] = hand ^ bit
            public = (gone, played, may_hold)
            gone, led, beat, winner = play_in_view(
                chosen, seat, (trumps, led, beat, winner), public, deal_rules.play_rule
            )
            seat = seat + 1 if seat + 1 < players else 0
            chosen = -1
        won[winner] += 1
        if popcount(hands[winner]) <= stop:
            return winner
        seat = leader = winner
        placed, led, beat = 0, ZERO, ~ZERO


@jit
def contenders(cards, totals, margin):
    """The ``cards`` whose total (int64[card id]) may still reach the best one's: within ``margin`` of it.

    margin: how far the worlds left can move one card's total against another's. A card dropped
    would lose to the best even with every world left going its way, so the choice stays the same.
    """
    best = totals[lowest_bit(cards)]
    rest = cards
    while rest:
        best = max(best, totals[lowest_bit(rest)])
        rest &= rest - ONE
    kept = ZERO
    rest = cards
    while rest:
        card = lowest_bit(rest)
        rest &= rest - ONE
        if totals[card] + margin >= best:  # may still tie, and a tie goes to the lowest card
            kept |= ONE << np.uint64(card)
    return kept


@jit_inline
def searches(code, solve):
    """Whether a seat of policy ``code`` chooses as pimc does: pimc, or learned in its last ``solve`` tricks."""
    return code == POLICY_PIMC or (code == POLICY_LEARNED and solve > 0)


@jit
def worlds_drawn(policies, reading):
    """The most worlds a pimc seat of these ``Policies`` draws before it plays any (one that reads bids or play)."""
    codes, samples = policies.codes, policies.samples
    most = 0
    for row in range(codes.shape[0]):
        for seat in range(codes.shape[1]):
            if searches(codes[row, seat], policies.solve[row, seat]):
                infer = policies.model[row, seat] if policies.infer[row, seat] else -1
                most = max(most, worlds_pool(samples[row, seat], reading.sharpness[row, seat], infer))
    return most


@jit
def solve_depth(policies, cards):
    """The most tricks a pimc seat of these ``Policies`` solves in a deal of ``cards`` (its work's table's size)."""
    most = 0
    for row in range(policies.codes.shape[0]):
        for seat in range(policies.codes.shape[1]):
            if searches(policies.codes[row, seat], policies.solve[row, seat]):
                most = max(most, min(policies.solve[row, seat], cards))
    return most
