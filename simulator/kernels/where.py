"""A ``--where`` condition as the dealing kernel evaluates it: a postfix program of int64 rows, run on a small stack.

``program`` compiles the conditions' trees (``game.where``) once; ``holds`` runs the program on one
deal's hands. Every row is ``(op, a, b, c)``; numbers and truths (0 or 1) share the stack; ``and``
and ``or`` evaluate both sides (no branch, the stack stays simple).
"""

from collections.abc import Sequence

import numpy as np

from pocha.game.rules import Rules
from pocha.game.where import HCP_POINTS, TRUMP_SUIT, Binary, Call, Condition, HandSize, Node, Number, Unary
from pocha.kernels.bits import LANE_MASK, LANES, ONE, ZERO, lane, popcount
from pocha.kernels.jit import jit
from pocha.kernels.trick import trump_masks

# op codes: pushes (a: the position, b and c as said), then the operators on the stack's top
PUSH, CARDS, LENGTH, HAS, RANK, TOP, VOIDS = 0, 1, 2, 3, 4, 5, 6  # PUSH a; LENGTH a b=suit; HAS a b=card;
# RANK a b=strength c=weight (the count times c); TOP a b=suit c=strength mask of the suit's top cards
NEG, NOT, ADD, SUB, EQ, NE, LT, LE, GT, GE, AND, OR = 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18
OPERATORS = {"-": SUB, "+": ADD, "==": EQ, "!=": NE, "<": LT, "<=": LE, ">": GT, ">=": GE, "and": AND, "or": OR}


def program(conditions: Sequence[Condition], rules: Rules) -> np.ndarray:
    """int64[row, 4]: the conditions, all to hold, as one postfix program (no rows: every deal holds)."""
    rows: list[tuple[int, int, int, int]] = []
    for n, condition in enumerate(conditions):
        rows += postfix(condition.tree, rules)
        if n:
            rows.append((AND, 0, 0, 0))
    return np.array(rows, np.int64).reshape(len(rows), 4)


def postfix(node: Node, rules: Rules) -> list[tuple[int, int, int, int]]:
    """The rows of one tree, operands before their operator."""
    if isinstance(node, Number):
        return [(PUSH, node.value, 0, 0)]
    if isinstance(node, HandSize):
        return [(CARDS, 0, 0, 0)]
    if isinstance(node, Unary):
        return [*postfix(node.operand, rules), (NEG if node.op == "-" else NOT, 0, 0, 0)]
    if isinstance(node, Binary):
        return [*postfix(node.left, rules), *postfix(node.right, rules), (OPERATORS[node.op], 0, 0, 0)]
    return call_rows(node, rules)


def call_rows(call: Call, rules: Rules) -> list[tuple[int, int, int, int]]:
    """The rows of a function: each a push; ``hcp`` is a weighted sum of rank counts."""
    p, strongest = call.position, len(rules.ranks) - 1
    if call.name == "trumps":
        return [(LENGTH, p, TRUMP_SUIT, 0)]
    if call.name == "length":
        return [(LENGTH, p, call.arguments[0], 0)]
    if call.name == "has":
        return [(HAS, p, call.arguments[0], 0)]
    if call.name == "rank":
        return [(RANK, p, call.arguments[0], 1)]
    if call.name == "top":
        suit, count = call.arguments
        return [(TOP, p, suit, ((1 << count) - 1) << (strongest + 1 - count))]
    if call.name == "voids":
        return [(VOIDS, p, 0, 0)]
    rows = [(RANK, p, strongest, HCP_POINTS[0])]
    for i, points in enumerate(HCP_POINTS[1 : strongest + 1], start=1):
        rows += [(RANK, p, strongest - i, points), (ADD, 0, 0, 0)]
    return rows


@jit
def suit_mask(suit, trumps):
    """The cards of a suit argument: one suit's lane, or the trump suit's (none without trump)."""
    return trumps if suit == TRUMP_SUIT else LANE_MASK << np.uint64(16 * suit)


@jit
def holds(rows, hands, mano, trump_card, cards, stack):
    """Whether a deal meets the program ``rows`` (int64[row, 4]); no rows: it does.

    hands: uint64[seat] of the deal; mano: the seat of position 0; stack: int64[>= rows] scratch.
    """
    players = hands.shape[0]
    trumps = trump_masks(trump_card)[0]
    top = -1
    for r in range(rows.shape[0]):
        op, a, b, c = rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3]
        if op <= VOIDS:
            top += 1
            hand = hands[(mano + a) % players] if op > CARDS else ZERO
            if op == PUSH:
                stack[top] = a
            elif op == CARDS:
                stack[top] = cards
            elif op == LENGTH:
                stack[top] = popcount(hand & suit_mask(b, trumps))
            elif op == HAS:
                stack[top] = np.int64((hand >> np.uint64(b)) & ONE)
            elif op == RANK:
                stack[top] = c * popcount(hand & (LANES << np.uint64(b)))
            elif op == TOP:
                stack[top] = popcount(hand & suit_mask(b, trumps) & (np.uint64(c) * LANES))
            else:
                stack[top] = np.int64(lane(hand, 0) == ZERO) + np.int64(lane(hand, 1) == ZERO)
                stack[top] += np.int64(lane(hand, 2) == ZERO) + np.int64(lane(hand, 3) == ZERO)
        elif op == NEG:
            stack[top] = -stack[top]
        elif op == NOT:
            stack[top] = 1 - stack[top]
        else:
            top -= 1
            x, y = stack[top], stack[top + 1]
            if op == ADD:
                stack[top] = x + y
            elif op == SUB:
                stack[top] = x - y
            elif op == EQ:
                stack[top] = x == y
            elif op == NE:
                stack[top] = x != y
            elif op == LT:
                stack[top] = x < y
            elif op == LE:
                stack[top] = x <= y
            elif op == GT:
                stack[top] = x > y
            elif op == GE:
                stack[top] = x >= y
            elif op == AND:
                stack[top] = x & y
            else:
                stack[top] = x | y
    return top < 0 or stack[0] != 0
