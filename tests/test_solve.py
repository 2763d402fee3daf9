"""The open-hand solver: brute force agrees on random positions of every play rule, and endgames play right."""

from typing import NamedTuple

import numpy as np
import pytest
import reference
from conftest import LUDOTEKA, ids
from hypothesis import given, settings
from hypothesis import strategies as st

from pocha.game.cards import mask_of
from pocha.game.presets import make_rules
from pocha.game.rules import Rules
from pocha.game.scoring import SCORINGS
from pocha.kernels.codes import PLAY_CODES
from pocha.kernels.play import Chunk, DealRules
from pocha.kernels.playouts import solved_rollout_counts
from pocha.kernels.solve import MAXN, forget, new_table, solve, tricks_of
from pocha.kernels.trick import Trick

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

TABLE = new_table(10)  # small: entries collide and are overwritten, which must not change a value


class Position(NamedTuple):
    """A position in pure-Python terms: hands (card ids), the trick from its leader, tricks won, bids, trump suit."""

    hands: list[list[int]]
    trick: list[int]
    leader: int
    won: list[int]
    bids: list[int]
    trump: int | None


def points_grid(position: Position, rules: Rules) -> np.ndarray:
    """The points of every bid and trick count at the position's hand size (the leader's cards, won or on the trick)."""
    return rules.scoring.points_grid(len(position.hands[position.leader]) + sum(position.won) + bool(position.trick))


def solved(position: Position, rules: Rules, root: int = MAXN) -> list[int]:
    """The solver's tricks per seat from ``position``."""
    hands = np.array([mask_of(hand) for hand in position.hands], np.uint64)
    led, trumps, beat = reference.trick_masks(position.trick, position.trump)
    players, leader = len(hands), position.leader
    winner = (leader + reference.trick_winner(position.trick, position.trump)) % players if position.trick else leader
    trick = Trick(trumps, leader, len(position.trick), led, beat, winner)
    forget(TABLE)
    won, bids = np.array(position.won), np.array(position.bids)
    value = solve(hands, trick, won, bids, points_grid(position, rules), PLAY_CODES[rules.play_rule], root, TABLE)
    assert (hands == [mask_of(hand) for hand in position.hands]).all()  # restored
    return [tricks_of(value, seat) for seat in range(players)]


def brute(position: Position, rules: Rules, root: int | None = None) -> list[int]:
    """The brute force's tricks per seat from ``position``."""
    hands, trick, leader, won, bids, trump = position
    score = points_grid(position, rules)
    return reference.solve_open(hands, trick, leader, won, bids, score, trump, rules.play_rule, root)


def random_position(rules: Rules, cards: int, seed: int, trumped: bool, most: int) -> Position:
    """A deal of ``cards`` a seat with random bids, random legal cards played until at most ``most`` cards are left."""
    rng = np.random.default_rng(seed)
    players = rules.players
    deck = [int(card) for card in rng.permutation(rules.deck())]
    hands = [sorted(deck[seat * cards : (seat + 1) * cards]) for seat in range(players)]
    trump = reference.suit(deck[players * cards]) if trumped and players * cards < len(deck) else None
    if trumped and trump is None:
        trump = int(rng.integers(4))
    leader = int(rng.integers(players))
    won, trick = [0] * players, []
    bids = [int(rng.integers(cards + 1)) for _ in range(players)]
    to_play = int(rng.integers(players * cards))
    to_play = max(to_play, players * cards - most)
    for _ in range(min(to_play, players * cards - 1)):
        seat = (leader + len(trick)) % players
        card = int(rng.choice(reference.legal_cards(hands[seat], trick, trump, rules.play_rule)))
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == players:
            leader = (leader + reference.trick_winner(trick, trump)) % players
            won[leader] += 1
            trick = []
    return Position(hands, trick, leader, won, bids, trump)


@settings(max_examples=400, deadline=None)
@given(
    st.integers(3, 5),
    st.integers(1, 4),
    st.sampled_from(list(PLAY_CODES)),
    st.sampled_from(list(SCORINGS)),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_the_solver_agrees_with_brute_force(players, cards, play_rule, scoring, trumped, seed):
    """Every seat's tricks under max^n, and the root's under paranoid play, on random positions."""
    rules = make_rules(players=players, play_rule=play_rule, scoring=SCORINGS[scoring][0])
    position = random_position(rules, cards, seed, trumped, most=14)
    assert solved(position, rules) == brute(position, rules)
    root = seed % players
    assert solved(position, rules, root)[root] == brute(position, rules, root)[root]


@pytest.mark.parametrize(("players", "cards"), [(2, 4), (6, 2), (8, 2), (10, 2)])
def test_the_solver_agrees_with_brute_force_from_two_to_ten_players(players, cards):
    rules = make_rules("portuguese", players, play_rule="follow")
    for seed in range(5):
        position = random_position(rules, cards, seed, trumped=seed % 2 == 0, most=16)
        assert solved(position, rules) == brute(position, rules)


def test_the_solver_agrees_with_brute_force_in_a_french_deck():
    rules = make_rules("oh-hell", 4, deck="french")
    for seed in range(20):
        position = random_position(rules, 3, seed, trumped=True, most=12)
        assert solved(position, rules) == brute(position, rules)
        assert solved(position, rules, 0)[0] == brute(position, rules, 0)[0]


def solver_card(position: Position, rules: Rules, root: int = MAXN) -> int:
    """The card the seat to play chooses: the most points for it (the root's under paranoid), the lowest on ties."""
    seat = (position.leader + len(position.trick)) % len(position.hands)
    score = points_grid(position, rules)
    best, best_points = -1, 0
    for card in sorted(reference.legal_cards(position.hands[seat], position.trick, position.trump, rules.play_rule)):
        hands = [[c for c in hand if c != card] if s == seat else hand for s, hand in enumerate(position.hands)]
        trick = [*position.trick, card]
        if len(trick) == len(hands):  # the trick complete: the next position starts a new one
            winner = (position.leader + reference.trick_winner(trick, position.trump)) % len(hands)
            won = [w + (s == winner) for s, w in enumerate(position.won)]
            after = Position(hands, [], winner, won, position.bids, position.trump)
            value = solved(after, rules, root) if hands[winner] else [0] * len(hands)
            tricks = [v + (s == winner) for s, v in enumerate(value)]
        else:
            tricks = solved(position._replace(hands=hands, trick=trick), rules, root)
        mover = seat if root == MAXN else root
        points = score[position.bids[mover], position.won[mover] + tricks[mover]]
        if best < 0 or points > best_points:
            best, best_points = card, points
    return best


def hands_of(*texts: str) -> list[list[int]]:
    return [sorted(ids(text)) for text in texts]


@pytest.mark.parametrize("root", [MAXN, 3])
def test_a_dealer_who_needs_every_trick_leads_the_top_trump(root):
    """Leading the king of copas first, the dealer would be ruffed by the three of oros; the ace draws it first."""
    hands = hands_of("3O 5E", "6E 7E", "4B 5B", "1O 12C")
    position = Position(hands, [], 3, [0, 0, 0, 0], [1, 0, 0, 2], trump=0)
    assert solver_card(position, LUDOTEKA, root) == ids("1O")[0]
    assert solved(position, LUDOTEKA) == [0, 0, 0, 2]


@pytest.mark.parametrize("root", [MAXN, 1])
def test_a_seat_needing_one_trick_keeps_the_boss_trump_for_the_last(root):
    """Ruffing now, the seat would win the last trick too with its four of espadas (nobody else holds one)."""
    rules = make_rules("oh-hell", 4)
    hands = hands_of("12C", "1O 4E", "7C 2C", "6C 3C")
    position = Position(hands, ids("5C"), 0, [1, 0, 0, 0], [1, 1, 0, 0], trump=0)
    assert solver_card(position, rules, root) == ids("4E")[0]
    assert solved(position, rules)[1] == 1


def test_a_deal_without_trump_is_solved():
    """Without trump the ace of copas cannot be ruffed: the seat that bid 2 takes both tricks leading it first."""
    rules = make_rules("oh-hell", 3)
    hands = hands_of("1C 4C", "3C 5E", "12C 6E")
    position = Position(hands, [], 0, [0, 0, 0], [2, 0, 0], trump=None)
    assert solved(position, rules) == [2, 0, 0]
    assert solver_card(position, rules) == ids("1C")[0]


def test_the_table_is_reused_across_solves_without_stale_values():
    """After the ace of copas the same espadas are left, held by other seats: an entry of the first would be wrong."""
    rules = make_rules("oh-hell", 3)
    first = Position(hands_of("1C 7E", "2C 6E", "4C 5E"), [], 0, [0, 0, 0], [2, 0, 0], trump=None)
    second = Position(hands_of("1C 5E", "2C 6E", "4C 7E"), [], 0, [0, 0, 0], [2, 0, 0], trump=None)
    assert solved(first, rules) == [2, 0, 0]
    assert solved(second, rules) == [1, 0, 1] == brute(second, rules)


@pytest.mark.parametrize(("players", "cards", "play_rule"), [(3, 3, "pocha"), (4, 2, "follow"), (3, 4, "trump")])
def test_solved_play_outs_count_the_brute_force_tricks(players, cards, play_rule):
    """montecarlo's ``solve`` play-outs of whole deals: the bidder's tricks in each world and bid are brute force's."""
    rules = make_rules(players=players, play_rule=play_rule)
    rng, samples, position = np.random.default_rng(players * cards), 3, 1
    worlds = [rng.permutation(rules.deck()) for _ in range(2 * samples)]
    worlds[1] = worlds[0]  # a world resampled twice: counted twice, solved once
    hands = np.array(
        [[mask_of(deck[s * cards : (s + 1) * cards]) for s in range(players)] for deck in worlds], np.uint64
    )
    trump_card = np.array([deck[players * cards] for deck in worlds])
    others = rng.integers(0, cards + 1, (len(worlds), 1, players))
    others[1] = others[0]
    numbers = np.repeat([4, 7], samples)  # two deals (their dealers), ``samples`` worlds each
    chunk = Chunk(cards, numbers, hands, trump_card, others)
    counts = np.zeros((2, cards + 1, cards + 1))
    solved_rollout_counts(chunk, position, DealRules.of(rules, cards), cards, np.ones(len(worlds)), counts)
    expected = np.zeros_like(counts)
    score = rules.scoring.points_grid(cards)
    for row, deck in enumerate(worlds):
        mano = (numbers[row] + 1) % players
        bidder = (mano + position) % players
        for bid in range(cards + 1):
            bids = [int(b) for b in others[row, 0]]
            bids[bidder] = bid
            seat_hands = [sorted(int(c) for c in deck[s * cards : (s + 1) * cards]) for s in range(players)]
            tricks = reference.solve_open(
                seat_hands, [], mano, [0] * players, bids, score, reference.suit(int(deck[players * cards])), play_rule
            )
            expected[row // samples, bid, tricks[bidder]] += 1
    assert (counts == expected).all()
