"""Cards: the Spanish and French packs (``1O 12C``, ``AS 10D``), their notation, and ids ``suit * 16 + strength``.

The strength of a rank depends on the rule set's deck (its ranks, strongest first): 0 is the
weakest rank present. So the same text names different ids under different rank orders.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pocha.errors import PochaError

LANE_BITS = 16  # bits per suit in a hand mask
SUIT_COUNT = 4


@dataclass(frozen=True)
class Pack:
    """A kind of deck: its suits, the names of its ranks, its rank orders and the sizes it is stripped to."""

    name: str
    suits: str  # suit letters in id order
    suit_words: tuple[str, ...]
    symbols: str  # suit symbols in id order, for terminals that show them ("" where there are none)
    rank_names: dict[int, str]  # every rank number of the whole pack -> its notation
    rank_orders: dict[str, tuple[int, ...]]  # name -> every rank, strongest first
    default_order: str  # the rank order a rule set takes when it names none for this pack
    ace: int  # the ace's rank number
    usual: tuple[int, ...]  # the ranks of the usual deck, which smaller decks strip weakest first
    example: str  # cards in notation, for messages

    @property
    def title(self) -> str:
        """The pack's name as a sentence writes it: ``French``."""
        return self.name.capitalize()

    @property
    def full_size(self) -> int:
        """Cards in the whole pack."""
        return SUIT_COUNT * len(self.rank_names)

    def sizes(self) -> list[int]:
        """Every deck size this pack is played at: the whole pack, then the usual deck stripped rank by rank."""
        return sorted({self.full_size, *range(SUIT_COUNT, SUIT_COUNT * len(self.usual) + 1, SUIT_COUNT)}, reverse=True)

    def deck_ranks(self, order: str, size: int) -> tuple[int, ...]:
        """Ranks of a deck of ``size`` cards in a rank order, strongest first.

        The whole pack holds every rank; smaller decks are the usual deck (Spanish: 40 cards, no 8s
        and 9s; French: all 52) without whole ranks, weakest first (Spanish 36: no 2s).
        """
        ranks = self.rank_orders[order]
        if size == self.full_size:
            return ranks
        if size not in self.sizes():
            sizes = self.sizes()
            raise PochaError(
                f"deck: no {size}-card {self.title} deck; sizes are {sizes[0]}, or {sizes[1]} down to 4 "
                "in steps of 4, or give ranks"
            )
        return tuple(r for r in ranks if r in self.usual)[: size // SUIT_COUNT]

    def parse_rank(self, text: str) -> int:
        """Rank number of a rank as written (``10``, ``T``, ``K``, ``12``), case-insensitive."""
        word = text.strip().upper()
        for rank, name in self.rank_names.items():
            if word in (name, self.aliases.get(name)):
                return rank
        ranks = " ".join(self.rank_names.values())
        raise PochaError(f"'{text}' is not a rank of the {self.title} pack; ranks: {ranks}")

    def parse_suit(self, text: str) -> int:
        """Suit index of a suit as written: its letter, symbol or word (``O``, ``oros``, ``H``, ``♥``), any case."""
        word = text.strip().upper()
        for index, (letter, name) in enumerate(zip(self.suits, self.suit_words, strict=True)):
            if word in (letter, name.upper()) or (self.symbols and word == self.symbols[index]):
                return index
        suits = " ".join(f"{letter} ({name})" for letter, name in zip(self.suits, self.suit_words, strict=True))
        raise PochaError(f"'{text}' is not a suit of the {self.title} pack; suits: {suits}")

    def reads(self, text: str) -> bool:
        """Whether a card written as ``text`` (upper case) is one of this pack's."""
        suit, rank = text[-1:], text[:-1]
        names = {*self.rank_names.values(), *self.aliases.values()}
        return bool(suit) and suit in self.suits + self.symbols and rank in names

    @cached_property
    def aliases(self) -> dict[str, str]:
        """Other ways players write a rank: ``T`` for the French ten."""
        return {"10": "T"} if "J" in self.rank_names.values() else {}


PACKS = {
    pack.name: pack
    for pack in (
        Pack(
            name="spanish",
            suits="OCEB",
            suit_words=("oros", "copas", "espadas", "bastos"),
            symbols="",
            rank_names={rank: str(rank) for rank in range(1, 13)},  # 8 and 9 only in the 48-card deck
            rank_orders={
                "ace-three": (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2),
                "natural": (1, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2),
            },
            default_order="ace-three",
            ace=1,
            usual=(1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
            example="1O 3O 12C 5E 2B",
        ),
        Pack(
            name="french",
            suits="SHDC",
            suit_words=("spades", "hearts", "diamonds", "clubs"),
            symbols="\u2660\u2665\u2666\u2663",
            rank_names={rank: str(rank) for rank in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"},
            rank_orders={"natural": (14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)},
            default_order="natural",
            ace=14,
            usual=tuple(range(2, 15)),
            example="AS KH 10D 2C 7C",
        ),
    )
}


@dataclass(frozen=True)
class Notation:
    """A deck's cards as players write them: ids to text and back, for one pack and its ranks strongest first.

    >>> from pocha.game.presets import make_rules
    >>> notation = make_rules("ludoteka").notation  # the 40 Spanish cards, ace and three strongest
    >>> notation.parse_list("1o 3o 12e"), notation.name(9)
    ([9, 8, 39], '1O')
    """

    pack: Pack
    ranks: tuple[int, ...]

    def strength(self, rank: int) -> int:
        """Strength of a rank in this deck (0 = weakest)."""
        return len(self.ranks) - 1 - self.ranks.index(rank)

    def card_id(self, rank: int, suit: int) -> int:
        """Integer id of a card of this deck."""
        return suit * LANE_BITS + self.strength(rank)

    def rank_of(self, card: int) -> int:
        """Rank number of a card id."""
        return self.ranks[len(self.ranks) - 1 - card % LANE_BITS]

    def name(self, card: int, symbols: bool = False) -> str:
        """Notation of a card id, rank then suit (``12C``, ``10D``); with ``symbols``, the pack's suit symbols."""
        suits = self.pack.symbols if symbols and self.pack.symbols else self.pack.suits
        return f"{self.pack.rank_names[self.rank_of(card)]}{suits[suit_of(card)]}"

    def names(self, cards: Iterable[int], symbols: bool = False) -> str:
        """Cards in notation separated by spaces."""
        return " ".join(self.name(card, symbols) for card in cards)

    def suit_word(self, card: int) -> str:
        """The word for a card's suit (``oros``, ``spades``)."""
        return self.pack.suit_words[suit_of(card)]

    def parse(self, text: str) -> int:
        """Card id of a notation such as ``1o``, ``10B``, ``AS``, ``th`` or ``Q♥`` (case-insensitive) in this deck."""
        cleaned = text.strip().upper()
        rank_text, suit = cleaned[:-1], cleaned[-1:]
        suit_index = (self.pack.suits + self.pack.symbols).find(suit) if suit else -1
        if suit_index < 0 or not rank_text:
            other = next((pack for pack in PACKS.values() if pack.reads(cleaned)), None)
            hint = f"; a {other.title} card needs the {other.title} pack (--deck {other.name})" if other else ""
            raise PochaError(
                f"'{text}' is not a card: write rank then suit, e.g. {self.pack.example} "
                f"(suits {' '.join(self.pack.suits)}){hint}"
            )
        try:
            rank = self.pack.parse_rank(rank_text)
        except PochaError as error:
            raise PochaError(f"'{text}' is not a card: {error}") from None
        if rank not in self.ranks:
            present = " ".join(self.pack.rank_names[r] for r in self.ranks)
            raise PochaError(f"'{text}' is not in this deck: its ranks are {present}")
        return self.card_id(rank, suit_index % SUIT_COUNT)

    def parse_list(self, text: str) -> list[int]:
        """Card ids of a list of cards separated by spaces or commas."""
        return [self.parse(word) for word in text.replace(",", " ").split()]

    def describe(self) -> str:
        """The deck in words: size, pack, ranks strongest first (and their order's name), suits."""
        orders = self.pack.rank_orders.items()
        matching = [name for name, ranks in orders if [r for r in ranks if r in self.ranks] == [*self.ranks]]
        order = " and ".join(matching) + (" alike" if len(matching) > 1 else "") if matching else "as given"
        ranks = " ".join(self.pack.rank_names[r] for r in self.ranks)
        suits = ", ".join(
            f"{letter} {word}" for letter, word in zip(self.pack.suits, self.pack.suit_words, strict=True)
        )
        size = SUIT_COUNT * len(self.ranks)
        return f"{size} cards ({self.pack.title} pack): ranks {ranks} (strongest first, {order}); suits {suits}"


def suit_of(card: int) -> int:
    """Suit index (0..3, in the pack's suit order) of a card id."""
    return card // LANE_BITS


def deck_ids(ranks: Sequence[int]) -> np.ndarray:
    """All card ids of a deck of these ranks, int64, suit by suit."""
    strongest_first = range(len(ranks) - 1, -1, -1)
    return np.array(
        [suit * LANE_BITS + strength for suit in range(SUIT_COUNT) for strength in strongest_first], np.int64
    )


def mask_of(ids: Iterable[int]) -> int:
    """Hand bitmask of card ids."""
    mask = 0
    for card in ids:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids of a hand bitmask, sorted by suit then strongest first (the order hands are shown in).

    >>> cards_of(mask_of([0, 15, 16]))  # a suit is a 16-bit lane, its strongest card the highest bit
    [15, 0, 16]
    """
    mask = int(mask)
    ids = [bit for bit in range(SUIT_COUNT * LANE_BITS) if mask >> bit & 1]
    return sorted(ids, key=lambda card: (suit_of(card), -card))
