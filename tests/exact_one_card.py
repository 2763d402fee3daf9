"""The one-card hand solved exactly: a bidding policy's expected points; the best policies with and without inference.

At one card play is forced, so a deal's winner depends only on the cards: the highest trump if a trump
is played, else the highest card of the suit position 0 leads. The bids decide nothing but the points,
so position ``i``'s points depend only on its own bid and on whether its card wins; its bid depends on
its card, the turned card and the bids before it. That is why the exact value of a policy needs, for
each position ``i``, only two counts per (turned card, own card, earlier bids):

* ``deals``: the deals in which position ``i`` holds that card after those earlier bids, and
* ``wins``: those of them in which its card takes the trick.

Both are counts of ways to give the other players distinct cards, with each earlier position's card
in the set of cards on which its policy makes the bid it made. Distinctness is handled exactly by
inclusion-exclusion over set partitions (``injective``), vectorised over the own card, so no deal is
enumerated: all of 3..5 players with 40 cards take about a second.

Conventions: ``rules`` is a ``pocha`` ``Rules``; cards are numbered by their index in ``rules.deck()``
(``deck_index``) so arrays are dense; a deal is a turned card and then one card for each of positions
0..n-1 (0 bids first and leads, n-1 is the dealer), every ordered choice equally likely. A policy is a
list, one per position ``i``, of int arrays ``policy[i][turned, card, code]``: the bid (0 or 1) of position
``i`` with that card and turned card after the earlier bids numbered ``code`` (``bids_code``: bit ``k`` is
position ``k``'s bid). Entries with card == turned never occur and are ignored.
"""

from collections.abc import Callable, Iterator, Sequence
from math import factorial

import numpy as np

from pocha.game.rules import Rules

Policy = list[np.ndarray]  # policy[i][turned, card, code] -> bid of position i


def bids_code(bids: Sequence[int]) -> int:
    """The index of earlier bids (b_0, .., b_{i-1}) in a policy array: bit k is b_k."""
    return sum(int(b) << k for k, b in enumerate(bids))


def code_bids(code: int, count: int) -> list[int]:
    """The earlier bids of ``count`` positions numbered ``code`` (inverse of ``bids_code``)."""
    return [code >> k & 1 for k in range(count)]


def deck_index(rules: Rules) -> np.ndarray:
    """int64[64]: card id -> index in ``rules.deck()`` (-1 for ids not in the deck)."""
    index = np.full(64, -1, np.int64)
    index[rules.deck()] = np.arange(rules.deck_size)
    return index


def falling(x: np.ndarray | int, k: int) -> np.ndarray:
    """x (x-1) .. (x-k+1), element-wise, as int64: the ordered ways to deal k distinct cards from x (0 if x < k)."""
    x = np.maximum(np.asarray(x, np.int64), 0)
    out = np.ones_like(x)
    for j in range(k):
        out = out * np.maximum(x - j, 0)
    return out


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into blocks (Bell(len) of them: 1, 1, 2, 5, 15 for 0..4 items)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for j in range(len(partition)):
            yield [*partition[:j], [first, *partition[j]], *partition[j + 1 :]]


def injective(common: Callable[[list[int]], np.ndarray], members: list[int]) -> np.ndarray:
    """Ways to give each member a different card of its own set; ``common(block)``: how many cards all its sets hold.

    Inclusion-exclusion (Moebius inversion on the lattice of set partitions): the tuples constant on
    the blocks of a partition number the product of the blocks' common sizes, and the injective tuples
    are their sum weighted by prod over blocks of (-1)^(|block|-1) (|block|-1)!. For two sets:
    |A||B| - |A and B|. ``common`` may return arrays (one value per own card); so does this.
    """
    total: np.ndarray | int = 0
    for partition in set_partitions(members):
        term: np.ndarray | int = 1
        for block in partition:
            term = term * (-1) ** (len(block) - 1) * factorial(len(block) - 1) * common(block)
        total = total + term
    return np.asarray(total, np.int64)


def counts(rules: Rules, policy: Policy, position: int) -> tuple[np.ndarray, np.ndarray]:
    """(wins, deals), int64[turned, card, code]: ``position``'s deals with that card after those bids, and its wins.

    Only ``policy[0..position-1]`` is read: the later bids do not change who wins.
    For a turned card t and earlier bids, let A_k be the cards (not t) on which position k < i bids
    what it bid. Deals with own card c: positions 0..i-1 take distinct cards of A_k less c, the later
    ones any distinct cards of the N-2-i left. Wins: with led suit L, every other card must rank below
    c in the order "trumps, then suit L, then the rest (which never win)"; position 0's card must be of
    suit L, the others and the later positions' cards below c. Arrays run over every turned card t
    and own card c at once (axes t, c; y for the other players' cards).
    """
    n, size, i = rules.players, rules.deck_size, position
    ids = rules.deck()
    suits, strengths = ids // 16, ids % 16
    others = ~np.eye(size, dtype=bool)  # others[t, y]: y is not the turned card t
    is_trump = suits[None, :] == suits[:, None]  # is_trump[t, y]: y is of the turned card's suit
    below = []  # below[L][t, c, y]: y (not t) ranks below c when suit L is led and t is turned
    for led in range(4):
        key = np.where(is_trump, 32 + strengths, np.where(suits == led, 16 + strengths, -1))  # [t, y]
        below.append(((key[:, None, :] < key[:, :, None]) & others[:, None, :]).astype(np.int64))
    wins = np.zeros((size, size, 2**i), np.int64)
    deals = np.zeros((size, size, 2**i), np.int64)
    for code in range(2**i):
        earlier = code_bids(code, i)
        sets = [(policy[k][:, :, bids_code(earlier[:k])] == earlier[k]) & others for k in range(i)]  # [t, y]

        def common_less_own(block: list[int], sets: list[np.ndarray] = sets) -> np.ndarray:
            inter = np.logical_and.reduce([sets[k] for k in block])
            return inter.sum(axis=1, keepdims=True) - inter  # the own card c is not available to the others

        deals[:, :, code] = injective(common_less_own, list(range(i))) * falling(size - 2 - i, n - 1 - i)
        for led in range(4):
            under = below[led].sum(axis=2)  # [t, c]: cards below c
            if i == 0:  # position 0 leads its own card: it wins when the n-1 others are all below it
                wins[:, :, 0] += np.where(suits == led, falling(under, n - 1), 0)
                continue
            led_sets = [sets[0] & (suits == led), *sets[1:]]

            def common_below(block: list[int], led_sets: list[np.ndarray] = led_sets, led: int = led) -> np.ndarray:
                return np.einsum("tcy,ty->tc", below[led], np.logical_and.reduce([led_sets[k] for k in block]))

            later = falling(under - i, n - 1 - i)  # later positions: distinct cards below c, after the i earlier
            wins[:, :, code] += injective(common_below, list(range(i))) * later
    dealt = others[:, :, None]  # the own card is never the turned card
    return wins * dealt, deals * dealt


def total_deals(rules: Rules) -> int:
    """Equally likely deals of one card: the turned card, then n distinct cards in order."""
    return int(rules.deck_size * falling(rules.deck_size - 1, rules.players))


def legal(rules: Rules, position: int, code: int, bid: int) -> bool:
    """Whether ``bid`` is allowed after the earlier bids numbered ``code`` (the hook binds only the dealer)."""
    if position < rules.players - 1 or not rules.hook_applies(1):
        return True
    return sum(code_bids(code, position)) + bid != 1


def evaluate(rules: Rules, policy: Policy) -> np.ndarray:
    """float64[n]: the exact expected points per hand of each position when the table bids by ``policy``."""
    total = total_deals(rules)
    points = []
    for i in range(rules.players):
        wins, deals = counts(rules, policy, i)
        assert deals.sum() == total  # every deal counted once
        bid = policy[i]
        for code in range(2**i):
            reached = deals[:, :, code] > 0
            for b in (0, 1):
                if not legal(rules, i, code, b):
                    assert not np.any(reached & (bid[:, :, code] == b)), f"position {i} bids {b}, forbidden"
        made = rules.scoring.points(bid, 1) * wins + rules.scoring.points(bid, 0) * (deals - wins)
        points.append(made.sum() / total)
    return np.array(points)


def best_bids(rules: Rules, earlier: Policy, inference: bool) -> np.ndarray:
    """Position ``len(earlier)``'s bids for the most expected points when positions before it bid by ``earlier``.

    Without inference a position knows only its card and the turned card (its win chance is summed
    over the earlier bids), with inference also the earlier bids read through ``earlier``. Ties go to
    the lower bid; the dealer under the hook takes the best legal bid (which is the other one when the
    best is forbidden, as there are only two).
    """
    i, scoring = len(earlier), rules.scoring
    wins, deals = counts(rules, earlier, i)
    if not inference:
        wins, deals = wins.sum(axis=2, keepdims=True), deals.sum(axis=2, keepdims=True)
    # points summed over the deals of each cell: the expected points times the cell's deals, in whole
    # numbers, so a tie is seen exactly
    value = [scoring.points(b, 1) * wins + scoring.points(b, 0) * (deals - wins) for b in (0, 1)]
    bid = np.broadcast_to((value[1] > value[0]).astype(np.int64), (*wins.shape[:2], 2**i)).copy()
    for code in range(2**i):
        for b in (0, 1):
            if not legal(rules, i, code, b):
                bid[:, :, code][bid[:, :, code] == b] = 1 - b
    return bid


def best_policy(rules: Rules, inference: bool) -> Policy:
    """The policy in which each position, in bidding order, bids for the most expected points (``best_bids``)."""
    policy: Policy = []
    for _ in range(rules.players):
        policy.append(best_bids(rules, policy, inference))
    return policy


def tabulate(rules: Rules, choose: Callable[[int, int, int, tuple[int, ...]], int]) -> Policy:
    """A policy array from a function ``choose(position, card id, turned card id, earlier bids)`` -> bid."""
    ids = rules.deck()
    policy = []
    for i in range(rules.players):
        table = np.zeros((len(ids), len(ids), 2**i), np.int64)
        for t, turned in enumerate(ids):
            for c, card in enumerate(ids):
                for code in range(2**i):
                    if c != t:
                        table[t, c, code] = choose(i, int(card), int(turned), tuple(code_bids(code, i)))
        policy.append(table)
    return policy


class PolicyStrategy:
    """A ``pocha`` bidding strategy that bids one-card hands by a policy array (for checks by simulation)."""

    name = "exact-policy"

    def __init__(self, rules: Rules, policy: Policy) -> None:
        self.policy, self.index = policy, deck_index(rules)

    def bid(self, ctx) -> np.ndarray:  # ctx: pocha.strategies.base.BidContext
        assert ctx.cards == 1, "a one-card policy"
        card = self.index[np.log2(ctx.hands.astype(np.float64)).astype(np.int64)]  # the hand's only bit
        turned = self.index[ctx.trump_card]
        code = (ctx.earlier_bids << np.arange(ctx.position)).sum(axis=1)
        return self.policy[ctx.position][turned, card, code].astype(np.int64)


def strategy_policy(rules: Rules, strategy, positions: Sequence[int] | None = None) -> Policy:
    """The one-card policy of a ``pocha`` strategy, from its ``bid`` of every hand at once (per position and bids).

    positions: the positions to ask it about (all by default); the others' arrays are left empty.
    """
    from pocha.game.rules import forbidden_bids
    from pocha.strategies.base import BidContext

    ids, size = rules.deck(), rules.deck_size
    turned, card = (a.ravel() for a in np.meshgrid(np.arange(size), np.arange(size), indexing="ij"))
    dealt = turned != card
    policy = []
    for i in range(rules.players):
        table = np.zeros((size, size, 2**i), np.int64)
        for code in range(2**i) if positions is None or i in positions else ():
            earlier = np.tile(np.array(code_bids(code, i), np.int64), (int(dealt.sum()), 1))
            ctx = BidContext(
                rules=rules,
                cards=1,
                position=i,
                hands=np.left_shift(np.uint64(1), ids[card[dealt]].astype(np.uint64)),
                trump_card=ids[turned[dealt]].astype(np.int64),
                earlier_bids=earlier,
                forbidden=forbidden_bids(rules, 1, earlier),
                seed=0,
                numbers=np.arange(int(dealt.sum()), dtype=np.int64),
            )
            table[turned[dealt], card[dealt], code] = strategy.bid(ctx)
        policy.append(table)
    return policy


if __name__ == "__main__":  # the tables: python3 tests/exact_one_card.py
    from pocha.game.presets import make_rules

    for players in (3, 4, 5):
        for hook in ("never", "always"):
            rules = make_rules("ludoteka", players, hook=hook)
            for inference in (False, True):
                values = " ".join(f"{v:7.4f}" for v in evaluate(rules, best_policy(rules, inference)))
                reading = "with" if inference else "without"
                print(f"{players} players, {rules.deck_size} cards, hook {hook:6}, {reading:7} inference: {values}")
