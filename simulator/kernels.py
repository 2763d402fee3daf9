"""Numba kernels of the hot path: per-deal randomness, dealing, the play rules, play policies, scoring.

Everything here takes plain integers and arrays and writes into ``out`` arrays; no Python objects,
no module settings. Rule options arrive as small integers (constants below), so one compiled
version serves every rule set.

Card ids are ``suit * 16 + strength`` (strength 0 = weakest rank of the rule set), so a hand is a
``uint64`` bitmask with one 16-bit lane per suit.
"""

import numba
import numpy as np
from llvmlite import binding, ir
from numba import types
from numba.extending import intrinsic

from pocha.cache import kernel_cache

# Rule options as the kernels see them, and the names they stand for.
PLAY_POCHA, PLAY_TRUMP, PLAY_FOLLOW, PLAY_POCHA_TRUMP_LEAD_FREE = 0, 1, 2, 3
POLICY_RANDOM, POLICY_GREEDY, POLICY_PIMC = 0, 1, 2
PLAY_CODES = {"pocha": PLAY_POCHA, "trump": PLAY_TRUMP, "follow": PLAY_FOLLOW,
              "pocha-trump-lead-free": PLAY_POCHA_TRUMP_LEAD_FREE}  # fmt: skip
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "pimc": POLICY_PIMC}
# Independent random streams of one deal (bidding strategies use STREAM_BID + 64 * (position + 1) + n);
# STREAM_LOT, of a whole game's number (hand size 0), draws its first dealer.
STREAM_DEAL, STREAM_PLAY, STREAM_BID, STREAM_SAMPLE, STREAM_ROLLOUT, STREAM_LOT = 1, 2, 3, 4, 5, 6

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_LANE = np.uint64(0xFFFF)
LANES = np.uint64(0x0001000100010001)  # the weakest card of every suit
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def jit(function=None, **options):
    """The project's one numba decorator: disk cache on (in ``pocha.cache``'s folder), no GIL, numpy error model."""

    def decorate(function):
        with kernel_cache():
            return numba.njit(function, cache=True, nogil=True, error_model="numpy", **options)

    return decorate if function is None else decorate(function)


def jit_inline(function):
    """``jit``, inlined: for the per-card steps, and for the helpers the kernels call with constants.

    A per-card step has many arguments: inlined, no call survives in the play loop. A helper given a
    constant (a stream number) would otherwise be compiled once per constant value. LLVM inlines the
    small helpers by itself; inlining all of them at numba level cost 3 s more compile for no
    measurable speed.
    """
    return jit(inline="always")(function)


# --- randomness -------------------------------------------------------------------------------


@jit
def mix64(z):
    """splitmix64 finaliser: a bijective 64-bit hash of ``z`` (uint64)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit_inline
def stream_state(seed, cards, deal, stream):
    """Start state of one random stream of one deal, from ``(seed, hand size, deal index, stream)`` only.

    This is what makes runs reproducible whatever the chunking: no state crosses deals.
    """
    z = mix64(np.uint64(seed) + _GAMMA * np.uint64(cards))
    z = mix64(z + _GAMMA * np.uint64(deal))
    return mix64(z + _GAMMA * np.uint64(stream))


@jit
def next_state(state):
    """Advance a splitmix64 counter."""
    return state + _GAMMA


@jit
def below(state, n):
    """A number in ``0..n-1`` from the state's output (bias below n / 2**32, negligible for n <= 64)."""
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@jit
def uniform(state):
    """A float64 in [0, 1) from the state's output (53 random bits)."""
    return np.float64(mix64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def uniform_batch(seed, cards, deals, stream, out):
    """Fill ``out`` (float64[row, draw]) with uniforms in [0, 1) from stream ``stream`` of deal ``deals[row]``."""
    for d in range(out.shape[0]):
        state = stream_state(seed, cards, deals[d], stream)
        for j in range(out.shape[1]):
            state = next_state(state)
            out[d, j] = uniform(state)


# --- bit helpers --------------------------------------------------------------------------------


@jit
def popcount(x):
    """Number of set bits of a uint64 (portable bit trick)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@jit
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM makes it one instruction)."""
    return popcount((x & (_ZERO - x)) - _ONE)


@intrinsic
def _leading_zeros(typingctx, x):
    """LLVM's ctlz of a uint64: one instruction where the CPU has one, a short sequence elsewhere."""

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


@jit
def highest_bit(x):
    """Index of the highest set bit of a non-zero uint64."""
    return 63 - np.int64(_leading_zeros(x))


def _fast_pdep() -> bool:
    """Whether numba compiles for a CPU with a fast BMI2 ``pdep`` (not AMD before Zen 3, where it is microcode)."""
    name = numba.config.CPU_NAME or binding.get_host_cpu_name()
    features = numba.config.CPU_FEATURES or binding.get_host_cpu_features().flatten()
    return "+bmi2" in features.split(",") and name not in ("generic", "znver1", "znver2")


@intrinsic
def _deposit(typingctx, source, mask):
    """BMI2 ``pdep``: the low bits of ``source`` deposited, in order, at the set bits of ``mask``."""

    def codegen(context, builder, signature, args):
        function = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        return builder.call(builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=function), args)

    return types.uint64(types.uint64, types.uint64), codegen


@jit
def nth_card_by_deposit(cards, n):
    """The ``n``-th lowest (0-based) card id of a mask, in three instructions (CPUs with fast ``pdep``)."""
    return lowest_bit(_deposit(_ONE << np.uint64(n), cards))


@jit
def nth_card_by_loop(cards, n):
    """The ``n``-th lowest (0-based) card id of a mask, clearing the lower bits one at a time (any CPU)."""
    for _ in range(n):
        cards &= cards - _ONE
    return lowest_bit(cards)


# Choosing a random legal card is the play's hottest step: pdep halves it where it is fast.
nth_card = nth_card_by_deposit if _fast_pdep() else nth_card_by_loop


@jit
def lane(hand, suit):
    """The 16-bit lane of one suit of a hand, as uint64."""
    return (hand >> np.uint64(16 * suit)) & _LANE


@jit
def strengths(cards):
    """The strengths present in any suit of a mask: its four lanes ORed (bit i: some card of strength i)."""
    return (cards | cards >> np.uint64(16) | cards >> np.uint64(32) | cards >> np.uint64(48)) & _LANE


# --- dealing -------------------------------------------------------------------------------------


@jit
def deal_batch(seed, cards, deals, deck, hands, trump_card):
    """Shuffle and deal the deals numbered ``deals`` (int64[row]), ``cards`` cards to each of the players.

    deck: int64[deck_size] card ids. Deal number ``i`` has dealer ``i % players``;
    cards go one at a time from the mano round to the dealer. Outputs: ``hands`` uint64[deals, seat]
    bitmasks; ``trump_card`` int64[deals]: the next card turned up, or the dealer's last card when
    the deal takes the whole deck.
    """
    players = hands.shape[1]
    size = deck.shape[0]
    dealt = cards * players
    draws = dealt + 1 if dealt < size else dealt
    order = deck.copy()
    for d in range(hands.shape[0]):
        deal = deals[d]
        state = stream_state(seed, cards, deal, STREAM_DEAL)
        for c in range(size):  # (element by element: numba's slice assignment took 14 ns a deal more)
            order[c] = deck[c]
        for j in range(draws):  # partial Fisher-Yates: only the cards that are dealt or turned
            if j & 1 == 0:
                state = next_state(state)
                bits = mix64(state)
            else:
                bits <<= np.uint64(32)
            r = j + np.int64(((bits >> np.uint64(32)) * np.uint64(size - j)) >> np.uint64(32))
            order[j], order[r] = order[r], order[j]
        seat = (deal + 1) % players  # the mano gets the first card, then every players-th
        for first in range(players):
            hand = _ZERO
            for j in range(first, dealt, players):
                hand |= _ONE << np.uint64(order[j])
            hands[d, seat] = hand
            seat = seat + 1 if seat + 1 < players else 0
        trump_card[d] = order[dealt] if dealt < size else order[dealt - 1]


# --- the trick and the play rules --------------------------------------------------------------------
# A trick in progress is three numbers: ``led``, the led suit's cards (0 before the lead), ``beat``,
# every card that would take the lead of the trick as it stands (all cards before the lead), and
# the seat now winning it. One mask answers both "which cards are legal" and "does this card win".


@jit
def suit_cards(suit):
    """Every card of one suit, as a mask."""
    return _LANE << np.uint64(16 * suit)


@jit_inline
def beat_mask(bit, led, trumps):
    """The cards that beat ``bit``, the card winning the trick: higher trumps; for a led-suit card also every trump."""
    higher = _ZERO - (bit << _ONE)
    trump = _ZERO - np.uint64(bit & trumps != _ZERO)  # all ones for a trump (no branch: it would be mispredicted)
    return (((trumps & trump) | (led & ~trump)) & higher) | (trumps & ~trump)


@jit_inline
def place_card(bit, seat, led, beat, winner, trumps):
    """Put card ``bit`` of ``seat`` on the trick: ``(led, beat, winner)`` after it."""
    if led == _ZERO:
        led = _LANE << np.uint64(lowest_bit(bit) & 48)
    wins = _ZERO - np.uint64(bit & beat != _ZERO)
    return led, (beat_mask(bit, led, trumps) & wins) | (beat & ~wins), seat if wins else winner


@jit_inline
def bound_to_beat(led, trumps, play_rule):
    """Whether a hand that follows suit must beat the trick when it can.

    Under pocha it must (a trump on a plain-suit trick leaves no led-suit card in ``beat``); under
    pocha-trump-lead-free, not after a trump lead; never under trump and follow.
    """
    return play_rule == PLAY_POCHA or (play_rule == PLAY_POCHA_TRUMP_LEAD_FREE and led != trumps)


@jit_inline
def duties(trumps, play_rule):
    """The play rule as two masks, ``(follow, void)``: the cards a hand must beat the trick with, when it can.

    follow: every led suit whose followers are ``bound_to_beat`` (all under pocha, all but trumps
    under pocha-trump-lead-free, none under trump and follow); void: every card but under follow
    (a void hand ruffs with a trump that beats the trick if it can). Worked out once a deal, the
    rule costs the play loop two ANDs instead of comparisons per card (random play 4% faster).
    """
    if play_rule == PLAY_POCHA:
        follow = ~_ZERO
    elif play_rule == PLAY_POCHA_TRUMP_LEAD_FREE:
        follow = ~trumps
    else:
        follow = _ZERO
    return follow, _ZERO if play_rule == PLAY_FOLLOW else ~_ZERO


@jit_inline
def legal_cards(hand, led, beat, follow, void):
    """Cards of ``hand`` that may be played to a trick (``led``, ``beat``) under the rule's ``duties``.

    A hand holding the led suit follows it, else plays any card; of those, it plays one that
    beats the trick when it can and the duty mask holds it.
    """
    if led == _ZERO:
        return hand
    following = hand & led
    if following:
        cards, beating = following, following & beat & follow
    else:
        cards, beating = hand, hand & beat & void
    return beating if beating else cards


@jit_inline
def legal_mask(hand, led, trumps, beat, play_rule):
    """Cards of ``hand`` that may be played to a trick (``led``, ``beat``; trump suit ``trumps``).

    A hand holding the led suit follows it, beating the trick if it can when ``bound_to_beat``; a
    void hand ruffs with a trump that beats the trick if it can (not under follow), else plays any card.
    (The play loops call ``legal_cards`` with the ``duties`` of their deal.)
    """
    follow, void = duties(trumps, play_rule)
    return legal_cards(hand, led, beat, follow, void)


@jit_inline
def revealed(card, led, trumps, beat, play_rule):
    """The cards a hand can no longer hold, shown by the legal ``card`` it played to a trick (``led``, ``beat``).

    Not following suit shows a void in the led suit; then, unless it beat the trick with a trump, no
    trump that beats it (the hand had to ruff). Following without beating when bound to beat shows no
    card of the suit that beats the trick.
    """
    bit = _ONE << np.uint64(card)
    if led == _ZERO:
        return _ZERO
    if bit & led:
        return led & beat if bound_to_beat(led, trumps, play_rule) and not bit & beat else _ZERO
    if play_rule == PLAY_FOLLOW or bit & beat:
        return led
    return led | (trumps & beat)


# --- play policies -------------------------------------------------------------------------------


@jit
def cheapest(cards, trumps):
    """Weakest card of a non-empty mask: the lowest non-trump strength (lowest suit on ties), else the lowest trump."""
    plain = cards & ~trumps
    if plain == _ZERO:
        return lowest_bit(cards)
    low = lowest_bit(strengths(plain))
    return lowest_bit(plain & (LANES << np.uint64(low)))


@jit
def dearest(cards, trumps):
    """Strongest card of a non-empty mask: the highest trump, else the highest strength (lowest suit on ties)."""
    if cards & trumps:
        return highest_bit(cards & trumps)
    high = highest_bit(strengths(cards))
    return lowest_bit(cards & (LANES << np.uint64(high)))


@jit_inline
def random_card(legal, state):
    """The random policy: a card uniform among the legal ones (``state`` already advanced)."""
    return nth_card(legal, below(state, popcount(legal)))


@jit_inline
def greedy_card(legal, led, trumps, beat, short):
    """The greedy policy (bid-aware; ``short`` = fewer tricks won than bid), forced cards included.

    - leading: the strongest card while short, else the weakest;
    - short: the weakest legal card that takes the lead (is in ``beat``), or the weakest legal card if none does;
    - bid made: the strongest legal card that does not take the lead, or the weakest if all do.
    "Weakest/strongest" order trumps above other suits, then by strength (see ``cheapest``).
    """
    if not legal & (legal - _ONE):
        return lowest_bit(legal)
    if led == _ZERO:
        return dearest(legal, trumps) if short else cheapest(legal, trumps)
    if short:
        takers = legal & beat
        return cheapest(takers if takers else legal, trumps)
    duckers = legal & ~beat
    return dearest(duckers, trumps) if duckers else cheapest(legal, trumps)


# --- sampling play (pimc) ----------------------------------------------------------------------------


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
        rest &= rest - _ONE
    for i in range(count - 1, 0, -1):  # Fisher-Yates
        state = next_state(state)
        j = below(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    for seat in range(players):
        room[seat] = need[seat]
        held[seat] = _ZERO
    for i in range(count):
        card = cards[i]
        bit = _ONE << np.uint64(card)
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
                mine &= mine - _ONE
                for other in range(players):
                    if via[other] < 0 and allowed[other] & (_ONE << np.uint64(moved)):
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
            held[seat] |= _ONE << np.uint64(via[seat])
            if source[seat] >= 0:
                held[source[seat]] &= ~(_ONE << np.uint64(via[seat]))
            seat = source[seat]
    for seat in range(players):
        out[seat] |= held[seat]
    return state


@jit
def finish_greedy(hands, trumps, leader, placed, led, beat, winner, won, bids, play_rule):
    """Play a deal out from the middle of a trick, every seat greedy; tricks are counted into ``won``.

    hands uint64[seat] (consumed); ``placed`` cards are on the trick led by ``leader``, in the state
    (led, beat, winner).
    """
    players = hands.shape[0]
    seat = (leader + placed) % players
    follow, void = duties(trumps, play_rule)
    while True:
        for _ in range(placed, players):
            legal = legal_cards(hands[seat], led, beat, follow, void)
            bit = _ONE << np.uint64(greedy_card(legal, led, trumps, beat, won[seat] < bids[seat]))
            hands[seat] ^= bit
            led, beat, winner = place_card(bit, seat, led, beat, winner, trumps)
            seat = seat + 1 if seat + 1 < players else 0
        won[winner] += 1
        if hands[winner] == _ZERO:
            return
        seat = leader = winner
        placed, led, beat = 0, _ZERO, ~_ZERO


@jit
def scratch():
    """Work arrays a batch of deals lends its pimc seats: int64[8, 64] and uint64[5, 64] (no allocation per card)."""
    return np.empty((8, 64), np.int64), np.empty((5, 64), np.uint64)


@jit
def pimc_card(seat, hand, legal, trumps, unseen, shown, holder, may_hold, placed, led, beat, winner, won, bids,
              samples, play_rule, score, state, ints, masks):  # fmt: skip
    """The legal card with the most expected points for ``seat`` over ``samples`` worlds consistent with what it saw.

    unseen uint64: the cards the seat has not seen (not in its hand, not played, not the turned-up
    trump); shown: the dealer's shown trump card in a full deal while the dealer (``holder``) still
    holds it, else 0 (holder -1); may_hold uint64[seat]: per seat the cards its plays have not
    ruled out. placed cards are on the trick (state led, beat, winner); won, bids
    int64[seat]. Each world deals the unseen cards to the other seats (``sample_world``); each
    legal card is played in it and the deal finished greedily by every seat; the seat's points
    under ``score`` are summed. Ties go to the lowest card id. ints, masks: ``scratch()``.
    Returns ``(card, state)``.
    """
    players = won.shape[0]
    leader = (seat - placed) % players
    tricks_left = popcount(hand)
    choices = popcount(legal)
    totals, need, outcome = ints[5], ints[6], ints[7]
    held, allowed, world, hands = masks[0], masks[1], masks[2], masks[3]
    for c in range(choices):
        totals[c] = 0
    for other in range(players):
        played_now = (other - leader) % players < placed
        need[other] = 0 if other == seat else tricks_left - played_now - (other == holder)
        allowed[other] = _ZERO if other == seat else may_hold[other] & unseen
    for _ in range(samples):
        for other in range(players):
            world[other] = hand if other == seat else (shown if other == holder else _ZERO)
        state = sample_world(unseen, need[:players], allowed[:players], world[:players], state, ints, held)
        rest = legal
        for c in range(choices):
            card = lowest_bit(rest)
            rest &= rest - _ONE
            for other in range(players):
                hands[other] = world[other]
                outcome[other] = won[other]
            bit = _ONE << np.uint64(card)
            hands[seat] ^= bit
            after = place_card(bit, seat, led, beat, winner, trumps)
            finish_greedy(hands[:players], trumps, leader, placed + 1, after[0], after[1], after[2], outcome[:players],
                          bids, play_rule)  # fmt: skip
            totals[c] += score[bids[seat], outcome[seat]]
    best = 0
    for c in range(1, choices):
        if totals[c] > totals[best]:
            best = c
    return nth_card(legal, best), state


# --- playing deals -------------------------------------------------------------------------------


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
    trump_bit = _ONE << np.uint64(trump_card)
    dealer = (leader - 1) % players
    gone = _ZERO if full else trump_bit  # the turned-up card is nobody's
    may_hold = masks[4]
    row = d if policies.shape[0] > 1 else 0  # one row of policies may serve every deal
    watched = False  # the public record is kept only when a pimc seat reads it
    for seat in range(0 if plain else players):
        may_hold[seat] = deck
        watched |= policies[row, seat] == POLICY_PIMC
    for t in range(tricks):
        led, beat, winner = _ZERO, ~_ZERO, leader
        if record:
            leaders[d, t] = leader
        seat = leader
        for j in range(players):
            hand = hands[seat]
            legal = legal_cards(hand, led, beat, follow, void)
            if legal & (legal - _ONE):
                state = next_state(state)
                policy = policies[row, seat]
                if policy == POLICY_RANDOM:
                    card = random_card(legal, state)
                elif plain or policy == POLICY_GREEDY:
                    card = greedy_card(legal, led, trumps, beat, won[d, seat] < bids[d, seat])
                else:
                    shown = trump_bit if full and seat != dealer and not gone & trump_bit else _ZERO
                    unseen = deck & ~(hand | gone | shown)
                    card, state = pimc_card(seat, hand, legal, trumps, unseen, shown, dealer if shown else -1, may_hold,
                                            j, led, beat, winner, won[d], bids[d], samples[row, seat], play_rule,
                                            score, state, ints, masks)  # fmt: skip
            else:
                card = lowest_bit(legal)
            bit = _ONE << np.uint64(card)
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


# --- seats and bidding positions -----------------------------------------------------------------


@jit
def seats_to_positions(by_seat, deals, out):
    """out[position, deal] = by_seat[deal, seat of that position] (position 0 = the dealer's left)."""
    players = by_seat.shape[1]
    for d in range(by_seat.shape[0]):
        seat = (deals[d] + 1) % players
        for q in range(players):
            out[q, d] = by_seat[d, seat]
            seat += 1
            if seat == players:
                seat = 0


@jit
def positions_to_seats(by_position, deals, out):
    """The inverse of ``seats_to_positions``: out[deal, seat] = by_position[position of that seat, deal]."""
    players = out.shape[1]
    for d in range(out.shape[0]):
        seat = (deals[d] + 1) % players
        for q in range(players):
            out[d, seat] = by_position[q, d]
            seat += 1
            if seat == players:
                seat = 0


# --- bidding ------------------------------------------------------------------------------------


@jit
def random_bids(seed, cards, deals, stream, forbidden, out):
    """out[deal] = a bid uniform among 0..cards less forbidden[deal] (-1: none), by the first uniform of ``stream``.

    The ``random`` strategy: floor(u * choices), stepping over the forbidden bid, with u as ``uniform_batch`` draws it.
    """
    for d in range(out.shape[0]):
        restricted = forbidden[d] >= 0
        bid = np.int64(
            np.floor(uniform(next_state(stream_state(seed, cards, deals[d], stream))) * (cards + 1 - restricted))
        )
        out[d] = bid + (restricted and bid >= forbidden[d])


@jit
def trumps_and_side_aces(hands, trump_card, aces, out):
    """out[deal] = the trumps in hands[deal] plus its ``aces`` (a mask) of the other suits (``AcesTrumps``)."""
    for d in range(hands.shape[0]):
        trumps = suit_cards(trump_card[d] >> 4)
        out[d] = popcount(hands[d] & trumps) + popcount(hands[d] & aces & ~trumps)


@jit
def nearest_legal_bids(estimates, cards, forbidden, out):
    """out[deal] = ``nearest_legal`` of estimates[deal] (float64) under 0..cards and forbidden[deal]; -1 for NaN."""
    for d in range(out.shape[0]):
        estimate = estimates[d]
        if np.isnan(estimate):  # no bid: the engine's check reports it
            out[d] = -1
            continue
        bid = np.int64(min(max(np.floor(estimate + 0.5), 0.0), np.float64(cards)))
        if bid == forbidden[d]:
            step = 1 if estimate >= bid else -1
            bid = bid - step if not 0 <= bid + step <= cards else bid + step
        out[d] = bid


@jit
def illegal_bids(bids, cards, forbidden):
    """``(first bid outside 0..cards, first bid equal to forbidden[deal])``, as deal indices, -1 for none."""
    outside = hooked = -1
    for d in range(bids.shape[0]):
        if outside < 0 and not 0 <= bids[d] <= cards:
            outside = d
        if hooked < 0 and bids[d] == forbidden[d]:
            hooked = d
    return outside, hooked


@jit
def best_legal_bids(points, forbidden, out):
    """out[deal] = the bid with the most points[deal, bid], never forbidden[deal] (the lower bid on ties)."""
    for d in range(points.shape[0]):
        best = -1
        for b in range(points.shape[1]):
            if b != forbidden[d] and (best < 0 or points[d, b] > points[d, best]):
                best = b
        out[d] = best


# --- the expected strategy ------------------------------------------------------------------------


@jit
def suit_lanes(hands, out):
    """out[deal, suit] = the cards of that suit in hands[deal], as a strength mask (``BidContext.lanes``)."""
    for d in range(hands.shape[0]):
        for suit in range(4):
            out[d, suit] = lane(hands[d], suit)


@jit
def unseen_lanes(lanes, trump_card, deck_lane, turned, out):
    """out[deal, suit] = the strengths of ``deck_lane`` not in lanes[deal, suit], nor the trump card when ``turned``."""
    for d in range(lanes.shape[0]):
        for suit in range(4):
            out[d, suit] = np.uint64(deck_lane) & ~lanes[d, suit]
        if turned:
            out[d, trump_card[d] >> 4] &= ~(_ONE << np.uint64(trump_card[d] & 15))


@jit
def spread_by_four(lane16):
    """The 16 bits of a lane moved to every fourth bit of a uint64 (bit i to bit 4 i)."""
    x = lane16 & _LANE
    x = (x ^ (x << np.uint64(24))) & np.uint64(0x000000FF000000FF)
    x = (x ^ (x << np.uint64(12))) & np.uint64(0x000F000F000F000F)
    x = (x ^ (x << np.uint64(6))) & np.uint64(0x0303030303030303)
    return (x ^ (x << np.uint64(3))) & np.uint64(0x1111111111111111)


@jit
def expected_sums(lanes, unseen, trump, survive, not_ruffed, out):
    """out[deal] = sum over the held cards of survive[stronger unseen, guards] * (its suit's chance not to be ruffed).

    lanes, unseen uint64[deal, suit]: strength masks of the hand and of the unseen cards; trump
    int64[deal]: the trump suit; survive float64[h, g]; not_ruffed float64[unseen of the suit,
    unseen trumps] for the plain suits (1 for trumps). The terms are added as numpy added them,
    suits in order within a strength, then strengths in order, so bids match to the last bit. A
    card not held added 0.0 there, so only the held cards are visited, in that order.
    """
    factors = np.empty(4)
    for d in range(lanes.shape[0]):
        trumps_unseen = popcount(unseen[d, trump[d]])
        held = _ZERO  # the hand in strength-major order: bit 4 * strength + suit
        for suit in range(4):
            factors[suit] = 1.0 if suit == trump[d] else not_ruffed[popcount(unseen[d, suit]), trumps_unseen]
            held |= spread_by_four(lanes[d, suit]) << np.uint64(suit)
        total = row = 0.0
        current = 0
        while held:  # the held cards, strengths in order and suits in order within one
            index = lowest_bit(held)
            held &= held - _ONE
            strength, suit = index >> 2, index & 3
            if strength != current:  # a strength's terms are summed, then added to the total
                total += row
                row = 0.0
                current = strength
            shift = np.uint64(strength)
            stronger = popcount(unseen[d, suit] >> (shift + _ONE))
            guards = popcount(lanes[d, suit] & ((_ONE << shift) - _ONE))
            row += survive[stronger, guards] * factors[suit]
        out[d] = total + row


# --- Monte Carlo bidding ------------------------------------------------------------------------


@jit
def sample_completions(seed, cards, deals, position, own_hands, trump_card, deck, out_hands):
    """Deal the cards a bidder cannot see to the other seats, ``samples`` ways per deal.

    deals int64[deal] (the dealer is ``deal % players``); position: the bidder's bidding position
    (0 = first); own_hands uint64[deal]; trump_card int64[deal]; deck int64[deck_size].
    out_hands uint64[deal * samples, seat]: row ``d * samples + s`` is sample s of deal d, the
    bidder's own hand in its seat. The turned-up trump card is dealt to nobody; in a full deal it
    stays in the dealer's hand. Draws come from stream STREAM_SAMPLE of each deal.
    """
    players = out_hands.shape[1]
    samples = out_hands.shape[0] // max(own_hands.shape[0], 1)
    size = deck.shape[0]
    full = cards * players == size
    unseen = np.empty(size, np.int64)
    for d in range(own_hands.shape[0]):
        dealer = deals[d] % players
        bidder = (dealer + 1 + position) % players
        trump_bit = _ONE << np.uint64(trump_card[d])
        dealer_holds_trump = full and bidder != dealer
        count = 0
        for c in range(size):
            bit = _ONE << np.uint64(deck[c])
            if not (own_hands[d] & bit) and bit != trump_bit:
                unseen[count] = deck[c]
                count += 1
        state = stream_state(seed, cards, deals[d], STREAM_SAMPLE)
        for s in range(samples):
            row = d * samples + s
            for seat in range(players):
                out_hands[row, seat] = _ZERO
            out_hands[row, bidder] = own_hands[d]
            if dealer_holds_trump:
                out_hands[row, dealer] = trump_bit
            j = 0
            for seat in range(players):
                if seat == bidder:
                    continue
                need = cards - 1 if (dealer_holds_trump and seat == dealer) else cards
                for _ in range(need):  # partial Fisher-Yates over the unseen cards
                    state = next_state(state)
                    r = j + below(state, count - j)
                    unseen[j], unseen[r] = unseen[r], unseen[j]
                    out_hands[row, seat] |= _ONE << np.uint64(unseen[j])
                    j += 1


@jit_inline
def copy_deal(from_hands, from_won, hands, won):
    """Copy a deal in play (hands uint64[seat], won int64[1, seat]) into other arrays."""
    for seat in range(hands.shape[0]):
        hands[seat] = from_hands[seat]
        won[0, seat] = from_won[seat]


@jit
def rollout_counts(seed, cards, deals, position, hands, trump_card, deck, bids, play_rule, policy, counts):
    """Play every sampled deal out once per candidate bid of the bidder, every seat by ``policy``; count its tricks.

    hands uint64[deal * samples, seat] and bids int64[deal * samples, seat] (the bidder's own entry
    is replaced by each candidate); trump_card int64[deal]; deck uint64: the deck as a mask;
    policy: random or greedy. counts int64[deal, bid, tricks] gets,
    per deal and candidate bid 0..k, how many samples the bidder took each number of tricks in.
    Under the random policy bids do not change the play: each sample is played once for all bids.
    Under greedy, a bidder with bid b plays as one short of its bid until it has won b tricks and
    as one that made it from then on: so bids 1..k share one line of play (bid above k), each bid
    branching off after the trick that brings the bidder to it. The same play-outs as one per bid,
    for about a third of the tricks.
    """
    players = hands.shape[1]
    samples = hands.shape[0] // max(trump_card.shape[0], 1)
    line, branch = np.empty(players, np.uint64), np.empty(players, np.uint64)
    won, branch_won = np.empty((1, players), np.int64), np.empty((1, players), np.int64)
    row_bids = np.empty((1, players), np.int64)
    no_plays = np.empty((0, 0, 0), np.int64)
    no_leaders = np.empty((0, 0), np.int64)
    policies = np.full((1, players), policy, np.int64)
    no_samples = np.zeros((1, players), np.int64)
    no_score = np.zeros((cards + 1, cards + 1), np.int64)
    no_won = np.zeros(players, np.int64)
    ints, masks = scratch()
    full = cards * players == popcount(deck)
    for d in range(trump_card.shape[0]):
        mano = (deals[d] + 1) % players
        bidder = (mano + position) % players
        state = stream_state(seed, cards, deals[d], STREAM_ROLLOUT)
        for s in range(samples):
            row = d * samples + s
            for seat in range(players):  # (not a slice assignment: slower in numba)
                row_bids[0, seat] = bids[row, seat]
            copy_deal(hands[row], no_won, line, won)
            row_bids[0, bidder] = 0
            state, _ = play_deal(0, line, trump_card[d], full, deck, mano, cards, row_bids, play_rule, policies,
                                 no_samples, no_score, state, won, no_plays, no_leaders, ints, masks, True)  # fmt: skip
            if policy == POLICY_RANDOM:
                for every in range(cards + 1):
                    counts[d, every, won[0, bidder]] += 1
                continue
            counts[d, 0, won[0, bidder]] += 1
            copy_deal(hands[row], no_won, line, won)
            leader = mano
            for t in range(cards):  # the line, a trick at a time
                row_bids[0, bidder] = cards + 1
                state, leader = play_deal(0, line, trump_card[d], full, deck, leader, 1, row_bids, play_rule,
                                          policies, no_samples, no_score, state, won, no_plays, no_leaders, ints,
                                          masks, True)  # fmt: skip
                if leader == bidder:  # it took the trick: its bid of won[0, bidder] branches off, made
                    copy_deal(line, won[0], branch, branch_won)
                    row_bids[0, bidder] = won[0, bidder]
                    state, _ = play_deal(0, branch, trump_card[d], full, deck, leader, cards - 1 - t, row_bids,
                                         play_rule, policies, no_samples, no_score, state, branch_won, no_plays,
                                         no_leaders, ints, masks, True)  # fmt: skip
                    counts[d, won[0, bidder], branch_won[0, bidder]] += 1
            for bid in range(won[0, bidder] + 1, cards + 1):  # bids the line never reached: it is their play-out
                counts[d, bid, won[0, bidder]] += 1


# --- statistics ----------------------------------------------------------------------------------


@jit
def tally_plays(deals, size_index, seating, bids, won, points, board, hand_fields, errors):
    """Add one play of a batch of deals to integer accumulators (exact, so chunks merge in any order).

    deals int64[deal] (fixes the dealer); seating int64[deal, seat]: the strategy of each seat;
    bids, won, points int64[deal, seat]. Per board (the deal, over all its plays):
    board int64[deal, strategy, position + 1, 3] gets each strategy's points, hands and exact bids
    by bidding position (0 = first bidder), the last position slot for all positions.
    hand_fields int64[strategy, position, size, 4]: sums of exact (0/1), bid, won and |won - bid|
    (``pocha.tally.HAND_FIELDS``); errors int64[strategy, size, won - bid + k_max].
    """
    players = bids.shape[1]
    every = board.shape[2] - 1
    offset = errors.shape[2] // 2
    for d in range(bids.shape[0]):
        mano = (deals[d] + 1) % players
        for s in range(players):
            g = seating[d, s]
            position = s - mano if s >= mano else s - mano + players
            b = bids[d, s]
            w = won[d, s]
            for slot in (position, every):
                board[d, g, slot, 0] += points[d, s]
                board[d, g, slot, 1] += 1
                board[d, g, slot, 2] += b == w
            hand_fields[g, position, size_index, 0] += b == w
            hand_fields[g, position, size_index, 1] += b
            hand_fields[g, position, size_index, 2] += w
            hand_fields[g, position, size_index, 3] += abs(w - b)
            errors[g, size_index, w - b + offset] += 1


@jit
def close_boards(size_index, board, moments, cross):
    """Add finished boards to the moments: per (strategy, position) sums of T, T^2, H, H^2, T*H, E, E^2, E*H.

    board int64[board, strategy, position + 1, 3]: points T, hands H and exact bids E, as
    ``tally_plays`` fills it. moments int64[8, strategy, position + 1, size] (``pocha.tally.MOMENTS``);
    cross int64[size, strategy, strategy] gets T_a * T_b over all positions (the last slot).
    """
    boards, strategies, slots = board.shape[0], board.shape[1], board.shape[2]
    for g in range(strategies):
        for p in range(slots):
            sums = np.zeros(8, np.int64)
            for d in range(boards):
                t = board[d, g, p, 0]
                h = board[d, g, p, 1]
                e = board[d, g, p, 2]
                sums[0] += t
                sums[1] += t * t
                sums[2] += h
                sums[3] += h * h
                sums[4] += t * h
                sums[5] += e
                sums[6] += e * e
                sums[7] += e * h
            for m in range(8):
                moments[m, g, p, size_index] += sums[m]
        for other in range(strategies):
            products = 0
            for d in range(boards):
                products += board[d, g, slots - 1, 0] * board[d, other, slots - 1, 0]
            cross[size_index, g, other] += products
