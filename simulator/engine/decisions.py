"""Every decision of a traced deal as its seat saw it, and how long a ``Player`` takes to make them.

``pocha bench --decisions`` prints the times.
"""

import io
import json
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pocha.engine.player import DealView, Decider
from pocha.engine.policies import GREEDY
from pocha.engine.runner import Outputs
from pocha.engine.seating import Entrant, Lineup
from pocha.engine.simulate import Deals, simulate
from pocha.game.rules import Rules

DECISION_PLAYERS = ("expected", "table@pimc", "montecarlo", "montecarlo@pimc")  # from the quickest to the strongest


def decision_views(deal: dict[str, Any]) -> Iterator[tuple[str, DealView, int | str]]:
    """Each decision of a ``pocha-trace`` deal line, in order: "bid" or "card", the deciding seat's view, its choice."""
    players, dealer = deal["players"], deal["dealer"]
    in_order = [deal["bids"][(dealer + 1 + p) % players] for p in range(players)]
    for p, bid in enumerate(in_order):
        seat = (dealer + 1 + p) % players
        yield "bid", DealView(seat, dealer, deal["hands"][seat], deal["trump_card"], in_order[:p]), bid
    held = [list(hand) for hand in deal["hands"]]
    played: list[str] = []
    for trick in deal["tricks"]:
        for j, card in enumerate(trick["cards"]):
            seat = (trick["leader"] + j) % players
            yield "card", DealView(seat, dealer, list(held[seat]), deal["trump_card"], in_order, list(played)), card
            held[seat].remove(card)
            played.append(card)


@dataclass(frozen=True)
class DecisionTime:
    """Seconds a player took over the decisions of one kind."""

    player: str
    kind: str  # "bid" or "card"
    seconds: list[float]

    @property
    def median(self) -> float:
        """The median decision's seconds."""
        return statistics.median(self.seconds)

    @property
    def slowest(self) -> float:
        """The 95th percentile's seconds (the slow decisions, the first one's compile aside)."""
        return statistics.quantiles(self.seconds, n=20)[-1]


def decision_times(
    rules: Rules, cards: int, deals: int, specs: Sequence[str] = DECISION_PLAYERS
) -> Iterator[DecisionTime]:
    """Time each player's every decision of ``deals`` deals of ``cards`` cards, all seats playing it, one thread.

    The deals are played by the batch engine first (traced), then asked again of the player seat by
    seat. One decision is made before the clock starts: the first compiles or loads the kernels.
    Each player's times come as they are measured (the eight players take seconds in all).
    """
    for spec in specs:
        stream = io.StringIO()
        lineup = Lineup(tuple(Entrant.of(spec) for _ in range(rules.players)))
        simulate(
            Deals(rules=rules, lineup=lineup, cards=(cards,), deals_per_size=deals, seed=1, policy=GREEDY),
            Outputs(trace=stream),
        )
        player = Decider(spec, rules, seed=1)
        seconds: dict[str, list[float]] = {"bid": [], "card": []}
        lines = [json.loads(line) for line in stream.getvalue().splitlines()[1:]]
        first = next(decision_views(lines[0]))
        player.decide(first[1], lines[0]["deal"])
        for deal in lines:
            for kind, view, _ in decision_views(deal):
                start = time.perf_counter()
                player.decide(view, deal["deal"])
                seconds[kind].append(time.perf_counter() - start)
        yield from (DecisionTime(player.entrant.label, kind, values) for kind, values in seconds.items())
