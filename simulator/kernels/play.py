"""Playing whole deals: the trick loop over seats, with each seat's play policy."""

from typing import NamedTuple

import numpy as np

from pocha.game.rules import Rules
from pocha.kernels.bits import ONE, ZERO, lowest_bit, popcount
from pocha.kernels.choice import greedy_card, random_card
from pocha.kernels.codes import PLAY_CODES, POLICY_GREEDY, POLICY_LEARNED, POLICY_PIMC, POLICY_RANDOM, STREAM_PLAY
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.labels import label, no_record
from pocha.kernels.learned import learned_card, no_model
from pocha.kernels.pimc import Reading, bid_log_weights, pimc_card, scratch, solve_depth, worlds_drawn
from pocha.kernels.streams import decision_state, next_state, stream_state
from pocha.kernels.trick import Trick, distinct_cards, duties, legal_cards, place_card, revealed, trump_masks
from pocha.kernels.view import seat_view


class Chunk(NamedTuple):
    """A batch of deals of one hand size; arrays are indexed [deal, seat]."""

    cards: int
    numbers: np.ndarray  # int64[deal]: deal numbers (randomness and dealer: deal i has dealer i % players)
    hands: np.ndarray  # uint64[deal, seat] as dealt
    trump_card: np.ndarray  # int64[deal]: NO_TRUMP for a deal without trump
    bids: np.ndarray  # int64[deal, seat]


class DealRules(NamedTuple):
    """The rules as the kernels play a deal of one hand size under them (``of``), and how pimc seats read its bids."""

    deck: np.uint64  # the deck's cards as a mask
    full: bool  # the deal takes the whole deck (the dealer holds the trump card, shown, if there is one)
    play_rule: int  # PLAY_CODES
    score: np.ndarray  # int64[bid, won]: the points of each bid and trick count (``Scoring.points_grid``)
    hook: bool  # the hook rule binds the dealer at this hand size
    reading: Reading  # how the pimc seats read the bids (``kernels.pimc.Reading``)

    @classmethod
    def of(cls, rules: Rules, cards: int, reading: Reading | None = None) -> "DealRules":
        """A rule set's deal of ``cards`` cards a player; without a ``reading`` no seat reads the bids."""
        full = cards * rules.players == rules.deck_size
        if reading is None:
            reading = Reading(np.zeros((1, rules.players)), np.zeros((0, 0)), np.zeros((0, 0)))
        score = rules.scoring.points_grid(cards)
        return cls(rules.deck_mask, full, PLAY_CODES[rules.play_rule], score, rules.hook_applies(cards), reading)


class Policies(NamedTuple):
    """How each seat plays, int64[deal or 1, seat]: one row serves every deal when the seating is the same."""

    codes: np.ndarray  # play policy (POLICIES)
    samples: np.ndarray  # worlds sampled per card (pimc)
    exhaustive: np.ndarray  # pimc: 1 weighs every legal card, as pimc did first; 0 one of equivalent ones
    solve: np.ndarray  # pimc: the tricks left from which its worlds are solved exactly (0: never; ``play_out``)
    paranoid: np.ndarray  # pimc: 1 solves them for the seat against the rest, 0 every seat for itself (max^n)
    model: np.ndarray  # learned: the seat's model in the batch's ``Model`` (-1: none); a pimc seat's play-outs'
    # model (``rollout``) or, labelling, its student
    rollout: np.ndarray  # pimc: how every seat plays its worlds out, POLICY_GREEDY or POLICY_LEARNED (``model``)
    infer: np.ndarray  # pimc: 1 reads the play as evidence about the hands, under ``model`` (``kernels.inference``)


class Outcome(NamedTuple):
    """What the play of a batch of deals gives, int64[deal, seat]."""

    won: np.ndarray  # tricks taken
    points: np.ndarray  # points scored


class PlayLog(NamedTuple):
    """The cards played, when a run logs them (traced runs), else arrays of length 0."""

    plays: np.ndarray  # int64[deal, trick, order]: card ids from the leader on
    leaders: np.ndarray  # int64[deal, trick + 1]: the leader of each trick, then the winner of the last


class Batch(NamedTuple):
    """What ``play_deal`` reads and fills, at row ``d``, for a batch of deals."""

    deal_rules: DealRules
    policies: Policies
    bids: np.ndarray  # int64[deal, seat]
    won: np.ndarray  # int64[deal, seat]: the tricks are counted in
    log: PlayLog
    work: tuple  # ``scratch``'s ``Work``, lent to the pimc and learned seats
    models: tuple  # the learned seats' ``kernels.learned.Model``
    record: tuple  # where the pimc seats' labelled positions go (``kernels.labels.Record``; of length 0: nowhere)


@jit
def no_log():
    """The ``PlayLog`` of a play that logs nothing."""
    return PlayLog(np.empty((0, 0, 0), np.int64), np.empty((0, 0), np.int64))


@jit_inline
def pimc_choice(view, legal, trick, deal_rules, setting, weigh, state, work, record, row, models):
    """The card pimc plays from ``view`` to ``trick``, and whether it worked out the bids' log weights (0 or 1).

    setting: the seat's (samples, exhaustive, sharpness, solve, paranoid, model, infer): model, the index in
    ``models`` (a ``kernels.learned.Model``) its worlds are played out by, -1 greedy; infer, the one it reads
    the others' play by (-1: none; the deal's cards so far in ``work.moves``). weigh: the
    weights are not yet worked out (they are the same all deal: once is enough). state: the choice's
    own (``decision_state``). A ``record`` with room keeps the position and the value of every card
    weighed (``kernels.labels``).
    """
    samples, exhaustive, sharpness, depth, paranoid, model, infer = setting
    if not exhaustive:  # one card of each run of equivalent ones
        legal = distinct_cards(legal, view.unseen | view.shown, trick.beat)
    if not legal & (legal - ONE):  # every legal card plays the same
        return lowest_bit(legal), 0
    weighs = sharpness > 0 and weigh
    if weighs:
        bid_log_weights(view, deal_rules, sharpness, work.decay, work.log_weights[view.seat])
    labelling = record.ints.shape[0] > 0
    card, _ = pimc_card(
        view,
        legal,
        trick,
        deal_rules,
        samples,
        sharpness,
        (depth, paranoid, models, model),
        state=state,
        work=work,
        prune=not labelling,
        infer=infer,
    )
    if labelling:
        label(record, view, trick, legal, work.ints[5], samples, row)
    return card, int(weighs)


@jit_inline
def play_deal(d, hands, trump_card, leader, tricks, state, batch, plain):
    """Play ``tricks`` tricks of row ``d`` of ``batch`` from ``hands`` (uint64[seat], consumed), ``leader`` leading.

    Tricks are counted into ``batch.won[d]``; a deal may be played in parts (greedy and random seats
    only: a pimc seat's view of the deal starts with the call).

    Each seat plays by its policy (``batch.policies``; a pimc seat reads the bids as
    ``batch.deal_rules.reading`` says, a learned seat plays its model of ``batch.models``). When
    ``batch.record`` has room, the pimc seats label their positions, and a pimc seat given a model
    plays the model's card (the student's play, the teacher's labels: DAgger). The public view the
    pimc and learned seats read is kept as the play goes: per seat the cards it played and the cards
    its plays have ruled out (``revealed``). The play is
    logged when ``batch.log`` is not empty (traced runs). Returns the advanced random state and the
    next leader.

    plain: every seat random or greedy and the play not logged. Give it as a constant: the compiler then
    drops the pimc seats' bookkeeping from the loop (random play 11% faster without it).
    """
    deal_rules, bids, won, work = batch.deal_rules, batch.bids, batch.won, batch.work
    codes, samples, exhaustive, solve, paranoid, model, rollout, infer = batch.policies
    plays, leaders = batch.log
    full, play_rule = deal_rules.full, deal_rules.play_rule
    start = state  # a pimc seat's choices draw from streams of their own (``decision_state``)
    players = hands.shape[0]
    logging = not plain and plays.shape[0] > 0
    trumps, trump_bit = trump_masks(trump_card)
    duty = duties(trumps, play_rule)
    dealer = (leader - 1) % players
    gone = ZERO if full else trump_bit  # the turned-up card is nobody's
    may_hold, played = work.masks[4], work.masks[5]  # pimc_card uses the rows before
    row = d if codes.shape[0] > 1 else 0  # one row of policies may serve every deal
    watched = False  # the public view is kept only when a pimc seat reads it
    weighed = 0  # the seats whose bids' log weights (the same all deal) are worked out, as bits
    for seat in range(0 if plain else players):
        may_hold[seat] = deal_rules.deck
        played[seat] = ZERO
        watched |= codes[row, seat] >= POLICY_PIMC
    for t in range(tricks):
        led, beat, winner = ZERO, ~ZERO, leader
        if logging:
            leaders[d, t] = leader
        seat = leader
        for j in range(players):
            hand = hands[seat]
            legal = legal_cards(hand, led, beat, duty)
            policy = codes[row, seat]
            # a random seat draws for every card but its last, forced or not: then no branch of theirs
            # waits on the legal set (the hand is known before the trick)
            if (policy == POLICY_RANDOM and hand & (hand - ONE)) or legal & (legal - ONE):
                state = next_state(state)
                if policy == POLICY_RANDOM:
                    card = random_card(legal, state)
                elif plain or policy == POLICY_GREEDY:
                    card = greedy_card(legal, led, trumps, beat, won[d, seat] < bids[d, seat])
                else:
                    deal = (deal_rules.deck, trump_card, dealer)
                    view = seat_view(seat, hand, gone, deal, may_hold, won[d], bids[d], played)
                    trick = Trick(trumps, leader, j, led, beat, winner)
                    student = model[row, seat]
                    ending = policy == POLICY_LEARNED and popcount(hand) <= solve[row, seat]  # its last tricks as pimc
                    if policy == POLICY_PIMC or ending:
                        card, weighs = pimc_choice(
                            view,
                            legal,
                            trick,
                            deal_rules,
                            (
                                samples[row, seat],
                                exhaustive[row, seat],
                                deal_rules.reading.sharpness[row, seat],
                                solve[row, seat],
                                paranoid[row, seat],
                                student if rollout[row, seat] == POLICY_LEARNED else -1,
                                student if infer[row, seat] else -1,
                            ),
                            not weighed >> seat & 1,
                            decision_state(start, t * players + j),
                            work,
                            record=batch.record,
                            row=d,
                            models=batch.models,
                        )
                        weighed |= weighs << seat
                    if (policy == POLICY_LEARNED and not ending) or (student >= 0 and batch.record.ints.shape[0] > 0):
                        card = learned_card(
                            view, legal, trick, deal_rules, batch.models, student, work.scores, work.layers
                        )
            else:
                card = lowest_bit(legal)
            bit = ONE << np.uint64(card)
            hands[seat] = hand ^ bit
            if watched:
                work.moves[t * players + j] = card
                gone |= bit
                played[seat] |= bit
                may_hold[seat] &= ~revealed(card, led, trumps, beat, play_rule)
            if logging:
                plays[d, t, j] = card
            led, beat, winner = place_card(bit, seat, led, beat, winner, trumps)
            seat = seat + 1 if seat + 1 < players else 0
        won[d, winner] += 1
        leader = winner
    if logging:
        leaders[d, tricks] = leader
    return state, leader


@jit_inline
def play_deals(seed, chunk, deal_rules, policies, outcome, log, plain, models, record):
    """Play a batch of deals and score them (``play_batch``; ``plain`` as for ``play_deal``, a constant)."""
    cards, numbers, hands, trump_card, bids = chunk
    won, points = outcome
    players = hands.shape[1]
    own = np.empty(players, np.uint64)
    drawn, depth = (0, 0) if plain else (worlds_drawn(policies, deal_rules.reading), solve_depth(policies, cards))
    work = scratch(drawn, players, depth)
    batch = Batch(deal_rules, policies, bids, won, log, work, models, record)
    for d in range(hands.shape[0]):
        deal = numbers[d]
        for s in range(players):
            own[s] = hands[d, s]
            won[d, s] = 0
        state = stream_state(seed, cards, deal, STREAM_PLAY)
        play_deal(d, own, trump_card[d], (deal + 1) % players, cards, state, batch, plain)
        for s in range(players):
            points[d, s] = deal_rules.score[bids[d, s], won[d, s]]


@jit
def play_batch(seed, chunk, deal_rules, policies, outcome, log, models, record):
    """Play a ``Chunk`` of deals by each seat's ``Policies`` under ``DealRules``; fill its ``Outcome`` and ``PlayLog``.

    Deal number ``numbers[d]`` fixes the dealer and the random stream. The draws come from stream
    STREAM_PLAY of the deal: a random seat draws for every card it plays but its last, forced or
    not; any other seat for each choice among several legal cards (pimc seats draw more, for their worlds).
    ``play_batch_plain`` plays the same when no seat is pimc or learned and nothing is logged.
    models: the learned seats' ``Model`` (``no_model()`` when none is); record: where pimc seats'
    labelled positions go (``kernels.labels.Record``; ``no_record()``: nowhere).
    """
    play_deals(seed, chunk, deal_rules, policies, outcome, log, False, models=models, record=record)


@jit
def play_batch_plain(seed, chunk, deal_rules, policies, outcome):
    """``play_batch`` for random and greedy seats, not logged: the lean copy of the play loop.

    Alone in its kernel, it compiles in two thirds of the time of both copies (a cold run's largest compile).
    A pimc or learned seat is refused (ValueError): this loop would play it as greedy.
    """
    codes = policies.codes
    for row in range(codes.shape[0]):
        for seat in range(codes.shape[1]):
            if codes[row, seat] >= POLICY_PIMC:
                raise ValueError("play_batch_plain: a pimc or learned seat needs play_batch")
    play_deals(seed, chunk, deal_rules, policies, outcome, no_log(), True, models=no_model(), record=no_record())
