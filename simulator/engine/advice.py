"""``pocha advise``: what to bid with a given hand, or which card to play, by Monte Carlo play-outs of the deal."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pocha.engine.confidence import Z95
from pocha.engine.player import CheckedView, DealView, bid_list, card_list, card_predictions, read_trump, read_view
from pocha.engine.policies import GREEDY, PlayPolicy
from pocha.errors import PochaError
from pocha.game.cards import mask_of
from pocha.game.rules import Rules, forbidden_bids
from pocha.kernels.codes import NO_TRUMP
from pocha.strategies.base import BidContext, Strategy, best_legal
from pocha.strategies.play_models import run_models
from pocha.strategies.playouts import check_solve, expected_points, play_outs
from pocha.words import counted

MOST_PLAYOUTS = 10**7  # play-outs per candidate bid


@dataclass(frozen=True)
class Situation:
    """A bidder's view: its hand, the trump card, its bidding position and the bids made before it."""

    rules: Rules
    hand: tuple[int, ...]  # card ids
    trump_card: int  # NO_TRUMP in a deal without trump
    position: int  # players who bid before (0 = bids first and leads; players - 1 = the dealer)
    bids: tuple[int, ...]  # bids made before, in bidding order

    @property
    def cards(self) -> int:
        """Hand size."""
        return len(self.hand)

    @property
    def forbidden(self) -> int:
        """The bid the hook rule forbids here, -1 for none."""
        earlier = np.array([self.bids], np.int64).reshape(1, self.position)
        return int(forbidden_bids(self.rules, self.cards, earlier)[0])

    def check_bid(self, bid: int) -> None:
        """Refuse a bid this bidder may not make."""
        if not 0 <= bid <= self.cards:
            raise PochaError(f"bid: {bid} is not a bid with {counted(self.cards, 'card')} (0..{self.cards})")
        if bid == self.forbidden:
            raise PochaError(
                f"bid: {bid} is forbidden to the dealer: with the bids before it would make {self.cards}, "
                "the number of tricks"
            )


def read_situation(rules: Rules, hand: str, trump: str | None, position: int, bids: str) -> Situation:
    """Parse and check a bidder's view as a careful player would; each mistake is one clear line.

    trump: the trump card; None for a deal without trump (a full deal under full-deal-trump none).
    """
    notation = rules.notation
    ids = card_list(hand, rules, "hand")
    names = [notation.name(c) for c in ids]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise PochaError(f"hand: {', '.join(repeated)} appears more than once")
    if not ids:
        raise PochaError(f'hand: no card given; write cards like "{notation.pack.example}"')
    if len(ids) > rules.full_deal:
        raise PochaError(
            f"hand: {counted(len(ids), 'card')}, but {rules.players} players with {rules.deck_size} cards "
            f"hold 1..{rules.full_deal}"
        )
    if not 0 <= position < rules.players:
        raise PochaError(
            f"position: {position} is not a bidding position; with {rules.players} players "
            f"0..{rules.players - 1} (how many bid before you)"
        )
    trump_card = read_trump(rules, trump, ids, position == rules.players - 1)
    earlier = bid_list(bids)
    if len(earlier) != position:
        raise PochaError(
            f"bids: position {position} means {counted(position, 'bid')} before yours; {len(earlier)} given"
        )
    wrong = [b for b in earlier if not 0 <= b <= len(ids)]
    if wrong:
        raise PochaError(f"bids: {wrong[0]} is not a bid with {counted(len(ids), 'card')} (0..{len(ids)})")
    return Situation(rules, tuple(ids), trump_card, position, earlier)


@dataclass(frozen=True)
class Advice:
    """Play-out results for one situation (arrays indexed by bid or by tricks 0..k), and the model they assume."""

    situation: Situation
    samples: int
    effective: float  # what the weighted play-outs are worth in equally weighted ones (samples when not reading)
    rollout: str  # how every seat plays the play-outs
    assume: str  # the strategy spec the other bidders are taken to bid by
    sharpness: float  # how sharply the earlier bids are read through it (0: not read)
    recommended: int
    points: np.ndarray  # float64[bid]: expected points (NaN for the forbidden bid)
    points_error: np.ndarray  # float64[bid]: half-width of its 95% interval
    exact: np.ndarray  # float64[bid]: chance of taking exactly that many tricks when bidding it
    tricks: np.ndarray  # float64[tricks]: chance of each trick count, playing to the recommended bid
    tricks_error: np.ndarray  # float64[tricks]: half-width of its 95% interval
    asked: int | None = None  # a bid the user singled out
    solve: int = 0  # the last tricks of each greedy play-out solved exactly, every hand open

    @property
    def model(self) -> str:
        """The assumptions behind the figures, in words."""
        reading = (
            f"the earlier bids read as {self.assume}'s, a bid d away from its bid exp(-{self.sharpness:g} d) as likely"
            if self.sharpness > 0
            else "the earlier bids not read"
        )
        later = "answering your bid" if self.sharpness > 0 else f"seeing {self.assume}'s bid in your place"
        solved = f", the last {counted(self.solve, 'trick')} solved with every hand open" if self.solve else ""
        return f"{reading}; later bidders bid as {self.assume}, {later}; every seat plays {self.rollout}{solved}"

    def to_frame(self) -> Any:
        """One row per bid: bid, legal, exact_chance, expected_points, error (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self.to_dict()["bids"])

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--format json``."""
        s = self.situation
        return {
            "hand": [s.rules.notation.name(c) for c in s.hand],
            "trump_card": None if s.trump_card == NO_TRUMP else s.rules.notation.name(s.trump_card),
            "position": s.position,
            "bids_before": list(s.bids),
            "forbidden_bid": s.forbidden if s.forbidden >= 0 else None,
            "samples": self.samples,
            "effective_samples": self.effective,
            "model": {
                "assume": self.assume,
                "sharpness": self.sharpness,
                "play": self.rollout,
                "solve": self.solve,
                "text": self.model,
            },
            "interval": "95%: each error is the half-width of a 95% interval (sampling noise under the model)",
            "recommended_bid": self.recommended,
            "tricks": [
                {"tricks": t, "chance": p, "error": e}
                for t, (p, e) in enumerate(zip(self.tricks, self.tricks_error, strict=True))
            ],
            "bids": [
                {
                    "bid": b,
                    "legal": b != s.forbidden,
                    "exact_chance": x,
                    "expected_points": None if np.isnan(p) else p,
                    "error": None if np.isnan(p) else e,
                }
                for b, (x, p, e) in enumerate(zip(self.exact, self.points, self.points_error, strict=True))
            ],
        }


def advise(
    situation: Situation,
    *,
    samples: int,
    seed: int,
    rollout: str,
    assume: tuple[str, Strategy],
    sharpness: float,
    asked: int | None = None,
    solve: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Advice:
    """Play the situation out ``samples`` times per candidate bid and weigh the bids; ``asked``: a bid to single out.

    assume: the others' strategy (its spec and itself); sharpness: how sharply the earlier bids are
    read through it (0: not read); solve: the last tricks of each play-out solved exactly (greedy
    only); progress: told the play-outs each piece finished. See ``play_outs``.
    """
    if not 2 <= samples <= MOST_PLAYOUTS:
        raise PochaError(f"samples: must be from 2 to {MOST_PLAYOUTS:,}, not {samples:,}")
    if not sharpness >= 0:
        raise PochaError(f"sharpness: must be 0 or more, not {sharpness}")
    if asked is not None:
        situation.check_bid(asked)
    check_solve(solve, rollout, "advise", "--play ")
    s, rules, k = situation, situation.rules, situation.cards
    ctx = BidContext(
        rules=rules,
        cards=k,
        position=s.position,
        hands=np.array([mask_of(s.hand)], np.uint64),
        trump_card=np.array([s.trump_card], np.int64),
        earlier_bids=np.array([s.bids], np.int64).reshape(1, s.position),
        forbidden=np.array([s.forbidden], np.int64),
        seed=seed,
        numbers=np.array([rules.players - 1], np.int64),  # deal players - 1: the dealer sits last
        policy=rollout,
    )
    found = play_outs(ctx, samples, assume[1], rollout, sharpness, solve=solve, progress=progress)
    effective = float(found.effective[0])
    points = expected_points(found.counts, rules, k)
    recommended = int(best_legal(points, ctx.forbidden)[0])
    grid = rules.scoring.points_grid(k)
    chances = found.counts[0] / found.counts[0].sum(axis=1, keepdims=True)  # [bid, tricks]
    spread = np.sqrt(np.maximum((chances * grid**2).sum(axis=1) - points[0] ** 2, 0.0))
    legal = np.arange(k + 1) != s.forbidden
    tricks = chances[recommended]
    return Advice(
        situation=s,
        samples=samples,
        effective=effective,
        rollout=rollout,
        assume=assume[0],
        sharpness=sharpness,
        recommended=recommended,
        points=np.where(legal, points[0], np.nan),
        points_error=np.where(legal, Z95 * spread / np.sqrt(effective), np.nan),
        exact=np.diagonal(chances).copy(),
        tricks=tricks,
        tricks_error=Z95 * np.sqrt(tricks * (1 - tricks) / effective),
        asked=asked,
        solve=solve,
    )


MOST_CARD_SAMPLES = 10**5  # worlds a card's advice is drawn over (each held in memory while its cards are played)


@dataclass(frozen=True)
class CardAdvice:
    """What each card a seat may play now promises: its chance to make the seat's bid and its expected points."""

    situation: CheckedView
    samples: int  # worlds drawn
    sharpness: float  # how sharply the bids are read (0: not read)
    predictions: dict[str, Any]  # ``card_predictions``' columns, one entry per legal card in hand order
    rollout: str = "greedy"  # how every seat plays the worlds out

    @property
    def recommended(self) -> str:
        """The card with the most expected points (the first in hand order on a tie)."""
        return str(self.predictions["card"][int(np.argmax(self.predictions["expected_points"]))])

    @property
    def model(self) -> str:
        """The assumptions behind the figures, in words."""
        reading = (
            f"the bids read as the expected strategy's, a bid d away from its bid exp(-{self.sharpness:g} d) as likely"
            if self.sharpness > 0
            else "the bids not read"
        )
        return (
            f"the hidden cards dealt as what you have seen allows, {reading}; after your card every seat plays "
            f"{self.rollout}"
        )

    def to_frame(self) -> Any:
        """One row per legal card: card, make_chance, make_error, expected_points, points_error (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self.predictions)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--format json``."""
        s, notation = self.situation, self.situation.rules.notation
        columns = self.predictions
        return {
            "hand": [notation.name(c) for c in s.held],
            "trump_card": None if s.trump_card == NO_TRUMP else notation.name(s.trump_card),
            "position": s.position,
            "bids": list(s.bids),
            "played": [notation.name(c) for c in s.played],
            "samples": self.samples,
            "model": {"sharpness": self.sharpness, "text": self.model},
            "interval": "95%: each error is the half-width of a 95% interval (sampling noise under the model)",
            "recommended_card": self.recommended,
            "cards": [
                {name: (value if name == "card" else float(value)) for name, value in zip(columns, row, strict=True)}
                for row in zip(*columns.values(), strict=True)
            ],
        }


def advise_card(
    rules: Rules,
    view: DealView,
    *,
    samples: int,
    sharpness: float,
    seed: int,
    rollout: PlayPolicy = GREEDY,
    progress: Callable[[int], None] | None = None,
) -> CardAdvice:
    """Weigh every card the seat of ``view`` may play now over ``samples`` worlds (``card_predictions``).

    rollout: how every seat finishes each world, greedy or learned; progress: told the worlds each piece played.
    """
    if rollout.name not in ("greedy", "learned"):
        raise PochaError(f"play: card advice plays its worlds out greedy or learned, not '{rollout.label}'")
    if not isinstance(samples, int) or isinstance(samples, bool) or not 2 <= samples <= MOST_CARD_SAMPLES:
        shown = f"{samples:,}" if isinstance(samples, int) else repr(samples)
        raise PochaError(
            f"samples: card advice draws a whole number of worlds from 2 to {MOST_CARD_SAMPLES:,}, not {shown}"
        )
    if not isinstance(sharpness, int | float) or not 0 <= sharpness < float("inf"):
        raise PochaError(f"sharpness: must be a number from 0 up, not {sharpness!r}")
    given = len(bid_list(view.bids))
    if given != rules.players:
        raise PochaError(
            f"bids: the play starts when every seat has bid; give all {rules.players} bids in bidding order "
            f"({given} given), or leave out --played to be advised on your bid"
        )
    situation = read_view(rules, view, "position")
    models = run_models(rules, (rollout.model,)) if rollout.name == "learned" else None
    predictions = card_predictions(situation, seed, view.dealer, samples, sharpness, models, progress)
    return CardAdvice(situation, samples, sharpness, predictions, rollout.label)
