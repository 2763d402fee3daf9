"""The rule set: one frozen, validated, serialisable dataclass, and the presets of the rule texts (``pocha rules``).

Every option is data. Presets differ only in the values they give; no code asks which preset
it is running.
"""

from collections.abc import Sequence
from dataclasses import asdict, astuple, dataclass, field, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

from pocha.errors import PochaError
from pocha.game.cards import PACKS, SUIT_COUNT, Notation, deck_ids
from pocha.words import counted, did_you_mean

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


MOST_POINTS = 1_000_000  # the largest scoring number: a hand's points and a run's sums stay far inside int64


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """The points of one hand, from four whole numbers (by keyword only: four in a row are easily misread).

    Exact bid: ``exact + per_trick * won``; missed: ``per_trick_missed * won + miss_per_trick * |won - bid|``.

    >>> int(Scoring().points(bid=2, won=2)), int(Scoring().points(bid=2, won=0))  # 10 + 2 * 5; 2 * -5
    (20, -10)
    """

    exact: int = 10  # bonus for taking exactly the tricks bid
    per_trick: int = 5  # added per trick taken, exact bids only
    per_trick_missed: int = 0  # per trick taken when the bid is missed (older traces lack it: 0)
    miss_per_trick: int = -5  # per trick of difference between bid and tricks taken, missed bids only

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MOST_POINTS:
                raise PochaError(
                    f"scoring.{name}: must be a whole number from -{MOST_POINTS:,} to {MOST_POINTS:,}, not {value!r}"
                )
        if self.miss_per_trick > 0:
            raise PochaError(
                f"scoring: {self.spec} would pay a missed bid {counted(self.miss_per_trick, 'point')} per trick off, "
                "the more the further off; M, per trick off, must be 0 or less (10,5,-5)"
            )

    def points(self, bid: Any, won: Any) -> Any:
        """Points of a bid and the tricks won (ints or int arrays alike): the one scoring formula."""
        missed = self.per_trick_missed * won + self.miss_per_trick * np.abs(won - bid)
        return np.where(bid == won, self.exact + self.per_trick * won, missed)

    def points_grid(self, cards: int) -> np.ndarray:
        """int64[bid, won]: the points of every bid and trick count 0..cards (what the kernels score with)."""
        bid, won = np.meshgrid(np.arange(cards + 1), np.arange(cards + 1), indexing="ij")
        return np.asarray(self.points(bid, won), dtype=np.int64)

    def check_missing_pays_less(self, cards: int) -> None:
        """Refuse a scoring under which, in hands of up to ``cards`` cards, a missed bid scores more than the exact one.

        (The same tricks taken: a bid can only be judged against the bid that would have matched them.)
        """
        grid = self.points_grid(cards)
        exact = np.diag(grid).copy()
        np.fill_diagonal(grid, np.iinfo(np.int64).min)
        missed = grid.max(axis=0)
        if (missed > exact).any():
            won = int(np.argmax(missed > exact))
            bid = int(np.argmax(grid[:, won]))
            raise PochaError(
                f"scoring: under {self.spec} a bid of {bid} that takes {counted(won, 'trick')} scores {missed[won]}, "
                f"more than the exact bid of {won} ({exact[won]}); a missed bid must not pay more than a made one"
            )

    @property
    def spec(self) -> str:
        """The numbers as ``--scoring`` takes them: ``E,T,M``, or ``E,T,W,M`` when a missed bid's tricks count."""
        numbers = astuple(self) if self.per_trick_missed else (self.exact, self.per_trick, self.miss_per_trick)
        return ",".join(map(str, numbers))

    @property
    def name(self) -> str | None:
        """The name of the scoring system it is (the first of SCORINGS), None for another."""
        return next((name for name, (scoring, _) in SCORINGS.items() if scoring == self), None)

    @property
    def label(self) -> str:
        """Its name, else its ``spec``."""
        return self.name or self.spec

    def in_words(self) -> str:
        """What an exact and a missed bid score, e.g. ``exact 10 + 5 per trick; missed -5 per trick off``."""
        exact = f"exact {self.exact}" + (f" + {self.per_trick} per trick" if self.per_trick else "")
        missed = [f"{self.per_trick_missed} per trick taken"] if self.per_trick_missed else []
        missed += [f"{self.miss_per_trick} per trick off"] if self.miss_per_trick else []
        return f"{exact}; missed {', '.join(missed) or 0}"


SCORINGS = {  # name -> (the system, what it is); --scoring NAME
    "pocha": (Scoring(), "the Spanish texts' (every preset's)"),
    "tricks+10": (
        Scoring(exact=10, per_trick=1, per_trick_missed=1, miss_per_trick=0),
        "every trick taken scores, made or not (BoardGameArena's analyses; OpenSpiel's oh_hell by default)",
    ),
    "exact-only": (
        Scoring(exact=10, per_trick=1, per_trick_missed=0, miss_per_trick=0),
        "tricks score only when the bid is made",
    ),
    "bonus-only": (
        Scoring(exact=10, per_trick=0, per_trick_missed=0, miss_per_trick=0),
        "only an exact bid scores, whatever the tricks",
    ),
    "openspiel-penalty": (
        Scoring(exact=10, per_trick=1, per_trick_missed=0, miss_per_trick=-1),
        "OpenSpiel's oh_hell with off_bid_penalty=true",
    ),
}


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


def forty_card_decks() -> dict[int, int]:
    """Players -> deck size for the texts that know only the 40-card deck (000, 001, 002), 2 to 10 players.

    They drop the 2s for 3 players "so that everyone gets the same number when the whole deck is
    dealt"; for other counts that do not divide 40, whole ranks go, weakest first, until it splits
    evenly (our reading of that principle: 6 and 9 players play 36 cards, 7 players 28).
    """
    return {players: next(size for size in range(40, 0, -4) if size % players == 0) for players in range(2, 11)}


@dataclass(frozen=True)
class Preset:
    """A named rule set from one rule text, and the readings it takes where the text is unclear."""

    name: str
    text: str  # the rule text it follows, in words
    rank_order: str  # a rank order of its pack
    play_rule: str  # key of PLAY_RULES
    hook: str
    decks: dict[int, int]  # player count -> deck size (cards)
    tie_break: str = "all"
    readings: tuple[str, ...] = ()  # where the preset picks one reading of its text, and the option for the other
    pack: str = "spanish"  # a key of PACKS
    full_deal_trump: str = "dealer-card"  # a key of FULL_DEAL_TRUMPS


THREE_TO_EIGHT = {3: 36, 4: 40, 5: 40, 6: 36, 8: 48}  # text 003's table
WHOLE_FRENCH = {players: 52 for players in range(3, 8)}  # Oh Hell's usual tables: the whole pack, 3 to 7 players
PACK_DECKS = {"spanish": THREE_TO_EIGHT, "french": WHOLE_FRENCH}  # a preset's decks when --deck names another pack
TRUMPED = (
    '"Unless someone has trumped" frees the followers of a plain-suit lead once a trump is on the trick; '
    "followers of a trump lead must still beat it (the usual reading; --play-rule pocha-trump-lead-free "
    "takes the text literally)."
)
FORTY = (
    "Only the 40-card deck: player counts that do not divide it drop whole ranks, weakest first, until it "
    "splits evenly (the text says so for 3 players; for 6, 7 and 9 players it is our reading)."
)
CLIMB = (
    'The hands grow "until the whole deck is dealt", then as many full deals as there are players: the full deal '
    "the climb reaches counts as one of them, n in all (--full-deals n+1 plays it, then n more)."
)
TIES = (
    '"New one-card hands until the tie is broken": every player plays them and every score counts until one '
    "player leads (--tie-break tied: only the tied players contend)."
)
PRESETS = {
    preset.name: preset
    for preset in (
        Preset(
            "ludoteka",
            "Ludoteka's Spanish rules, ludoteka.com (text 003)",
            "ace-three",
            "pocha",
            "except-one-card",
            THREE_TO_EIGHT,
            readings=(
                '6 players: the text drops the 2s (36 cards) but also ranks 9s and 8s "when 6 or 8 play"; both '
                "cannot hold, this preset plays 36 cards (--deck 48 for the other reading).",
                '8 players: 48 cards, as the ranking "in case 6 or 8 play, the nine and the eight" has it; "by default '
                'the 40-card deck" also allows 40 cards, 5 each (--deck 40 for that reading).',
                TRUMPED,
                "full-only: one full deal per player (the text gives no count).",
                CLIMB,
                TIES,
            ),
        ),
        Preset(
            "polish",
            "the Polish rules (text 004)",
            "ace-three",
            "pocha",
            "except-one-card",
            {3: 36, 4: 40},
            readings=(
                TRUMPED,
                'The falling half of the full schedule is "usually" played: --schedule up stops after the full deals.',
                CLIMB,
                TIES,
            ),
        ),
        Preset(
            "portuguese",
            "the Portuguese rules (text 001)",
            "ace-three",
            "pocha",
            "always",
            forty_card_decks(),
            tie_break="one",
            readings=(
                'The rank order lists "três" twice (as, três, rei, ..., quatro, três, deuce); this preset keeps '
                "the first: ace-three (--rank-order natural keeps the second, as texts 000 and 002 order).",
                "The duty to beat and to trump is stated without the trumped-trick exception; read as the pocha rule "
                "(--play-rule pocha-always-beat takes the text literally).",
                "Ties: one more one-card hand; a tie after it is shared (--tie-break all plays on).",
                FORTY,
            ),
        ),
        Preset(
            "italian",
            "the Italian rules (text 000)",
            "natural",
            "pocha",
            "always",
            forty_card_decks(),
            readings=(
                'The duty to beat ("montando") and to trump is stated without the trumped-trick exception; read '
                "as the pocha rule (--play-rule pocha-always-beat takes the text literally).",
                FORTY,
                CLIMB,
                TIES,
            ),
        ),
        Preset(
            "turkish",
            "the Turkish rules (text 002)",
            "natural",
            "trump",
            "always",
            forty_card_decks(),
            readings=(
                "Followers must follow suit with no duty to beat: most likely a translation loss of 000's "
                '"montando"; this preset follows the literal text (--play-rule pocha for the usual rule).',
                "The sentence on the dealer's bid is garbled; read as the hook rule.",
                FORTY,
                CLIMB,
                TIES,
            ),
        ),
        Preset(
            "oh-hell",
            "plain Oh Hell, as the wider world plays it with French cards (no text)",
            "natural",
            "follow",
            "always",
            WHOLE_FRENCH,
            readings=(
                "The whole 52-card pack at 3 to 7 players; a count that does not divide it leaves cards out of "
                "the full deal (3 players: 17 each and one turned up). --deck 48 and smaller strip whole ranks, "
                "weakest first; --deck spanish plays the Spanish form (36 to 48 cards, ace-three).",
                "Follow suit; a void hand plays any card, with no duty to beat or to trump.",
                "A deal of the whole pack (4 players, 13 cards each) has no card left to turn up and is played "
                "without trump, as most Oh Hell tables do (--full-deal-trump dealer-card: the dealer's last card).",
                "The hook binds the dealer in every hand, one-card hands included (tables differ: --hook).",
                "Scoring: pocha's 10 + 5 per trick / -5 per trick off (OpenSpiel's oh_hell with off_bid_penalty and 5 "
                "points per trick); many Oh Hell tables count every trick taken: --scoring tricks+10.",
            ),
            pack="french",
            full_deal_trump="none",
        ),
    )
}
DEFAULT_PRESET = "ludoteka"


def split_deck(text: str, preset_pack: str) -> tuple[str, str]:
    """A deck option as ``(pack, rest)``: ``french:32`` -> ``("french", "32")``, ``40`` -> the preset's pack, ``40``."""
    name, colon, rest = text.strip().partition(":")
    if name.lower() in PACKS:
        return name.lower(), rest.strip()
    if colon:
        raise PochaError(f"deck: unknown pack '{name}' in '{text}'; accepted: {', '.join(PACKS)}")
    return preset_pack, text.strip()


def parse_deck(text: str, pack: str, rank_order: str) -> tuple[int, ...]:
    """The ranks of a deck written as a size (52, 40, 36, ...) in a rank order, or as ranks strongest first."""
    words = [w for w in text.replace(",", " ").split() if w]
    if len(words) == 1 and words[0].isdigit():
        return PACKS[pack].deck_ranks(rank_order, int(words[0]))
    try:
        if words:
            return tuple(PACKS[pack].parse_rank(word) for word in words)
    except PochaError as error:
        if len(words) > 1:
            raise PochaError(f"deck: {error}") from None
    sizes = ", ".join(map(str, PACKS[pack].sizes()[:3]))
    example = ",".join(PACKS[pack].rank_names[r] for r in PACKS[pack].rank_orders[rank_order][:6])
    raise PochaError(
        f"deck: '{text}' is neither a pack ({', '.join(PACKS)}), a size ({sizes}, ...) "
        f"nor ranks strongest first like {example}"
    )


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


def make_rules(
    preset: str = DEFAULT_PRESET,
    players: int = 4,
    deck: str | None = None,
    rank_order: str | None = None,
    **overrides: Any,
) -> Rules:
    """The rules of a preset for a player count, with single options overridden.

    deck: None for the preset's deck for this player count; else a pack (``french``), a size in the
    preset's pack (``40``), ranks strongest first (``1,3,12,11``), or a pack and either (``french:32``).
    rank_order: a rank order of the pack instead of the preset's. overrides: any other ``Rules`` field
    (``play_rule``, ``hook``, ``scoring``, ``schedule``, ``tie_break``, ``full_deal_trump``, ``full_deals``);
    None keeps the preset's. A schedule may be written as text: a name or hand sizes (``1-5,5``).
    """
    if preset not in PRESETS:
        raise PochaError(
            f"preset: unknown preset '{preset}'; {did_you_mean(preset, PRESETS)}accepted: {', '.join(PRESETS)}"
        )
    check_players(players)
    chosen = PRESETS[preset]
    pack, size_or_ranks = split_deck(deck, chosen.pack) if deck is not None else (chosen.pack, "")
    orders = PACKS[pack].rank_orders
    order = rank_order or (chosen.rank_order if pack == chosen.pack else PACKS[pack].default_order)
    if order not in orders:
        hint = did_you_mean(order, orders)
        raise PochaError(f"rank-order: unknown '{order}' for the {pack} pack; {hint}accepted: {', '.join(orders)}")
    decks = chosen.decks if pack == chosen.pack else PACK_DECKS[pack]
    if size_or_ranks:
        ranks = parse_deck(size_or_ranks, pack, order)
    elif players in decks:
        ranks = PACKS[pack].deck_ranks(order, decks[players])
    else:
        counts = ", ".join(str(n) for n in decks)
        usual = SUIT_COUNT * len(PACKS[pack].usual)
        whose = f"preset '{preset}'" if pack == chosen.pack else f"the {PACKS[pack].title} pack"
        size = f"{pack}:{usual}" if deck is not None else str(usual)
        raise PochaError(
            f"players: {whose} has no deck for {players} players (it has {counts}); "
            f"give a deck size (--deck {size}) to play with another count"
        )
    schedule = overrides.get("schedule")
    if isinstance(schedule, str) and schedule not in SCHEDULES and schedule[:1].isdigit():
        overrides["schedule"] = tuple(parse_sizes(schedule, "schedule"))
    rules = Rules(
        players=players,
        ranks=ranks,
        pack=pack,
        play_rule=chosen.play_rule,
        hook=chosen.hook,
        tie_break=chosen.tie_break,
        full_deal_trump=chosen.full_deal_trump,
    )
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


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """The index of the card that takes a trick (ids in play order): the highest trump, else the led suit's highest.

    trump: the trump suit, -1 for none. Within a suit a higher id is a stronger card.

    >>> trick_winner([3, 40, 5], trump=-1), trick_winner([3, 40, 5], trump=2)  # 40 is suit 2's, the others suit 0's
    (2, 1)
    """
    return max(range(len(cards)), key=lambda i: (cards[i] >> 4 == trump, cards[i] >> 4 == cards[0] >> 4, cards[i]))


def parse_scoring(text: str) -> Scoring:
    """A scoring option: a name of SCORINGS, or ``E,T,M`` (``10,5,-5``) or ``E,T,W,M`` (``10,1,1,0``)."""
    if text.strip().lower() in SCORINGS:
        return SCORINGS[text.strip().lower()][0]
    try:
        numbers = [int(word) for word in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) not in (3, 4):
        raise PochaError(
            f"scoring: '{text}' is neither a name ({', '.join(SCORINGS)}) nor numbers E,T,W,M or E,T,M such as "
            "10,5,-5 (exact bonus, per trick when exact, per trick when missed (left out: 0), per trick off)"
        )
    names = [item.name for item in fields(Scoring) if len(numbers) == 4 or item.name != "per_trick_missed"]
    return Scoring(**dict(zip(names, numbers, strict=True)))
