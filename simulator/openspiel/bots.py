"""A pocha player as an OpenSpiel bot, at either table (``oh_hell`` or ``pocha``): ``PochaBot``."""

import pyspiel

from pocha.engine.player import Decider
from pocha.errors import PochaError
from pocha.openspiel.games import card_action, deck_size, is_pocha, rules_for, view_of


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
