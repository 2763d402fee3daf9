"""Pocha's own rules as an OpenSpiel game: ``pocha``, registered with OpenSpiel when ``pocha.openspiel`` is imported.

``pyspiel.load_game("pocha(players=4,cards=5)")`` then plays one deal under any rule set pocha plays,
move by move through ``engine.deal_state`` (pocha's own legal cards, trick winner, hook and scoring, so
the two cannot drift). Its parameters are the rule options (``RuleOptions``' names; lists such as a
scoring's numbers or a deck's ranks take ``;`` between items, as a game string keeps ``,`` between
parameters) and ``cards``, the hand size: 0 lets chance draw it as often as a whole game of the rules'
schedule plays it. One OpenSpiel game is one deal: a whole game's winner needs the tie-break, whose
hands have no bound, and OpenSpiel needs a longest game and a fixed tensor size (a perfect-recall
information state of a 22-hand game would carry every earlier deal's cards), so ``tie_break`` is not a
parameter.

``resample_from_infostate`` is honest: every card the player has not seen may lie with any other seat,
within what the play has shown (voids, and the cards a seat had to play to beat or trump the trick and
did not), drawn by pimc's own sampler.
"""

from typing import Any

import pyspiel

from pocha.engine.deal_observer import DealObserver
from pocha.engine.deal_state import CHANCE, DealState, Moves
from pocha.errors import PochaError
from pocha.game.cards import PACKS
from pocha.game.presets import DEFAULT_PRESET
from pocha.game.rules import Rules
from pocha.options import RuleOptions

POCHA = "pocha"  # the game's name in OpenSpiel
PARAMETERS: dict[str, Any] = {  # OpenSpiel's parameter specification: name -> default ("": the preset's)
    "preset": DEFAULT_PRESET,
    "players": 4,
    "cards": 0,  # the hand size; 0: drawn by chance, each as often as the schedule plays it
    "deck": "",
    "rank_order": "",
    "play_rule": "",
    "hook": "",
    "scoring": "",
    "full_deal_trump": "",
    "schedule": "",
    "full_deals": "",
}
LIST_SEPARATOR = ";"  # between the items of a list in a game string: scoring=10;5;-5, deck=1;3;12, schedule=1-5;5
MOST_PLAYERS = 10  # the largest table the presets' decks are made for
GAME_TYPE = pyspiel.GameType(
    short_name=POCHA,
    long_name="Pocha (La Podrida), the Spanish Oh Hell",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MOST_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def game_moves(parameters: dict[str, Any]) -> Moves:
    """The deals a ``pocha`` game's parameters name (each checked as the command line's options are)."""
    unknown = sorted(set(parameters) - set(PARAMETERS))
    if unknown:
        raise PochaError(f"game: unknown parameter '{unknown[0]}'; {POCHA} takes {', '.join(PARAMETERS)}")
    given = {**PARAMETERS, **parameters}
    texts = {
        name: str(given[name]).replace(LIST_SEPARATOR, ",") or None
        for name in PARAMETERS
        if name not in ("preset", "players", "cards")
    }
    rules = RuleOptions(preset=given["preset"], players=given["players"], **texts).resolve()[1]
    if given["players"] > MOST_PLAYERS:
        raise PochaError(f"players: OpenSpiel's {POCHA} seats 2 to {MOST_PLAYERS} players, not {given['players']}")
    return Moves.of(rules, given["cards"] or None)


def game_string(rules: Rules, cards: int = 0) -> str:
    """The ``pocha`` game string of a rule set, every option given (but the tie-break: a deal plays none)."""
    ranks = LIST_SEPARATOR.join(PACKS[rules.pack].rank_names[rank] for rank in rules.ranks)
    schedule = rules.schedule if isinstance(rules.schedule, str) else LIST_SEPARATOR.join(map(str, rules.schedule))
    parameters = {
        "players": rules.players,
        "cards": cards,
        "deck": f"{rules.pack}:{ranks}",
        "play_rule": rules.play_rule,
        "hook": rules.hook,
        "scoring": rules.scoring.spec.replace(",", LIST_SEPARATOR),
        "full_deal_trump": rules.full_deal_trump,
        "schedule": schedule,
        "full_deals": rules.full_deals,
    }
    return f"{POCHA}(" + ",".join(f"{name}={value}" for name, value in parameters.items()) + ")"


class PochaGame(pyspiel.Game):
    """The ``pocha`` game: one deal under the rules its parameters name."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.moves = game_moves(params or {})
        rules, most = self.moves.rules, self.moves.most_cards
        grid = rules.scoring.points_grid(most)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.moves.num_actions,
            max_chance_outcomes=rules.deck_size,
            num_players=rules.players,
            min_utility=float(grid.min()),
            max_utility=float(grid.max()),
            utility_sum=None,
            max_game_length=rules.players * (most + 1),
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> "PochaState":
        """A deal before chance has drawn anything."""
        return PochaState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The hand size (when drawn), the dealer, every card dealt and the turned one."""
        return int(len(set(self.moves.sizes)) > 1) + 1 + self.moves.rules.players * self.moves.most_cards + 1

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> "SpielObserver":
        """What a player sees: the information state (perfect recall) or the observation, public and private parts."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return SpielObserver(self.moves, kind.perfect_recall, kind.public_info, private)


class PochaState(pyspiel.State):
    """A ``pocha`` deal in progress: OpenSpiel's calls answered by its ``DealState``."""

    def __init__(self, game: PochaGame) -> None:
        super().__init__(game)
        self.deal: DealState = game.moves.initial()

    def current_player(self) -> int:
        """The seat to move; chance while dealing; terminal once every card is played."""
        return self.deal.current()

    def _legal_actions(self, player: int) -> list[int]:
        """The bids or cards the player to move may make, ascending."""
        return self.deal.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """What chance may draw now, each with its chance."""
        return self.deal.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.deal.current() == CHANCE:
            self.deal.deal(action)
        else:
            self.deal.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        deal, moves = self.deal, self.deal.moves
        if player != CHANCE:
            return moves.action_text(action)
        if deal.cards == 0:
            return f"{action} cards"
        if deal.dealer < 0:
            return f"dealer {action}"
        if len(deal.order) < deal.cards * deal.players:
            return f"deal {moves.name(moves.ids[action])} to seat {deal.receiver()}"
        return f"turn {moves.name(moves.ids[action])}"

    def is_terminal(self) -> bool:
        """Whether every card is played."""
        return self.deal.is_over

    def returns(self) -> list[float]:
        """Every seat's points once the deal is over, 0 before."""
        return [float(points) for points in self.deal.points()] if self.deal.is_over else [0.0] * self.deal.players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "PochaState":
        """A state ``player_id`` cannot tell from this one, its unseen cards dealt afresh (``DealState.world``).

        The sampler (a callable giving numbers in [0, 1)) seeds the draw.
        """
        world = self.get_game().new_initial_state()
        for action in self.deal.world(player_id, int(probability_sampler() * 2**53)):
            world.apply_action(action)
        return world

    def __str__(self) -> str:
        deal = self.deal
        if deal.dealing:
            return f"dealing: {len(deal.order)} cards dealt"
        hands = " / ".join(deal.moves.rules.notation.names(deal.dealt_cards(seat)) for seat in range(deal.players))
        played = " ".join(deal.moves.name(card) for card in deal.plays)
        return f"dealer {deal.dealer}, trump {deal.trump_name()}, dealt {hands}; bids {deal.bids}; played {played}"


class SpielObserver(DealObserver):
    """A ``DealObserver`` that reads OpenSpiel's ``pocha`` states."""

    def set_from(self, state: Any, player: int) -> None:
        """Fill the tensor with what ``player`` sees of the state."""
        super().set_from(state.deal, player)

    def string_from(self, state: Any, player: int) -> str:
        """What ``player`` sees of the state, in words."""
        return super().string_from(state.deal, player)


pyspiel.register_game(GAME_TYPE, PochaGame)
