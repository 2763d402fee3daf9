"""One test every preset and every shipped strategy runs: random deals, then the invariants of the rules."""

import io
import json

import pytest
import reference
from conftest import lineup

from pocha.engine.policies import parse_policy
from pocha.engine.runner import Outputs
from pocha.engine.simulate import Deals, simulate
from pocha.engine.training import Training, train_table
from pocha.game.presets import PRESETS, make_rules
from pocha.game.rules import PLAY_RULES, Rules
from pocha.game.scoring import parse_scoring
from pocha.strategies.base import Predicts
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.registry import BUILTIN
from pocha.strategies.table import TableStrategy

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier


def check_deal(rules: Rules, deal: dict) -> None:
    players, cards = rules.players, deal["cards"]
    hands = [rules.notation.parse_list(" ".join(h)) for h in deal["hands"]]
    dealt = [c for h in hands for c in h]
    assert all(len(h) == cards for h in hands) and len(set(dealt)) == len(dealt)
    if not reference.has_trump(rules, cards):  # no card names trump
        assert deal["trump_card"] is None and deal["trump"] is None
        trump = None
    else:
        trump_card = rules.notation.parse(deal["trump_card"])
        trump = reference.trump_suit(trump_card)
        assert deal["trump"] == rules.notation.pack.suits[trump]
        if cards * players == rules.deck_size:
            assert trump_card in hands[deal["dealer"]]
        else:
            assert trump_card not in dealt
    bids = deal["bids"]
    assert all(0 <= b <= cards for b in bids)
    if rules.hook_applies(cards):
        assert sum(bids) != cards  # the dealer never lets every bid come true
    held = [list(h) for h in hands]
    won = [0] * players
    leader = (deal["dealer"] + 1) % players
    for trick in deal["tricks"]:
        assert trick["leader"] == leader
        played: list[int] = []
        for j, name in enumerate(trick["cards"]):
            seat = (leader + j) % players
            card = rules.notation.parse(name)
            legal = reference.legal_cards(held[seat], played, trump, rules.play_rule)
            assert legal and card in legal
            held[seat].remove(card)
            played.append(card)
        leader = (leader + reference.trick_winner(played, trump)) % players
        assert trick["winner"] == leader
        won[leader] += 1
    assert deal["won"] == won and sum(won) == cards
    assert deal["points"] == [reference.score(b, w, rules.scoring) for b, w in zip(bids, won, strict=True)]
    worst, best = rules.scoring.points_grid(cards).min(), rules.scoring.points_grid(cards).max()
    for tricks, points in zip(deal.get("predicted_tricks", []), deal.get("predicted_points", []), strict=True):
        assert tricks is None or -1e-9 <= tricks <= cards + 1e-9
        assert points is None or worst - 1e-9 <= points <= best + 1e-9


@pytest.mark.parametrize("strategy", sorted(BUILTIN))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_conformance(preset, strategy, tmp_path):
    conforms(make_rules(preset, 3 if preset == "polish" else 5), strategy, len(preset), tmp_path)


@pytest.mark.parametrize("strategy", sorted(BUILTIN))
def test_every_strategy_and_policy_conforms_without_trump(strategy, tmp_path):
    conforms(make_rules("ludoteka", 4, full_deal_trump="none"), strategy, 4, tmp_path)


def conforms(rules: Rules, strategy: str, seed: int, tmp_path) -> None:
    """Deals of four hand sizes (the full deal among them) under every play policy, each checked by the reference."""
    players = rules.players
    stream = io.StringIO()
    sizes = [1, 2, rules.full_deal - 1, rules.full_deal]
    policies = ("random", "greedy", "pimc:samples=2", "learned", "pimc:samples=1,rollout=learned,infer=play")
    for name in policies:
        policy = parse_policy(name)
        spec: str | MonteCarlo = strategy
        if strategy in ("table", "montecarlo"):  # a small table for these rules and policy (montecarlo reads by it)
            path = tmp_path / f"{policy.name}.npz"
            train_table(Training(rules=rules, deals_per_size=50, policy=policy)).save(path)
            read = TableStrategy(str(path))
            spec = f"table:path={path}" if strategy == "table" else MonteCarlo(samples=4, assume=read)
        seats = lineup(*[spec] * players)
        predicts = isinstance(seats.seats[0].strategy, Predicts)
        simulate(
            Deals(rules=rules, lineup=seats, cards=sizes, deals_per_size=25, seed=seed, policy=policy),
            Outputs(trace=stream, predictions=[] if predicts else None),
        )
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    deals = [line for line in lines if "format" not in line]
    assert len(deals) == len(policies) * 4 * 25
    assert all(("predicted_tricks" in deal) == predicts for deal in deals)
    for deal in deals:
        check_deal(rules, deal)


def test_mixed_line_up_and_explicit_deck():
    rules = make_rules("ludoteka", 7, deck="40", hook="always")
    seats = lineup("expected", "random", "zero", "fair-share", "aces-trumps", "zero", "random")
    stream = io.StringIO()
    simulate(
        Deals(rules=rules, lineup=seats, cards=list(range(1, rules.full_deal + 1)), deals_per_size=20, seed=1),
        Outputs(trace=stream),
    )
    for line in stream.getvalue().splitlines()[1:]:
        check_deal(rules, json.loads(line))


def traced_run(rules: Rules, play: str = "greedy") -> tuple[dict, list[dict]]:
    """The trace header and deals of 40 deals of 3 and of 10 cards, at a table of four heuristics."""
    stream = io.StringIO()
    simulate(
        Deals(
            rules=rules,
            lineup=lineup("expected", "random", "zero", "aces-trumps"),
            cards=[3, 10],
            deals_per_size=40,
            seed=2,
            policy=parse_policy(play),
        ),
        Outputs(trace=stream),
    )
    header, *deals = (json.loads(line) for line in stream.getvalue().splitlines())
    return header, deals


@pytest.mark.parametrize("play_rule", sorted(PLAY_RULES))
@pytest.mark.parametrize(("preset", "players"), [("ludoteka", 3), ("ludoteka", 5), ("ludoteka", 6), ("oh-hell", 4)])
def test_every_play_rule_conforms_without_trump(preset, players, play_rule):
    rules = make_rules(preset, players, play_rule=play_rule, full_deal_trump="none")
    specs = (
        "expected",
        "aces-trumps@random",
        "zero@pimc:samples=2,infer=play",
        "fair-share@learned",
        "expected@pimc:samples=1,rollout=learned",
        "random",
    )
    stream = io.StringIO()
    simulate(
        Deals(
            rules=rules,
            lineup=lineup(*specs[:players]),
            cards=[rules.full_deal - 1, rules.full_deal],
            deals_per_size=30,
            seed=players,
        ),
        Outputs(trace=stream),
    )
    deals = [json.loads(line) for line in stream.getvalue().splitlines()[1:]]
    assert sum(deal["trump"] is None for deal in deals) == 30  # the full deals
    for deal in deals:
        check_deal(rules, deal)


@pytest.mark.parametrize("play_rule", sorted(PLAY_RULES))
def test_every_play_rule_conforms(play_rule):
    rules = make_rules("ludoteka", 4, play_rule=play_rule)
    for deal in traced_run(rules)[1]:
        check_deal(rules, deal)


@pytest.mark.parametrize(("preset", "players"), [("italian", 3), ("portuguese", 4), ("ludoteka", 5)])
def test_the_always_beat_reading_conforms_under_every_policy(preset, players, tmp_path):
    """Texts 000 and 001 read literally: random, greedy and pimc play, each card checked by the reference."""
    conforms(make_rules(preset, players, play_rule="pocha-always-beat"), "expected", players, tmp_path)


@pytest.mark.parametrize("play", ["greedy", "pimc:samples=2", "learned", "pimc:samples=2,rollout=learned"])
def test_a_run_under_tricks_plus_ten_scores_by_its_formula(play):
    """The header holds the scoring, read back as it was; a missed bid scores its tricks, an exact one 10 more."""
    rules = make_rules("ludoteka", 4, scoring=parse_scoring("tricks+10"))
    header, deals = traced_run(rules, play)
    assert Rules.from_dict(header["rules"]) == rules and header["rules"]["scoring"]["per_trick_missed"] == 1
    for deal in deals:
        check_deal(rules, deal)
        for bid, won, points in zip(deal["bids"], deal["won"], deal["points"], strict=True):
            assert points == won + (10 if bid == won else 0)
    assert any(b != w and w > 0 for deal in deals for b, w in zip(deal["bids"], deal["won"], strict=True))


@pytest.mark.parametrize("players", range(3, 8))
def test_the_french_pack_conforms_at_every_player_count(players):
    """The oh-hell preset's 52 cards: at 4 players the full deal takes the whole pack and is played without trump."""
    rules = make_rules("oh-hell", players)
    stream = io.StringIO()
    plays = (
        "random",
        "greedy",
        "pimc:samples=2",
        "learned:solve=2,samples=2",
        "pimc:samples=1,rollout=learned,infer=play",
    )
    for play in plays:
        simulate(
            Deals(
                rules=rules,
                lineup=lineup(*(["expected", "random", "aces-trumps"] * 3)[:players]),
                cards=[1, rules.full_deal],
                deals_per_size=10,
                seed=players,
                policy=parse_policy(play),
            ),
            Outputs(trace=stream),
        )
    deals = [json.loads(line) for line in stream.getvalue().splitlines() if '"format"' not in line]
    whole_pack = [deal for deal in deals if deal["cards"] * players == 52]
    assert len(deals) == len(plays) * 2 * 10 and all(deal["trump"] is None for deal in whole_pack)
    assert {deal["trump"] for deal in deals if deal not in whole_pack} <= set("SHDC")
    for deal in deals:
        check_deal(rules, deal)
