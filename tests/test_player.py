"""pocha.Player: the same seed gives the batch's choices, decision by decision; a view is checked as a player would."""

import json
import re

import numpy as np
import pytest

import pocha
from pocha.engine.decisions import decision_views
from pocha.game.presets import make_rules
from pocha.game.rules import trick_winner

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

SOLVED_LEARNED = "aces-trumps@pimc:samples=1,rollout=learned,solve=2"  # learned play-outs, the last tricks solved
# (preset, players, one player spec per seat, hand sizes): every play policy, reading and not, every kind of bidder
RUNS = [
    ("polish", 3, ("montecarlo:assume=expected@pimc", "fair-share@greedy", "expected@random"), "1,6,12"),
    ("ludoteka", 4, ("expected@pimc", "montecarlo@greedy", "table@pimc:sharpness=0", "aces-trumps@random"), "1,3,10"),
    ("turkish", 5, ("expected@pimc:exhaustive=1", "zero", "fair-share@pimc", "table@greedy", "random@pimc"), "4,8"),
    ("oh-hell", 4, ("expected@pimc", "montecarlo:assume=expected", "fair-share", "zero@pimc"), "2,13"),
    ("ludoteka", 5, ("expected@learned", "fair-share@pimc", "zero@learned", "aces-trumps", "expected@learned"), "2,7"),
    ("ludoteka", 4, ("expected@pimc:samples=2,rollout=learned", "zero@learned", SOLVED_LEARNED, "fair-share"), "3,10"),
    (
        "oh-hell",
        3,
        (
            "expected@pimc:samples=2,infer=play",
            "zero@learned:solve=3,samples=2",
            "fair-share@pimc:infer=play,sharpness=0",
        ),
        "4,9",
    ),
]


@pytest.mark.parametrize(("preset", "players", "specs", "cards"), RUNS)
def test_a_player_deciding_alone_makes_every_choice_of_the_batch(preset, players, specs, cards, tmp_path):
    """Every bid and card of a traced run, asked of each seat's Player from that seat's view alone.

    A random seat's cards are the exception: in the batch it draws from the deal's shared stream.
    """
    rules, seed, deals = pocha.RuleOptions(preset=preset, players=players), 7, 4
    trace = tmp_path / "t.jsonl"
    pocha.simulate(
        list(specs), rules=rules, cards=cards, deals=deals, seed=seed, threads=1, trace=trace, learn_tables=True
    )
    seats = [pocha.Player(spec, rules, seed, learn_tables=True) for spec in specs]
    asked = 0
    for deal in map(json.loads, trace.read_text().splitlines()[1:]):
        for kind, view, choice in decision_views(deal):
            decision = seats[view.seat].decide(view, deal["deal"] % deals)
            assert decision.kind == kind
            if kind == "bid" or not specs[view.seat].endswith("@random"):
                assert decision.choice == choice, (deal["deal"], view)
                asked += kind == "card"
    assert asked > 50


def test_a_decision_says_what_the_player_expects_of_each_bid():
    rules = make_rules("ludoteka", 4)
    view = pocha.DealView(seat=3, dealer=2, hand="1O 3O 12C 5E 2B", trump="7O")
    decision = pocha.Player("montecarlo", rules, seed=1).decide(view)
    table = decision.table
    assert decision.kind == "bid" and table.bid.tolist() == [0, 1, 2, 3, 4, 5] and table.legal.all()
    best = table.expected_points[table.legal].idxmax()
    assert abs(table.expected_points[decision.choice] - table.expected_points[best]) < 3  # fresh play-outs: close
    assert pocha.Player("montecarlo", rules, seed=1).decide(view).choice == decision.choice  # reproducible
    dealer = pocha.Player("fair-share", rules).decide(pocha.DealView(2, 2, "1O 3O 12C 5E 2B", "7O", [1, 1, 2]))
    assert dealer.table.legal.tolist() == [True, False, True, True, True, True]  # the hook: 1 would make 5
    assert "expected_points" not in dealer.table  # fair-share does not predict


def test_trick_winner_is_the_highest_trump_else_the_led_suits_highest():
    rules = make_rules("oh-hell", 4)
    cards = rules.notation.parse_list("10H AS 2H 3C")
    assert trick_winner(cards, -1) == 0 and trick_winner(cards, 3) == 3 and trick_winner(cards, 0) == 1


@pytest.mark.parametrize(
    ("view", "message"),
    [
        (dict(seat=4, dealer=0, hand="AS", trump="2C"), "seat: 4 is not a seat; 4 players sit at seats 0..3"),
        (dict(seat=2, dealer=0, hand="AS", trump="2C"), "seat: it is seat 1's turn, not seat 2's"),
        (dict(seat=1, dealer=0, hand="AS AS", trump="2C"), "AS appears more than once"),
        (dict(seat=1, dealer=0, hand="AS 1O", trump="2C"), "hand: '1O' is not a card"),
        (dict(seat=1, dealer=0, hand="AS", trump="AS"), "trump: AS is held or played, but in a deal that is not full"),
        (dict(seat=1, dealer=0, hand="AS", trump=None), "trump: give the trump card"),
        (dict(seat=1, dealer=0, hand="", trump="2C"), "hand: 0 cards dealt"),
        (dict(seat=1, dealer=0, hand="AS KS", trump="2C", bids=[3]), "bids: [3] are not up to 4 bids of 0..2"),
        (dict(seat=1, dealer=0, hand="AS", trump="2C", bids=[0, 0, 0, 1]), "the dealer may not bid 1"),
        (dict(seat=1, dealer=0, hand="AS", trump="2C", bids=[0], played="KH"), "the play starts when every seat"),
        (dict(seat=3, dealer=0, hand="AS", trump="2C", bids=[0, 0, 0, 0], played="KH"), "it is seat 2's turn"),
    ],
)
def test_a_view_that_cannot_be_is_refused_in_one_line(view, message):
    with pytest.raises(pocha.PochaError, match=message.replace("[", r"\[").replace("]", r"\]")):
        pocha.Player("zero", make_rules("oh-hell", 4)).decide(pocha.DealView(**view))


def test_a_deal_of_the_whole_pack_without_trump_takes_no_trump_card():
    rules = make_rules("oh-hell", 4)  # 13 cards each: no trump
    hand = " ".join(f"{rank}S" for rank in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"])
    assert pocha.Player("expected", rules).decide(pocha.DealView(1, 0, hand, None)).choice == 13
    with pytest.raises(pocha.PochaError, match="under full-deal-trump none a full deal has no trump"):
        pocha.Player("expected", rules).decide(pocha.DealView(1, 0, hand, "2C"))


def test_the_deal_number_must_be_one_the_dealer_deals():
    view = pocha.DealView(seat=1, dealer=0, hand="AS", trump="2C")
    with pytest.raises(pocha.PochaError, match="deal: deal 5 is dealt by seat 1, not 0"):
        pocha.Player("zero", make_rules("oh-hell", 4)).decide(view, deal=5)
    assert np.isscalar(pocha.Player("zero", make_rules("oh-hell", 4)).decide(view, deal=8).choice)


@pytest.mark.parametrize(("preset", "players", "cards"), [("ludoteka", 4, 5), ("oh-hell", 3, 8)])
def test_a_cards_predictions_come_true_as_often_as_they_say(preset, players, cards, tmp_path):
    """Over 300 deals bid by ``expected`` and played greedy, the mano's first card makes its bid as often as predicted.

    The predictions' worlds read the bids as ``expected``'s and are finished greedy: the model is the
    table's own, so the mean predicted chance and points must match what the deals then gave.
    """
    rules, deals = pocha.RuleOptions(preset=preset, players=players), 300
    trace = tmp_path / "t.jsonl"
    pocha.simulate("expected", rules=rules, cards=cards, deals=deals, seed=3, threads=1, trace=trace)
    player = pocha.Player("expected", rules, seed=3)
    chances, points, made, scored = [], [], [], []
    for deal in map(json.loads, trace.read_text().splitlines()[1:]):
        dealer, mano = deal["dealer"], (deal["dealer"] + 1) % players
        in_order = [deal["bids"][(mano + p) % players] for p in range(players)]
        view = pocha.DealView(mano, dealer, deal["hands"][mano], deal["trump_card"], in_order)
        decision = player.decide(view, deal["deal"])
        row = decision.table.set_index("card").loc[deal["tricks"][0]["cards"][0]]
        chances.append(row.make_chance)
        points.append(row.expected_points)
        made.append(deal["won"][mano] == deal["bids"][mano])
        scored.append(deal["points"][mano])
    assert abs(np.mean(made) - np.mean(chances)) <= 4 * np.std(made) / np.sqrt(deals)
    assert abs(np.mean(scored) - np.mean(points)) <= 4 * np.std(scored) / np.sqrt(deals)


def test_card_advice_is_the_players_prediction_drawn_over_more_worlds():
    """advise --played weighs the cards as a Player's card decision does (the same worlds for the same seed)."""
    rules = pocha.RuleOptions(preset="ludoteka", players=4)
    hand, bids, played = "1O 3O 12C 5E 2B", [1, 2, 0, 2], "4O 6O 10O 11O | 3E 12E"
    view = pocha.DealView(seat=1, dealer=3, hand=hand, trump="7O", bids=bids, played=played)
    for play, player in (("greedy", "expected@pimc"), ("learned", "expected@pimc:rollout=learned")):
        advice = pocha.advise_card(
            hand, "7O", position=1, bids=bids, played=played, samples=400, seed=2, rules=rules, play=play
        )
        decision = pocha.Player(player, rules, seed=2).decide(view, deal=3)
        assert advice.to_frame().equals(decision.table) and advice.recommended == "5E"  # following espadas: forced
        assert f"every seat plays {play}" in advice.model


def test_bench_times_each_players_bids_and_cards():
    """Each player's times as they come: pocha bench --decisions printed nothing for 6 s, then all (issue 46's walk)."""
    measured = pocha.bench_decisions(deals=1)
    times = [next(measured), *measured]  # the first before the other players are timed
    assert [(t.player, t.kind) for t in times][:2] == [("expected", "bid"), ("expected", "card")] and len(times) == 8
    assert all(len(t.seconds) == (4 if t.kind == "bid" else 40) and 0 < t.median <= t.slowest for t in times)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            dict(hand="8H 5H QD 9C", played="QS 3S JS 2C | AS 4S 7S 5S"),
            "seat 1 plays 5S after showing it had no spades",
        ),
        (dict(played="QS | 3S"), "played: a trick has 4 cards, not 'QS'"),
        (dict(bids=[2.5, 1, 0, 2]), "bids: [2.5, 1, 0, 2] is not a list of whole numbers"),
        (dict(bids=[True, 1, 0, 2]), "is not a list of whole numbers"),
        (dict(bids=None), "bids: None is not a list of whole numbers"),
        (dict(hand=[1, 2]), "hand: cards as text"),
        (dict(hand=None), "hand: cards as text"),
        (dict(played=None), "played: cards as text"),
        (dict(trump=9), "trump: a card as text"),
        (dict(seat=True), "seat: True is not a seat"),
    ],
)
def test_a_view_of_the_wrong_kind_or_a_revoke_is_refused_in_one_line(change, message):
    view = dict(seat=0, dealer=1, hand="JS 8H 5H QD 9C 3C", trump="9H", bids=[2, 1, 0, 2], played="QS 3S")
    with pytest.raises(pocha.PochaError, match=re.escape(message)):
        pocha.Player("expected", "oh-hell").decide(pocha.DealView(**(view | change)))


def test_a_seat_holding_a_suit_it_did_not_follow_is_refused():
    view = pocha.DealView(seat=1, dealer=3, hand="8S JH", trump="9H", bids=[1, 0, 1, 0], played="QS 2C 3S 4S")
    with pytest.raises(pocha.PochaError, match="hand: holds 8S though it did not follow spades before"):
        pocha.Player("expected", pocha.RuleOptions(preset="oh-hell", players=4)).decide(view)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p, v: p.decide(v, deal=-1), "deal: a deal number is a whole number from 0"),
        (lambda p, v: p.decide(v, deal="x"), "deal: a deal number is a whole number from 0"),
        (lambda p, v: p.decide({"seat": 0}), "view: a pocha.DealView"),
        (lambda p, v: pocha.Player("expected", "oh-hell", seed="1"), "seed: must be a whole number"),
        (lambda p, v: pocha.Player(None, "oh-hell"), "player: a spec such as 'montecarlo@pimc'"),
        (lambda p, v: pocha.Player("expected", 4), "rules: a preset name, a pocha.RuleOptions or a pocha.Rules"),
    ],
)
def test_a_call_of_the_wrong_kind_is_refused_in_one_line(call, message):
    view = pocha.DealView(seat=0, dealer=3, hand="AS", trump="2C")
    with pytest.raises(pocha.PochaError, match=re.escape(message)):
        call(pocha.Player("zero", "oh-hell"), view)
