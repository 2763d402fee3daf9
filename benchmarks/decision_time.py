"""Milliseconds a decision at OpenSpiel's ``oh_hell`` table, every seat the same player.

    python benchmarks/decision_time.py GAME SIZES DEALS REPEATS PLAYER...

PLAYER: ``cpp:N`` (OpenSpiel's C++ ``ISMCTSBot``, N simulations, its own resampler), ``ismcts:...``
(the Python ``ISMCTSBot`` as ``pocha match --against`` seats it), or a pocha player spec. Each
repeat plays DEALS deals of every size in SIZES (other deals each repeat) and counts every decision,
forced ones too, as a match counts them; the figure is the median of the repeats' means, in wall
time and in the process's CPU time (which other work on a shared machine moves less). It also gives
the mean wall time of the bids and of the cards with a choice alone. Run with ``NUMBA_NUM_THREADS=1``;
one untimed deal first loads a pocha player's compiled code.
"""

import statistics
import sys
import time

import pyspiel

import pocha
from pocha import openspiel as o


def bots_of(spec: str, game: "pyspiel.Game", seed: int) -> list["pyspiel.Bot"]:
    """One bot a seat: the C++ IS-MCTS, the Python one, or a pocha player."""
    players = game.num_players()
    if spec.startswith("cpp:"):
        simulations = int(spec.partition(":")[2])
        return [
            pyspiel.ISMCTSBot(
                seed + seat,
                pyspiel.RandomRolloutEvaluator(1, seed + seat),
                2.0,
                simulations,
                -1,
                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                False,
                False,
            )
            for seat in range(players)
        ]
    if spec.startswith("ismcts"):
        search = o.Search.of(spec.partition(":")[2])
        return [search.bot(game, seed + seat) for seat in range(players)]
    player = pocha.Player(spec, o.rules_for(game), seed=seed, learn_tables=True)  # learned in the untimed deal
    return [o.PochaBot(player, game, seed * players + dealer_of(game, seed)) for _ in range(players)]


def dealer_of(game: "pyspiel.Game", deal: int) -> int:
    """The dealer of deal ``deal`` (seed 1)."""
    return o.deal_chance(game, 1, deal)[1]


def timed_deal(game: "pyspiel.Game", spec: str, deal: int) -> tuple[dict[str, list[float]], float]:
    """Seconds of every decision of one deal, by kind (bids, cards with a choice, forced cards), and the CPU seconds."""
    state = game.new_initial_state()
    for action in o.deal_chance(game, 1, deal):
        state.apply_action(action)
    bots, bid_from = bots_of(spec, game, deal), o.deck_size(game)
    seconds: dict[str, list[float]] = {"bid": [], "card": [], "forced": []}
    cpu = time.process_time()
    while not state.is_terminal():
        legal = state.legal_actions()
        kind = "bid" if legal[0] >= bid_from else ("card" if len(legal) > 1 else "forced")
        start = time.perf_counter()
        action = bots[state.current_player()].step(state)
        seconds[kind].append(time.perf_counter() - start)
        state.apply_action(action)
    return seconds, time.process_time() - cpu


def main(game_text: str, sizes: str, deals: str, repeats: str, *specs: str) -> None:
    """Print each player's ms a decision at every hand size."""
    base = game_text.rstrip(")") + ("," if "(" in game_text else "(")
    for spec in specs:
        for cards in map(int, sizes.split(",")):
            game = o.load_game(f"{base}num_tricks_fixed={cards})")
            timed_deal(game, spec, 10_000)  # untimed: compiled code loaded
            means, cpus, kinds = [], [], {"bid": [], "card": []}
            for repeat in range(int(repeats)):
                every, cpu = [], 0.0
                for deal in range(repeat * int(deals), (repeat + 1) * int(deals)):
                    seconds, spent = timed_deal(game, spec, deal)
                    every += sum(seconds.values(), [])
                    cpu += spent
                    for kind in kinds:
                        kinds[kind] += seconds[kind]
                means.append(statistics.fmean(every))
                cpus.append(cpu / len(every))
            parts = ", ".join(f"{kind}s {1e3 * statistics.fmean(v):.2f}" for kind, v in kinds.items() if v)
            print(
                f"{spec}  {cards} cards: {1e3 * statistics.median(means):.2f} ms a decision, "
                f"{1e3 * statistics.median(cpus):.2f} ms CPU ({parts})",
                flush=True,
            )


if __name__ == "__main__":
    main(*sys.argv[1:])
