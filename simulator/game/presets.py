"""The presets of the rule texts (``pocha rules``): each a rule set by name, its decks, and the readings it takes.

``make_rules`` makes the rules of a preset for a player count, with single options overridden.
"""

from dataclasses import dataclass, replace
from typing import Any

from pocha.errors import PochaError
from pocha.game.cards import PACKS, SUIT_COUNT
from pocha.game.rules import SCHEDULES, Rules, check_players, parse_sizes
from pocha.words import did_you_mean


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
