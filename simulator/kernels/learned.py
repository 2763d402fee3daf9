"""The learned play: a small network scores each legal card from what the seat knows, and the best is played.

What a seat knows is a ``View`` and the ``Trick`` it plays to (the pimc seat's own reading of the deal).
It reaches the network as numbers that mean the same at any table: ``state_features`` (the seat's need,
its place in the trick, who still needs tricks, trumps in and out) and, for each card weighed,
``card_features`` (does it take the trick now, can a later seat still beat it, how many unseen cards of
its suit lie above and below it...). Ranks are counted, not named, so one model reads a Spanish or a
French deck and any number of players; what it has learned still depends on the table it saw.

The network (``Model``) is two hidden layers of rectified units and one output, the card's points
relative to the position's other cards; the inputs' scaling is folded into the first layer. The
state's share of the first layer is worked out once a decision, each card adds its own rows.
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import LANE_MASK, ONE, ZERO, highest_bit, lane, lowest_bit, popcount
from pocha.kernels.choice import best_card
from pocha.kernels.codes import PLAY_CODES
from pocha.kernels.jit import jit, jit_inline, jit_vectorised
from pocha.kernels.trick import beat_mask, distinct_cards, led_lane

STATE_FEATURES = (
    "tricks left",
    "need below 0",
    "need 0",
    "need 1",
    "need 2",
    "need 3 or more",
    "need over tricks left",
    "leading",
    "last to play",
    "cards on the trick over seats",
    "winner so far needs tricks",
    "other seats needing tricks",
    "other seats' need over tricks left",
    "every seat's need less tricks left, over tricks left",
    "later seats in the trick needing tricks",
    "own trumps over tricks left",
    "trumps unseen",
    "deal has trump",
    "trump led",
    "void in the led suit",
    "players",
    *(f"play rule {name}" for name in PLAY_CODES),
    "deal of the whole deck",
    "own bid",
    "own tricks won",
    "own cards above every unseen card of their suit, over tricks left",
    "own cards below every unseen card of their suit, over tricks left",
    "own plain suits void while holding trumps",
)
CARD_FEATURES = (
    "trump",
    "follows the led suit",
    "takes the trick now",
    "unseen cards of its suit above it",
    "no unseen card of its suit above it",
    "unseen cards of its suit below it",
    "own cards of its suit",
    "own cards of its suit above it",
    "own cards of its suit below it",
    "unseen cards of its suit",
    "its rank among its suit's",
    "later seats in the trick that may beat it",
    "takes the trick now and no later seat may beat it",
    "other seats void in its suit",
    "other seats void in its suit that may trump it",
    "later seats in the trick needing tricks that may beat it",
)
STATE_WIDTH, CARD_WIDTH = len(STATE_FEATURES), len(CARD_FEATURES)
RULES = len(PLAY_CODES)
MOST_WIDTH = 256  # the widest hidden layer a model may have (the scratch of ``card_scores``)
SCALE = 13.0  # counts of cards and tricks are read over 13, the longest suit and hand


class Model(NamedTuple):
    """Every learned model of a run as flat arrays, as the kernels take them (``pocha.engine.learning`` builds it).

    layout int64[model, 4]: where model m's weights start in ``weights`` and its hidden widths (offset,
    inputs, first, second); weights float64: per model, the first layer [inputs, first] (a row per
    input), its biases, the second [first, second], its biases, the output weights [second], its bias;
    readings float64[model, 2]: how a seat that infers the hands from the play reads its scores as chances
    (``kernels.inference``): the softmax's temperature (points) and the floor (nan when the file has none).
    """

    layout: np.ndarray
    weights: np.ndarray
    readings: np.ndarray


@jit
def no_model():
    """The ``Model`` of a run where no seat plays learned."""
    return Model(np.zeros((0, 4), np.int64), np.zeros(0), np.zeros((0, 2)))


@jit_inline
def suit_counts(hand, out_cards, trumps):
    """What a hand counts suit by suit, as a player does: masters, bottoms and suits it may trump in.

    Masters are its cards above every card of their suit still out (they win if their suit is
    followed), bottoms its cards below every one (they lose if followed).
    """
    masters, bottoms, ruffing = 0, 0, 0
    may_trump = hand & trumps != ZERO
    for suit in range(4):
        mine, theirs = lane(hand, suit), lane(out_cards, suit)
        if theirs == ZERO:
            masters += popcount(mine)
        elif mine != ZERO:
            masters += popcount(mine >> np.uint64(highest_bit(theirs) + 1))
            bottoms += popcount(mine & ((theirs & (~theirs + ONE)) - ONE))
        plain = (LANE_MASK << np.uint64(16 * suit)) & trumps == ZERO
        ruffing += plain and mine == ZERO and may_trump
    return masters, bottoms, ruffing


@jit
def state_features(view, trick, deal_rules, out):
    """Fill ``out`` (float64[STATE_WIDTH]) with what the seat of ``view`` knows of the deal, ``trick`` in play."""
    seat, hand, won, bids = view.seat, view.hand, view.won, view.bids
    players = won.shape[0]
    left = popcount(hand)
    need = bids[seat] - won[seat]
    others, others_need, all_need, later_need = 0, 0, 0, 0
    for other in range(players):
        short = max(bids[other] - won[other], 0)
        all_need += short
        if other != seat:
            others += short > 0
            others_need += short
            later = (other - trick.leader) % players > trick.placed
            later_need += later and short > 0
    out[0] = left / SCALE
    out[1] = need < 0
    out[2] = need == 0
    out[3] = need == 1
    out[4] = need == 2
    out[5] = need >= 3
    out[6] = max(min(need, left), -left) / max(left, 1)
    out[7] = trick.placed == 0
    out[8] = trick.placed == players - 1
    out[9] = trick.placed / (players - 1)
    out[10] = trick.placed > 0 and trick.winner != seat and won[trick.winner] < bids[trick.winner]
    out[11] = others / (players - 1)
    out[12] = others_need / max(left, 1)
    out[13] = (all_need - left) / max(left, 1)
    out[14] = later_need / (players - 1)
    out[15] = popcount(hand & trick.trumps) / max(left, 1)
    out[16] = popcount((view.unseen | view.shown) & trick.trumps) / SCALE
    out[17] = trick.trumps != ZERO
    out[18] = trick.placed > 0 and led_lane(trick.led) & trick.trumps != ZERO
    out[19] = trick.placed > 0 and not hand & led_lane(trick.led)
    out[20] = players / 10.0
    for rule in range(RULES):
        out[21 + rule] = deal_rules.play_rule == rule
    out[21 + RULES] = deal_rules.full
    out[22 + RULES] = bids[seat] / SCALE
    out[23 + RULES] = won[seat] / SCALE
    masters, bottoms, ruffing = suit_counts(hand, view.unseen | view.shown, trick.trumps)
    out[24 + RULES] = masters / max(left, 1)
    out[25 + RULES] = bottoms / max(left, 1)
    out[26 + RULES] = ruffing / 3.0


@jit
def card_features(card, view, trick, deal_rules, out):
    """Fill ``out`` (float64[CARD_WIDTH]) with what playing ``card`` from ``view`` to ``trick`` means."""
    seat, hand = view.seat, view.hand
    players = view.won.shape[0]
    out_cards = view.unseen | view.shown
    bit = ONE << np.uint64(card)
    suit = LANE_MASK << np.uint64(card & 48)
    above = suit & ~((bit << ONE) - ONE)
    below = suit & (bit - ONE)
    wins = trick.beat & bit != ZERO
    led = ZERO if trick.placed == 0 else trick.led
    beaten_by = beat_mask(bit, led_lane(led) if led else suit, trick.trumps) if wins else trick.beat
    later_beat, later_beat_needing = 0, 0
    for k in range(trick.placed + 1, players):
        other = (trick.leader + k) % players
        if view.may_hold[other] & out_cards & beaten_by:
            later_beat += 1
            later_beat_needing += view.bids[other] > view.won[other]
    void, void_trumping = 0, 0
    for other in range(players):
        if other != seat and not view.may_hold[other] & suit & out_cards:
            void += 1
            void_trumping += suit & trick.trumps == ZERO and view.may_hold[other] & trick.trumps & out_cards != ZERO
    higher = popcount(out_cards & above)
    out[0] = bit & trick.trumps != ZERO
    out[1] = trick.placed > 0 and bit & led_lane(led) != ZERO
    out[2] = wins
    out[3] = higher / SCALE
    out[4] = higher == 0
    out[5] = popcount(out_cards & below) / SCALE
    out[6] = popcount(hand & suit) / SCALE
    out[7] = popcount(hand & above) / SCALE
    out[8] = popcount(hand & below) / SCALE
    out[9] = popcount(out_cards & suit) / SCALE
    out[10] = popcount(deal_rules.deck & below) / max(popcount(deal_rules.deck & suit) - 1, 1)
    out[11] = later_beat / (players - 1)
    out[12] = wins and later_beat == 0
    out[13] = void / (players - 1)
    out[14] = void_trumping / (players - 1)
    out[15] = later_beat_needing / (players - 1)


@jit_vectorised
def add_inputs(out, width, inputs, count, weights, first, rectified):
    """Add to ``out[:width]`` each of the first ``count`` inputs times its row of ``weights`` (from ``first`` on).

    Rows are ``width`` long, a multiple of 8 (``pack_models`` pads); rectified: an input below 0
    counts as 0 (a hidden layer's units). Eight sums at a time are held in registers (a vector of
    them: ``jit_vectorised``, twice as fast) while every input is added, each read through a view of
    eight weights: as a plain loop over ``out[h]`` the
    sums go through memory at every input (the compiler cannot tell ``out`` from ``weights``), and
    skipping zero inputs mispredicts; the network ran two and a half times slower. Each sum adds its
    terms in input order either way.
    """
    for block in range(0, width, 8):
        sums = out[block : block + 8]
        s0, s1, s2, s3, s4, s5, s6, s7 = sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6], sums[7]
        for i in range(count):
            x = max(inputs[i], 0.0) if rectified else inputs[i]
            row = first + i * width + block
            w = weights[row : row + 8]
            s0 += x * w[0]
            s1 += x * w[1]
            s2 += x * w[2]
            s3 += x * w[3]
            s4 += x * w[4]
            s5 += x * w[5]
            s6 += x * w[6]
            s7 += x * w[7]
        sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6], sums[7] = s0, s1, s2, s3, s4, s5, s6, s7


@jit_inline
def card_score(weights, shape, inputs, work):
    """The network (``weights`` with ``shape``, a row of ``Model.layout``) on one card's features ``inputs``.

    work as ``card_scores`` lends it, row 1 holding the first layer's share of the state.
    """
    offset, width, one, two = shape
    start, hidden, second = work[1], work[3], work[4]
    for h in range(one):
        hidden[h] = start[h]
    add_inputs(hidden, one, inputs, CARD_WIDTH, weights, offset + STATE_WIDTH * one, False)
    layer = offset + width * one + one  # the second layer [one, two], then its biases, the output's weights, its bias
    for k in range(two):
        second[k] = weights[layer + one * two + k]
    add_inputs(second, two, hidden, one, weights, layer, True)
    score = weights[layer + one * two + 2 * two]
    for k in range(two):
        score += max(second[k], 0.0) * weights[layer + one * two + two + k]
    return score


@jit
def card_scores(view, trick, deal_rules, candidates, models, index, scores, work):
    """Each card of ``candidates``' score under model ``index`` of ``models`` into ``scores`` (float64[card id]).

    work float64[5, MOST_WIDTH]: scratch (rows: the state's features, the first layer's share of them, a
    card's features, the two hidden layers).
    """
    offset, width, one, two = models.layout[index]
    weights = models.weights
    state, start, inputs = work[0], work[1], work[2]
    state_features(view, trick, deal_rules, state)
    bias = offset + width * one
    for h in range(one):
        start[h] = weights[bias + h]
    add_inputs(start, one, state, STATE_WIDTH, weights, offset, False)
    rest = candidates
    while rest:
        card = lowest_bit(rest)
        rest &= rest - ONE
        card_features(card, view, trick, deal_rules, inputs)
        scores[card] = card_score(weights, (offset, width, one, two), inputs, work)


@jit
def learned_card(view, legal, trick, deal_rules, models, index, scores, work):
    """The card model ``index`` plays from ``view`` to ``trick``: the best scored of the distinct legal cards.

    A single card, or a run of equivalent ones (``distinct_cards``), is played unweighed. Ties go to
    the lowest card id. scores float64[64] and work as ``card_scores`` takes them.
    """
    candidates = distinct_cards(legal, view.unseen | view.shown, trick.beat)
    if not candidates & (candidates - ONE):
        return lowest_bit(candidates)
    card_scores(view, trick, deal_rules, candidates, models, index, scores, work)
    return best_card(candidates, scores)
