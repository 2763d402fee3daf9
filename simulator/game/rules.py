"""The rule set: one frozen, validated, serialisable dataclass, the options it takes, and the hook and trick rules.

Every option is data: a preset (``pocha.game.presets``) differs from another only in the values it
gives, and its scoring is a ``pocha.game.scoring.Scoring``; no code asks which preset it is running.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Any

import numpy as np

from pocha.errors import PochaError
from pocha.game.cards import PACKS, Notation, deck_ids
from pocha.game.scoring import Scoring
from pocha.words import did_you_mean

PLAY_RULES = {  # name -> the duties it sets (README, "What it simulates")
    "pocha": "follow suit and beat the led suit's best card unless a trump is on a plain-suit trick "
    "(a trump lead must be beaten); void: trump, over-trumping any trump on the trick",
    "pocha-trump-lead-free": "as pocha, but followers of a trump lead need not beat it "
    '("unless someone has trumped" of texts 003 and 004 read literally)',
    "pocha-always-beat": "as pocha, but followers beat the led suit's best card even once a trump is on the trick "
    "(the duty of texts 000 and 001, stated without exception)",
    "trump": "follow suit, no duty to beat; void: trump, over-trumping any trump on the trick",
    "follow": "follow suit; void: any card (plain Oh Hell)",
}
HOOK_RULES = ("except-one-card", "always", "never")
SCHEDULES = {  # name -> the hand sizes of one game, max the full deal
    "full": "1 up to max-1, max once per player, then max-1 down to 1",
    "short": "1 up to max, ending at the first full deal",
    "up": "1 up to max-1, then max once per player, then stop",
    "full-only": "max once per player",
}
CLIMBING = ("full", "up")  # the schedules that climb to the full deal, then play FULL_DEALS of them
FULL_DEALS = {  # name -> how many full deals a CLIMBING schedule plays, n the players
    "n": "one per player, the one the climb reaches among them",
    "n+1": "the one the climb reaches, then one per player",
}
TIE_BREAKS = {  # name -> how tied leaders after the schedule are parted
    "all": "one-card hands for every player, every score counting, until one player leads",
    "tied": "one-card hands for every player until one of the tied players leads the others",
    "one": "a single one-card hand for every player; a tie after it stands and the win is shared",
}
FULL_DEAL_TRUMPS = {  # name -> what names trump when a deal takes the whole deck (no card is left to turn up)
    "dealer-card": "the dealer's last card names trump and stays in its hand, seen by all",
    "none": "no card is shown and no suit is trump; the highest card of the led suit takes each trick",
}
RANK_ORDERS = tuple(dict.fromkeys(name for pack in PACKS.values() for name in pack.rank_orders))  # every pack's


@dataclass(frozen=True)
class Rules:
    """The effective rules of a run, exactly the trace header's ``rules``."""

    players: int  # seats at the table, 0..players-1 in playing order
    ranks: tuple[int, ...]  # ranks present in each suit, strongest first (defines deck and strength)
    pack: str = "spanish"  # the kind of cards, a key of PACKS: its suits and the names of the ranks
    play_rule: str = "pocha"  # which cards are legal (card-play duties), a key of PLAY_RULES
    hook: str = "except-one-card"  # when the dealer may not make the bids sum to the hand size
    scoring: Scoring = field(default_factory=Scoring)  # points per hand
    schedule: str | tuple[int, ...] = "full"  # hand sizes of a whole game: a key of SCHEDULES, or the sizes
    tie_break: str = "all"  # how a whole game's tied leaders are parted, a key of TIE_BREAKS
    full_deal_trump: str = "dealer-card"  # what names trump in a deal of the whole deck, a key of FULL_DEAL_TRUMPS
    full_deals: str = "n"  # how many full deals a CLIMBING schedule plays, a key of FULL_DEALS

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", tuple(self.ranks))
        if not isinstance(self.schedule, str):
            object.__setattr__(self, "schedule", tuple(self.schedule))
        check_players(self.players)
        if self.pack not in PACKS:
            raise PochaError(f"pack: unknown '{self.pack}'; accepted: {', '.join(PACKS)}")
        names = PACKS[self.pack].rank_names
        if not self.ranks or len(set(self.ranks)) != len(self.ranks) or not set(self.ranks) <= set(names):
            written = ",".join(names.get(rank, str(rank)) for rank in self.ranks)
            raise PochaError(
                f"ranks: '{written}' is not a {PACKS[self.pack].title} deck: give distinct ranks of "
                f"{' '.join(names.values())}, strongest first"
            )
        if self.deck_size < self.players:
            raise PochaError(
                f"players: a deck of {self.deck_size} cards does not give {self.players} players a card each"
            )
        for name, allowed in (
            ("play_rule", PLAY_RULES),
            ("hook", HOOK_RULES),
            ("tie_break", TIE_BREAKS),
            ("full_deal_trump", FULL_DEAL_TRUMPS),
            ("full_deals", FULL_DEALS),
        ):
            value = getattr(self, name)
            if value not in allowed:
                hint = did_you_mean(value, allowed)
                raise PochaError(
                    f"{name.replace('_', '-')}: unknown rule '{value}'; {hint}accepted: {', '.join(allowed)}"
                )
        if isinstance(self.schedule, str):
            if self.schedule not in SCHEDULES:
                raise PochaError(
                    f"schedule: unknown '{self.schedule}'; {did_you_mean(self.schedule, SCHEDULES)}"
                    f"accepted: {', '.join(SCHEDULES)}, or hand sizes like 1,2,3"
                )
        elif not self.schedule:
            raise PochaError("schedule: a game needs at least one hand")
        else:
            for cards in self.schedule:
                self.check_cards(cards, "schedule")
        self.scoring.check_missing_pays_less(self.full_deal)
        if self.full_deals != "n" and self.schedule not in CLIMBING:
            written = self.schedule if isinstance(self.schedule, str) else ",".join(map(str, self.schedule))
            raise PochaError(
                f"full-deals: {self.full_deals} counts the full deals of the {' and '.join(CLIMBING)} schedules, "
                f"not of '{written}'; accepted with it: n"
            )

    @property
    def deck_size(self) -> int:
        """Cards in the deck."""
        return 4 * len(self.ranks)

    @property
    def full_deal(self) -> int:
        """Cards per player when the deal uses the whole deck (the largest hand)."""
        return self.deck_size // self.players

    def hand_sizes(self) -> list[int]:
        """Hand sizes of one game, in order, by the schedule (see SCHEDULES) and its full deals (FULL_DEALS)."""
        if not isinstance(self.schedule, str):
            return list(self.schedule)
        top = self.full_deal
        rising, full = list(range(1, top)), [top] * (self.players + (self.full_deals == "n+1"))
        return {
            "full": rising + full + rising[::-1],
            "short": [*rising, top],
            "up": rising + full,
            "full-only": full,
        }[self.schedule]

    def hook_applies(self, cards: int) -> bool:
        """Whether the dealer's bid is restricted in a hand of ``cards`` cards."""
        return self.hook == "always" or (self.hook == "except-one-card" and cards != 1)

    def has_trump(self, cards: int) -> bool:
        """Whether a deal of ``cards`` cards a player has a trump suit: all but a full deal under ``none``."""
        return self.full_deal_trump == "dealer-card" or cards * self.players < self.deck_size

    def check_cards(self, cards: int, what: str = "cards") -> None:
        """Refuse a hand size this deck cannot deal."""
        if not isinstance(cards, int) or not 1 <= cards <= self.full_deal:
            raise PochaError(
                f"{what}: {cards} is not a hand size here; {self.players} players with "
                f"{self.deck_size} cards take 1..{self.full_deal}"
            )

    def deck(self) -> np.ndarray:
        """Card ids of the deck (int64), as the kernels take it: a copy of ones worked out once (every chunk asks)."""
        return self._deck.copy()

    @cached_property
    def _deck(self) -> np.ndarray:
        """The deck's card ids (``deck`` hands out copies)."""
        return deck_ids(self.ranks)

    @cached_property
    def notation(self) -> Notation:
        """How this deck's cards are written and read (``1O``, ``AS``)."""
        return Notation(PACKS[self.pack], self.ranks)

    @cached_property
    def deck_mask(self) -> np.uint64:
        """The deck's cards as one mask (uint64)."""
        return np.uint64(sum(1 << int(card) for card in self.deck()))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (the trace header's ``rules``)."""
        data = asdict(self)
        data["ranks"] = list(self.ranks)
        if not isinstance(self.schedule, str):
            data["schedule"] = list(self.schedule)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Inverse of ``to_dict``; unknown keys are refused."""
        values = dict(data)
        if "play" in values and "play_rule" not in values:  # the name before pocha-trace/2
            values["play_rule"] = values.pop("play")
        known = {item.name for item in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise PochaError(f"rules: unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
        if "scoring" in values:
            values["scoring"] = Scoring(**values["scoring"])
        return cls(**values)


def check_players(players: object) -> None:
    """Refuse a player count below 2 (or not a whole number), before any deck is looked for it."""
    if not isinstance(players, int) or isinstance(players, bool) or players < 2:
        raise PochaError(f"players: must be a whole number of at least 2, not {players!r}")


def parse_sizes(text: str, what: str) -> list[int]:
    """Hand sizes written as a list and ranges, in order: ``4,7,10``, ``1-5``, ``1-3,10,10``.

    >>> parse_sizes("1-3,10,10", "cards")
    [1, 2, 3, 10, 10]
    """
    sizes: list[int] = []
    for word in text.replace(" ", "").split(","):
        low, dash, high = word.partition("-")
        if not (low.isdigit() and (not dash or high.isdigit())):
            raise PochaError(f"{what}: '{text}' is not hand sizes such as 4,7,10 or 1-5")
        if dash and int(high) < int(low):
            raise PochaError(f"{what}: the range '{word}' runs backwards; write {high}-{low}")
        sizes += list(range(int(low), int(high) + 1)) if dash else [int(low)]
    return sizes


def forbidden_bids(rules: Rules, cards: int, earlier_bids: np.ndarray) -> np.ndarray:
    """int64[m]: the bid the hook rule forbids to the bidder after ``earlier_bids`` (int64[m, position]), -1 for none.

    Only the dealer (the last bidder) is restricted: not the bid that makes the sum equal ``cards``.
    """
    size, position = earlier_bids.shape
    if position < rules.players - 1 or not rules.hook_applies(cards):
        return np.full(size, -1, np.int64)
    rest = cards - earlier_bids.sum(axis=1)
    return np.where(rest >= 0, rest, -1)


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """The index of the card that takes a trick (ids in play order): the highest trump, else the led suit's highest.

    trump: the trump suit, -1 for none. Within a suit a higher id is a stronger card.

    >>> trick_winner([3, 40, 5], trump=-1), trick_winner([3, 40, 5], trump=2)  # 40 is suit 2's, the others suit 0's
    (2, 1)
    """
    return max(range(len(cards)), key=lambda i: (cards[i] >> 4 == trump, cards[i] >> 4 == cards[0] >> 4, cards[i]))
