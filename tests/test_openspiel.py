"""pocha's players at OpenSpiel's oh_hell table: the rules and cards as OpenSpiel plays them, the bot, the match.

Skipped where OpenSpiel is not installed (``pip install 'pocha-simulator[openspiel]'``), but for the one line
its absence gives.
"""

import importlib
import json
import math
import re
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.errors import PochaError
from pocha.game.cards import suit_of
from pocha.game.rules import trick_winner
from pocha.game.scoring import SCORINGS, Scoring
from pocha.reports.match import DEAL_COLUMNS, Match

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

SIZES_AT = {3: range(1, 18), 4: range(1, 13), 5: range(1, 11)}  # every hand size oh_hell deals, 52 cards


@pytest.fixture(scope="module")
def openspiel():
    """``pocha.openspiel``, or the test skipped where OpenSpiel is missing."""
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'pocha-simulator[openspiel]'")
    return importlib.import_module("pocha.openspiel")


def test_without_openspiel_the_module_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # an import of it fails
    monkeypatch.delitem(sys.modules, "pocha.openspiel", raising=False)
    installs = r"pip install 'pocha-simulator\[openspiel\]' \(in a clone of pocha: pip install -e '\.\[openspiel\]'\)$"
    with pytest.raises(PochaError, match=r"^openspiel: .*" + installs):
        importlib.import_module("pocha.openspiel")
    monkeypatch.delitem(sys.modules, "pocha.openspiel", raising=False)


MODULES = ["pocha.openspiel", "pocha.openspiel.games", "pocha.openspiel.pocha_game", "pocha.openspiel_game"]


@pytest.mark.parametrize("module", MODULES)
def test_without_openspiel_each_module_says_how_to_install_it(monkeypatch, module):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    for name in MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(PochaError, match=r"^openspiel: OpenSpiel is not installed; install it with pip install"):
        importlib.import_module(module)
    for name in MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)


# --- the rules and the cards -----------------------------------------------------------------------


def test_the_rules_of_oh_hell_as_pocha_plays_them(openspiel):
    rules = openspiel.rules_for(openspiel.load_game("oh_hell"))
    assert rules == pocha.make_rules("oh-hell", 3, hook="always", scoring=SCORINGS["tricks+10"][0])
    assert (rules.players, rules.deck_size, rules.play_rule, rules.hook) == (3, 52, "follow", "always")
    penalty = openspiel.rules_for(openspiel.load_game("oh_hell(players=5,off_bid_penalty=true)"))
    assert penalty.players == 5 and penalty.scoring == SCORINGS["openspiel-penalty"][0]
    pochas = openspiel.rules_for(openspiel.load_game("oh_hell(off_bid_penalty=true,points_per_trick=5)"))
    assert pochas.scoring == Scoring()  # pocha's own: 10 + 5 a trick, -5 a trick off
    loose = openspiel.rules_for(openspiel.load_game("oh_hell(points_per_trick=2)")).scoring
    assert loose == Scoring(exact=10, per_trick=2, per_trick_missed=2, miss_per_trick=0)


@pytest.mark.parametrize("per_suit", range(2, 14))
def test_a_smaller_deck_keeps_the_lowest_ranks_and_every_card_maps_both_ways(openspiel, per_suit):
    game = openspiel.load_game(f"oh_hell(num_cards_per_suit={per_suit})")
    rules = openspiel.rules_for(game)
    assert rules.ranks == tuple(range(per_suit + 1, 1, -1))  # 2 up: OpenSpiel strips the top of the pack
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(0)  # now dealing: an action is a card
    names = [openspiel.card_name(action) for action in range(4 * per_suit)]
    for action, name in enumerate(names):
        assert openspiel.card_action(name, rules.notation) == action
        spoken = state.action_to_string(action)  # OpenSpiel writes suit then rank: "HT" for 10H
        assert rules.notation.parse(spoken[1:] + spoken[0]) == rules.notation.parse(name)
    assert sorted(names) == sorted(rules.notation.name(card) for card in rules.deck())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kuhn_poker", "is none of oh_hell and pocha"),
        ("oh_hell(num_suits=3)", "four suits"),
        ("oh_hell(players=8)", "3 to 7 players"),
        ("oh_hell(num_cards_per_suit=14)", "num_cards_per_suit is 2 to 13"),
        ("oh_hell(players=7,num_cards_per_suit=2)", None),
        ("oh_hell(foo=1)", "unknown parameter 'foo'"),
        ("oh_hell(players=four)", "players is a whole number"),
        ("oh_hell(off_bid_penalty=1)", "off_bid_penalty is true or false"),
        ("oh_hell(players=4", "closing"),
        ("oh_hell(players=3,players=4)", "players given more than once"),
    ],
)
def test_a_game_pocha_cannot_play_is_one_line_and_openspiel_prints_nothing(openspiel, capfd, text, message):
    if message is None:  # the smallest game: 8 cards, 7 players, one card each and one turned up
        assert openspiel.most_tricks(openspiel.load_game(text)) == 1
        return
    with pytest.raises(PochaError, match=message) as refused:
        openspiel.load_game(text)
    assert "\n" not in str(refused.value)
    assert capfd.readouterr().err == ""


# --- the bot ---------------------------------------------------------------------------------------


def winners_and_points(state, rules):
    """Each seat's points from the history by pocha's rules (its trick winner, its scoring): OpenSpiel's, checked."""
    history, players = state.history(), rules.players
    cards, dealer = history[0], history[1]
    trump_suit = suit_of(rules.notation.parse(card_name(history[2 + players * cards])))
    after = history[3 + players * cards :]
    bids = [action - rules.deck_size for action in after[:players]]  # from the dealer's left
    won = [0] * players
    leader = (dealer + 1) % players
    for start in range(players, len(after), players):
        trick = [rules.notation.parse(card_name(action)) for action in after[start : start + players]]
        leader = (leader + trick_winner(trick, trump_suit)) % players
        won[leader] += 1
    return [int(rules.scoring.points(bids[(seat - dealer - 1) % players], won[seat])) for seat in range(players)]


def card_name(action):
    return importlib.import_module("pocha.openspiel").card_name(action)


def play_out(openspiel, game, bots, seed):
    """A deal of random chance outcomes played by the bots; checks each view against the state on the way."""
    draw = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = [action for action, _ in state.chance_outcomes()]
        state.apply_action(int(draw.choice(outcomes)))
    notation = openspiel.rules_for(game).notation
    while not state.is_terminal():
        view = openspiel.view_of(state)
        players = game.num_players()
        if len(view.bids) == players and len(view.played) % players == 0:  # a lead: every card held is legal
            assert sorted(openspiel.card_action(card, notation) for card in view.hand) == state.legal_actions()
        state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_oh_hell_plays_and_scores_as_the_rules_say(openspiel, players):
    import pyspiel

    rules = openspiel.rules_for(openspiel.load_game(f"oh_hell(players={players})"))
    for cards in SIZES_AT[players]:
        game = openspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={cards})")
        for seed in range(5):
            bots = [pyspiel.make_uniform_random_bot(seat, seed) for seat in range(players)]
            state = play_out(openspiel, game, bots, seed=seed)
            assert state.returns() == winners_and_points(state, rules)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("spec", ["expected@greedy", "montecarlo:samples=4,assume=expected@pimc:samples=2"])
def test_the_bot_plays_every_hand_size_legally_and_oh_hell_scores_as_pocha(openspiel, players, spec):
    rules = openspiel.rules_for(openspiel.load_game(f"oh_hell(players={players})"))
    player = pocha.Player(spec, rules, seed=1)
    for cards in SIZES_AT[players]:
        game = openspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={cards})")
        bots = [openspiel.PochaBot(player, game) for _ in range(players)]
        state = play_out(openspiel, game, bots, seed=cards)
        assert state.returns() == winners_and_points(state, rules)


def test_a_player_of_other_rules_is_refused(openspiel):
    game = openspiel.load_game("oh_hell(players=4)")
    with pytest.raises(PochaError, match="make it with rules_for"):
        openspiel.PochaBot(pocha.Player("expected", openspiel.rules_for(openspiel.load_game("oh_hell"))), game)
    with pytest.raises(PochaError, match="make it with rules_for"):  # the oh-hell preset scores as pocha, not tricks+10
        openspiel.PochaBot(pocha.Player("expected", pocha.RuleOptions(preset="oh-hell", players=4)), game)
    with pytest.raises(PochaError, match="player: a pocha.Player"):
        openspiel.PochaBot("expected", game)


def test_an_illegal_choice_is_caught(openspiel):
    class Stubborn(pocha.Player):
        def decide(self, view, deal=None, predict=True):
            return SimpleNamespace(kind="bid", choice=3)

    game = openspiel.load_game("oh_hell(num_tricks_fixed=2)")
    state = game.new_initial_state()
    for action in (2, 0, *range(7)):
        state.apply_action(action)
    with pytest.raises(AssertionError, match="illegal in OpenSpiel"):
        openspiel.PochaBot(Stubborn("zero", openspiel.rules_for(game)), game).step(state)


# --- IS-MCTS's worlds ------------------------------------------------------------------------------


def forced(game, actions):
    """The state after ``actions``."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def test_the_honest_worlds_deal_every_unseen_card_and_keep_the_voids(openspiel):
    import pyspiel

    game = openspiel.load_game("oh_hell(players=3,num_tricks_fixed=3)")
    # a card's action is rank * 4 + suit (C D S H): seat 0 (the dealer) gets 2C 3C 4C, seat 1 2D 3D 4D,
    # seat 2 2S 3S 4S, dealt a card a seat in turn; 2H is turned up
    dealt, trump = [0, 1, 2, 4, 5, 6, 8, 9, 10], 3
    bids = [52 + 1, 52 + 1, 52 + 0]  # seats 1, 2, then the dealer
    state = forced(game, [3, 0, *dealt, trump, *bids, 1, 2])  # seat 1 leads 2D, seat 2 (no diamond) plays 2S
    seat, key = state.current_player(), state.information_state_string()
    assert seat == 0
    diamonds = {rank * 4 + 1 for rank in range(13)}
    unseen = set(range(52)) - {0, 4, 8, trump, 1, 2}
    honest, shown = openspiel.UnseenCards(game, 4), set()
    for _ in range(300):
        world = honest(state, seat)
        assert world.information_state_string(seat) == key  # the mover cannot tell it from the real state
        hands = [
            set(importlib.import_module("pocha.openspiel.games").deal_parts(world.history(), 3)[2][other::3])
            for other in range(3)
        ]
        assert hands[0] == {0, 4, 8} and {1} < hands[1] and {2} < hands[2] and len(hands[1]) == len(hands[2]) == 3
        assert not hands[2] & diamonds  # the seat that did not follow diamonds holds none
        shown |= hands[1] | hands[2]
    assert shown - {1, 2} == unseen  # every card seat 0 has not seen is dealt to someone
    for _ in range(50):  # OpenSpiel's own worlds only move the cards the others really hold
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        others = importlib.import_module("pocha.openspiel.games").deal_parts(world.history(), 3)[2]
        assert set(others[1::3]) | set(others[2::3]) == {1, 2, 5, 6, 9, 10}


def leaky_worlds(openspiel, state, count, seed):
    """``count`` worlds of OpenSpiel's resampler in numba (``kernels.resample``) for the mover of ``state``.

    Each as the other seats' hands now: a tuple of sorted OpenSpiel card actions, seat by seat (the mover's too).
    """
    from pocha.kernels.decide import seat_position
    from pocha.kernels.pimc import scratch
    from pocha.kernels.play import DealRules
    from pocha.kernels.resample import leaky_world

    game, players, seat = state.get_game(), state.num_players(), state.current_player()
    search = openspiel.Search(engine="numba", resampler="openspiel").bot(game, seed)
    ids = search.cards.ids
    size, dealer, mine, trump, bids, played = openspiel.games.searched_position(state, ids)
    dealt, order = search.leak(state)
    work = scratch(0, players)
    rules = DealRules.of(openspiel.games.rules_for(game), size)
    view, _, _ = seat_position(rules, seat, np.uint64(mine), trump, dealer, bids, played, work)
    view = view._replace(hand=np.uint64(view.hand), unseen=np.uint64(view.unseen), shown=np.uint64(view.shown))
    action = {int(card): a for a, card in enumerate(ids)}
    world, ints, random = np.zeros(players, np.uint64), np.zeros((3, 64), np.int64), np.uint64(seed)
    worlds = []
    for _ in range(count):
        random = np.uint64(leaky_world(view, dealt, order, world, random, ints))
        worlds.append(
            tuple(tuple(sorted(action[c] for c in range(64) if int(world[o]) >> c & 1)) for o in range(players))
        )
    return worlds


def openspiel_worlds(state, count, seed):
    """``count`` worlds of OpenSpiel's own ``resample_from_infostate`` for the mover, as ``leaky_worlds`` gives them."""
    players, seat, draw = state.num_players(), state.current_player(), np.random.RandomState(seed).random_sample
    deal_parts = importlib.import_module("pocha.openspiel.games").deal_parts
    played = deal_parts(state.history(), players)[4][players:]
    worlds = []
    for _ in range(count):
        dealt = deal_parts(state.resample_from_infostate(seat, draw).history(), players)[2]
        worlds.append(tuple(tuple(sorted(set(dealt[o::players]) - set(played))) for o in range(players)))
    return worlds


def held_cards(worlds):
    """Every (seat, card) of the worlds: counted over them, the share of worlds in which the seat holds the card."""
    return [(seat, card) for world in worlds for seat, hand in enumerate(world) for card in hand]


@pytest.mark.parametrize(("players", "cards"), [(3, 3), (3, 5), (4, 4), (5, 3)])
def test_openspiels_resampler_in_numba_draws_the_same_worlds_with_the_same_chances(openspiel, players, cards):
    """On positions of random play (the bidding, and cards played to voids), every world the numba resampler
    draws holds the mover's own hand and gives each other seat as many of the cards the others really hold as it
    holds; each world is drawn as often as OpenSpiel's ``resample_from_infostate`` draws it (within 5 standard
    errors of the difference of the two shares, 4,000 worlds each), and so is each card at each seat."""
    game = openspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={cards})")
    random = np.random.default_rng(players * 100 + cards)
    deal_parts = importlib.import_module("pocha.openspiel.games").deal_parts
    checked = 0
    for deal in range(12):
        state = forced(game, openspiel.deal_chance(game, 7, deal))
        stop = int(random.integers(0, players + players * (cards - 1)))  # the bids, then up to the last trick
        while len(deal_parts(state.history(), players)[4]) < stop:
            actions = state.legal_actions()
            state.apply_action(actions[random.integers(len(actions))])
        seat, (_, _, dealt, _, after) = state.current_player(), deal_parts(state.history(), players)
        truth = [tuple(sorted(set(dealt[o::players]) - set(after[players:]))) for o in range(players)]
        ours, theirs = leaky_worlds(openspiel, state, 4000, deal), openspiel_worlds(state, 4000, deal)
        for world in ours:
            assert world[seat] == truth[seat]
            assert sorted(sum(world, ())) == sorted(sum(truth, ()))
            assert [len(hand) for hand in world] == [len(hand) for hand in truth]
        for read in (list, held_cards):  # each world, each card at each seat
            share, other = (pd.Series(read(worlds)).value_counts() / 4000 for worlds in (ours, theirs))
            share, other = share.align(other, fill_value=0.0)
            error = np.sqrt((share * (1 - share) + other * (1 - other)) / 4000)
            assert (abs(share - other) <= 5 * error + 1e-9).all(), (deal, (share - other).abs().max())
        checked += len(share) > 1
    assert checked >= 6


def choice_distance(openspiel, state, specs, draws):
    """An unbiased estimate of the sum over actions of (p - q)^2, p and q the chances that the two IS-MCTS ``specs``
    choose each action at ``state``, from ``draws`` choices of each (a bot of its own seed each): 0 on average when
    they choose alike, the square of how far apart they are when not."""
    counts = [
        pd.Series(
            [openspiel.Search.of(spec).bot(state.get_game(), seed).step(state) for seed in range(draws)]
        ).value_counts()
        for spec in specs
    ]
    p, q = counts[0].align(counts[1], fill_value=0)
    within = sum(float((c * (c - 1)).sum()) / (draws * (draws - 1)) for c in (p, q))
    return within - 2 * float((p * q).sum()) / draws**2


def test_the_leaky_numba_search_chooses_as_openspiels_leaky_bot(openspiel):
    """Over 30 positions of 4-card deals (bids and cards, each with a choice), 8 choices each of OpenSpiel's Python
    bot and of the numba search, both with OpenSpiel's resampler at 100 simulations: the estimated squared distance
    between their chances of each action is 0 within 4 standard errors (0.010 ± 0.016 as written); the honest numba
    search, which does not know which cards are out, is further from the leaky bot by more than 3 standard errors
    of the paired difference (0.40, ± 0.10): the check can fail."""
    game = openspiel.load_game("oh_hell(players=3,num_tricks_fixed=4)")
    random = np.random.default_rng(44)
    leaky, honest = [], []
    python = "simulations=100,resampler=openspiel"
    for deal in range(200):
        state = forced(game, openspiel.deal_chance(game, 11, deal))
        for _ in range(int(random.integers(0, 3 + 3 * 3))):  # into the bidding or the play
            actions = state.legal_actions()
            state.apply_action(actions[random.integers(len(actions))])
        if len(state.legal_actions()) < 2:
            continue
        leaky.append(choice_distance(openspiel, state, (python, f"{python},engine=numba"), 8))
        honest.append(choice_distance(openspiel, state, (python, "simulations=100,engine=numba"), 8))
        if len(leaky) == 30:
            break
    distance, error = np.mean(leaky), np.std(leaky, ddof=1) / np.sqrt(len(leaky))
    assert abs(distance) < 4 * error, (distance, error)
    assert np.mean(honest) - distance > 3 * np.std(np.subtract(honest, leaky), ddof=1) / np.sqrt(len(leaky))


def one_card_win_chance(state):
    """The chance the first bidder's card takes the one-card trick, over the cards it has not seen."""
    _, _, dealt, trump, _ = importlib.import_module("pocha.openspiel.games").deal_parts(state.history(), 3)
    mine = dealt[state.current_player()]
    rank, suit = divmod(mine, 4)
    trumps = trump % 4

    def beats(card):
        return (card % 4 == trumps and (suit != trumps or card // 4 > rank)) or (card % 4 == suit and card // 4 > rank)

    unseen = [card for card in range(52) if card not in (mine, trump)]
    losing = sum(map(beats, unseen))  # the two others hold 2 of the 50 unseen cards, every pair alike
    return math.comb(len(unseen) - losing, 2) / math.comb(len(unseen), 2)


def test_at_one_card_the_honest_first_bidder_guesses_where_the_leaky_one_knows(openspiel):
    """On toss-ups (the first bidder's card wins in 20% to 80% of the worlds it may be in) the searcher
    that sees which cards the others hold bids exactly every time, in Python and in numba; the honest one
    cannot beat the best guess: its exact rate over N toss-ups exceeds the mean of max(p, 1 - p) by more
    than sqrt(ln(10**6) / (2 N)) with a chance below one in a million (Hoeffding)."""
    game = openspiel.load_game("oh_hell(players=3,num_tricks_fixed=1)")
    exact: dict[str, list[bool]] = {
        "resampler=pocha": [],
        "resampler=openspiel": [],
        "resampler=openspiel,engine=numba": [],
    }
    best = []
    for deal in range(200):
        state = forced(game, openspiel.deal_chance(game, 5, deal))
        chance = one_card_win_chance(state)
        if not 0.2 <= chance <= 0.8:
            continue
        best.append(max(chance, 1 - chance))
        seat = state.current_player()
        played = forced(game, [*state.history(), 52, 52, 52])  # everyone bids 0, then plays its one card
        while not played.is_terminal():
            played.apply_action(played.legal_actions()[0])
        wins = played.returns()[seat] == 1  # bid 0 and won the trick: 1 point
        for search, made in exact.items():
            bot = openspiel.Search.of(f"simulations=20,{search}").bot(game, deal)
            made.append(bot.step(state) - 52 == wins)
    tosses = len(best)
    assert tosses > 100
    assert all(exact["resampler=openspiel"]) and all(exact["resampler=openspiel,engine=numba"])
    assert np.mean(exact["resampler=pocha"]) < np.mean(best) + math.sqrt(math.log(10**6) / (2 * tosses)) < 1


# --- the match -------------------------------------------------------------------------------------


def test_the_statistics_of_a_match_on_known_numbers():
    rows = [
        (2, 0, 4.0, 3.0, 1.0, 10, 2.0, 10),
        (2, 1, 6.0, 3.0, 1.0, 10, 2.0, 10),
        (5, 0, 1.0, 1.0, 3.0, 10, 6.0, 30),
        (5, 1, 3.0, 1.0, 3.0, 10, 6.0, 30),
    ]
    deals = pd.DataFrame(rows, columns=DEAL_COLUMNS)
    rules = pocha.make_rules("oh-hell", 3)
    match = Match(game="oh_hell", rules=rules, player="a", opponent="b", seed=0, deals=deals, complete=True)
    summary = match.summary().set_index("cards")
    two, five, every = summary.loc["2"], summary.loc["5"], summary.loc["all"]
    assert (two.player_points, two.opponent_points, two.mean_diff, two.se_diff) == (5.0, 3.0, 2.0, 1.0)
    assert (five.mean_diff, five.se_diff) == (1.0, 1.0)
    assert every.mean_diff == 1.5 and every.se_diff == pytest.approx(np.sqrt(0.5))
    assert every.ci_low == pytest.approx(1.5 - 1.959963984540054 * np.sqrt(0.5))
    assert (two.player_ms, two.opponent_ms, five.player_ms, every.player_ms) == (100.0, 200.0, 300.0, 200.0)


def test_a_player_against_itself_is_even_to_the_point(openspiel):
    spec = "expected@greedy"
    played = pocha.match(spec, against=spec, game="oh_hell(players=4)", cards="1,3", deals=4, seed=2)
    summary = played.summary()
    assert list(summary.cards) == ["1", "3", "all"] and list(summary.deals) == [4, 4, 8]
    assert (summary.mean_diff == 0).all() and (summary.ci_low == 0).all() and (summary.ci_high == 0).all()
    assert played.deals.player_points.tolist() == played.deals.opponent_points.tolist()


def test_pocha_at_random_against_openspiel_at_random_is_even_within_the_interval(openspiel):
    played = pocha.match("random@random", against="uniform", game="oh_hell(players=3)", cards="1,4", deals=200, seed=3)
    summary = played.summary()
    assert (summary.ci_low < 0).all() and (summary.ci_high > 0).all()  # both uniform among the legal choices
    assert (summary.ci_high - summary.ci_low < 1.2).all()


def test_a_tiny_match_against_ismcts_counts_every_decision_and_repeats(openspiel):
    played = pocha.match(
        "expected@greedy", against="ismcts:simulations=20", game="oh_hell", cards=[1, 2], deals=2, seed=0
    )
    assert played.opponent == "ismcts:simulations=20,uct_c=2,rollouts=1,resampler=pocha"
    deals = played.deals
    assert list(deals.player_decisions) == [3 * 2, 3 * 2, 3 * 3, 3 * 3]  # a bid and a card a hand, one hand a seat
    assert list(deals.opponent_decisions) == [6 * 2, 6 * 2, 6 * 3, 6 * 3]
    assert (deals.player_seconds > 0).all() and (deals.opponent_seconds > 0).all()
    again = pocha.match(
        "expected@greedy", against="ismcts:simulations=20", game="oh_hell", cards=[1, 2], deals=2, seed=0
    )
    assert again.deals.player_points.tolist() == deals.player_points.tolist()  # seeded: the same match
    assert again.deals.opponent_points.tolist() == deals.opponent_points.tolist()


def test_the_faster_roll_outs_draw_and_play_as_openspiels(openspiel):
    from open_spiel.python.algorithms import mcts

    game = openspiel.load_game("oh_hell(players=3,num_tricks_fixed=4)")
    for deal in range(3):
        state = forced(game, openspiel.deal_chance(game, 1, deal))
        while not state.is_terminal():
            actions = []
            for evaluator in (openspiel.RandomRollouts, mcts.RandomRolloutEvaluator):
                bot = openspiel.Search(simulations=40).bot(game, deal)
                bot._evaluator = evaluator(1, np.random.RandomState([deal, 1]))
                actions.append(bot.step(state))
            assert actions[0] == actions[1]
            state.apply_action(actions[0])


@pytest.mark.parametrize(
    ("against", "label"),
    [
        ("ismcts:simulations=50,engine=numba", "ismcts:simulations=50,uct_c=2,rollouts=1,resampler=pocha,engine=numba"),
        (
            "ismcts:simulations=50,engine=numba,resampler=openspiel",
            "ismcts:simulations=50,uct_c=2,rollouts=1,resampler=openspiel,engine=numba",
        ),
        ("ismcts:simulations=20,resampler=openspiel", "ismcts:simulations=20,uct_c=2,rollouts=1,resampler=openspiel"),
    ],
)
def test_ismcts_plays_a_match_that_repeats(openspiel, against, label):
    """In numba with either resampler, and OpenSpiel's Python bot with its own (its sampler seeded from the match's)."""
    played = pocha.match("expected@greedy", against=against, game="oh_hell", cards=[1, 3], deals=3, seed=0)
    assert played.opponent == label
    again = pocha.match("expected@greedy", against=against, game="oh_hell", cards=[1, 3], deals=3, seed=0)
    assert again.deals.opponent_points.tolist() == played.deals.opponent_points.tolist()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"game": "oh_hell(num_tricks_fixed=3)"}, "leave num_tricks_fixed out"),
        ({"game": "pocha(cards=3)"}, "leave cards out"),
        ({"game": "pocha(players=4)", "cards": 11}, "cards: 11 is not a hand size here; 4 players with 40 cards"),
        ({"game": "pocha(hook=maybe)"}, "hook: unknown rule 'maybe'"),
        ({"game": "pocha", "against": "ismcts:resampler=openspiel"}, "leave resampler out"),
        ({"game": "oh_hell(players=4)", "cards": 13}, "12 cards at most"),
        ({"against": "ismcts:budget=3"}, "ismcts takes simulations=N"),
        ({"against": "ismcts:simulations=0"}, "each above 0"),
        ({"against": "uniform:fast=1"}, "uniform takes no parameters"),
        ({"against": "ismcts:uct_c=nan"}, "each above 0"),
        ({"against": "ismcts:resampler=cpp"}, "resampler is pocha or openspiel, not 'cpp'"),
        ({"against": "ismcts:engine=cpp"}, "engine is python or numba, not 'cpp'"),
        ({"against": "ismcts:engine=numba,rollouts=2"}, "engine numba plays 1 roll-out a leaf, not rollouts=2"),
        ({"game": "pocha", "against": "ismcts:engine=numba,resampler=openspiel"}, "leave resampler out"),
        ({"against": "ismct"}, "against: 'ismct' is neither OpenSpiel's ismcts nor uniform nor a pocha player"),
        ({"against": None}, "against: a spec"),
        ({"game": None}, "game: OpenSpiel's game string"),
        ({"seed": -1}, "seed"),
        ({"deals": 0}, "deals"),
    ],
)
def test_a_bad_match_is_one_line(openspiel, options, message):
    with pytest.raises(PochaError, match=message) as refused:
        pocha.match("expected@greedy", **{"cards": 1, "deals": 1, **options})
    assert "\n" not in str(refused.value)


def test_a_match_on_pochas_own_rules_takes_the_same_path_and_repeats(openspiel):
    game = "pocha(players=3,preset=portuguese)"
    played = pocha.match("expected@greedy", against="ismcts:simulations=10", game=game, cards="1,4", deals=2, seed=4)
    assert played.rules == pocha.make_rules("portuguese", 3) and played.game == game
    deals = played.deals
    assert list(deals.player_decisions) == [3 * 2, 3 * 2, 3 * 5, 3 * 5]  # a bid and a card a hand, one hand a seat
    again = pocha.match("expected@greedy", against="ismcts:simulations=10", game=game, cards="1,4", deals=2, seed=4)
    assert again.deals.player_points.tolist() == deals.player_points.tolist()
    assert again.deals.opponent_points.tolist() == deals.opponent_points.tolist()
    even = pocha.match("expected@greedy", against="expected@greedy", game="pocha(players=5)", cards=3, deals=3, seed=1)
    assert (even.summary().mean_diff == 0).all()


def test_the_match_command(openspiel):
    runner = CliRunner()
    shown = runner.invoke(app, ["match", "expected@greedy", "--against", "uniform", "-k", "1,2", "-n", "3"])
    assert shown.exit_code == 0, shown.output
    assert "player expected@greedy, opponent uniform" in shown.stdout and "ms opponent" in shown.stdout
    header = next(line for line in shown.stdout.splitlines() if line.lstrip().startswith("cards")).split()
    assert header[header.index("difference") :] == ["difference", "±95%", "finding", "ms", "player", "ms", "opponent"]
    rows = [line.split() for line in shown.stdout.splitlines() if line.split()[:1] in (["1"], ["2"], ["all"])]
    assert rows and all(re.fullmatch(r"\d+\.\d\d", ms) for row in rows for ms in row[-2:])  # as the points: 2 places
    as_json = ["match", "expected@greedy", "--against", "uniform", "-k", "2", "-n", "2", "--format", "json"]
    data = json.loads(runner.invoke(app, as_json).stdout)
    assert data["opponent"] == "uniform" and data["summary"][0]["cards"] == 2 and data["rules"]["hook"] == "always"
    bad = runner.invoke(app, ["match", "expected@greedy", "--game", "oh_hell(num_suits=2)"])
    assert bad.exit_code == 1 and bad.output.count("\n") == 1 and "four suits" in bad.output
