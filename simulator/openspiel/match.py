"""A match: a pocha player against OpenSpiel's players (or another pocha player), every deal once per seat.

``pocha match`` plays it (``pocha.api.match``), in ``oh_hell`` or ``pocha``: each side seats a bot
(``Side``), every deal's chance outcomes are drawn from the seed alone, and the deals' rows make a
``reports.match.Match``.
"""

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyspiel

from pocha.engine.player import Decider
from pocha.errors import PochaError
from pocha.openspiel.algorithms import Search
from pocha.openspiel.bots import PochaBot
from pocha.openspiel.games import OH_HELL, SIZE_PARAMETER, deck_size, is_pocha, load_game, most_tricks, rules_for
from pocha.reports.match import DEAL_COLUMNS, Match
from pocha.words import counted

BOTS = ("ismcts", "uniform")  # OpenSpiel's players a match seats by name: IS-MCTS and the uniform random bot


# --- a match ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a match: its label, and the bot it seats for a game, a player id, the deal's number and a seed."""

    label: str
    seat: Callable[["pyspiel.Game", int, int, int], "pyspiel.Bot"]


def pocha_side(player: Decider) -> Side:
    """A pocha player, seated as a PochaBot wherever its side sits (its choices fixed by its seed and the deal)."""
    label = player.entrant.label if player.entrant.policy else f"{player.entrant.label}@{player.policy.label}"
    return Side(label, lambda game, seat, deal, seed: PochaBot(player, game, deal))


def opponent_side(against: "str | Decider", game: "pyspiel.Game | None" = None) -> Side:
    """A pocha player, or OpenSpiel's IS-MCTS (``ismcts:simulations=N,...``: ``Search.of``) or uniform random bot.

    game: the game it is for, when known: a ``pocha`` game refuses an IS-MCTS of OpenSpiel's own resampler.
    """
    if isinstance(against, Decider):
        return pocha_side(against)
    name, _, text = against.strip().partition(":")
    if name == "uniform":
        if text:
            raise PochaError(f"against: uniform takes no parameters, not '{text}'")
        return Side("uniform", lambda game, seat, deal, seed: pyspiel.make_uniform_random_bot(seat, seed))
    if name != "ismcts":
        raise PochaError(f"against: '{against}' is none of OpenSpiel's {', '.join(BOTS)}, nor a pocha player")
    search = Search.of(text)
    if game is not None and is_pocha(game) and search.resampler != "pocha":
        raise PochaError(
            f"against: resampler={search.resampler} is {OH_HELL}'s own (it sees which cards are out); the pocha game's "
            "own resample_from_infostate is pocha's honest one: leave resampler out"
        )
    return Side(search.label, lambda game, seat, deal, seed: search.bot(game, seed))


def deal_chance(game: "pyspiel.Game", seed: int, deal: int) -> list[int]:
    """The chance outcomes of one deal of a game of one hand size.

    ``oh_hell``: the hand size, the dealer, the cards in dealing order, the trump card; ``pocha``: the
    dealer, the cards in dealing order, the turned card (none in a full deal). Drawn from (seed, hand
    size, deal) alone, so every match with the same seed plays the same deals.
    """
    players, size_parameter = game.num_players(), SIZE_PARAMETER[game.get_type().short_name][0]
    cards = game.get_parameters()[size_parameter]
    draw = np.random.default_rng([seed, cards, deal])
    dealer = int(draw.integers(players))
    turned = players * cards < deck_size(game)  # oh_hell always turns one up; pocha when the deck is not all dealt
    order = [int(card) for card in draw.permutation(deck_size(game))[: players * cards + turned]]
    return [dealer, *order] if is_pocha(game) else [cards, dealer, *order]


def dealer_of(game: "pyspiel.Game", chance: Sequence[int]) -> int:
    """The dealer of a deal's chance outcomes (``deal_chance``)."""
    return chance[0] if is_pocha(game) else chance[1]


def bot_seed(*numbers: int) -> int:
    """A seed for an OpenSpiel bot (a C++ int) from the numbers that place it in the match."""
    return int(np.random.SeedSequence(list(numbers)).generate_state(1)[0] % 2**31)


def play_deal(game: "pyspiel.Game", chance: Sequence[int], bots: Sequence["pyspiel.Bot"]) -> tuple[list[float], ...]:
    """One deal with its chance outcomes forced: ``(points, seconds deciding, decisions)`` of every seat."""
    state = game.new_initial_state()
    for action in chance:
        state.apply_action(action)
    seconds, decisions = [0.0] * len(bots), [0.0] * len(bots)
    while not state.is_terminal():
        seat = state.current_player()
        start = time.perf_counter()
        action = bots[seat].step(state)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        state.apply_action(action)
    return state.returns(), seconds, decisions


def warm_up(game: "pyspiel.Game", sides: Sequence[Side], seed: int) -> None:
    """Play a deal with each side at every seat, untimed: a pocha player's first decisions load its compiled code."""
    chance = deal_chance(game, seed, 0)
    for side in sides:
        bots = [side.seat(game, seat, dealer_of(game, chance), seat) for seat in range(game.num_players())]
        play_deal(game, chance, bots)


def play_rotated(game: "pyspiel.Game", ours: Side, theirs: Side, seed: int, deal: int) -> dict[str, float]:
    """One deal played once per seat, ours at that seat and theirs at the others: its row of DEAL_COLUMNS."""
    players, chance = game.num_players(), deal_chance(game, seed, deal)
    number = deal * players + dealer_of(game, chance)  # the deal's number in a run: its dealer is number % players
    totals = dict.fromkeys(DEAL_COLUMNS[2:], 0.0)
    for ours_at in range(players):
        bots = [
            (ours if seat == ours_at else theirs).seat(
                game, seat, number, bot_seed(seed, chance[0], deal, ours_at, seat)
            )
            for seat in range(players)
        ]
        points, seconds, decisions = play_deal(game, chance, bots)
        totals["player_points"] += points[ours_at]
        totals["opponent_points"] += sum(points) - points[ours_at]
        totals["player_seconds"] += seconds[ours_at]
        totals["opponent_seconds"] += sum(seconds) - seconds[ours_at]
        totals["player_decisions"] += decisions[ours_at]
        totals["opponent_decisions"] += sum(decisions) - decisions[ours_at]
    totals["player_points"] /= players  # means of whole numbers: a player against itself is even exactly
    totals["opponent_points"] /= players * (players - 1)
    return {"cards": game.get_parameters()[SIZE_PARAMETER[game.get_type().short_name][0]], "deal": deal, **totals}


def play_match(
    player: Decider,
    *,
    against: "str | Decider",
    game: str,
    sizes: Sequence[int],
    deals: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> Match:
    """A pocha player against ``against`` (OpenSpiel's bot by spec, or a pocha player) in ``game``, OpenSpiel's string.

    ``game`` is ``oh_hell(...)`` or ``pocha(...)``, its hand size left out: the match plays ``sizes``.
    Every deal is played once per seat, the player at that seat and the opponent at the others.
    progress is told of every deal played. Ctrl-C stops the match after the deals finished.
    """
    base = load_game(game)
    name = base.get_type().short_name
    parameters, (size_parameter, any_size) = base.get_parameters(), SIZE_PARAMETER[name]
    if parameters[size_parameter] != any_size:
        raise PochaError(f"game: leave {size_parameter} out; the match plays the hand sizes of its cards")
    most = most_tricks(base)
    for cards in sizes:
        if not 1 <= cards <= most:
            turned = " (one is left to turn up)" if name == OH_HELL else ""
            raise PochaError(
                f"cards: {name} deals {base.num_players()} players {counted(most, 'card')} at most{turned}, not {cards}"
            )
    rules = rules_for(base)
    ours, theirs = pocha_side(player), opponent_side(against, base)
    rows, complete = [], True
    try:
        for cards in sizes:
            sized = pyspiel.load_game(name, parameters | {size_parameter: cards})
            if cards == sizes[0]:
                warm_up(sized, (ours, theirs), seed)
            for deal in range(deals):
                rows.append(play_rotated(sized, ours, theirs, seed, deal))
                if progress:
                    progress(1)
    except KeyboardInterrupt:
        complete = False
    frame = pd.DataFrame(rows, columns=DEAL_COLUMNS).astype({"cards": int, "deal": int})
    return Match(
        game=game, rules=rules, player=ours.label, opponent=theirs.label, seed=seed, deals=frame, complete=complete
    )
