"""The trick and the play rules.

A trick in progress is three numbers: ``led``, the led suit's cards not on the trick (0 before the
lead), ``beat``, every card that would take the lead of the trick as it stands (all cards before the
lead), and the seat now winning it. One mask answers both "which cards are legal" and "does this
card win". A suit has at most 13 cards in its 16-bit lane, so ``led`` keeps the lane's top bits
(no card's) and never empties; the led suit's cards on the trick are the lane's other bits.
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import LANE_MASK, ONE, ZERO, highest_bit, lowest_bit, unlikely
from pocha.kernels.codes import (
    NO_TRUMP,
    PLAY_FOLLOW,
    PLAY_POCHA,
    PLAY_POCHA_ALWAYS_BEAT,
    PLAY_POCHA_TRUMP_LEAD_FREE,
)
from pocha.kernels.jit import jit, jit_inline


class Trick(NamedTuple):
    """A trick in progress with what it is read against: the sampling play hands it on whole.

    trumps uint64: the trump suit's cards; leader: the seat that led it; placed: how many cards are
    on it; led, beat, winner: as above.
    """

    trumps: np.uint64
    leader: int
    placed: int
    led: np.uint64
    beat: np.uint64
    winner: int


@jit
def suit_cards(suit):
    """Every card of one suit, as a mask."""
    return LANE_MASK << np.uint64(16 * suit)


@jit
def trump_masks(trump_card):
    """``(trumps, card)``: every card of the trump suit and the trump card itself, as masks; both 0 for NO_TRUMP.

    The kernels read a deal's trump through here: a deal without trump is one whose trump mask is empty.
    """
    if trump_card == NO_TRUMP:
        return ZERO, ZERO
    return suit_cards(trump_card >> 4), ONE << np.uint64(trump_card)


@jit_inline
def beat_mask(bit, led, trumps):
    """The cards that beat ``bit``, the card winning the trick: higher trumps; for a led-suit card also every trump."""
    higher = ZERO - (bit << ONE)
    trump = ZERO - np.uint64(bit & trumps != ZERO)  # all ones for a trump (no branch: it would be mispredicted)
    return (((trumps & trump) | (led & ~trump)) & higher) | (trumps & ~trump)


@jit_inline
def place_card(bit, seat, led, beat, winner, trumps):
    """Put card ``bit`` of ``seat`` on the trick: ``(led, beat, winner)`` after it."""
    if led == ZERO:
        led = LANE_MASK << np.uint64(lowest_bit(bit) & 48)
    wins = ZERO - np.uint64(bit & beat != ZERO)
    return led & ~bit, (beat_mask(bit, led, trumps) & wins) | (beat & ~wins), seat if wins else winner


@jit_inline
def led_lane(led):
    """Every card of the led suit, those on the trick included (``led`` after the lead)."""
    return LANE_MASK << np.uint64(highest_bit(led) & 48)


@jit_inline
def above_led(led):
    """The led suit's cards above every card of it on the trick (``led`` after the lead), whoever takes the trick."""
    best = highest_bit(led_lane(led) ^ led)
    return led & (ZERO - (ONE << np.uint64(best + 1)))


class Duties(NamedTuple):
    """A play rule as masks the play loop ANDs, worked out once a deal (random play 4% faster than comparisons).

    follow: the led suits whose followers must beat the trick when they can (all under pocha and
    pocha-always-beat, all but trumps under pocha-trump-lead-free, none under trump and follow).
    void: every card but under follow (a void hand ruffs with a trump that beats the trick if it
    can). trumped: every card under pocha-always-beat, whose followers beat the led suit's best card
    even once a trump takes the trick; else none.
    """

    follow: np.uint64
    void: np.uint64
    trumped: np.uint64


@jit_inline
def duties(trumps, play_rule):
    """The ``Duties`` of a play rule (PLAY_CODES) in a deal whose trump suit is ``trumps``."""
    if play_rule in (PLAY_POCHA, PLAY_POCHA_ALWAYS_BEAT):
        follow = ~ZERO
    elif play_rule == PLAY_POCHA_TRUMP_LEAD_FREE:
        follow = ~trumps
    else:
        follow = ZERO
    void = ZERO if play_rule == PLAY_FOLLOW else ~ZERO
    return Duties(follow, void, ~ZERO if play_rule == PLAY_POCHA_ALWAYS_BEAT else ZERO)


@jit_inline
def legal_cards(hand, led, beat, duty):
    """Cards of ``hand`` that may be played to a trick (``led``, ``beat``) under the deal's ``Duties``.

    A hand holding the led suit follows it, else plays any card; of those, it plays one that beats
    the trick when it can and the duty mask holds it. Under pocha-always-beat a follower then keeps
    to the cards above the led suit's best card, if it holds any (a trump may have taken the trick).
    That test comes last, on its own predicted branch (``unlikely``): the rest stays free of
    branches (as a select, the test cost the other rules up to 6% of ``pocha bench --stages``'s
    play stage; as a branch, about 2%).
    """
    if led == ZERO:
        return hand
    following = hand & led
    if following:
        cards, beating = following, following & beat & duty.follow
    else:
        cards, beating = hand, hand & beat & duty.void
    legal = beating if beating else cards
    if unlikely(duty.trumped != ZERO):
        higher = legal & above_led(led)
        legal = higher if higher else legal
    return legal


@jit_inline
def legal_mask(hand, led, trumps, beat, play_rule):
    """Cards of ``hand`` that may be played to a trick (``led``, ``beat``; trump suit ``trumps``) under a play rule.

    (The play loops call ``legal_cards`` with the ``duties`` of their deal.)
    """
    return legal_cards(hand, led, beat, duties(trumps, play_rule))


@jit_inline
def revealed(card, led, trumps, beat, play_rule):
    """The cards a hand can no longer hold, shown by the legal ``card`` it played to a trick (``led``, ``beat``).

    Not following suit shows a void in the led suit; then, unless it beat the trick with a trump, no
    trump that beats it (the hand had to ruff). Following without a card it had to play when it
    held one shows it holds none: the cards that beat the trick where the rule binds the led suit's
    followers, and under pocha-always-beat the led suit's cards above its best card on the trick.
    """
    bit = ONE << np.uint64(card)
    if led == ZERO:
        return ZERO
    duty = duties(trumps, play_rule)
    if bit & led:
        bound = above_led(led) if duty.trumped else led & beat & duty.follow
        return ZERO if bit & bound else bound
    lane = led_lane(led)
    return lane if bit & beat else lane | (trumps & beat & duty.void)


@jit
def distinct_cards(legal, others, beat):
    """The lowest card of each run of equivalent ``legal`` cards: the ones a choice needs to weigh.

    Two cards of one suit are equivalent when no card of ``others`` (the unplayed cards the hand does
    not hold) lies between them and both take the lead of the trick or neither does (``beat``; a
    card on the trick between them is the winning one or no longer matters): whatever the others
    hold and play, either takes the same tricks. The lowest stands for its run, as the lowest card
    wins a tie (a greedy play-out may still part them: its later choices compare ranks across suits).
    """
    kept = last = ZERO  # last: the legal card before, as a bit
    rest = legal
    while rest:
        bit = rest & (ZERO - rest)
        rest ^= bit
        between = (bit - ONE) & ~(last | (last - ONE))  # nothing when there is no card before
        joins = (
            last != ZERO
            and lowest_bit(bit) >> 4 == lowest_bit(last) >> 4
            and others & between == ZERO
            and (beat & bit == ZERO) == (beat & last == ZERO)
        )
        if not joins:
            kept |= bit
        last = bit
    return kept
