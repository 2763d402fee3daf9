"""A stand-in of ``pocha.Player`` until it lands: the same shape, a plain deterministic player."""

from dataclasses import dataclass, field
from typing import Any

from pocha.game.cards import suit_of
from pocha.game.rules import Rules


@dataclass(frozen=True)
class DealView:
    seat: int
    dealer: int
    hand: Any
    trump: str | None
    bids: list[int] = field(default_factory=list)
    played: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Decision:
    kind: str
    choice: Any
    table: Any = None


class Player:
    """Bids its share of the tricks (not the hooked bid), plays its weakest legal card."""

    def __init__(self, spec: str, rules: Rules, seed: int = 0) -> None:
        self.spec, self.rules, self.seed = spec, rules, seed

    def decide(self, view: DealView) -> Decision:
        notation, players = self.rules.notation, self.rules.players
        hand = [notation.parse(card) for card in view.hand]
        if len(view.bids) < players:
            assert (view.dealer + 1 + len(view.bids)) % players == view.seat
            bid = round(len(hand) / players)
            if len(view.bids) == players - 1 and sum(view.bids) + bid == len(hand):
                bid = bid + 1 if bid == 0 else bid - 1
            return Decision("bid", bid)
        on_trick = len(view.played) % players
        led = suit_of(notation.parse(view.played[-on_trick])) if on_trick else None
        following = [card for card in hand if suit_of(card) == led]
        return Decision("card", notation.name(min(following or hand, key=lambda card: card % 16)))
