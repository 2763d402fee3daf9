"""pocha's players at OpenSpiel's tables, ``oh_hell`` and ``pocha``, and a match against OpenSpiel's players.

``pocha`` (``pocha.openspiel_game``) plays pocha's rules themselves; ``oh_hell`` is plain Oh Hell.
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

from pocha.engine.player import DealView, Decider
from pocha.errors import PochaError, missing_extra
from pocha.game.cards import PACKS, SUIT_COUNT, Notation, mask_of, suit_of
from pocha.game.rules import Rules, Scoring, make_rules
from pocha.kernels.decide import seat_worlds
from pocha.kernels.ismcts import ismcts_action, new_tree
from pocha.kernels.pimc import scratch
from pocha.kernels.play import DealRules
from pocha.kernels.streams import mix64
from pocha.reports.match import DEAL_COLUMNS, Match
from pocha.words import counted

try:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]
except ImportError:
    raise missing_extra("openspiel", "OpenSpiel") from None

from pocha import openspiel_game

GAME = "oh_hell"
GAMES = (GAME, openspiel_game.GAME)  # the games a match plays: plain Oh Hell, and pocha's own rules
SIZE_PARAMETER = {GAME: ("num_tricks_fixed", -1), openspiel_game.GAME: ("cards", 0)}  # the hand size, and "any"
SUITS = "CDSH"  # OpenSpiel's suit order: a card's action is rank * 4 + suit
LOWEST_RANK = 2  # OpenSpiel's rank 0
MADE_BID_BONUS = 10  # oh_hell.cc's kMadeBidBonus
FRENCH = PACKS["french"]
BOTS = ("ismcts", "uniform")  # OpenSpiel's players a match seats by name: IS-MCTS and the uniform random bot
ENGINES = ("python", "numba")  # IS-MCTS as OpenSpiel's Python bot, or the same search in pocha's kernels
RESAMPLERS = {  # where IS-MCTS's worlds come from: name -> what its searcher knows
    "pocha": "deals every card the mover has not seen, the voids play revealed kept",
    "openspiel": "sees which cards the other seats hold",
}


# --- the game and its rules ------------------------------------------------------------------------


def load_game(text: str) -> "pyspiel.Game":
    """A game from OpenSpiel's game string: ``oh_hell(players=4,off_bid_penalty=true)``, ``pocha(hook=never)``.

    A string OpenSpiel refuses, another game, or parameters pocha cannot play are one line each
    (OpenSpiel writes its own complaint to stderr first, so the string is read here before it is loaded).
    """
    if not isinstance(text, str):
        raise PochaError(f"game: OpenSpiel's game string, e.g. {GAME}(players=4) or pocha(players=4), not {text!r}")
    name, bracket, rest = text.strip().partition("(")
    name = name.strip()
    if name not in GAMES:
        raise PochaError(
            f"game: '{text}' is none of {' and '.join(GAMES)}; pocha plays OpenSpiel's {GAME}, e.g. {GAME}(players=4), "
            "and its own rules, e.g. pocha(players=4)"
        )
    spec = default_parameters(name)
    if bracket and not rest.endswith(")"):
        raise PochaError(f"game: '{text}' lacks its closing ')'")
    items = [parameter(item, spec, name) for item in rest.removesuffix(")").split(",") if item.strip()]
    twice = sorted({name for name, _ in items if [n for n, _ in items].count(name) > 1})
    if twice:
        raise PochaError(f"game: {', '.join(twice)} given more than once in '{text}'")
    given = dict(items)
    if name == openspiel_game.GAME:
        openspiel_game.game_moves(given)  # refused here in one line, not by OpenSpiel
        return pyspiel.load_game(name, given)
    parameters = spec | given
    check_parameters(parameters)
    return pyspiel.load_game(GAME, parameters)


def parameter(item: str, spec: dict[str, Any], game: str = GAME) -> tuple[str, Any]:
    """``(name, value)`` of one ``name=value`` of a game string, of the type OpenSpiel takes for it."""
    name, _, text = (part.strip() for part in item.partition("="))
    if name not in spec:
        raise PochaError(f"game: unknown parameter '{name}'; {game} takes {', '.join(spec)}")
    if isinstance(spec[name], str):
        return name, text
    if isinstance(spec[name], bool):
        if text not in ("true", "false"):
            raise PochaError(f"game: {name} is true or false, not '{text}'")
        return name, text == "true"
    if not text.removeprefix("-").isdigit():
        raise PochaError(f"game: {name} is a whole number, not '{text}'")
    return name, int(text)


def default_parameters(game: str = GAME) -> dict[str, Any]:
    """OpenSpiel's parameters of a game (``oh_hell``, ``pocha``) and their defaults."""
    found = next(kind for kind in pyspiel.registered_games() if kind.short_name == game)
    return dict(found.parameter_specification)


def is_pocha(game: "pyspiel.Game") -> bool:
    """Whether the game is pocha's own, ``pocha``, rather than ``oh_hell``."""
    return bool(game.get_type().short_name == openspiel_game.GAME)


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
    """The pocha rules of a game: a ``pocha`` game's own.

    For ``oh_hell``: its players and ranks, follow-suit play, the hook always, its scoring.
    """
    if is_pocha(game):
        return game.moves.rules
    parameters = game.get_parameters()
    if game.get_type().short_name != GAME:
        raise PochaError(f"game: pocha plays OpenSpiel's {' and '.join(GAMES)}, not {game.get_type().short_name}")
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
    """Cards in the deck: also the action of bid 0 (a bid's action is the deck size + the bid), in either game."""
    if is_pocha(game):
        return int(game.moves.bid_offset)
    return int(game.get_parameters()["num_cards_per_suit"]) * SUIT_COUNT


def most_tricks(game: "pyspiel.Game") -> int:
    """The largest hand a game deals: ``oh_hell`` leaves a card to turn up; ``pocha`` deals its rules' full deal."""
    if is_pocha(game):
        return int(game.moves.rules.full_deal)
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
    """The deal as the player to move sees it: a ``pocha`` state's own view, else read from the state's history.

    An ``oh_hell`` history is every action: the hand size, the dealer, the cards dealt to players 0, 1, ... in
    turn, the trump card, the bids from the dealer's left, the cards played. Of the cards dealt only
    the mover's own are read.
    """
    if is_pocha(state.get_game()):
        return state.deal.view()  # type: ignore[no-any-return]
    seat, players = state.current_player(), state.num_players()
    cards, dealer, dealt, trump, after = deal_parts(state.history(), players)
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


def deal_parts(history: Sequence[int], players: int) -> tuple[int, int, list[int], int, list[int]]:
    """A history's hand size, dealer, cards in dealing order, trump card, and what followed: bids, then cards played."""
    cards, dealer = history[0], history[1]
    return (
        cards,
        dealer,
        list(history[2 : 2 + players * cards]),
        history[2 + players * cards],
        list(history[3 + players * cards :]),
    )


def card_ids(game: "pyspiel.Game") -> np.ndarray:
    """The pocha card id of each OpenSpiel card action, in either game."""
    if is_pocha(game):
        return np.array(game.moves.ids, np.int64)
    notation = rules_for(game).notation
    return np.array([notation.parse(card_name(action)) for action in range(deck_size(game))], np.int64)


def searched_position(state: "pyspiel.State", ids: np.ndarray) -> tuple[int, int, int, int, np.ndarray, np.ndarray]:
    """The mover's position as pocha's kernels take it, in either game.

    ``(hand size, dealer, the mover's dealt cards as a mask, the trump card's id, each seat's bid (-1: yet to
    bid), the ids of the cards played)``; ids: ``card_ids``. ``oh_hell`` is read from its history, ``pocha``
    from its deal.
    """
    players, seat = state.num_players(), state.current_player()
    if is_pocha(state.get_game()):
        deal = state.deal
        size, dealer, mine, trump, made = deal.cards, deal.dealer, deal.dealt[seat], deal.trump_card, deal.bids
        played = np.array(deal.plays, np.int64)
    else:
        size, dealer, dealt, turned, after = deal_parts(state.history(), players)
        mine, trump = mask_of(ids[dealt[seat::players]].tolist()), int(ids[turned])
        made = [action - deck_size(state.get_game()) for action in after[:players]]
        played = ids[after[players:]] if len(after) > players else np.zeros(0, np.int64)
    bids = np.full(players, -1, np.int64)
    for position, bid in enumerate(made):
        bids[(dealer + 1 + position) % players] = bid
    return size, dealer, mine, trump, bids, played


class PochaBot(pyspiel.Bot):
    """A pocha player as an OpenSpiel bot, in either game: ``PochaBot(pocha.Player(spec, rules_for(game)), game)``.

    Each step reads the state as its player sees it (``view_of``), asks the player and answers with
    OpenSpiel's action, which must be legal there. deal: the deal's number in a run with the player's
    seed, which fixes its random choices (its dealer is ``deal % players``); None for the player's default.
    """

    def __init__(self, player: Decider, game: "pyspiel.Game", deal: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(player, Decider):
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
        self.card_actions = game.moves.action_of if is_pocha(game) else None  # pocha's card ids -> actions
        self.deal = deal

    def step(self, state: "pyspiel.State") -> int:
        """The player's bid or card, as OpenSpiel's action."""
        view = view_of(state)
        decision = self.player.decide(view, self.deal, predict=False)
        if decision.kind == "bid":
            action = self.bid_offset + int(decision.choice)
        elif self.card_actions is not None:
            action = self.card_actions[self.notation.parse(str(decision.choice))]
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
            f"against: resampler={search.resampler} is {GAME}'s own (it sees which cards are out); the pocha game's "
            "own resample_from_infostate is pocha's honest one: leave resampler out"
        )
    return Side(search.label, lambda game, seat, deal, seed: search.bot(game, seed))


@dataclass(frozen=True)
class Search:
    """OpenSpiel's IS-MCTS as a match seats it: its budget, and where the worlds it searches come from.

    simulations per decision, exploration uct_c, random roll-outs per leaf; resampler one of RESAMPLERS.
    """

    simulations: int = 1000
    uct_c: float = 2.0  # the value of OpenSpiel's own examples
    rollouts: int = 1
    resampler: str = "pocha"
    engine: str = "python"  # OpenSpiel's Python bot, or "numba": the same search in pocha's kernels (``NumbaSearch``)

    @classmethod
    def of(cls, text: str) -> "Search":
        """The search of ``simulations=N,uct_c=C,rollouts=R,resampler=NAME`` (each left out keeps its default)."""
        given: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, _, value = (part.strip() for part in item.partition("="))
            if key == "engine":
                if value not in ENGINES:
                    raise PochaError(f"against: ismcts's engine is {' or '.join(ENGINES)}, not '{value}'")
                given[key] = value
                continue
            if key == "resampler":
                if value not in RESAMPLERS:
                    raise PochaError(
                        f"against: ismcts's resampler is {' or '.join(RESAMPLERS)}, not '{value}' ("
                        + "; ".join(f"{name}: {does}" for name, does in RESAMPLERS.items())
                        + ")"
                    )
                given[key] = value
                continue
            try:
                number = float(value) if key == "uct_c" else int(value)
            except ValueError:
                number = 0
            if key not in ("simulations", "uct_c", "rollouts") or not 0 < number < float("inf"):
                raise PochaError(
                    "against: ismcts takes simulations=N, uct_c=C and rollouts=R, each above 0 (N, R whole), "
                    f"resampler={'|'.join(RESAMPLERS)} and engine={'|'.join(ENGINES)}; not '{item}'"
                )
            given[key] = number
        search = cls(**given)
        if search.engine == "numba" and (search.resampler != "pocha" or search.rollouts != 1):
            raise PochaError("against: ismcts's engine numba deals honest worlds (resampler=pocha), 1 roll-out a leaf")
        return search

    @property
    def label(self) -> str:
        """The spec in full: ``ismcts:simulations=1000,uct_c=2,rollouts=1,resampler=pocha``."""
        label = (
            f"ismcts:simulations={self.simulations},uct_c={self.uct_c:g},rollouts={self.rollouts},"
            f"resampler={self.resampler}"
        )
        return label if self.engine == "python" else f"{label},engine={self.engine}"

    def bot(self, game: "pyspiel.Game", seed: int) -> "pyspiel.Bot":
        """OpenSpiel's Python ``ISMCTSBot`` with random roll-outs, its worlds from the resampler.

        As its authors set it: a fresh world every simulation (``max_world_samples`` unlimited), UCT
        child selection, and the most visited action played (ties at random). Its random numbers come
        from the seed, so a match against it repeats. engine numba: the same search in pocha's kernels.
        """
        if self.engine == "numba":
            return NumbaSearch(game, self, seed)
        bot = ismcts.ISMCTSBot(
            game=game,
            evaluator=RandomRollouts(self.rollouts, np.random.RandomState([seed, 1])),
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            random_state=np.random.RandomState([seed, 0]),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
        )
        if is_pocha(game):  # the game's own honest resample, its random numbers from the seed
            draw = np.random.RandomState([seed, 2]).random_sample
            bot.set_resampler(lambda state, seat: state.resample_from_infostate(seat, draw))
        elif self.resampler == "pocha":
            bot.set_resampler(UnseenCards(game, seed))
        return bot  # resampler openspiel: the bot asks the state (oh_hell's ResampleFromInfostate)


class RandomRollouts(mcts.RandomRolloutEvaluator):
    """OpenSpiel's ``RandomRolloutEvaluator``, its roll-outs drawn faster: the same draws, the same moves.

    ``RandomState.choice(actions)`` draws ``randint(len(actions))`` and picks that action, but spends
    four times as long on it (``tests/test_openspiel.py`` checks the moves are the same); a search's
    roll-outs were a third of its time. A world is dealt whole: a roll-out meets no chance node.
    """

    def evaluate(self, state: "pyspiel.State") -> np.ndarray:
        """The mean returns of ``n_rollouts`` games played on from ``state`` with uniformly random actions."""
        draw, result = self._random_state.randint, None
        for _ in range(self.n_rollouts):
            working = state.clone()
            while not working.is_terminal():
                actions = working.legal_actions()
                working.apply_action(actions[draw(len(actions))])
            returns = np.array(working.returns())
            result = returns if result is None else result + returns
        return result / self.n_rollouts


class UnseenCards:
    """An IS-MCTS resampler: a state the mover may be in, its unseen cards dealt to the others as pimc deals them.

    oh_hell's own ``ResampleFromInfostate`` only reshuffles the cards the other seats really hold (the
    cards left undealt never enter a world), so a searcher that uses it knows which cards are out.
    Here every card the mover has not seen (not its own, not the turned trump, not played) may be in
    any other seat's hand, each seat getting as many as it holds, none of a suit it failed to follow
    (``kernels.decide.seat_worlds``). The world's state is the history replayed with those cards dealt.
    Worlds are drawn ``BATCH`` at a time for one history (a search asks for one per simulation).
    """

    BATCH = 64

    def __init__(self, game: "pyspiel.Game", seed: int) -> None:
        self.rules = rules_for(game)
        self.ids = card_ids(game)
        self.actions = np.zeros(64, np.int64)  # OpenSpiel's action of each pocha card id
        self.actions[self.ids] = np.arange(len(self.ids))
        self.work = scratch(self.BATCH, game.num_players())
        self.deal_rules: dict[int, DealRules] = {}  # by hand size
        self.state = np.uint64(mix64(np.uint64(seed)))  # kept a uint64: numba returns a Python int
        self.history: list[int] = []
        self.drawn: list[list[int]] = []  # the batch's chance outcomes not yet handed out

    def __call__(self, state: "pyspiel.State", seat: int) -> "pyspiel.State":
        """A state whose history ``seat`` cannot tell from ``state``'s, drawn afresh."""
        history = state.history()
        if history != self.history or not self.drawn:
            self.history, self.drawn = history, self.draw(history, seat, state.num_players())
        world = state.get_game().new_initial_state()
        for action in self.drawn.pop():
            world.apply_action(action)
        return world

    def draw(self, history: list[int], seat: int, players: int) -> list[list[int]]:
        """``BATCH`` histories ``seat`` cannot tell from ``history``: the cards dealt redrawn, the rest the same."""
        cards, dealer, dealt, trump, after = deal_parts(history, players)
        if cards not in self.deal_rules:
            self.deal_rules[cards] = DealRules.of(self.rules, cards)
        ids = self.ids
        mine = np.uint64(mask_of(ids[dealt[seat::players]].tolist()))
        position = (seat, mine, int(ids[trump]), dealer, np.zeros(players, np.int64), ids[after[players:]])
        self.state = np.uint64(seat_worlds(self.deal_rules[cards], *position, self.state, self.work))
        bits = (self.work.worlds[:, :, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)  # [world, seat, card]
        held = np.argsort(-bits.astype(np.int64), axis=2, kind="stable")[:, :, :cards]  # each seat's card ids
        order = self.actions[held].transpose(0, 2, 1).reshape(self.BATCH, players * cards)  # in dealing order
        return [[cards, dealer, *row, trump, *after] for row in order.tolist()]


class NumbaSearch(pyspiel.Bot):
    """OpenSpiel's IS-MCTS with honest worlds and random roll-outs, in pocha's kernels (``kernels.ismcts``).

    The search of ``Search.bot`` step for step, its random numbers drawn from pocha's streams; a
    decision takes milliseconds where the Python bot takes a tenth of a second or more.
    """

    def __init__(self, game: "pyspiel.Game", search: Search, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.cards = UnseenCards(game, seed)
        self.setting = (search.simulations, float(search.uct_c))
        self.tree = new_tree(search.simulations)

    def step(self, state: "pyspiel.State") -> int:
        """The search's bid or card, as OpenSpiel's action."""
        cards, seat = self.cards, state.current_player()
        size, dealer, mine, trump, bids, played = searched_position(state, cards.ids)
        if size not in cards.deal_rules:
            cards.deal_rules[size] = DealRules.of(cards.rules, size)
        action, cards.state = ismcts_action(
            cards.deal_rules[size],
            seat,
            np.uint64(mine),
            trump,
            dealer,
            bids,
            played,
            self.setting,
            state=cards.state,
            work=cards.work,
            tree=self.tree,
        )
        cards.state = np.uint64(cards.state)
        bidding = bool((bids < 0).any())
        return int(action) + deck_size(state.get_game()) if bidding else int(cards.actions[action])

    def restart_at(self, state: "pyspiel.State") -> None:
        """Nothing to forget: every step reads the whole state."""


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
            turned = " (one is left to turn up)" if name == GAME else ""
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
