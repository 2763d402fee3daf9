"""A pocha deal as a PettingZoo AEC environment: PettingZoo's own API and seed tests, OpenSpiel's observations, a
pocha player at a seat.

Skipped where PettingZoo is not installed (``pip install 'pocha-simulator[pettingzoo]'``), but for the line its
absence gives.
"""

import importlib
import sys

import numpy as np
import pytest

import pocha
from pocha.engine.deal_state import dealing_actions
from pocha.errors import PochaError

TABLES = [  # (rules, cards): 3 to 6 players, a hand size drawn or fixed, both packs
    ("ludoteka", None),
    (pocha.RuleOptions(players=3), 12),
    (pocha.RuleOptions(preset="portuguese", players=5), 4),
    (pocha.RuleOptions(preset="oh-hell", players=4), 13),
    (pocha.RuleOptions(players=6, hook="never"), 2),
]


@pytest.fixture(scope="module")
def zoo():
    """``pocha.pettingzoo``, or the test skipped where PettingZoo is missing."""
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'pocha-simulator[pettingzoo]'")
    return importlib.import_module("pocha.pettingzoo")


def test_without_pettingzoo_the_module_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    for name in ("pocha.pettingzoo", "pocha.pettingzoo.aec"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    installs = (
        r"pip install 'pocha-simulator\[pettingzoo\]' \(in a clone of pocha: pip install -e '\.\[pettingzoo\]'\)$"
    )
    with pytest.raises(PochaError, match=r"^pettingzoo: PettingZoo is not installed; install it with " + installs):
        importlib.import_module("pocha.pettingzoo")
    for name in ("pocha.pettingzoo", "pocha.pettingzoo.aec"):
        monkeypatch.delitem(sys.modules, name, raising=False)


# PettingZoo's api_test warns of any observation that is a dict (the action mask beside it), as its own card games'
# are, unless it lists the environment by name: those two warnings say nothing of this one.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(("rules", "cards"), TABLES)
def test_pettingzoos_api_test_passes(zoo, rules, cards):
    from pettingzoo.test import api_test

    api_test(zoo.env(rules, cards), num_cycles=300)


def test_pettingzoos_seed_test_passes_and_a_seed_repeats_the_deal(zoo):
    from pettingzoo.test import seed_test

    seed_test(lambda: zoo.env("portuguese"), num_cycles=300)
    first, second = zoo.raw_env(), zoo.raw_env()
    first.reset(seed=5)
    second.reset(seed=5)
    assert first.state.dealt == second.state.dealt and first.state.cards == second.state.cards
    second.reset(seed=6)
    assert first.state.dealt != second.state.dealt


def test_the_observations_are_openspiels_and_the_mask_its_legal_actions(zoo):
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel is not installed: pip install 'pocha-simulator[openspiel]'"
    )
    importlib.import_module("pocha.openspiel")  # registers the pocha game
    env = zoo.raw_env(pocha.RuleOptions(players=4), cards=5)
    env.reset(seed=3)
    deal = env.state
    state = pyspiel.load_game("pocha(players=4,cards=5)").new_initial_state()
    hands = [deal.dealt_cards(seat) for seat in range(deal.players)]
    for action in dealing_actions(env.moves, deal.dealer, hands, deal.trump_card):  # the same deal in OpenSpiel
        state.apply_action(action)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        seat = env.possible_agents.index(agent)
        assert np.array_equal(observation["observation"], np.array(state.observation_tensor(seat), np.float32))
        if terminated:
            assert reward == state.returns()[seat]
            env.step(None)
            continue
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions()
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        state.apply_action(action)
    assert state.is_terminal()


def test_an_illegal_action_is_refused_with_the_reason(zoo):
    env = zoo.env(pocha.RuleOptions(players=4), cards=3)
    env.reset(seed=0)
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(PochaError, match="is not legal for seat_"):
        env.step(illegal)
    with pytest.raises(PochaError, match="render_mode: ansi, human or None"):
        zoo.raw_env(render_mode="rgb_array")


@pytest.mark.slow
def test_a_pocha_player_takes_a_seat(zoo):
    env = zoo.env(pocha.RuleOptions(players=4), cards=5, render_mode="ansi")
    player = pocha.Player("expected@greedy", env.unwrapped.rules)
    points = []
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                points += [reward] if agent == "seat_0" else []
                env.step(None)
                continue
            mask = observation["action_mask"]
            action = env.unwrapped.choose(player) if agent == "seat_0" else int(np.flatnonzero(mask)[0])
            assert observation["action_mask"][action] == 1
            env.step(action)
        assert "seat 0, dealer" in env.unwrapped.render()
    assert len(points) == 3
