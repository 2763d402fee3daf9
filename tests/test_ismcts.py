"""The IS-MCTS kernel searches as OpenSpiel's Python ``ISMCTSBot`` does: checked against that search written plainly.

The reference below is ``run_simulation`` of OpenSpiel's ``ismcts.py`` (nodes in a dict keyed by the
mover's information state, a recursion down to the first unexpanded node, a random roll-out there),
on pocha's slow rules (tests/reference.py), drawing its random numbers from the same stream in
the same order; so the kernel must give the same visits and points to every root action.
"""

import math

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from pocha.game.cards import mask_of
from pocha.game.presets import make_rules
from pocha.kernels.decide import seat_position
from pocha.kernels.ismcts import TIE_TOLERANCE, ismcts_action, new_tree, no_leak
from pocha.kernels.pimc import deal_world, scratch, world_limits
from pocha.kernels.play import DealRules
from pocha.kernels.streams import below, next_state

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

SIMULATIONS = 60


class Game:
    """A deal in play in one world, in lists: the reference's state (``apply`` an action, read ``returns``)."""

    def __init__(self, hands, bids, won, trick, leader, dealer, trump, rules, cards):
        self.hands, self.bids, self.won, self.trick = [sorted(h) for h in hands], list(bids), list(won), list(trick)
        self.leader, self.dealer, self.trump, self.rules, self.cards = leader, dealer, trump, rules, cards
        self.players = len(hands)

    @property
    def bidding(self) -> bool:
        return min(self.bids) < 0

    @property
    def mover(self) -> int:
        if self.bidding:
            return (self.dealer + 1 + sum(b >= 0 for b in self.bids)) % self.players
        return (self.leader + len(self.trick)) % self.players

    @property
    def over(self) -> bool:
        return not self.bidding and not self.trick and not self.hands[self.leader]

    def legal(self) -> list[int]:
        if not self.bidding:
            return sorted(reference.legal_cards(self.hands[self.mover], self.trick, self.trump, self.rules.play_rule))
        bids = list(range(self.cards + 1))
        if sum(b >= 0 for b in self.bids) == self.players - 1 and self.rules.hook_applies(self.cards):
            bids.remove(self.cards - sum(b for b in self.bids if b >= 0)) if sum(
                b for b in self.bids if b >= 0
            ) <= self.cards else None
        return bids

    def apply(self, action: int) -> None:
        seat = self.mover
        if self.bidding:
            self.bids[seat] = action
            if not self.bidding:
                self.leader = (self.dealer + 1) % self.players
            return
        self.hands[seat].remove(action)
        self.trick.append(action)
        if len(self.trick) == self.players:
            self.leader = (self.leader + reference.trick_winner(self.trick, self.trump)) % self.players
            self.won[self.leader] += 1
            self.trick = []

    def returns(self, score) -> list[int]:
        return [int(score[self.bids[seat], self.won[seat]]) for seat in range(self.players)]


def reference_search(seat, draw_world, score, uct_c, state):
    """OpenSpiel's search for ``seat``: ``(action, root's {action: [visits, points]}, state)``.

    draw_world(state) gives ``(game, dealt, state)``: a world's ``Game`` and the cards each seat was dealt there.
    """
    nodes: dict = {}

    def simulate(game, dealt, history, state):
        if game.over:
            return game.returns(score), state
        mover = game.mover
        node = nodes.setdefault((mover, dealt[mover], history), {"total": -1, "children": {}})
        if node["total"] == -1:  # expanded, and played out at random
            node["total"] = 0
            while not game.over:
                legal = game.legal()
                if len(legal) > 1:
                    state = np.uint64(next_state(state))
                    game.apply(legal[below(state, len(legal))])
                else:
                    game.apply(legal[0])
            return game.returns(score), state
        legal, children = game.legal(), node["children"]
        untried = [action for action in legal if action not in children]
        if untried:
            state = np.uint64(next_state(state))
            action = untried[below(state, len(untried))]
            children[action] = [0, 0.0]
        else:
            log_total = math.log(node["total"])
            value = {a: children[a][1] / children[a][0] + uct_c * math.sqrt(log_total / children[a][0]) for a in legal}
            best = max(value.values())
            ties = [a for a in legal if value[a] > best - TIE_TOLERANCE]
            state = np.uint64(next_state(state))
            action = ties[below(state, len(ties))]
        node["total"] += 1
        children[action][0] += 1
        game.apply(action)
        returns, state = simulate(game, dealt, (*history, action), state)
        children[action][1] += returns[mover]
        return returns, state

    for _ in range(SIMULATIONS):
        game, dealt, state = draw_world(state)
        _, state = simulate(game, dealt, (), state)
    children = nodes[(seat, dealt[seat], ())]["children"]
    most = max(visits for visits, _ in children.values())
    ties = sorted(a for a, (visits, _) in children.items() if visits == most)
    state = np.uint64(next_state(state))
    return ties[below(state, len(ties))], children, state


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(3, 5),
    cards=st.integers(1, 4),
    play_rule=st.sampled_from(["follow", "pocha", "trump"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_kernel_searches_as_openspiels_ismcts(players, cards, play_rule, seed):
    rules = make_rules("oh-hell", players, play_rule=play_rule, hook="always")
    rng = np.random.default_rng(seed)
    deck = [int(card) for card in rng.permutation(rules.deck())]
    hands = [sorted(deck[seat * cards : (seat + 1) * cards]) for seat in range(players)]
    trump_card, dealer = deck[players * cards], int(rng.integers(players))
    trump = reference.suit(trump_card)
    game = Game(hands, [-1] * players, [0] * players, [], (dealer + 1) % players, dealer, trump, rules, cards)
    played = []
    for _ in range(int(rng.integers(players + players * cards))):  # some bids and cards, at random
        legal = game.legal()
        action = legal[int(rng.integers(len(legal)))]
        if not game.bidding:
            played.append(action)
        game.apply(action)
        if game.over:
            return
    seat = game.mover
    deal_rules, score = DealRules.of(rules, cards), rules.scoring.points_grid(cards)
    work, state = scratch(1, players), np.uint64(seed)
    dealt = np.uint64(mask_of(hands[seat]))
    bids = np.array(game.bids, np.int64)
    arguments = (deal_rules, seat, dealt, trump_card, dealer, bids, np.array(played, np.int64))
    tree = new_tree(SIMULATIONS)
    action, _ = ismcts_action(*arguments, (SIMULATIONS, 2.0), state=state, work=work, tree=tree, leak=no_leak())
    if len(game.legal()) == 1:
        assert action == game.legal()[0]
        return

    view, trick, _ = seat_position(*arguments, work)
    view = view._replace(hand=np.uint64(view.hand), unseen=np.uint64(view.unseen), shown=np.uint64(view.shown))
    trick = trick._replace(trumps=np.uint64(trick.trumps), led=np.uint64(trick.led), beat=np.uint64(trick.beat))
    need, allowed = np.zeros(players, np.int64), np.zeros(players, np.uint64)
    world_limits(view, trick, need, allowed)
    ints, held = np.zeros((5, 64), np.int64), np.zeros(64, np.uint64)

    def draw_world(state):
        world = np.zeros(players, np.uint64)
        state = np.uint64(deal_world(view, need, allowed, world, state, ints, held))
        now = [[card for card in range(64) if int(world[other]) >> card & 1] for other in range(players)]
        dealt = tuple(int(world[other]) | int(view.played[other]) for other in range(players))
        return Game(now, game.bids, game.won, game.trick, game.leader, dealer, trump, rules, cards), dealt, state

    expected, children, _ = reference_search(seat, draw_world, score, 2.0, state)
    assert action == expected
    for root_action, (visits, points) in children.items():
        assert tree.visits[0, root_action] == visits
        assert tree.sums[0, root_action] == pytest.approx(points)
