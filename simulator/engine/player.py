"""``pocha.Player``: one seat's next decision, its bid or its card, from what that seat sees of a deal.

A player is a strategy and a play policy, as in a batch run (``expected@pimc``). Given a seat's view
(its hand, the trump card, who deals, the bids so far, the cards played so far), it answers as the
batch engine would in deal number ``deal`` of a run with its seed: the bidding strategy sees the same
``BidContext`` (one row), and the card comes from the same kernels, after the cards played are replayed
(``kernels.decide``). So the same seed gives the same choices.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pocha.engine.confidence import Z95
from pocha.engine.policies import DEFAULT_PLAY, PIMC_SHARPNESS, parse_policy
from pocha.engine.seating import Entrant
from pocha.errors import PochaError
from pocha.game.cards import cards_of, mask_of, suit_of
from pocha.game.rules import Rules, forbidden_bids, trick_winner
from pocha.interrupt import pieces
from pocha.kernels.codes import NO_TRUMP
from pocha.kernels.decide import card_outcomes, card_worlds, seat_card
from pocha.kernels.learned import Model, no_model
from pocha.kernels.pimc import Reading
from pocha.kernels.play import DealRules
from pocha.strategies.base import BidContext, Predicts, checked_bids
from pocha.strategies.heuristics import expected_tables
from pocha.strategies.play_models import run_models
from pocha.words import counted

Cards = str | Sequence[str]
PREDICTION_WORLDS = 400  # worlds a card decision's predictions are drawn over: +-0.05 on a chance, well under 100 ms


@dataclass(frozen=True)
class DealView:
    """What one seat sees of a deal, as a person would write it down.

    Seats are 0..players-1 in playing order; the seat after the dealer bids first and leads first.
    """

    seat: int  # the seat about to decide
    dealer: int  # the dealer's seat
    hand: Cards  # the cards the seat holds now: "AS KH 10D" or ["AS", "KH", "10D"]
    trump: str | None  # the trump card (turned up, or the dealer's last in a full deal); None: a deal without trump
    bids: str | Sequence[int] = ()  # the bids so far, in bidding order from the seat after the dealer: [1, 0] or "1,0"
    played: Cards = ()  # every card played so far, in play order from the first lead ("|" between tricks is allowed)


@dataclass(frozen=True)
class CheckedView:
    """A checked ``DealView`` as ids: the seat's hand as dealt, the trump card, the bids by seat, the cards played."""

    rules: Rules
    seat: int
    dealer: int
    dealt: tuple[int, ...]  # the seat's cards as dealt (held now and played)
    trump_card: int  # NO_TRUMP for a deal without trump
    bids: tuple[int, ...]  # in bidding order
    played: tuple[int, ...]  # in play order

    @property
    def cards(self) -> int:
        """Hand size."""
        return len(self.dealt)

    @property
    def held(self) -> list[int]:
        """The cards the seat holds now, in the order dealt."""
        return [card for card in self.dealt if card not in self.played]

    @property
    def position(self) -> int:
        """The seat's bidding position (0 bids first)."""
        return (self.seat - self.dealer - 1) % self.rules.players

    def bids_by_seat(self) -> np.ndarray:
        """int64[seat]: every seat's bid (all are made when the play starts)."""
        players = self.rules.players
        return np.array([self.bids[(s - self.dealer - 1) % players] for s in range(players)], np.int64)


def card_list(cards: Cards, rules: Rules, what: str) -> list[int]:
    """Card ids of a list written as text (spaces, commas or "|" between cards) or as a sequence of card texts."""
    if not isinstance(cards, str) and not (isinstance(cards, list | tuple) and all(isinstance(c, str) for c in cards)):
        raise PochaError(f'{what}: cards as text ("AS KH 10D") or a list of card texts, not {cards!r}')
    text = cards if isinstance(cards, str) else " ".join(cards)
    try:
        return rules.notation.parse_list(text.replace("|", " "))
    except PochaError as error:
        raise PochaError(f"{what}: {error}") from None


def check_tricks(rules: Rules, played: Cards) -> None:
    """Refuse bars between the cards played that do not fall between tricks."""
    if isinstance(played, str) and "|" in played:
        for trick in played.split("|")[:-1]:
            if len(trick.replace(",", " ").split()) != rules.players:
                raise PochaError(
                    f"played: a trick has {rules.players} cards, not '{trick.strip()}'; bars go between tricks"
                )


def check_follows(rules: Rules, played: list[int], seats: list[int], seat: int, hand: list[int]) -> None:
    """Refuse a seat that plays (or holds) a suit it has shown it has not: it did not follow that suit before."""
    players, notation = rules.players, rules.notation
    lacking: list[set[int]] = [set() for _ in range(players)]
    for start in range(0, len(played), players):
        led = suit_of(played[start])
        for card, who in zip(played[start : start + players], seats[start : start + players], strict=False):
            if suit_of(card) in lacking[who]:
                raise PochaError(
                    f"played: seat {who} plays {notation.name(card)} after showing it had no "
                    f"{notation.suit_word(card)} (it did not follow them)"
                )
            if suit_of(card) != led:
                lacking[who].add(led)
    shown = [card for card in hand if suit_of(card) in lacking[seat]]
    if shown:
        raise PochaError(
            f"hand: holds {notation.name(shown[0])} though it did not follow {notation.suit_word(shown[0])} before"
        )


def read_view(rules: Rules, view: DealView, word: str = "seat") -> CheckedView:
    """Check a seat's view as a careful player would (each mistake one line) and give it as ids.

    word: what the messages call a seat ("position" where seats are numbered by bidding position).
    """
    players = rules.players
    if not isinstance(view, DealView):
        raise PochaError(f"view: a pocha.DealView(seat, dealer, hand, trump, bids, played), not {view!r}")
    for name, called in (("seat", word), ("dealer", "dealer")):
        value = getattr(view, name)
        if not isinstance(value, int | np.integer) or isinstance(value, bool) or not 0 <= value < players:
            raise PochaError(f"{called}: {value!r} is not a {word}; {players} players sit at {word}s 0..{players - 1}")
    if not isinstance(view.trump, str | None):
        raise PochaError(f'trump: a card as text ("7H"), or None for no trump; not {view.trump!r}')
    hand, played = card_list(view.hand, rules, "hand"), card_list(view.played, rules, "played")
    check_tricks(rules, view.played)
    repeated = sorted({rules.notation.name(c) for c in hand + played if (hand + played).count(c) > 1})
    if repeated:
        raise PochaError(f"cards: {', '.join(repeated)} appears more than once in the hand and the cards played")
    mano = (view.dealer + 1) % players
    given = given_trump(view.trump)
    trump = -1 if given is None else rules.notation.parse(given) >> 4
    *seats, next_seat = turn_order(rules, mano, played, trump)
    own_played = [card for card, who in zip(played, seats, strict=True) if who == view.seat]
    dealt = tuple(hand + own_played)
    cards = len(dealt)
    if not 1 <= cards <= rules.full_deal:
        raise PochaError(
            f"hand: {counted(cards, 'card')} dealt, but {players} players with {rules.deck_size} cards hold "
            f"1..{rules.full_deal}"
        )
    check_follows(rules, played, seats, view.seat, hand)
    others = [card for card, who in zip(played, seats, strict=True) if who != view.seat]
    trump_card = read_trump(rules, view.trump, list(dealt), view.seat == view.dealer, others)
    bids = bid_list(view.bids)
    if len(bids) > players or any(not 0 <= b <= cards for b in bids):
        raise PochaError(f"bids: {list(bids)} are not up to {players} bids of 0..{cards}")
    if len(bids) == players:
        forbidden = forbidden_bids(rules, cards, np.array([bids[:-1]], np.int64))[0]
        if bids[-1] == forbidden:
            raise PochaError(f"bids: the dealer may not bid {forbidden} (the bids would make {cards}, the hook)")
    if len(bids) < players and played:
        raise PochaError(f"played: the play starts when every seat has bid ({len(bids)} of {players} have)")
    if len(played) >= cards * players:
        raise PochaError(f"played: all {cards * players} cards of the deal are played; nothing is left to decide")
    who = (view.dealer + 1 + len(bids)) % players if len(bids) < players else next_seat
    if who != view.seat:
        raise PochaError(f"{word}: it is {word} {who}'s turn, not {word} {view.seat}'s")
    return CheckedView(rules, view.seat, view.dealer, dealt, trump_card, bids, tuple(played))


def bid_list(bids: str | Sequence[int]) -> tuple[int, ...]:
    """Bids written as text ("1,0 2") or given as whole numbers."""
    words = (
        bids.replace(",", " ").split() if isinstance(bids, str) else bids if isinstance(bids, list | tuple) else None
    )
    if words is None or not all(
        (isinstance(w, int | np.integer) and not isinstance(w, bool)) or (isinstance(w, str) and w.isdigit())
        for w in words
    ):
        raise PochaError(f"bids: {bids!r} is not a list of whole numbers such as 1,0,2")
    return tuple(int(word) for word in words)


def turn_order(rules: Rules, mano: int, played: list[int], trump: int) -> list[int]:
    """The seat of each card played, and after them the seat to play next (trump: the suit, -1 for none)."""
    players, seats, leader = rules.players, [], mano
    for start in range(0, len(played) + 1, players):
        trick = played[start : start + players]
        seats += [(leader + j) % players for j in range(len(trick))]
        if len(trick) == players:
            leader = (leader + trick_winner(trick, trump)) % players
    return [*seats, (leader + len(played) % players) % players]


def given_trump(trump: str | None) -> str | None:
    """The trump card as written, None for none ("none" is written for it too)."""
    return None if trump is None or trump.strip().lower() == "none" else trump


def read_trump(rules: Rules, trump: str | None, own: list[int], dealer: bool, others: Sequence[int] = ()) -> int:
    """The trump card's id (NO_TRUMP in a deal without trump), checked to be where it can lie.

    own: the seat's cards as dealt (held and played); dealer: the seat deals; others: the cards the
    other seats played. "none" is no trump card, as None is.
    """
    trump = given_trump(trump)
    if not rules.has_trump(len(own)):
        if trump is not None:
            raise PochaError(
                f"trump: under full-deal-trump none a full deal has no trump; leave out the trump card {trump}"
            )
        return NO_TRUMP
    if trump is None:
        raise PochaError("trump: give the trump card: the turned-up card, or the dealer's last in a full deal")
    try:
        card = rules.notation.parse(trump)
    except PochaError as error:
        raise PochaError(f"trump: {error}") from None
    name = rules.notation.name(card)
    full = len(own) * rules.players == rules.deck_size
    if not full and card in [*own, *others]:
        raise PochaError(
            f"trump: {name} is held or played, but in a deal that is not full the turned-up card is nobody's"
        )
    if full and dealer and card not in own:
        raise PochaError(f"trump: in a full deal the dealer's last card names trump: {name} must be in your hand")
    if full and not dealer and card in own:
        raise PochaError(f"trump: in a full deal the trump card {name} is the dealer's, not yours")
    return card


class Decider:
    """One player of a batch run, deciding alone: ``decide(view)`` gives its bid or its card and what it expects."""

    def __init__(self, spec: str, rules: Rules, seed: int = 0) -> None:
        if not isinstance(spec, str):
            raise PochaError(f"player: a spec such as 'montecarlo@pimc', not {spec!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise PochaError(f"seed: must be a whole number from 0 to 2**63 - 1, not {seed!r}")
        self.entrant = Entrant.of(spec)
        self.rules = rules
        self.seed = seed
        self.policy = self.entrant.policy or parse_policy(DEFAULT_PLAY)  # as in a run whose seats name no play

    def decide(self, view: DealView, deal: int | None = None, predict: bool = True) -> "Decision":
        """The seat's next decision, as in deal number ``deal`` of a run with this seed.

        A bid while some seat has not bid, else a card; it must be the seat's turn. deal: None for the
        first deal with the view's dealer (deal ``d`` is dealt by seat ``d % players``). predict: also
        say what each choice promises (a card's take about a millisecond: a bot may leave them out).
        """
        if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < 2**62):
            raise PochaError(f"deal: a deal number is a whole number from 0 to 2**62, not {deal!r}")
        situation = read_view(self.rules, view)
        number = situation.dealer if deal is None else deal
        if number % self.rules.players != situation.dealer:
            raise PochaError(
                f"deal: deal {number} is dealt by seat {number % self.rules.players}, not {situation.dealer}"
            )
        if len(situation.bids) < self.rules.players:
            return self.bid(situation, number, predict)
        return self.card(situation, number, predict)

    def context(self, situation: CheckedView, number: int, rows: int = 1) -> BidContext:
        """The bidder's ``BidContext`` as the batch builds it, its one deal repeated ``rows`` times."""
        s, k = situation, situation.cards
        earlier = np.array([s.bids] * rows, np.int64).reshape(rows, s.position)
        return BidContext(
            rules=self.rules,
            cards=k,
            position=s.position,
            hands=np.full(rows, mask_of(s.dealt), np.uint64),
            trump_card=np.full(rows, s.trump_card, np.int64),
            earlier_bids=earlier,
            forbidden=forbidden_bids(self.rules, k, earlier),
            seed=self.seed,
            numbers=np.full(rows, number, np.int64),
            policy=self.policy.label,
        )

    def bid(self, situation: CheckedView, number: int, predict: bool) -> "Decision":
        """The strategy's bid and, if it predicts, the expected points of every bid."""
        ctx = self.context(situation, number)
        choice = int(checked_bids(self.entrant.label, self.entrant.strategy, ctx)[0])
        k, forbidden = situation.cards, int(ctx.forbidden[0])
        rows: dict[str, Any] = {"bid": list(range(k + 1)), "legal": [b != forbidden for b in range(k + 1)]}
        if predict and isinstance(self.entrant.strategy, Predicts):
            every = self.context(situation, number, k + 1)
            predicted = self.entrant.strategy.predict(every, np.arange(k + 1))
            for name in ("tricks", "points"):
                values = getattr(predicted, name)
                rows[f"expected_{name}"] = np.full(k + 1, np.nan) if values is None else values
        return Decision("bid", choice, rows)

    def card(self, situation: CheckedView, number: int, predict: bool) -> "Decision":
        """The card the seat's play policy plays, and each legal card's chance to make the bid and expected points."""
        s, policy = situation, self.policy
        setting = (
            policy.code,
            policy.samples,
            int(policy.exhaustive),
            policy.sharpness,
            policy.solve,
            int(policy.paranoid),
            policy.rollout_code,
            int(policy.infer == "play"),
        )
        deal_rules = deal_rules_of(self.rules, s.cards, policy.sharpness)
        inferring = (0,) if policy.infer == "play" else ()
        models = run_models(self.rules, (policy.model,), inferring) if policy.uses_model else no_model()
        card = seat_card(self.seed, number, deal_rules, setting, models, *seat_arguments(s))
        sharpness = policy.sharpness if policy.name == "pimc" else PIMC_SHARPNESS
        rollout = models if policy.rollout == "learned" else no_model()
        predictions = card_predictions(s, self.seed, number, PREDICTION_WORLDS, sharpness, rollout) if predict else {}
        return Decision("card", self.rules.notation.name(int(card)), predictions)


def deal_rules_of(rules: Rules, cards: int, sharpness: float) -> DealRules:
    """The kernels' ``DealRules`` of a deal whose seats read the bids with ``sharpness`` (0: not at all)."""
    return DealRules.of(rules, cards, Reading(np.full((1, rules.players), sharpness), *expected_tables(rules, cards)))


def seat_arguments(s: CheckedView) -> tuple[Any, ...]:
    """What ``kernels.decide`` takes of a situation: seat, hand dealt, trump, dealer, bids by seat, cards played."""
    played = np.array(s.played, np.int64)
    return s.seat, np.uint64(mask_of(s.dealt)), s.trump_card, s.dealer, s.bids_by_seat(), played


def card_predictions(
    s: CheckedView,
    seed: int,
    number: int,
    worlds: int,
    sharpness: float,
    rollout: Model | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Per legal card, in hand order: the chance to make the bid and the expected points, with 95% half-widths.

    Over ``worlds`` worlds consistent with the seat's view, drawn as pimc draws them reading the bids
    with ``sharpness``; in each, the card is played and every seat finishes the deal greedy, or by the
    learned play of ``rollout``'s model. The worlds are played a piece at a time (``pieces``: a signal
    stops them within one); progress: told the worlds each piece played.
    """
    out = np.zeros((64, 3))
    rules = deal_rules_of(s.rules, s.cards, sharpness)
    models = no_model() if rollout is None else rollout
    arguments = seat_arguments(s)
    drawn = np.empty((worlds, s.rules.players), np.uint64)
    legal = card_worlds(seed, number, rules, sharpness, *arguments, drawn)
    for first, last in pieces(worlds):
        card_outcomes(rules, *arguments, models, drawn[first:last], out)
        if progress is not None:
            progress(last - first)
    cards = cards_of(int(legal))
    exact, points, squares = (out[cards] / worlds).T
    spread = np.sqrt(np.maximum(squares - points**2, 0.0))
    return {
        "card": [s.rules.notation.name(card) for card in cards],
        "make_chance": exact,
        "make_error": Z95 * np.sqrt(exact * (1 - exact) / worlds),
        "expected_points": points,
        "points_error": Z95 * spread / np.sqrt(worlds),
    }


@dataclass(frozen=True)
class Decision:
    """A player's decision: ``kind`` ("bid" or "card"), its ``choice``, and what it expects of each choice."""

    kind: str
    choice: int | str  # the bid, or the card in notation
    predictions: dict[str, Any]  # column -> values, one per candidate

    @property
    def table(self) -> Any:
        """The predictions as a pandas DataFrame, one row per candidate."""
        import pandas as pd

        return pd.DataFrame(self.predictions)
