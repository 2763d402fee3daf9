"""How much the play tells of the hidden hands, read by the learned play: measured where the truth is known.

Deals are bid by ``expected`` and played by every seat at a play policy, traced. At every card played
after the first trick, the true hands are weighed as a pimc seat reading the play weighs a world
(``kernels.inference``) against worlds drawn blind, as pimc draws them (``kernels.decide.play_evidence``).
The gain, log(weight of the truth / mean weight of the drawn worlds), is how much more probability the
true hands get among worlds weighed by the play than among worlds unweighed: 0 when the play tells
nothing, above 0 when it points at the truth (``benchmarks/play_inference.py`` prints it by hand size).
"""

import numpy as np

from pocha.engine.chunk import collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.policies import PlayPolicy
from pocha.engine.seating import Competitor
from pocha.game.rules import Rules
from pocha.kernels.decide import play_evidence
from pocha.kernels.pimc import scratch
from pocha.kernels.play import DealRules
from pocha.kernels.streams import stream_state
from pocha.strategies.play_models import run_models
from pocha.strategies.registry import load

EVIDENCE_STREAM = 99  # the blind worlds' own random stream (no run draws from it)


def evidence_gains(
    rules: Rules,
    cards: int,
    deals: int,
    worlds: int,
    play: PlayPolicy,
    seed: int,
    reading: tuple[float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(true, drawn)`` for every card played after the first trick of ``deals`` deals of ``cards`` cards.

    true: the log-likelihood of the others' plays under the true hands; drawn: the log of its mean over
    ``worlds`` blind worlds (``kernels.decide.play_evidence``); the gain is their difference. reading:
    (temperature, floor) (None: the table's learned model's fitted one).
    """
    players = rules.players
    chunk = deal_chunk(rules, seed, cards, np.arange(deals, dtype=np.int64))
    seating = np.zeros((1, players), np.int64)
    competitor = Competitor("expected", load("expected")[1], play)
    collect_bids(rules, [competitor], seating, seed, chunk)
    *_, plays, leaders = play_chunk(rules, seed, chunk, seat_policies([competitor], seating), traced=True)
    models = run_models(rules, ("",), (0,))
    model = (models, 0, models.readings[0] if reading is None else np.array(reading, np.float64))
    deal_rules, work = DealRules.of(rules, cards), scratch(worlds, players)
    found = []
    for d in range(deals):
        order = plays[d].reshape(-1)  # the cards in the order played: each trick from its leader on
        state = np.uint64(stream_state(seed, cards, d, EVIDENCE_STREAM))
        for i in range(players, len(order)):
            seat = (leaders[d, i // players] + i % players) % players
            arguments = (chunk.hands[d], chunk.trump_card[d], d % players, chunk.bids[d], order[:i])
            true, drawn, state = play_evidence(deal_rules, seat, *arguments, model, np.uint64(state), work)
            found.append((true, drawn))
    true, drawn = np.array(found).reshape(-1, 2).T
    return true, drawn
