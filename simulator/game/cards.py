"""Spanish cards in notation (``1O``, ``12C``) and as integer ids ``suit * 16 + strength``.

The strength of a rank depends on the rule set's deck (its ranks, strongest first): 0 is the
weakest rank present. So the same text names different ids under different rank orders.
"""

from collections.abc import Iterable, Sequence

import numpy as np

from pocha.errors import PochaError

SUITS = "OCEB"
SUIT_WORDS = ("oros", "copas", "espadas", "bastos")
RANKS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)  # 8 and 9 exist only in the 48-card deck
LANE_BITS = 16  # bits per suit in a hand mask


def strength(rank: int, ranks: Sequence[int]) -> int:
    """Strength of a rank in a deck given strongest first (0 = weakest)."""
    return len(ranks) - 1 - list(ranks).index(rank)


def card_id(rank: int, suit: int, ranks: Sequence[int]) -> int:
    """Integer id of a card of this deck."""
    return suit * LANE_BITS + strength(rank, ranks)


def rank_of(card: int, ranks: Sequence[int]) -> int:
    """Rank number of a card id."""
    return ranks[len(ranks) - 1 - card % LANE_BITS]


def suit_of(card: int) -> int:
    """Suit index (0..3, as in ``SUITS``) of a card id."""
    return card // LANE_BITS


def card_name(card: int, ranks: Sequence[int]) -> str:
    """Notation of a card id: rank number then suit letter, e.g. ``12C``."""
    return f"{rank_of(card, ranks)}{SUITS[suit_of(card)]}"


def parse_card(text: str, ranks: Sequence[int]) -> int:
    """Card id of a notation such as ``1o`` or ``10B`` (case-insensitive) in this deck."""
    cleaned = text.strip().upper()
    rank_text, suit = cleaned[:-1], cleaned[-1:]
    if suit not in SUITS or not rank_text.isdigit():
        raise PochaError(f"'{text}' is not a card: write rank then suit, e.g. 1O, 3C, 10E, 12B (suits O C E B)")
    rank = int(rank_text)
    if rank not in ranks:
        present = ", ".join(str(r) for r in sorted(ranks))
        raise PochaError(f"'{text}' is not in this deck: its ranks are {present}")
    return card_id(rank, SUITS.index(suit), ranks)


def parse_cards(text: str, ranks: Sequence[int]) -> list[int]:
    """Card ids of a list of cards separated by spaces or commas."""
    return [parse_card(word, ranks) for word in text.replace(",", " ").split()]


def deck_ids(ranks: Sequence[int]) -> np.ndarray:
    """All card ids of the deck, int64, suit by suit."""
    return np.array([card_id(r, s, ranks) for s in range(len(SUITS)) for r in ranks], dtype=np.int64)


def mask_of(ids: Iterable[int]) -> int:
    """Hand bitmask of card ids."""
    mask = 0
    for card in ids:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids of a hand bitmask, sorted by suit then strongest first (the order hands are shown in)."""
    mask = int(mask)
    ids = [bit for bit in range(len(SUITS) * LANE_BITS) if mask >> bit & 1]
    return sorted(ids, key=lambda card: (suit_of(card), -card))
