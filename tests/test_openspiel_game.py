"""pocha's own rules as the OpenSpiel game ``pocha``: OpenSpiel's own checks, the engine's deals replayed card for
card, the rules against the slow reference, and honest worlds.

Skipped where OpenSpiel is not installed (``pip install 'pocha-simulator[openspiel]'``); tests/test_openspiel.py
checks the line its absence gives.
"""

import json
import random
from dataclasses import replace

import pytest
import reference

import pocha
from pocha.engine.deal_state import dealing_actions, line_actions, moves_of
from pocha.game.cards import cards_of, suit_of
from pocha.game.presets import make_rules
from pocha.game.rules import Rules

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'pocha-simulator[openspiel]'")
pocha_game = pytest.importorskip("pocha.openspiel.pocha_game")
load_game = pytest.importorskip("pocha.openspiel").load_game
try:  # OpenSpiel's own API tests, as its integration suite runs them on every game it ships
    from open_spiel.integration_tests import api_test
except ImportError:  # pragma: no cover - shipped with every OpenSpiel wheel
    api_test = None

GAMES = [  # (game string, simulations): 3 to 6 players, several hand sizes, every play rule, hook and deck kind
    "pocha(players=3,cards=1)",
    "pocha(players=3,cards=6)",
    "pocha(players=3,cards=12)",  # the full deal of 36 cards: the dealer's last card names trump
    "pocha(players=4,cards=1)",
    "pocha(players=4,cards=5)",
    "pocha(players=4,cards=10)",
    "pocha(players=4)",  # the hand size drawn as a whole game's schedule plays it
    "pocha(players=5,cards=3,preset=portuguese)",
    "pocha(players=5,cards=8,play_rule=pocha-always-beat)",
    "pocha(players=6,cards=2,preset=turkish)",
    "pocha(players=6,cards=6,play_rule=pocha-trump-lead-free,hook=never)",
    "pocha(players=4,cards=13,preset=oh-hell)",  # 52 French cards dealt whole: no trump
    "pocha(players=5,cards=4,preset=oh-hell,scoring=10;1;1;0,deck=french:32)",
]
TINY = "pocha(players=3,cards=1,deck=french:A)"  # four aces, one each and one turned: its whole tree is small


def load(text):
    return pyspiel.load_game(text)


def random_state(game, rng, stop=None):
    """A state of ``game`` reached by uniform random moves (chance by its odds), before ``stop`` moves if given."""
    state = game.new_initial_state()
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        random_state_step(state, rng)
    return state


# --- OpenSpiel's own checks ------------------------------------------------------------------------


@pytest.mark.parametrize("text", GAMES)
def test_openspiels_random_simulation_test_passes(text):
    pyspiel.random_sim_test(load(text), num_sims=2, serialize=True, verbose=False)


def api_cases():
    """OpenSpiel's API test classes for the pocha game: its partial-tree checks on sampled states of several
    tables, and its full-tree checks on the tiny table, whose counts are worked out by hand here."""
    if api_test is None:
        return {}
    # The tiny table: 3 dealers, then 4 x 3 x 2 ways to deal a card each, one card left to turn: 124 chance
    # nodes over 72 deals. Each deal has 1 + 2 + 4 bid nodes (bids 0 or 1, no hook at one card), then 8
    # bid lists of 3 forced cards each: 72 x 7 + 72 x 8 x 3 = 2232 decisions, 72 x 8 = 576 ends. A bidder
    # at position i sees the dealer, its card, the trump card and i bids: 3 x 12 x (1 + 2 + 4) = 252 infosets;
    # the j-th player of the trick also sees the j cards before it (1, 2, 2 ways): 3 x 12 x 8 x 5 = 1440.
    api_test.TOTAL_NUM_STATES["pocha-tiny"] = (124, 2232, 576)
    api_test.PERFECT_RECALL_NUM_STATES["pocha-tiny"] = 252 + 1440
    cases = {
        "TestOpenSpielFullTreeTiny": (api_test.EnforceAPIOnFullTreeBase, "pocha-tiny", TINY),
        "TestOpenSpielPartialTreeThree": (api_test.EnforceAPIOnPartialTreeBase, "pocha", "pocha(players=3,cards=6)"),
        "TestOpenSpielPartialTreeFour": (api_test.EnforceAPIOnPartialTreeBase, "pocha", "pocha(players=4)"),
        "TestOpenSpielPartialTreeSix": (api_test.EnforceAPIOnPartialTreeBase, "pocha", "pocha(players=6,cards=6)"),
        "TestOpenSpielPartialTreeFrench": (api_test.EnforceAPIOnPartialTreeBase, "pocha", GAMES[-2]),
    }
    return {
        name: type(name, (base,), {"game_name": key, "game": load(text)}) for name, (base, key, text) in cases.items()
    }


globals().update(api_cases())  # unittest classes: pytest collects them as they are


@pytest.mark.parametrize("text", [TINY, *GAMES[::3]])
def test_resampled_states_look_the_same_to_the_player_and_chance_adds_up(text):
    """OpenSpiel's ResampleInfostateTest and CheckChanceOutcomes (C++ only; here as they read)."""
    game, rng = load(text), random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [action for action, _ in outcomes]
                assert actions == state.legal_actions() == sorted(set(actions))
                assert all(0 < odds <= 1 for _, odds in outcomes) and sum(
                    odds for _, odds in outcomes
                ) == pytest.approx(1)
            else:
                for player in range(game.num_players()):
                    other = state.resample_from_infostate(player, sampler)
                    assert other.information_state_string(player) == state.information_state_string(player)
                    assert other.information_state_tensor(player) == state.information_state_tensor(player)
                    assert other.current_player() == state.current_player()
            state = random_state_step(state, rng)


def random_state_step(state, rng):
    """The state after one random move (chance by its odds)."""
    if state.is_chance_node():
        actions, odds = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, odds)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_game_string_names_every_rule_option_and_a_bad_one_is_one_line():
    rules = make_rules("portuguese", 5, scoring=pocha.game.scoring.SCORINGS["tricks+10"][0], schedule="1-4,4")
    game = load(pocha_game.game_string(rules, 3))
    assert game.moves.rules == replace(rules, tie_break=game.moves.rules.tie_break) and game.moves.sizes == (3,)
    assert load("pocha(preset=oh-hell,players=5)").moves.rules == make_rules("oh-hell", 5)
    for text, message in [
        ("pocha(players=1)", "players: must be a whole number of at least 2"),
        ("pocha(players=4,cards=11)", "cards: 11 is not a hand size here"),
        ("pocha(hook=sometimes)", "hook: unknown rule 'sometimes'"),
        ("pocha(scoring=10;5)", "scoring: '10,5' is neither a name"),
        ("pocha(tie_break=one)", "unknown parameter 'tie_break'"),
    ]:
        with pytest.raises(pocha.PochaError, match=message) as refused:
            load_game(text)
        assert "\n" not in str(refused.value)


def test_a_whole_schedule_draws_each_hand_size_as_often_as_a_game_plays_it():
    game = load("pocha(players=4,schedule=1-3;3)")
    assert game.new_initial_state().chance_outcomes() == [(1, 0.25), (2, 0.25), (3, 0.5)]
    assert game.max_chance_nodes_in_history() == 1 + 1 + 4 * 3 + 1


# --- the rules: the engine's deals card for card, and random deals against the reference ----------


def replay(line, rules):
    """A trace's deal played in the OpenSpiel game card for card: each move legal there, tricks and points the same."""
    game = load(pocha_game.game_string(rules, line["cards"]))
    state = game.new_initial_state()
    for action in line_actions(game.moves, line):
        assert action in state.legal_actions(), (line, state.history_str(), action)
        state.apply_action(action)
        if not state.is_chance_node():
            check_against_reference(state)
        if len(state.deal.winners):
            assert state.deal.winners == [trick["winner"] for trick in line["tricks"]][: len(state.deal.winners)]
    assert state.is_terminal()
    assert state.returns() == line["points"] and state.deal.won == line["won"]


def check_against_reference(state):
    """The state's legal cards and last trick winner are the slow pure-Python reference's."""
    deal = state.deal
    if deal.is_over or deal.bidding:
        return
    trump = None if deal.trump_card < 0 else suit_of(deal.trump_card)
    hand, trick = cards_of(deal.held[state.current_player()]), deal.trick_cards()
    expected = reference.legal_cards(hand, trick, trump, deal.rules.play_rule)
    assert sorted(deal.moves.ids[action] for action in state.legal_actions()) == sorted(expected)
    if deal.winners and not trick:
        last = deal.plays[-deal.players :]
        leader = deal.seat_of_play(len(deal.plays) - deal.players)
        assert deal.winners[-1] == (leader + reference.trick_winner(last, trump)) % deal.players


TRACED = [  # (preset, players, hand sizes, play): every play rule, hook, both packs, full deals with and without trump
    ("ludoteka", 4, "1,3,10", "random"),
    ("ludoteka", 3, "5,12", "greedy"),
    ("portuguese", 5, "2,8", "random"),
    ("italian", 4, "4,10", "random"),
    ("turkish", 6, "3,6", "random"),
    ("polish", 4, "6", "greedy"),
    ("oh-hell", 4, "5,13", "random"),
    ("oh-hell", 5, "7", "greedy"),
]


@pytest.mark.parametrize(("preset", "players", "cards", "play"), TRACED)
def test_the_engines_deals_replay_card_for_card(preset, players, cards, play, tmp_path):
    path = tmp_path / "t.jsonl"
    extra = {"play_rule": "pocha-trump-lead-free"} if preset == "polish" else {}
    pocha.simulate(
        "random",
        rules=pocha.RuleOptions(preset=preset, players=players, **extra),
        cards=cards,
        deals=12,
        play=play,
        seed=3,
        trace=path,
        threads=1,
    )
    header, *lines = (json.loads(line) for line in path.read_text().splitlines())
    rules = Rules.from_dict(header["rules"])
    for line in lines:
        replay(line, rules)


def test_whole_games_traced_replay_card_for_card(tmp_path):
    path = tmp_path / "games.jsonl"
    rules = pocha.RuleOptions(preset="portuguese", players=4, schedule="1-3,3")
    pocha.play_games("random", rules=rules, games=4, play="random", seed=5, trace=path, threads=1)
    header, *lines = (json.loads(line) for line in path.read_text().splitlines())
    assert len(lines) >= 4 * 4 and {line["hand"] for line in lines} >= {0, 1, 2, 3}
    for line in lines:
        replay(line, Rules.from_dict(header["rules"]))


def test_the_golden_deals_replay_card_for_card():
    from test_golden import GOLDEN

    for path in GOLDEN:
        header, *lines = (json.loads(line) for line in path.read_text().splitlines())
        for line in lines:
            replay(line, Rules.from_dict(header["rules"]))


@pytest.mark.parametrize("text", GAMES)
def test_the_numba_search_reads_the_pocha_game_as_its_view_says_and_plays_legally(text):
    """``ismcts:engine=numba`` reads a pocha state from its deal: the same dealer, trump, bids and cards played as
    the mover's view, the cards it holds among those it was dealt; and every bid and card it picks is legal."""
    from pocha.kernels.codes import NO_TRUMP
    from pocha.openspiel.algorithms import NumbaSearch, Search
    from pocha.openspiel.games import card_ids, searched_position

    game, rng = load(text), random.Random(text)
    notation, bot = game.moves.rules.notation, NumbaSearch(game, Search.of("simulations=40,engine=numba"), seed=1)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                random_state_step(state, rng)
                continue
            size, dealer, dealt, trump, bids, played = searched_position(state, card_ids(game))
            view = state.deal.view()
            assert dealer == view.dealer and trump == (NO_TRUMP if view.trump is None else notation.parse(view.trump))
            assert [bids[(dealer + 1 + k) % len(bids)] for k in range(len(view.bids))] == list(view.bids)
            assert sorted(bids)[: len(bids) - len(view.bids)] == [-1] * (len(bids) - len(view.bids))
            assert played.tolist() == notation.parse_list(" ".join(view.played))
            held = notation.parse_list(" ".join(view.hand))
            assert bin(dealt).count("1") == size and all(dealt >> card & 1 for card in held)
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


@pytest.mark.parametrize("text", GAMES)
def test_random_deals_follow_the_reference_rules_and_scoring(text):
    game, rng = load(text), random.Random(11)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            state = random_state_step(state, rng)
            if not state.is_chance_node():
                check_against_reference(state)
        deal = state.deal
        scoring = deal.rules.scoring
        expected = [reference.score(deal.bid_of(seat), deal.won[seat], scoring) for seat in range(deal.players)]
        assert state.returns() == expected and sum(deal.won) == deal.cards
        if deal.cards > 1 and deal.rules.hook != "never":
            assert sum(deal.bids) != deal.cards  # the hook
        assert state.information_state_string(0).count("|") == deal.cards - 1


# --- honest worlds --------------------------------------------------------------------------------


def forced(game, names, dealer, trump, bids, played):
    """The state after dealing ``names`` (each seat's cards), turning ``trump``, the bids (in order) and ``played``."""
    moves = game.moves
    parse = moves.rules.notation.parse
    hands = [[parse(card) for card in hand.split()] for hand in names]
    actions = dealing_actions(moves, dealer, hands, parse(trump)) + moves_of(moves, bids, [])
    state = game.new_initial_state()
    for action in actions + [moves.action_of[parse(card)] for card in played.split()]:
        state.apply_action(action)
    return state


def worlds(state, seat, count=400):
    """The hands as dealt of ``count`` resampled states, by seat."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    return [
        [set(other.deal.dealt_cards(s)) for s in range(state.num_players())]
        for other in (state.resample_from_infostate(seat, sampler) for _ in range(count))
    ]


HANDS = [
    "7O 5O 4C",
    "4O 12C 3E",
    "5C 6E 7E",
]  # 36 cards: no 2s  # seat 0 leads 7O; seat 1 follows low; seat 2 has no oros, no bastos


@pytest.mark.parametrize(("play_rule", "bound"), [("pocha", True), ("trump", False), ("follow", False)])
def test_worlds_keep_what_the_play_showed_and_every_unseen_card(play_rule, bound):
    """Seat 1 followed 7O with 4O: under pocha it had to beat it if it could, so it holds no higher oros. Seat 2
    did not follow: it has no oros and, under pocha and trump, no bastos (trumps) either, as it had to ruff."""
    game = load(f"pocha(players=3,cards=3,play_rule={play_rule})")
    state = forced(game, HANDS, 2, "4B", [1, 1, 0], "7O 4O 5C")
    assert state.current_player() == 0
    cards = game.moves.rules.notation.parse_list
    higher_oros, oros, bastos = (
        set(cards(text)) for text in ("1O 3O 12O 11O 10O", "1O 3O 12O 11O 10O 6O", "1B 3B 12B 11B 10B 7B 6B 5B")
    )
    drawn = worlds(state, 0)
    for hands in drawn:
        assert hands[0] == set(cards("7O 5O 4C")) and cards("4O")[0] in hands[1] and cards("5C")[0] in hands[2]
        assert [len(hand) for hand in hands] == [3, 3, 3]
        assert not hands[2] & oros
        assert not hands[2] & bastos or play_rule == "follow"
        assert not hands[1] & higher_oros or not bound
    unseen = set(game.moves.ids) - set(cards("7O 5O 4C 4B 4O 5C"))
    shown = set().union(*(hands[1] | hands[2] for hands in drawn)) - set(cards("4O 5C"))
    assert shown == unseen - (higher_oros if bound else set())  # every other unseen card lies with someone


def test_a_seat_that_has_played_to_the_trick_gets_worlds_too():
    """A player who is not the one to move asks for worlds after its own card: each seat still holds its count."""
    game = load("pocha(players=3,cards=3)")
    state = forced(game, HANDS, 2, "4B", [1, 1, 0], "7O")
    for hands in worlds(state, 0, 50):
        assert [len(hand) for hand in hands] == [3, 3, 3]


def test_in_a_full_deal_the_dealers_shown_trump_card_stays_with_the_dealer():
    game = load("pocha(players=4,cards=10)")
    state = random_state(game, random.Random(2), stop=1 + 40 + 4 + 5)
    dealer, trump = state.deal.dealer, state.deal.trump_card
    for hands in worlds(state, (dealer + 1) % 4, 50):
        assert trump in hands[dealer]
