"""A deal of Pocha as a PettingZoo AEC environment: ``pocha.pettingzoo.env(rules="ludoteka", cards=5)``.

Needs PettingZoo (``pip install 'pocha-simulator[pettingzoo]'``). One episode is one deal under any rule
set pocha plays (``engine.deal_state``: pocha's own legal cards, trick winner, hook and scoring). The
agents are the seats, ``seat_0`` to ``seat_{n-1}``, in playing order; each acts when the deal is at its
turn (a bid, then its cards), the reward is its points when the deal ends. An observation is the
observation tensor of OpenSpiel's ``pocha`` game (``engine.deal_observer``) with the action mask of
the actions it may take now; actions are numbered as there: the deck's cards, then the bids. Chance
(the hand size when ``cards`` is None, the dealer, the cards) draws from the seed ``reset`` is given.
"""

from typing import Any

import numpy as np

from pocha.engine.deal_observer import DealObserver
from pocha.engine.deal_state import CHANCE, Moves
from pocha.engine.player import Decider
from pocha.errors import PochaError, missing_extra
from pocha.game.rules import Rules
from pocha.options import RuleOptions

try:
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:
    raise missing_extra("pettingzoo", "PettingZoo") from None


RENDER_MODES = ("ansi", "human")  # the deal as text: returned, or printed after every move


def env(rules: str | RuleOptions | Rules = "ludoteka", cards: int | None = None, render_mode: str | None = None) -> Any:
    """The environment, wrapped as PettingZoo's own are (its order of calls enforced)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, cards, render_mode))


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """One pocha deal as a turn-based environment: rules as ``pocha.Player`` takes them, the hand size (None: drawn)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "pocha_v0", "is_parallelizable": False}

    def __init__(
        self, rules: str | RuleOptions | Rules = "ludoteka", cards: int | None = None, render_mode: str | None = None
    ) -> None:
        EzPickle.__init__(self, rules, cards, render_mode)
        super().__init__()
        if isinstance(rules, str):
            rules = RuleOptions(preset=rules)
        if not isinstance(rules, Rules | RuleOptions):
            raise PochaError(f"rules: a preset name, a pocha.RuleOptions or a pocha.Rules, not {rules!r}")
        if render_mode not in (None, *RENDER_MODES):
            raise PochaError(f"render_mode: ansi, human or None, not {render_mode!r}")
        self.rules = rules if isinstance(rules, Rules) else rules.resolve()[1]
        self.moves = Moves.of(self.rules, cards)
        self.observer = DealObserver(self.moves)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(self.rules.players)]
        observation = spaces.Box(0, 1, self.observer.tensor.shape, np.float32)
        mask = spaces.Box(0, 1, (self.moves.num_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.moves.num_actions) for agent in self.possible_agents}
        self.draw = np.random.default_rng()
        self.state = self.moves.initial()

    def observation_space(self, agent: str) -> Any:
        """The observation tensor and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """Every card of the deck, then every bid."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: chance draws from ``seed`` (None: from where the last draws left off, or afresh)."""
        if seed is not None:
            self.draw = np.random.default_rng(seed)
        self.state = self.moves.initial()
        while self.state.current() == CHANCE:
            actions, odds = zip(*self.state.chance_outcomes(), strict=True)
            self.state.deal(int(self.draw.choice(actions, p=odds)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What the seat sees (OpenSpiel's observation tensor of ``pocha``) and the actions it may take now."""
        seat = self.possible_agents.index(agent)
        self.observer.set_from(self.state, seat)
        mask = np.zeros(self.moves.num_actions, np.int8)
        if self.state.current() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.observer.tensor.copy(), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The seat to move bids or plays; at the deal's end every seat gets its points as its reward."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        why = self.state.refusal(int(action))
        if why is not None:
            raise PochaError(f"action: {self.moves.action_text(int(action))} is not legal for {agent}: {why}")
        self.state.apply(int(action))
        if self.state.is_over:
            points = self.state.points()
            self.rewards = {agent: float(points[seat]) for seat, agent in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self.state.current()]
        if self.render_mode == "human":
            self.render()

    def choose(self, player: Decider, deal: int | None = None) -> int:
        """The action a pocha player (``pocha.Player``) takes at the seat to move, as in deal ``deal`` of its runs."""
        decision = player.decide(self.state.view(), deal, predict=False)
        if decision.kind == "bid":
            return self.moves.bid_offset + int(decision.choice)
        return self.moves.action_of[self.rules.notation.parse(str(decision.choice))]

    def render(self) -> str | None:
        """The deal as each seat sees it, a line a seat (``ansi``: returned; ``human``: printed)."""
        text = "\n".join(self.observer.string_from(self.state, seat) for seat in range(self.rules.players))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
