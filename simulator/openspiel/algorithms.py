"""OpenSpiel's IS-MCTS as pocha's opponent: the search a match seats, its roll-outs, its worlds, and its numba twin.

Its worlds come from the mover's unseen cards dealt as pimc deals them (``UnseenCards``), or from the
state itself (OpenSpiel's own resampler, which knows which cards are out; in numba ``kernels.resample``).
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from pocha.errors import PochaError
from pocha.game.cards import mask_of
from pocha.kernels.decide import seat_worlds
from pocha.kernels.ismcts import ismcts_action, new_tree, no_leak
from pocha.kernels.pimc import scratch
from pocha.kernels.play import DealRules
from pocha.kernels.streams import mix64
from pocha.openspiel.games import card_ids, deal_parts, deck_size, is_pocha, rules_for, searched_position

ENGINES = ("python", "numba")  # IS-MCTS as OpenSpiel's Python bot, or the same search in pocha's kernels
RESAMPLERS = {  # where IS-MCTS's worlds come from: name -> what its searcher knows
    "pocha": "deals every card the mover has not seen, the voids play revealed kept",
    "openspiel": "sees which cards the other seats hold",
}


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
        if search.engine == "numba" and search.rollouts != 1:
            raise PochaError(f"against: ismcts's engine numba plays 1 roll-out a leaf, not rollouts={search.rollouts}")
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
        if self.resampler == "pocha" and not is_pocha(game):
            bot.set_resampler(UnseenCards(game, seed))
        else:  # the state's own resample (oh_hell's leaky one, the pocha game's honest one), drawn from the seed
            draw = np.random.RandomState([seed, 2]).random_sample  # OpenSpiel's default sampler is seeded afresh
            bot.set_resampler(lambda state, seat: state.resample_from_infostate(seat, draw))
        return bot


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
    """OpenSpiel's IS-MCTS with random roll-outs in pocha's kernels (``kernels.ismcts``), its worlds the resampler's.

    The search of ``Search.bot`` step for step, its random numbers drawn from pocha's streams; a
    decision takes milliseconds where the Python bot takes a tenth of a second or more. Honest
    worlds (``resampler=pocha``) as ``UnseenCards`` draws them; with ``resampler=openspiel`` the
    cards the others really hold, dealt among them as oh_hell's own resampler does (``kernels.resample``).
    """

    def __init__(self, game: "pyspiel.Game", search: Search, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.cards = UnseenCards(game, seed)
        self.setting = (search.simulations, float(search.uct_c))
        self.tree = new_tree(search.simulations)
        self.leaky = search.resampler == "openspiel"

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
            leak=self.leak(state) if self.leaky else no_leak(),
        )
        cards.state = np.uint64(cards.state)
        bidding = bool((bids < 0).any())
        return int(action) + deck_size(state.get_game()) if bidding else int(cards.actions[action])

    def leak(self, state: "pyspiel.State") -> tuple[np.ndarray, np.ndarray]:
        """What OpenSpiel's resampler reads of ``state`` beyond the mover's view: the deal, and its card order.

        ``(dealt, order)``: each seat's dealt cards (uint64[seat], from the history: OpenSpiel deals
        round-robin from seat 0), and the pocha card id of each OpenSpiel card, in its order.
        """
        players, ids = state.num_players(), self.cards.ids
        dealt = deal_parts(state.history(), players)[2]
        hands = np.array([mask_of(ids[dealt[seat::players]].tolist()) for seat in range(players)], np.uint64)
        return hands, ids

    def restart_at(self, state: "pyspiel.State") -> None:
        """Nothing to forget: every step reads the whole state."""
