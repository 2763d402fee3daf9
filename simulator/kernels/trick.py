"""The trick and the play rules.

A trick in progress is three numbers: ``led``, the led suit's cards (0 before the lead), ``beat``,
every card that would take the lead of the trick as it stands (all cards before the lead), and
the seat now winning it. One mask answers both "which cards are legal" and "does this card win".
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import LANE_MASK, ONE, ZERO, lowest_bit
from pocha.kernels.codes import NO_TRUMP, PLAY_FOLLOW, PLAY_POCHA, PLAY_POCHA_TRUMP_LEAD_FREE
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
        follow = ~ZERO
    elif play_rule == PLAY_POCHA_TRUMP_LEAD_FREE:
        follow = ~trumps
    else:
        follow = ZERO
    return follow, ZERO if play_rule == PLAY_FOLLOW else ~ZERO


@jit_inline
def legal_cards(hand, led, beat, follow, void):
    """Cards of ``hand`` that may be played to a trick (``led``, ``beat``) under the rule's ``duties``.

    A hand holding the led suit follows it, else plays any card; of those, it plays one that
    beats the trick when it can and the duty mask holds it.
    """
    if led == ZERO:
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
    bit = ONE << np.uint64(card)
    if led == ZERO:
        return ZERO
    if bit & led:
        return led & beat if bound_to_beat(led, trumps, play_rule) and not bit & beat else ZERO
    if play_rule == PLAY_FOLLOW or bit & beat:
        return led
    return led | (trumps & beat)
