"""OpenSpiel's IS-MCTS as its Python ``ISMCTSBot`` searches a deal with honest worlds and random roll-outs, in numba.

The yardstick of docs/openspiel.md takes 0.1 to 0.3 s a decision in Python at 1,000 simulations;
the same search here takes milliseconds, so a player can be measured against it on thousands of
deals. It searches as ``pocha match --against ismcts`` seats OpenSpiel's bot (``Search.bot``: UCT,
``uct_c``, one random roll-out a leaf, the most visited action played, a fresh world every
simulation from pimc's sampler, or with ``resampler=openspiel`` from the cards the others really hold,
as OpenSpiel's own oh_hell resampler deals them: ``kernels.resample``), step for step:

- A node is an information state: the seat to move, the cards it was dealt and every bid and
  card since the search began (a hash of them). A simulation deals a world and walks down from the
  root to the first node not yet expanded: that node is expanded (its visits set to 0) and a
  roll-out from there, every seat bidding and playing uniformly at random among its legal
  actions, gives every seat's points.
- At an expanded node a legal action not yet tried is tried first (uniformly among them); once
  all are, UCT picks the action with the highest mean + ``uct_c`` * sqrt(ln(visits) / its visits),
  ties (within ``TIE_TOLERANCE``) at random. At every node on the way, the action taken gets the
  points its mover ended with.
- The root is a node like the others: the first simulation expands it and plays out at random.
  The action played is the root's most visited, ties at random; a forced one is played unsearched.

Only the random numbers differ from OpenSpiel's (pocha's streams, not numpy's).
"""

from typing import NamedTuple

import numpy as np

from pocha.kernels.bits import ONE, ZERO, nth_card, popcount
from pocha.kernels.decide import seat_position
from pocha.kernels.jit import jit, jit_inline
from pocha.kernels.pimc import deal_world, world_limits
from pocha.kernels.resample import leaky_world
from pocha.kernels.streams import GAMMA, below, mix64, next_state
from pocha.kernels.trick import Duties, duties, legal_cards, place_card, trump_masks

TIE_TOLERANCE = 1e-5  # OpenSpiel's: UCT values this close to the best one are ties
ACTIONS = 64  # a node's actions by bit: card ids, or bids (a node's actions are all bids or all cards)
MOST_DEPTH = 8 * ACTIONS  # steps of one simulation: every bid and card of a deal of 64 cards


class Tree(NamedTuple):
    """A search's nodes, reused from search to search (``new_tree``): a hash table of information states.

    slots int64[slot]: the node of each slot, -1 empty; hands, histories uint64[slot]: its key (the
    cards the mover was dealt; a hash of the mover and the actions since the root); total int64[node]:
    visits, -1 before expansion; visits, sums float64[node, action]: each action's visits and points;
    path int64[step, 3]: the node, the action and the mover of each step of a simulation.
    """

    slots: np.ndarray
    hands: np.ndarray
    histories: np.ndarray
    total: np.ndarray
    visits: np.ndarray
    sums: np.ndarray
    path: np.ndarray


@jit
def new_tree(simulations):
    """A ``Tree`` for searches of up to ``simulations`` simulations (a simulation makes one node at most)."""
    nodes = simulations + 1
    size = 1
    while size < 4 * nodes:
        size *= 2
    return Tree(
        np.full(size, -1, np.int64),
        np.zeros(size, np.uint64),
        np.zeros(size, np.uint64),
        np.zeros(nodes, np.int64),
        np.zeros((nodes, ACTIONS)),
        np.zeros((nodes, ACTIONS)),
        np.zeros((MOST_DEPTH, 3), np.int64),
    )


@jit
def node_of(tree, hand, history, count):
    """``(node, count)``: the node of a key (the mover's dealt cards, the history's hash), made if new (unexpanded).

    count: the nodes made so far this search (one more when this one is new).
    """
    mask = tree.slots.shape[0] - 1
    slot = np.int64(mix64(hand ^ history) & np.uint64(mask))
    while tree.slots[slot] >= 0:
        if tree.hands[slot] == hand and tree.histories[slot] == history:
            return tree.slots[slot], count
        slot = (slot + 1) & mask
    tree.slots[slot], tree.hands[slot], tree.histories[slot] = count, hand, history
    tree.total[count] = -1
    tree.visits[count, :] = 0.0
    tree.sums[count, :] = 0.0
    return count, count + 1


class Position(NamedTuple):
    """Where a deal in play stands besides the hands, bids and tricks won: the turn and the trick.

    turn: the bids made (the play starts at ``players``); leader, placed, led, beat, winner: the
    trick, as ``place_card`` keeps it.
    """

    turn: int
    leader: int
    placed: int
    led: np.uint64
    beat: np.uint64
    winner: int


class Deal(NamedTuple):
    """What stays the same through a search: hand size, dealer, trump suit, play duties, hook, score grid."""

    cards: int
    dealer: int
    trumps: np.uint64
    duty: Duties
    hook: bool
    score: np.ndarray


@jit_inline
def mover(position, players, dealer):
    """The seat to move: the next bidder, or the next seat of the trick."""
    if position.turn < players:
        return (dealer + 1 + position.turn) % players
    return (position.leader + position.placed) % players


@jit_inline
def over(position, hands, players):
    """Whether the deal is played out: every bid made and no card left to the next leader."""
    return position.turn >= players and position.placed == 0 and hands[position.leader] == ZERO


@jit_inline
def legal_actions(position, seat, hands, bids, deal):
    """The mover's legal actions as bits: bids 0..cards (but the one the hook forbids the dealer), or cards."""
    players = hands.shape[0]
    if position.turn >= players:
        return legal_cards(hands[seat], position.led, position.beat, deal.duty)
    legal = (ONE << np.uint64(deal.cards + 1)) - ONE
    if position.turn == players - 1 and deal.hook:  # the dealer may not make the bids add up to the hand size
        earlier = 0
        for other in range(players):
            earlier += bids[other] if other != seat else 0
        if earlier <= deal.cards:
            legal &= ~(ONE << np.uint64(deal.cards - earlier))
    return legal


@jit_inline
def act(position, seat, action, hands, bids, won, deal):
    """The ``Position`` after ``seat`` bids or plays ``action``; hands, bids and won are updated."""
    players = hands.shape[0]
    if position.turn < players:
        bids[seat] = action
        first = (deal.dealer + 1) % players  # leads the first trick once every bid is made
        return Position(position.turn + 1, first, 0, ZERO, ~ZERO, first)
    bit = ONE << np.uint64(action)
    hands[seat] ^= bit
    led, beat, winner = place_card(bit, seat, position.led, position.beat, position.winner, deal.trumps)
    if position.placed + 1 == players:
        won[winner] += 1
        return Position(position.turn, winner, 0, ZERO, ~ZERO, winner)
    return Position(position.turn, position.leader, position.placed + 1, led, beat, winner)


@jit
def roll_out(position, hands, bids, won, deal, state):
    """Play the deal on from ``position``, every seat uniformly at random among its legal actions. Returns the state."""
    players = hands.shape[0]
    while not over(position, hands, players):
        seat = mover(position, players, deal.dealer)
        legal = legal_actions(position, seat, hands, bids, deal)
        action = nth_card(legal, 0)
        if legal & (legal - ONE):
            state = next_state(state)
            action = nth_card(legal, below(state, popcount(legal)))
        position = act(position, seat, action, hands, bids, won, deal)
    return state


@jit
def uct_action(tree, node, legal, uct_c, state):
    """``(action, state)``: the legal action of the highest UCT value at an expanded node, ties at random."""
    log_total = np.log(tree.total[node])
    best = -np.inf
    rest = legal
    while rest:
        action = nth_card(rest, 0)
        rest &= rest - ONE
        visits = tree.visits[node, action]
        best = max(best, tree.sums[node, action] / visits + uct_c * np.sqrt(log_total / visits))
    ties = ZERO
    rest = legal
    while rest:
        action = nth_card(rest, 0)
        rest &= rest - ONE
        visits = tree.visits[node, action]
        if tree.sums[node, action] / visits + uct_c * np.sqrt(log_total / visits) > best - TIE_TOLERANCE:
            ties |= ONE << np.uint64(action)
    state = next_state(state)
    return nth_card(ties, below(state, popcount(ties))), state


@jit
def search_action(view, trick, root, deal, setting, state, work, tree, leak):
    """``(action, state)``: the bid or card IS-MCTS plays for ``view.seat`` (a ``View``) after its simulations.

    trick: the ``Trick`` in play (the first trick's while the seats bid); root: the ``Position``
    (the bids not made are -1 in ``view.bids``); deal: a ``Deal``; setting: (simulations, uct_c);
    work: a ``pimc.scratch``'s; tree: a ``new_tree`` of as many simulations. leak: (dealt, order)
    for OpenSpiel's resampler (``resample.leaky_world``), dealt of length 0 for honest worlds.
    """
    simulations, uct_c = setting
    players = view.won.shape[0]
    need, allowed, world, held = work.ints[6][:players], work.masks[1][:players], work.masks[2][:players], work.masks[0]
    hands, dealt = work.masks[3][:players], work.masks[6][:players]
    bids, won = work.ints[5][:players], work.ints[7][:players]
    world_limits(view, trick, need, allowed)
    tree.slots[:] = -1
    count = 0
    for _ in range(simulations):
        if leak[0].shape[0]:
            state = leaky_world(view, leak[0], leak[1], world, state, work.ints)
        else:
            state = deal_world(view, need, allowed, world, state, work.ints, held)
        for seat in range(players):
            hands[seat], dealt[seat] = world[seat], world[seat] | view.played[seat]
            bids[seat], won[seat] = view.bids[seat], view.won[seat]
        position, history, depth = root, ZERO, 0
        while not over(position, hands, players):
            seat = mover(position, players, deal.dealer)
            node, count = node_of(tree, dealt[seat], mix64(history + GAMMA * np.uint64(seat + 1)), count)
            if tree.total[node] < 0:  # a new leaf: expanded, and played out at random
                tree.total[node] = 0
                state = roll_out(position, hands, bids, won, deal, state)
                break
            legal = legal_actions(position, seat, hands, bids, deal)
            untried = ZERO
            rest = legal
            while rest:
                action = nth_card(rest, 0)
                rest &= rest - ONE
                untried |= ONE << np.uint64(action) if tree.visits[node, action] == 0 else ZERO
            if untried:
                state = next_state(state)
                action = nth_card(untried, below(state, popcount(untried)))
            else:
                action, state = uct_action(tree, node, legal, uct_c, state)
            tree.total[node] += 1
            tree.visits[node, action] += 1
            tree.path[depth, 0], tree.path[depth, 1], tree.path[depth, 2] = node, action, seat
            depth += 1
            position = act(position, seat, action, hands, bids, won, deal)
            history = mix64(history + GAMMA * np.uint64(action + 1))
        for step in range(depth):
            node, action, seat = tree.path[step, 0], tree.path[step, 1], tree.path[step, 2]
            tree.sums[node, action] += deal.score[bids[seat], won[seat]]
    return most_visited(tree, state)


@jit
def most_visited(tree, state):
    """``(action, state)``: the root's most visited action (node 0), ties at random."""
    most = 0.0
    for action in range(ACTIONS):
        most = max(most, tree.visits[0, action])
    ties = ZERO
    for action in range(ACTIONS):
        if tree.visits[0, action] == most and most > 0:
            ties |= ONE << np.uint64(action)
    state = next_state(state)
    return nth_card(ties, below(state, popcount(ties))), state


@jit
def ismcts_action(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, setting, state, work, tree, leak):
    """``(action, state)``: IS-MCTS's bid or card for ``seat`` (``decide.seat_position``'s arguments).

    bids int64[seat]: -1 for a seat yet to bid. setting: (simulations, uct_c); work: a ``pimc.scratch``;
    tree: a ``new_tree``; leak: ``search_action``'s (``no_leak()``: honest worlds). A forced action is
    played unsearched (``search_action``).
    """
    players = bids.shape[0]
    view, trick, _ = seat_position(deal_rules, seat, dealt, trump_card, dealer, bids, played_cards, work)
    turn = 0
    for other in range(players):
        turn += bids[other] >= 0
    trumps, _ = trump_masks(trump_card)
    deal = Deal(
        popcount(dealt), dealer, trumps, duties(trumps, deal_rules.play_rule), deal_rules.hook, deal_rules.score
    )
    root = Position(turn, trick.leader, trick.placed, trick.led, trick.beat, trick.winner)
    hands = work.masks[3][:players]
    hands[seat] = view.hand
    legal = legal_actions(root, seat, hands, bids, deal)
    if not legal & (legal - ONE):
        return nth_card(legal, 0), state
    return search_action(view, trick, root, deal, setting, state, work, tree=tree, leak=leak)


@jit
def no_leak():
    """The ``leak`` of a search with honest worlds: no deal known."""
    return np.zeros(0, np.uint64), np.zeros(0, np.int64)
