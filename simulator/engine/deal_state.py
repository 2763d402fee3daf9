"""One deal move by move, from outside the batch: chance deals, the seats bid and play, each move checked by the rules.

The batch engine plays chunks of deals inside its kernels. OpenSpiel's ``pocha`` game, the PettingZoo
environment and ``pocha play`` need one deal a move at a time instead, and what any seat sees of it.
A ``DealState`` is that deal, and it plays by pocha's own rule code so the two cannot drift: the legal
cards and the trick's winner come from the kernels (``kernels.trick``: ``legal_mask``, ``place_card``),
the dealer's forbidden bid from ``forbidden_bids``, the points from ``Scoring``.

Moves are numbered actions (``Moves``): a card is its place in the deck in id order (suit by suit,
weakest first), a bid ``b`` is ``deck size + b``. Chance moves first: the hand size (when the rules'
schedule leaves it open, as often as a whole game plays each), the dealer, the cards one at a time from
the dealer's left round to the dealer, then the turned card (in a full deal the dealer's last card names
trump instead; under ``full_deal_trump`` none there is no trump).
"""

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from pocha.engine.chunk import Chunk
from pocha.engine.player import DealView
from pocha.engine.trace import deal_lines
from pocha.errors import PochaError
from pocha.game.cards import cards_of, suit_of
from pocha.game.rules import Rules, forbidden_bids
from pocha.kernels.codes import NO_TRUMP, PLAY_CODES
from pocha.kernels.decide import seat_worlds
from pocha.kernels.pimc import scratch
from pocha.kernels.play import DealRules
from pocha.kernels.streams import mix64
from pocha.kernels.trick import legal_mask, place_card, trump_masks
from pocha.words import counted

EVERY_CARD = 2**64 - 1  # a trick's ``beat`` before its lead: every card takes it
CHANCE, TERMINAL = -1, -4  # who moves at a chance node and once the deal is over (OpenSpiel's numbers)


@dataclass(frozen=True, eq=False)
class Moves:
    """The numbered moves of a deal under ``rules``; ``sizes`` the hand sizes chance draws from (one: fixed).

    A size appears as often as a whole game plays it (``Rules.hand_sizes``), so chance draws it that often.
    """

    rules: Rules
    sizes: tuple[int, ...]

    @classmethod
    def of(cls, rules: Rules, cards: int | None = None) -> "Moves":
        """Deals of ``cards`` cards, or (None) of the schedule's hand sizes as often as a game plays them."""
        if cards is None:
            return cls(rules, tuple(rules.hand_sizes()))
        rules.check_cards(cards)
        return cls(rules, (cards,))

    @cached_property
    def ids(self) -> tuple[int, ...]:
        """The card id of each card action: the deck in id order."""
        return tuple(sorted(int(card) for card in self.rules.deck()))

    @cached_property
    def action_of(self) -> dict[int, int]:
        """The action of each card id."""
        return {card: action for action, card in enumerate(self.ids)}

    @property
    def bid_offset(self) -> int:
        """The action of bid 0 (a bid ``b`` is ``bid_offset + b``): the deck size."""
        return self.rules.deck_size

    @property
    def most_cards(self) -> int:
        """The largest hand these deals hold."""
        return max(self.sizes)

    @property
    def num_actions(self) -> int:
        """Every card and every bid up to the largest hand."""
        return self.bid_offset + self.most_cards + 1

    @cached_property
    def size_chances(self) -> list[tuple[int, float]]:
        """``(size, chance)`` of each hand size chance may draw, smallest first."""
        counts = Counter(self.sizes)
        return [(size, counts[size] / len(self.sizes)) for size in sorted(counts)]

    def name(self, card: int) -> str:
        """A card id in notation."""
        return self.rules.notation.name(card)

    def action_text(self, action: int) -> str:
        """A player's action in words: a card in notation, or ``bid 2``."""
        if action >= self.bid_offset:
            return f"bid {action - self.bid_offset}"
        return self.name(self.ids[action])

    @cached_property
    def work(self) -> Any:
        """The kernels' scratch for drawing one world (``DealState.world``)."""
        return scratch(1, self.rules.players)

    def deal_rules(self, cards: int) -> DealRules:
        """The kernels' ``DealRules`` of a deal of ``cards`` cards."""
        if cards not in self.kernel_rules:
            self.kernel_rules[cards] = DealRules.of(self.rules, cards)
        return self.kernel_rules[cards]

    @cached_property
    def kernel_rules(self) -> dict[int, DealRules]:
        """``deal_rules`` by hand size, as asked."""
        return {}

    def __getstate__(self) -> dict[str, Any]:
        """The fields alone (the kernels' scratch is made again where it is needed)."""
        return {"rules": self.rules, "sizes": self.sizes}

    def initial(self) -> "DealState":
        """A deal before chance has drawn anything."""
        return DealState(self)


class DealState:
    """A deal in progress: what chance drew, the bids in bidding order, the cards played, the trick under way."""

    def __init__(self, moves: Moves) -> None:
        players = moves.rules.players
        self.moves = moves
        self.cards = moves.sizes[0] if len(moves.sizes) == 1 else 0  # 0: not drawn yet
        self.dealer = -1  # not drawn yet
        self.order: list[int] = []  # the card ids dealt, in dealing order
        self.dealt = [0] * players  # each seat's cards as dealt, masks
        self.held = [0] * players  # and as it holds them now
        self.trump_card: int | None = None  # None: not turned yet; NO_TRUMP: a deal without trump
        self.bids: list[int] = []  # in bidding order, from the dealer's left
        self.plays: list[int] = []  # card ids in play order
        self.leader = 0  # the trick under way: its leader, and the kernels' led, beat and winner
        self.led, self.beat, self.winner = 0, EVERY_CARD, 0
        self.won = [0] * players
        self.winners: list[int] = []  # each finished trick's winner

    def __deepcopy__(self, memo: dict[int, Any]) -> "DealState":
        """A copy that plays on alone (the moves, the same rules, are shared)."""
        return self.copy()

    def copy(self) -> "DealState":
        """A copy that plays on alone."""
        other = DealState.__new__(DealState)
        other.__dict__.update(self.__dict__)
        for name in ("order", "dealt", "held", "bids", "plays", "won", "winners"):
            setattr(other, name, list(getattr(self, name)))
        return other

    # --- where the deal stands ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The deal's rules."""
        return self.moves.rules

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.moves.rules.players

    @property
    def full(self) -> bool:
        """The deal takes the whole deck (no card is left to turn up)."""
        return self.cards * self.players == self.rules.deck_size

    @property
    def dealing(self) -> bool:
        """Chance has still to draw something."""
        drawn = self.cards and self.dealer >= 0 and len(self.order) == self.cards * self.players
        return not drawn or self.trump_card is None

    @property
    def is_over(self) -> bool:
        """Every card is played."""
        return not self.dealing and len(self.plays) == self.cards * self.players

    @property
    def bidding(self) -> bool:
        """The seats are bidding."""
        return not self.dealing and len(self.bids) < self.players

    def current(self) -> int:
        """The seat to move, ``CHANCE`` while dealing, ``TERMINAL`` once every card is played."""
        if self.dealing:
            return CHANCE
        if self.bidding:
            return (self.dealer + 1 + len(self.bids)) % self.players
        if self.is_over:
            return TERMINAL
        return (self.leader + len(self.plays) % self.players) % self.players

    @property
    def trumps(self) -> int:
        """The trump suit's cards as a mask (0 without trump)."""
        return int(trump_masks(NO_TRUMP if self.trump_card is None else self.trump_card)[0])

    def bid_of(self, seat: int) -> int:
        """A seat's bid (it must have bid)."""
        return self.bids[(seat - self.dealer - 1) % self.players]

    def seat_of_bid(self, position: int) -> int:
        """The seat that bids at a bidding position (0: the dealer's left)."""
        return (self.dealer + 1 + position) % self.players

    def bids_by_seat(self) -> list[int]:
        """Every seat's bid, by seat (every seat has bid)."""
        return [self.bid_of(seat) for seat in range(self.players)]

    def trick_cards(self) -> list[int]:
        """The cards on the trick under way, from its leader."""
        return self.plays[len(self.plays) - len(self.plays) % self.players :]

    def seat_of_play(self, index: int) -> int:
        """The seat that played card ``index`` of the deal."""
        trick, place = divmod(index, self.players)
        leader = (self.dealer + 1) % self.players if trick == 0 else self.winners[trick - 1]
        return (leader + place) % self.players

    def dealt_cards(self, seat: int) -> list[int]:
        """A seat's cards as dealt, as hands are shown (by suit, strongest first)."""
        return cards_of(self.dealt[seat])

    def played_by(self, seat: int) -> list[int]:
        """The cards a seat has played, in order."""
        return [card for i, card in enumerate(self.plays) if self.seat_of_play(i) == seat]

    def points(self) -> list[int]:
        """Every seat's points by ``Scoring`` (the deal must be over)."""
        scoring = self.rules.scoring
        return [int(scoring.points(self.bid_of(seat), self.won[seat])) for seat in range(self.players)]

    # --- chance ------------------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, chance)`` of each thing chance may draw now: a hand size, a dealer, a card (its action)."""
        if self.cards == 0:
            return self.moves.size_chances
        if self.dealer < 0:
            return [(seat, 1 / self.players) for seat in range(self.players)]
        taken = set(self.order)
        left = [action for action, card in enumerate(self.moves.ids) if card not in taken]
        return [(action, 1 / len(left)) for action in left]

    def receiver(self) -> int:
        """The seat the next card dealt goes to: from the dealer's left, a card a seat in turn."""
        return (self.dealer + 1 + len(self.order)) % self.players

    def deal(self, action: int) -> None:
        """Apply chance's draw: the hand size, the dealer, the next card dealt, or the turned card."""
        if self.cards == 0:
            self.cards = action
        elif self.dealer < 0:
            self.dealer = action
            self.leader = self.winner = (action + 1) % self.players
        elif len(self.order) < self.cards * self.players:
            card = self.moves.ids[action]
            seat = self.receiver()
            self.dealt[seat] |= 1 << card
            self.held[seat] |= 1 << card
            self.order.append(card)
            if len(self.order) == self.cards * self.players and (self.full or not self.rules.has_trump(self.cards)):
                self.trump_card = card if self.rules.has_trump(self.cards) else NO_TRUMP  # the dealer's last card
        else:
            self.trump_card = self.moves.ids[action]

    # --- the seats' moves --------------------------------------------------------------------------

    def forbidden(self) -> int:
        """The bid the hook rule forbids the bidder now, -1 for none."""
        earlier = np.array([self.bids], np.int64).reshape(1, len(self.bids))
        return int(forbidden_bids(self.rules, self.cards, earlier)[0])

    def legal_cards(self) -> int:
        """The cards the seat to play may play, as a mask (the kernels' ``legal_mask``)."""
        seat = self.current()
        code = PLAY_CODES[self.rules.play_rule]
        hand, led, trumps, beat = (np.uint64(value) for value in (self.held[seat], self.led, self.trumps, self.beat))
        return int(legal_mask(hand, led, trumps, beat, code))

    def legal_actions(self) -> list[int]:
        """The seat to move's actions, ascending: its legal bids or its legal cards (none while dealing or over)."""
        if self.dealing or self.is_over:
            return []
        if self.bidding:
            forbidden = self.forbidden()
            return [self.moves.bid_offset + bid for bid in range(self.cards + 1) if bid != forbidden]
        legal = self.legal_cards()
        return [action for action, card in enumerate(self.moves.ids) if legal >> card & 1]

    def apply(self, action: int) -> None:
        """Apply the move of the seat to move (it must be legal: ``refusal`` says why one is not)."""
        if self.bidding:
            self.bids.append(action - self.moves.bid_offset)
            return
        card = self.moves.ids[action]
        seat = self.current()
        self.held[seat] &= ~(1 << card)
        self.plays.append(card)
        arguments = (np.uint64(1 << card), seat, np.uint64(self.led), np.uint64(self.beat), self.winner)
        led, beat, winner = place_card(*arguments, np.uint64(self.trumps))
        self.led, self.beat, self.winner = int(led), int(beat), int(winner)
        if len(self.plays) % self.players == 0:
            self.won[self.winner] += 1
            self.winners.append(self.winner)
            self.leader = self.winner
            self.led, self.beat = 0, EVERY_CARD

    def refusal(self, action: int) -> str | None:
        """Why the seat to move may not make ``action`` (one line), None when it may."""
        if action in self.legal_actions():
            return None
        offset = self.moves.bid_offset
        if self.bidding:
            if not offset <= action <= offset + self.cards:
                return f"that is not a bid: with {counted(self.cards, 'card')} a bid is 0 to {self.cards}"
            return (
                f"the dealer may not bid {action - offset}: the bids would add up to {self.cards}, "
                "the tricks there are (the hook)"
            )
        if not 0 <= action < offset:
            return "the bids are over: play a card"
        card, seat = self.moves.ids[action], self.current()
        name, legal = self.moves.name(card), self.legal_cards()
        legal_names = " ".join(self.moves.name(other) for other in cards_of(legal))
        if not self.held[seat] >> card & 1:
            return f"{name} is not in your hand"
        led = self.trick_cards()[0]
        suit = self.rules.notation.suit_word(led)
        if any(suit_of(other) == suit_of(led) for other in cards_of(self.held[seat])):
            why = f"you hold {suit}: follow suit" if suit_of(card) != suit_of(led) else "you must beat the trick"
        elif any(self.trumps >> other & 1 for other in cards_of(legal)) and not self.trumps >> card & 1:
            why = f"you have no {suit}: you must trump"
        else:
            why = f"you have no {suit}: you must over-trump"
        return f"{name} may not be played: {why} ({legal_names})"

    # --- what a seat sees, and the deal as data ----------------------------------------------------

    def trump_name(self) -> str | None:
        """The trump card in notation, None without trump (or before it is turned)."""
        return None if self.trump_card in (None, NO_TRUMP) else self.moves.name(self.trump_card)

    def view(self, seat: int | None = None) -> DealView:
        """What ``seat`` (by default the seat to move) sees, as ``pocha.Player`` reads it."""
        seat = self.current() if seat is None else seat
        names = [self.moves.name(card) for card in self.plays]
        hand = [self.moves.name(card) for card in cards_of(self.held[seat])]
        return DealView(seat, self.dealer, hand, self.trump_name(), list(self.bids), names)

    def world(self, seat: int, seed: int) -> list[int]:
        """Every action of a deal ``seat`` cannot tell from this one, drawn from ``seed``: the same moves, other cards.

        The cards the seat has not seen go to the others, each as many as it holds, none a play has ruled
        out: a suit not followed, and under the pocha play rules the cards a seat had to play to beat
        or trump the trick and did not (pimc's sampler, ``kernels.decide.seat_worlds``).
        """
        moves, players, trump_card = self.moves, self.players, self.trump_card
        assert trump_card is not None, "a world is drawn once the deal is dealt"
        work = moves.work
        arguments = (np.uint64(self.dealt[seat]), trump_card, self.dealer, np.zeros(players, np.int64))
        played = np.array(self.plays, np.int64)
        seat_worlds(moves.deal_rules(self.cards), seat, *arguments, played, np.uint64(mix64(np.uint64(seed))), work)
        hands = [cards_of(int(hand)) for hand in work.worlds[0]]
        return dealing_actions(moves, self.dealer, hands, trump_card) + moves_of(moves, self.bids, self.plays)

    def trace_line(self, number: int) -> dict[str, Any]:
        """The finished deal as a ``pocha-trace/3`` deal line (``engine.trace.deal_lines``'s), numbered ``number``."""
        players, tricks = self.players, self.cards
        chunk = Chunk(
            tricks,
            np.array([number], np.int64),
            np.array([self.dealt], np.uint64),
            np.array([self.trump_card], np.int64),
            np.array([self.bids_by_seat()], np.int64),
        )
        leaders = [(self.dealer + 1) % players, *self.winners]
        line = deal_lines(
            self.rules,
            [number],
            chunk,
            np.array(self.plays, np.int64).reshape(1, tricks, players),
            np.array([leaders], np.int64),
            np.array([self.won], np.int64),
            np.array([self.points()], np.int64),
            1,
        )[0]
        line["dealer"] = self.dealer  # the trace's dealer is the deal number's, which a caller may number otherwise
        return line


def line_actions(moves: Moves, line: dict[str, Any]) -> list[int]:
    """Every action of a ``pocha-trace`` deal line, chance's first: the same deal played move by move."""
    parse = moves.rules.notation.parse
    hands = [[parse(card) for card in hand] for hand in line["hands"]]
    trump = NO_TRUMP if line["trump_card"] is None else parse(line["trump_card"])
    bids = [line["bids"][(line["dealer"] + 1 + p) % len(hands)] for p in range(len(hands))]
    plays = [parse(card) for trick in line["tricks"] for card in trick["cards"]]
    every = line["cards"] * len(hands)
    if len(plays) != every:
        raise PochaError(f"trace: deal {line.get('deal')} has {len(plays)} cards played, not {every}")
    return dealing_actions(moves, line["dealer"], hands, trump) + moves_of(moves, bids, plays)


def dealing_actions(moves: Moves, dealer: int, hands: list[list[int]], trump_card: int) -> list[int]:
    """Chance's actions that deal ``hands`` (card ids by seat) and turn ``trump_card`` (NO_TRUMP: none).

    The hand size (when ``moves`` draws it), the dealer, the cards from the dealer's left a card a seat
    in turn (in a full deal the dealer's trump card last), then the turned card.
    """
    players, cards = len(hands), len(hands[0])
    full = cards * players == moves.rules.deck_size
    hands = [list(hand) for hand in hands]
    if full and trump_card != NO_TRUMP:
        hands[dealer].remove(trump_card)
        hands[dealer].append(trump_card)
    dealt = [hands[(dealer + 1 + j) % players][r] for r in range(cards) for j in range(players)]
    turned = [trump_card] if trump_card != NO_TRUMP and not full else []
    drawn = [cards] if len(moves.sizes) > 1 else []
    return [*drawn, dealer, *(moves.action_of[card] for card in dealt + turned)]


def moves_of(moves: Moves, bids: list[int], plays: list[int]) -> list[int]:
    """The seats' actions: the bids in bidding order, then the cards (ids) in play order."""
    return [moves.bid_offset + bid for bid in bids] + [moves.action_of[card] for card in plays]
