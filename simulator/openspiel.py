"""pocha's players at OpenSpiel's ``oh_hell`` table, and a match against OpenSpiel's own players.

Needs OpenSpiel (``pip install 'pocha-simulator[openspiel]'``). How ``oh_hell`` maps onto pocha, read from its
source (``open_spiel/games/oh_hell/oh_hell.cc``) and checked by playing its states (tests/test_openspiel.py):

- Cards: a card's action is ``rank * 4 + suit``, rank 0 the 2, suits C D S H. A suit of
  ``num_cards_per_suit`` cards holds the lowest ranks (10: 2 up to J): OpenSpiel strips the top of
  the pack where pocha's deck sizes strip the bottom, so the rules name the ranks.
- The deal: chance draws the hand size (``num_tricks_fixed``) and the dealer, then deals players 0,
  1, ... a card in turn and turns one more up: trump. Every deal turns one up (a hand holds at most
  ``(cards - 1) // players``), so pocha's ``full_deal_trump`` never comes into play.
- Bids: action ``cards + bid``, from the dealer's left round to the dealer, who may not make them add
  up to the hand size, in one-card hands too: pocha's hook ``always``.
- Play: follow suit, else any card (``follow``); the dealer's left leads, each trick's winner the next.
- Scoring: exact, 10 + points_per_trick per trick; missed, points_per_trick per trick, or with
  ``off_bid_penalty`` -points_per_trick per trick off the bid.
"""

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pocha.engine.player import DealView, Player
from pocha.errors import PochaError
from pocha.game.cards import PACKS, SUIT_COUNT, Notation, suit_of
from pocha.game.rules import Rules, Scoring, make_rules
from pocha.reports.match import DEAL_COLUMNS, Match
from pocha.words import counted

try:
    import pyspiel
except ImportError:
    raise PochaError(
        "openspiel: OpenSpiel is not installed; install it with pip install 'pocha-simulator[openspiel]' "
        "(in a clone of pocha: pip install -e '.[openspiel]')"
    ) from None

GAME = "oh_hell"
SUITS = "CDSH"  # OpenSpiel's suit order: a card's action is rank * 4 + suit
LOWEST_RANK = 2  # OpenSpiel's rank 0
MADE_BID_BONUS = 10  # oh_hell.cc's kMadeBidBonus
FRENCH = PACKS["french"]
ISMCTS_DEFAULTS = {"simulations": 1000, "uct_c": 2.0, "rollouts": 1}  # the budget a plain "ismcts" gets
BOTS = ("ismcts", "uniform")  # OpenSpiel's players a match seats by name: IS-MCTS and the uniform random bot


# --- the game and its rules ------------------------------------------------------------------------


def load_game(text: str) -> "pyspiel.Game":
    """An ``oh_hell`` game from OpenSpiel's game string: ``oh_hell``, ``oh_hell(players=4,off_bid_penalty=true)``.

    A string OpenSpiel refuses, another game, or parameters pocha cannot play are one line each
    (OpenSpiel writes its own complaint to stderr first, so the string is read here before it is loaded).
    """
    if not isinstance(text, str):
        raise PochaError(f"game: OpenSpiel's game string, e.g. {GAME}(players=4), not {text!r}")
    name, bracket, rest = text.strip().partition("(")
    if name.strip() != GAME:
        raise PochaError(f"game: '{text}' is not {GAME}; pocha plays OpenSpiel's {GAME}, e.g. {GAME}(players=4)")
    spec = default_parameters()
    if bracket and not rest.endswith(")"):
        raise PochaError(f"game: '{text}' lacks its closing ')'")
    items = [parameter(item, spec) for item in rest.removesuffix(")").split(",") if item.strip()]
    twice = sorted({name for name, _ in items if [n for n, _ in items].count(name) > 1})
    if twice:
        raise PochaError(f"game: {', '.join(twice)} given more than once in '{text}'")
    given = dict(items)
    parameters = spec | given
    check_parameters(parameters)
    return pyspiel.load_game(GAME, parameters)


def parameter(item: str, spec: dict[str, Any]) -> tuple[str, Any]:
    """``(name, value)`` of one ``name=value`` of a game string, of the type OpenSpiel takes for it."""
    name, _, text = (part.strip() for part in item.partition("="))
    if name not in spec:
        raise PochaError(f"game: unknown parameter '{name}'; {GAME} takes {', '.join(spec)}")
    if isinstance(spec[name], bool):
        if text not in ("true", "false"):
            raise PochaError(f"game: {name} is true or false, not '{text}'")
        return name, text == "true"
    if not text.removeprefix("-").isdigit():
        raise PochaError(f"game: {name} is a whole number, not '{text}'")
    return name, int(text)


def default_parameters() -> dict[str, Any]:
    """OpenSpiel's parameters of ``oh_hell`` and their defaults."""
    found = next(kind for kind in pyspiel.registered_games() if kind.short_name == GAME)
    return dict(found.parameter_specification)


def check_parameters(parameters: dict[str, Any]) -> None:
    """Refuse what OpenSpiel refuses (its checks print to stderr) and what pocha cannot play."""
    players, suits, ranks = parameters["players"], parameters["num_suits"], parameters["num_cards_per_suit"]
    if not 3 <= players <= 7:
        raise PochaError(f"game: OpenSpiel's {GAME} seats 3 to 7 players, not {players}")
    if suits != SUIT_COUNT:
        raise PochaError(f"game: pocha plays four suits, not num_suits={suits}")
    if not 2 <= ranks <= len(FRENCH.rank_names):
        raise PochaError(f"game: num_cards_per_suit is 2 to {len(FRENCH.rank_names)}, not {ranks}")
    if SUIT_COUNT * ranks <= players:
        raise PochaError(f"game: {SUIT_COUNT * ranks} cards deal {players} players no hand with a card left to turn")


def rules_for(game: "pyspiel.Game") -> Rules:
    """The pocha rules of an ``oh_hell`` game: its players and ranks, follow-suit play, the hook always, its scoring."""
    parameters = game.get_parameters()
    if game.get_type().short_name != GAME:
        raise PochaError(f"game: pocha plays OpenSpiel's {GAME}, not {game.get_type().short_name}")
    check_parameters(parameters)
    ranks = range(LOWEST_RANK + parameters["num_cards_per_suit"] - 1, LOWEST_RANK - 1, -1)  # strongest first
    per_trick = parameters["points_per_trick"]
    if parameters["off_bid_penalty"]:
        scoring = Scoring(exact=MADE_BID_BONUS, per_trick=per_trick, per_trick_missed=0, miss_per_trick=-per_trick)
    else:
        scoring = Scoring(exact=MADE_BID_BONUS, per_trick=per_trick, per_trick_missed=per_trick, miss_per_trick=0)
    return make_rules(
        "oh-hell",
        parameters["players"],
        deck="french:" + ",".join(FRENCH.rank_names[rank] for rank in ranks),
        play_rule="follow",
        hook="always",
        scoring=scoring,
    )


def deck_size(game: "pyspiel.Game") -> int:
    """Cards in the deck: also the action of bid 0 (a bid's action is the deck size + the bid)."""
    return int(game.get_parameters()["num_cards_per_suit"]) * SUIT_COUNT


def most_tricks(game: "pyspiel.Game") -> int:
    """The largest hand ``oh_hell`` deals: one card is always left to turn up."""
    return (deck_size(game) - 1) // game.num_players()


# --- cards both ways -------------------------------------------------------------------------------


def card_name(action: int) -> str:
    """The pocha notation of an OpenSpiel card: action 0 is ``2C``, 51 ``AH``."""
    rank, suit = divmod(action, SUIT_COUNT)
    return f"{FRENCH.rank_names[LOWEST_RANK + rank]}{SUITS[suit]}"


def card_action(card: str, notation: Notation) -> int:
    """OpenSpiel's action of a card written in pocha's notation (``10D``, ``TD``, ``Q♥``)."""
    card_id = notation.parse(card)
    suit = FRENCH.suits[suit_of(card_id)]
    return (notation.rank_of(card_id) - LOWEST_RANK) * SUIT_COUNT + SUITS.index(suit)


# --- a pocha player in OpenSpiel -------------------------------------------------------------------


def view_of(state: "pyspiel.State") -> DealView:
    """The deal as the player to move sees it, read from the state's history.

    The history is every action: the hand size, the dealer, the cards dealt to players 0, 1, ... in
    turn, the trump card, the bids from the dealer's left, the cards played. Of the cards dealt only
    the mover's own are read.
    """
    history, seat = state.history(), state.current_player()
    players = state.num_players()
    cards, dealer = history[0], history[1]
    dealt = history[2 : 2 + players * cards]
    trump = history[2 + players * cards]
    after = history[3 + players * cards :]
    bids = [action - deck_size(state.get_game()) for action in after[:players]]
    played = after[players:]
    hand = [card for card in dealt[seat::players] if card not in played]
    return DealView(
        seat=seat,
        dealer=dealer,
        hand=[card_name(card) for card in hand],
        trump=card_name(trump),
        bids=bids,
        played=[card_name(card) for card in played],
    )


class PochaBot(pyspiel.Bot):
    """A pocha player as an OpenSpiel bot: ``PochaBot(pocha.Player("montecarlo@pimc", rules_for(game)), game)``.

    Each step reads the state as its player sees it (``view_of``), asks the player and answers with
    OpenSpiel's action, which must be legal there. deal: the deal's number in a run with the player's
    seed, which fixes its random choices (its dealer is ``deal % players``); None for the player's default.
    """

    def __init__(self, player: Player, game: "pyspiel.Game", deal: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(player, Player):
            raise PochaError(
                f"player: a pocha.Player, not {player!r}; make it with pocha.Player(spec, rules_for(game))"
            )
        if deal is not None and (not isinstance(deal, int) or deal < 0):
            raise PochaError(f"deal: a deal number is a whole number from 0, not {deal!r}")
        rules = rules_for(game)
        played = ("players", "pack", "ranks", "play_rule", "hook", "scoring", "full_deal_trump")
        if any(getattr(player.rules, name) != getattr(rules, name) for name in played):
            raise PochaError(
                "player: its rules are not this game's (seats, cards, play, hook or scoring); "
                "make it with rules_for(game)"
            )
        self.player = player
        self.notation = rules.notation
        self.bid_offset = deck_size(game)
        self.deal = deal

    def step(self, state: "pyspiel.State") -> int:
        """The player's bid or card, as OpenSpiel's action."""
        view = view_of(state)
        decision = self.player.decide(view, self.deal, predict=False)
        if decision.kind == "bid":
            action = self.bid_offset + int(decision.choice)
        else:
            action = card_action(str(decision.choice), self.notation)
        if action not in state.legal_actions():
            raise AssertionError(f"pocha chose {decision.kind} {decision.choice}, illegal in OpenSpiel at {view}")
        return action

    def restart_at(self, state: "pyspiel.State") -> None:
        """Nothing to forget: every step reads the whole state."""


# --- a match ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a match: its label, and the bot it seats for a game, a player id, the deal's number and a seed."""

    label: str
    seat: Callable[["pyspiel.Game", int, int, int], "pyspiel.Bot"]


def pocha_side(player: Player) -> Side:
    """A pocha player, seated as a PochaBot wherever its side sits (its choices fixed by its seed and the deal)."""
    label = player.seat.label if player.seat.policy else f"{player.seat.label}@{player.policy.label}"
    return Side(label, lambda game, seat, deal, seed: PochaBot(player, game, deal))


def opponent_side(against: "str | Player") -> Side:
    """A pocha player, or OpenSpiel's IS-MCTS (``ismcts:simulations=N,uct_c=C,rollouts=R``) or uniform random bot."""
    if isinstance(against, Player):
        return pocha_side(against)
    name, _, text = against.strip().partition(":")
    if name == "uniform":
        if text:
            raise PochaError(f"against: uniform takes no parameters, not '{text}'")
        return Side("uniform", lambda game, seat, deal, seed: pyspiel.make_uniform_random_bot(seat, seed))
    if name != "ismcts":
        raise PochaError(f"against: '{against}' is none of OpenSpiel's {', '.join(BOTS)}, nor a pocha player")
    budget = ismcts_budget(text)
    label = "ismcts:" + ",".join(f"{key}={value:g}" for key, value in budget.items())
    return Side(label, lambda game, seat, deal, seed: ismcts_bot(budget, seed))


def ismcts_budget(text: str) -> dict[str, float]:
    """The IS-MCTS settings of ``simulations=N,uct_c=C,rollouts=R`` (each left out keeps ISMCTS_DEFAULTS)."""
    budget: dict[str, float] = dict(ISMCTS_DEFAULTS)
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, _, value = (part.strip() for part in item.partition("="))
        try:
            number = float(value) if key == "uct_c" else int(value)
        except ValueError:
            number = 0
        if key not in budget or not 0 < number < float("inf"):
            raise PochaError(
                f"against: ismcts takes simulations=N, uct_c=C and rollouts=R, each above 0 (N, R whole), not '{item}'"
            )
        budget[key] = number
    return budget


def ismcts_bot(budget: dict[str, float], seed: int) -> "pyspiel.Bot":
    """OpenSpiel's IS-MCTS with random roll-outs, playing the most visited action (its strongest choice)."""
    return pyspiel.ISMCTSBot(
        seed=seed,
        evaluator=pyspiel.RandomRolloutEvaluator(int(budget["rollouts"]), seed),
        uct_c=budget["uct_c"],
        max_simulations=int(budget["simulations"]),
        final_policy_type=pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )


def deal_chance(game: "pyspiel.Game", seed: int, deal: int) -> list[int]:
    """The chance outcomes of one deal: hand size, dealer, the cards in dealing order, the trump card.

    Drawn from (seed, hand size, deal) alone, so every match with the same seed plays the same deals.
    """
    cards, players = game.get_parameters()["num_tricks_fixed"], game.num_players()
    draw = np.random.default_rng([seed, cards, deal])
    dealer = int(draw.integers(players))
    order = draw.permutation(deck_size(game))[: players * cards + 1]
    return [cards, dealer, *(int(card) for card in order)]


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
        play_deal(game, chance, [side.seat(game, seat, chance[1], seat) for seat in range(game.num_players())])


def play_rotated(game: "pyspiel.Game", ours: Side, theirs: Side, seed: int, deal: int) -> dict[str, float]:
    """One deal played once per seat, ours at that seat and theirs at the others: its row of DEAL_COLUMNS."""
    players, chance = game.num_players(), deal_chance(game, seed, deal)
    number = deal * players + chance[1]  # the deal's number in a run: its dealer is number % players
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
    return {"cards": chance[0], "deal": deal, **totals}


def play_match(
    player: Player,
    *,
    against: "str | Player",
    game: str,
    sizes: Sequence[int],
    deals: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> Match:
    """A pocha player against ``against`` (OpenSpiel's bot by spec, or a pocha player) in ``game``, OpenSpiel's string.

    Every deal is played once per seat, the player at that seat and the opponent at the others.
    progress is told of every deal played. Ctrl-C stops the match after the deals finished.
    """
    base = load_game(game)
    parameters = base.get_parameters()
    if parameters["num_tricks_fixed"] != -1:
        raise PochaError("game: leave num_tricks_fixed out; the match plays the hand sizes of its cards")
    most = most_tricks(base)
    for cards in sizes:
        if not 1 <= cards <= most:
            raise PochaError(
                f"cards: {GAME} deals {base.num_players()} players {counted(most, 'card')} at most (one is left to "
                f"turn up), not {cards}"
            )
    rules = rules_for(base)
    ours, theirs = pocha_side(player), opponent_side(against)
    rows, complete = [], True
    try:
        for cards in sizes:
            sized = pyspiel.load_game(GAME, parameters | {"num_tricks_fixed": cards})
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
