"""The deals a run asks for: cards predealt to positions or seats, a fixed turned card, conditions the deal must meet.

A player writes them as the options do: ``1=1O 3O`` (the cards of bidding position 1, the first
bidder, as the result tables number positions; ``dealer=...`` the last; ``seat2=...`` a seat), a
turned card ``7O``, conditions ``trumps(dealer) >= 3`` (``game.where``) or a predicate in a file
``./cond.py:fn``. ``read_conditions`` reads and checks them against the rules, ``check_sizes``
against the run's hand sizes (a hand of 3 predealt cards fits no 2-card deal): each mistake is one
line before any work. ``to_dict`` is what the run record keeps; the cards are in notation.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.game.where import Condition, parse_where
from pocha.words import counted

PLUG_IN = re.compile(r"(?P<path>.+?\.py):(?P<function>[A-Za-z_]\w*)$")  # a predicate in a file: path.py:function
SEAT = re.compile(r"seat\s*(?P<seat>\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class DealConditions:
    """What every deal of a run must be: predealt cards, the turned card, conditions; none of them: any deal.

    Each hand holds its predealt cards; the rest of the deck is dealt at random. A deal that
    fails a condition is dealt again (``kernels.deal``), so the deals kept are independent draws
    from the deals that meet them all.
    """

    rules: Rules
    positions: tuple[tuple[int, ...], ...] = ()  # card ids predealt to each bidding position (from 0: the first), or ()
    seats: tuple[tuple[int, ...], ...] = ()  # card ids predealt to each seat, or ()
    trump_card: int | None = None  # the turned card (in a deal of the whole deck the dealer's); None: drawn
    where: tuple[Condition, ...] = ()  # conditions all deals meet
    plug_ins: tuple[str, ...] = ()  # predicates in files, ``path.py:function`` (absolute paths)

    @property
    def free(self) -> bool:
        """Whether any deal will do (nothing predealt, no trump card, no condition)."""
        return not (any(self.positions) or any(self.seats) or self.trump_card is not None or self.conditional)

    @property
    def conditional(self) -> bool:
        """Whether some deals are dealt again: a condition or a plug-in may refuse them."""
        return bool(self.where or self.plug_ins)

    def hand_texts(self) -> list[str]:
        """The predealt hands as the options write them: ``1=1O 3O``, ``dealer=12E``, ``seat2=7C``."""
        return [f"{place}={self.rules.notation.names(ids)}" for place, _, ids in self.places()]

    def places(self) -> list[tuple[str, str, tuple[int, ...]]]:
        """``(as the options name it, in words, its cards)`` of every position and seat given cards."""
        players = self.rules.players
        positions = [
            (position_text(p, players), place_words("position", p), ids) for p, ids in enumerate(self.positions)
        ]
        return [
            place
            for place in positions + [(f"seat{s}", place_words("seat", s), ids) for s, ids in enumerate(self.seats)]
            if place[2]
        ]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (run.json, the trace header); ``from_dict`` reads it back with the rules."""
        trump = None if self.trump_card is None else self.rules.notation.name(self.trump_card)
        return {
            "hands": self.hand_texts(),
            "trump": trump,
            "where": [condition.text for condition in self.where] + list(self.plug_ins),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules) -> "DealConditions":
        """Inverse of ``to_dict``."""
        unknown = set(data) - {"hands", "trump", "where"}
        if unknown:
            raise PochaError(f"conditions: unknown field(s) {', '.join(sorted(unknown))}; known: hands, trump, where")
        return read_conditions(rules, data.get("hands", ()), data.get("trump"), data.get("where", ()))

    def in_words(self) -> str:
        """The conditions in one line, for a heading (``conditions_in_words``)."""
        return conditions_in_words(self.to_dict())

    def check_sizes(self, sizes: Sequence[int]) -> None:
        """Refuse the conditions at hand sizes where no deal can meet them: a hand too large, a trump card misplaced."""
        rules = self.rules
        problems: dict[str, list[int]] = {}
        for cards in sizes:
            for problem in self.problems(cards):
                problems.setdefault(problem, []).append(cards)
        if problems:
            problem, bad = next(iter(problems.items()))
            good = [cards for cards in range(1, rules.full_deal + 1) if not self.problems(cards)]
            fits = f"; these conditions fit hand sizes {written_sizes(good)}" if good else ""
            raise PochaError(f"{problem} at {written_sizes(bad)} {'card' if bad == [1] else 'cards'}{fits}")

    def problems(self, cards: int) -> list[str]:
        """What no deal of ``cards`` cards a player can meet (one line each, the hand size left to the caller)."""
        rules, players = self.rules, self.rules.players
        full = cards * players == rules.deck_size
        found = []
        trump = self.trump_card
        if trump is not None and not rules.has_trump(cards):
            found.append(
                f"trump: {rules.notation.name(trump)} is fixed, but a full deal under full-deal-trump none has no trump"
            )
            trump = None
        dealer = set(self.positions[players - 1]) if self.positions else set()
        if trump is not None and trump in dealer and not full:
            found.append(
                f"trump: {rules.notation.name(trump)} is predealt to the dealer, but the turned card is nobody's "
                "in a deal that leaves cards over"
            )
        at_position = [len(ids) for ids in self.positions] or [0] * players
        if trump is not None and full and trump not in dealer:
            at_position[players - 1] += 1  # the dealer's last card is the trump card
        at_seat = [len(ids) for ids in self.seats] or [0] * players
        most = max(at_position) + max(at_seat)  # every seat holds every position in some deal
        if most > cards:
            found.append(
                f"hand: {self.crowded(at_position, at_seat, full and trump is not None)} more than a hand holds"
            )
        return found

    def crowded(self, at_position: list[int], at_seat: list[int], trumped: bool) -> str:
        """The place (or the seat and position) given the most cards, in words: ``position 1 is given 3 cards,``."""
        position = max(range(len(at_position)), key=at_position.__getitem__)
        seat = max(range(len(at_seat)), key=at_seat.__getitem__)
        dealer = position == self.rules.players - 1
        named = place_words("position", position)
        named += " (the dealer, who holds the trump card)" if dealer and trumped else ""
        if not at_seat[seat]:
            return f"{named} is given {counted(at_position[position], 'card')},"
        if not at_position[position]:
            return f"seat {seat} is given {counted(at_seat[seat], 'card')},"
        total = at_position[position] + at_seat[seat]
        return f"seat {seat} and {named} are given {counted(total, 'card')} when the seat is at the position,"


def written_sizes(sizes: Sequence[int]) -> str:
    """Hand sizes as the ``cards`` option writes them, runs as ranges: ``1-3,5``."""
    runs: list[list[int]] = []
    for size in sorted(sizes):
        if runs and size == runs[-1][-1] + 1:
            runs[-1].append(size)
        else:
            runs.append([size])
    return ",".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def position_text(position: int, players: int) -> str:
    """A bidding position (from 0) as the options write it: ``1`` the first bidder, ``dealer`` the last."""
    return "dealer" if position == players - 1 else str(position + 1)


def place_words(kind: str, index: int) -> str:
    """A place (a position from 0, or a seat) in words: ``position 1``, ``seat 2``."""
    return f"position {index + 1}" if kind == "position" else f"seat {index}"


def conditions_in_words(data: Mapping[str, Any]) -> str:
    """Conditions as ``DealConditions.to_dict`` (and run.json) hold them, in one line for a heading.

    ``position 1 holds 1O 3O; the dealer holds 7C; trump 12E; where trumps(dealer) >= 3``.
    """
    said = []
    for text in data.get("hands", ()):
        place, _, cards = text.partition("=")
        seat = SEAT.match(place)
        named = "the dealer" if place == "dealer" else f"seat {seat['seat']}" if seat else f"position {place}"
        said.append(f"{named} holds {cards}")
    said += [f"trump {data['trump']}"] if data.get("trump") else []
    said += [f"where {text}" for text in data.get("where", ())]
    return "; ".join(said) or "any deal"


def read_conditions(
    rules: Rules,
    hands: Sequence[str] | Mapping[str | int, str] = (),
    trump: str | None = None,
    where: str | Sequence[str] = (),
) -> DealConditions:
    """Read a run's deal conditions as the options write them; each mistake is one clear line.

    hands: ``PLACE=CARDS`` texts (``1=1O 3O``, ``dealer=7C``, ``seat2=AS KS``) or a mapping of
    the places to their cards; trump: the turned card; where: conditions (``game.where``) or
    predicates in files (``./cond.py:fn``), all to hold.
    """
    players = rules.players
    positions: list[list[int]] = [[] for _ in range(players)]
    seats: list[list[int]] = [[] for _ in range(players)]
    owner: dict[int, str] = {}
    items = hands.items() if isinstance(hands, Mapping) else [split_hand(text) for text in hands]
    for place, written in items:
        kind, index = read_place(str(place), players)
        held = (positions if kind == "position" else seats)[index]
        name = place_words(kind, index)
        if held:
            raise PochaError(f"hand: {name} is given twice; give all its cards at once ({place}=CARDS)")
        try:
            ids = rules.notation.parse_list(written)
        except PochaError as error:
            raise PochaError(f"hand: {name}: {error}") from None
        if not ids:
            raise PochaError(
                f'hand: no cards given for {name}; write cards like "{place}={rules.notation.pack.example}"'
            )
        for card in ids:
            if card in owner:
                other = owner[card]
                twice = "twice" if other == name else f"to {other} and to {name}"
                raise PochaError(f"hand: {rules.notation.name(card)} is given {twice}; a card is dealt once")
            owner[card] = name
        held += ids
    trump_card = read_turned(rules, trump, owner)
    conditions, plug_ins = [], []
    for text in [where] if isinstance(where, str) else where:
        found = PLUG_IN.match(text.strip())
        if found:
            path = Path(found["path"])
            if not path.is_file():
                raise PochaError(f"where '{text}': no file '{path}'")
            plug_ins.append(f"{path.resolve()}:{found['function']}")
        else:
            conditions.append(parse_where(text, rules))
    return DealConditions(
        rules,
        tuple(map(tuple, positions)) if any(positions) else (),
        tuple(map(tuple, seats)) if any(seats) else (),
        trump_card,
        tuple(conditions),
        tuple(plug_ins),
    )


def split_hand(text: str) -> tuple[str, str]:
    """``(place, the cards as written)`` of a ``PLACE=CARDS`` text."""
    place, equals, written = text.partition("=")
    if not equals:
        raise PochaError(f"hand: '{text}' gives no place; write PLACE=CARDS, e.g. 1=1O 3O, dealer=7C or seat2=1O")
    return place.strip(), written


def read_place(place: str, players: int) -> tuple[str, int]:
    """``("position", p)`` (from 0) or ``("seat", s)`` of a place as written: ``1`` (the first bidder), ``dealer``."""
    seat = SEAT.match(place.strip())
    if place.strip().lower() == "dealer":
        return "position", players - 1
    if place.strip().isdigit() and 1 <= int(place) <= players:
        return "position", int(place) - 1
    if seat and int(seat["seat"]) < players:
        return "seat", int(seat["seat"])
    raise PochaError(
        f"hand: '{place}' is not a place at {players} players; a bidding position 1..{players} "
        f"(1 bids first, {players} deals), dealer, or a seat seat0..seat{players - 1}"
    )


def read_turned(rules: Rules, trump: str | None, owner: Mapping[int, str]) -> int | None:
    """The fixed turned card's id, None when it is drawn; refused where no hand size could turn it."""
    if trump is None:
        return None
    try:
        card = rules.notation.parse(trump)
    except PochaError as error:
        raise PochaError(f"trump: {error}") from None
    holder = owner.get(card)
    if holder is not None and holder != place_words("position", rules.players - 1):
        raise PochaError(
            f"trump: {rules.notation.name(card)} is predealt to {holder}; the turned card is nobody's, "
            "or in a full deal the dealer's"
        )
    return card
