"""The rule set: one frozen, validated, serialisable dataclass, and the presets of RULES.md.

Every option is data. Presets differ only in the values they give; no code asks which preset
it is running.
"""

from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from pocha.cards import RANKS, deck_ids
from pocha.errors import PochaError

PLAY_RULES = ("pocha", "trump", "follow")
HOOK_RULES = ("except-one-card", "always", "never")
SCHEDULES = ("full", "short", "full-only")
RANK_ORDERS = {  # every rank of the 48-card deck, strongest first
    "ace-three": (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2),
    "natural": (1, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2),
}
DECK_SIZES = {48: (), 40: (8, 9), 36: (8, 9, 2)}  # deck size -> ranks left out of the 48-card deck
DEFAULT_DECK_SIZE = {3: 36, 4: 40, 5: 40, 6: 36, 8: 48}  # players -> deck (text 003)


@dataclass(frozen=True)
class Scoring:
    """Points of one hand: ``exact + per_trick * won`` for an exact bid, else ``miss_per_trick * |won - bid|``."""

    exact: int = 10  # bonus for taking exactly the tricks bid
    per_trick: int = 5  # added per trick taken, exact bids only
    miss_per_trick: int = -5  # per trick of difference between bid and tricks taken

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise PochaError(f"scoring.{name}: must be a whole number, not {value!r}")

    def points(self, bid: Any, won: Any) -> Any:
        """Points of a bid and the tricks won (ints or int arrays alike): the one scoring formula."""
        return np.where(bid == won, self.exact + self.per_trick * won, self.miss_per_trick * np.abs(won - bid))

    def table(self, cards: int) -> np.ndarray:
        """int64[bid, won]: the points of every bid and trick count 0..cards (what the kernels score with)."""
        bid, won = np.meshgrid(np.arange(cards + 1), np.arange(cards + 1), indexing="ij")
        return self.points(bid, won).astype(np.int64)


@dataclass(frozen=True)
class Rules:
    """The effective rules of a run, exactly the trace header's ``rules``."""

    players: int  # seats at the table, 0..players-1 in playing order
    ranks: tuple[int, ...]  # ranks present in each suit, strongest first (defines deck and strength)
    play: str = "pocha"  # card-play duties: pocha (follow and beat, trump and over-trump), trump, follow
    hook: str = "except-one-card"  # when the dealer may not make the bids sum to the hand size
    scoring: Scoring = field(default_factory=Scoring)  # points per hand
    schedule: str = "full"  # hand sizes of a whole game: full (1..max..1), short (1..max), full-only

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", tuple(self.ranks))
        if not isinstance(self.players, int) or self.players < 2:
            raise PochaError(f"players: must be a whole number of at least 2, not {self.players!r}")
        bad = [r for r in self.ranks if r not in RANKS]
        if bad or not self.ranks or len(set(self.ranks)) != len(self.ranks):
            raise PochaError(
                f"ranks: {list(self.ranks)} is not a deck: give distinct ranks from 1..12, strongest first"
            )
        if self.deck_size < self.players:
            raise PochaError(
                f"ranks: a deck of {self.deck_size} cards does not give {self.players} players a card each"
            )
        for name, allowed in (("play", PLAY_RULES), ("hook", HOOK_RULES), ("schedule", SCHEDULES)):
            value = getattr(self, name)
            if value not in allowed:
                raise PochaError(f"{name}: unknown rule '{value}'; accepted: {', '.join(allowed)}")

    @property
    def deck_size(self) -> int:
        """Cards in the deck."""
        return 4 * len(self.ranks)

    @property
    def full_deal(self) -> int:
        """Cards per player when the deal uses the whole deck (the largest hand)."""
        return self.deck_size // self.players

    def hand_sizes(self) -> list[int]:
        """Hand sizes of one game, in order, by the schedule."""
        top = self.full_deal
        rising = list(range(1, top))
        if self.schedule == "full":
            return rising + [top] * self.players + rising[::-1]
        if self.schedule == "short":
            return rising + [top]
        return [top] * self.players

    def hook_applies(self, cards: int) -> bool:
        """Whether the dealer's bid is restricted in a hand of ``cards`` cards."""
        return self.hook == "always" or (self.hook == "except-one-card" and cards != 1)

    def check_cards(self, cards: int) -> None:
        """Refuse a hand size this deck cannot deal."""
        if not 1 <= cards <= self.full_deal:
            raise PochaError(
                f"cards: {cards} is not a hand size here; {self.players} players with "
                f"{self.deck_size} cards take 1..{self.full_deal}"
            )

    def deck(self) -> np.ndarray:
        """Card ids of the deck (int64), as the kernels take it."""
        return deck_ids(self.ranks)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (the trace header's ``rules``)."""
        data = asdict(self)
        data["ranks"] = list(self.ranks)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Inverse of ``to_dict``; unknown keys are refused."""
        known = {"players", "ranks", "play", "hook", "scoring", "schedule"}
        unknown = set(data) - known
        if unknown:
            raise PochaError(f"rules: unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
        values = dict(data)
        if "scoring" in values:
            values["scoring"] = Scoring(**values["scoring"])
        return cls(**values)


@dataclass(frozen=True)
class Preset:
    """A named rule set from one rule text."""

    name: str
    source: str  # the rule text it follows
    rank_order: str  # key of RANK_ORDERS
    play: str
    hook: str
    players: tuple[int, ...]  # player counts with a default deck under this preset


_ALL_COUNTS = (3, 4, 5, 6, 8)
PRESETS = {
    preset.name: preset
    for preset in (
        Preset("ludoteka", "003 Ludoteka (Spanish)", "ace-three", "pocha", "except-one-card", _ALL_COUNTS),
        Preset("polish", "004 Polish", "ace-three", "pocha", "except-one-card", (3, 4)),
        Preset("portuguese", "001 Portuguese", "ace-three", "pocha", "always", _ALL_COUNTS),
        Preset("italian", "000 Italian", "natural", "pocha", "always", _ALL_COUNTS),
        Preset("turkish", "002 Turkish", "natural", "trump", "always", _ALL_COUNTS),
        Preset("oh-hell", "plain Oh Hell with a Spanish deck", "ace-three", "follow", "always", _ALL_COUNTS),
    )
}
DEFAULT_PRESET = "ludoteka"


def deck_ranks(rank_order: str, size: int) -> tuple[int, ...]:
    """Ranks of a 36-, 40- or 48-card deck in a rank order, strongest first."""
    if size not in DECK_SIZES:
        raise PochaError(f"deck: no {size}-card Spanish deck; sizes are 36, 40 and 48, or give ranks")
    return tuple(r for r in RANK_ORDERS[rank_order] if r not in DECK_SIZES[size])


def parse_deck(text: str, rank_order: str) -> tuple[int, ...]:
    """A deck option: a size (36, 40, 48) in the preset's rank order, or ranks strongest first ("1,3,12,...")."""
    words = [w for w in text.replace(",", " ").split() if w]
    if not words or not all(w.isdigit() for w in words):
        raise PochaError(f"deck: '{text}' is neither a size (36, 40, 48) nor ranks strongest first like 1,3,12,11,10,7")
    if len(words) == 1:
        return deck_ranks(rank_order, int(words[0]))
    return tuple(int(w) for w in words)


def make_rules(
    preset: str = DEFAULT_PRESET,
    players: int = 4,
    deck: str | None = None,
    **overrides: Any,
) -> Rules:
    """The rules of a preset for a player count, with single options overridden.

    deck: None for the preset's default deck for this player count, else as ``parse_deck``.
    overrides: any other ``Rules`` field (``play``, ``hook``, ``scoring``, ``schedule``); None keeps the preset's.
    """
    if preset not in PRESETS:
        raise PochaError(f"preset: unknown preset '{preset}'; accepted: {', '.join(PRESETS)}")
    chosen = PRESETS[preset]
    if deck is not None:
        ranks = parse_deck(deck, chosen.rank_order)
    elif players in chosen.players:
        ranks = deck_ranks(chosen.rank_order, DEFAULT_DECK_SIZE[players])
    else:
        counts = ", ".join(str(n) for n in chosen.players)
        raise PochaError(
            f"players: preset '{preset}' has no deck for {players} players (it has {counts}); "
            "give a deck to play with another count"
        )
    rules = Rules(players=players, ranks=ranks, play=chosen.play, hook=chosen.hook)
    return replace(rules, **{name: value for name, value in overrides.items() if value is not None})


def forbidden_bids(rules: Rules, cards: int, earlier_bids: np.ndarray) -> np.ndarray:
    """int64[m]: the bid the hook rule forbids to the bidder after ``earlier_bids`` (int64[m, position]), -1 for none.

    Only the dealer (the last bidder) is restricted: not the bid that makes the sum equal ``cards``.
    """
    size, position = earlier_bids.shape
    if position < rules.players - 1 or not rules.hook_applies(cards):
        return np.full(size, -1, np.int64)
    rest = cards - earlier_bids.sum(axis=1)
    return np.where(rest >= 0, rest, -1)


def parse_scoring(text: str) -> Scoring:
    """A scoring option ``EXACT,PER_TRICK,MISS_PER_TRICK``, e.g. ``10,5,-5``."""
    try:
        exact, per_trick, miss = (int(w) for w in text.split(","))
    except ValueError:
        raise PochaError(f"scoring: '{text}' is not EXACT,PER_TRICK,MISS_PER_TRICK such as 10,5,-5") from None
    return Scoring(exact, per_trick, miss)
