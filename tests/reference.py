"""A slow, obvious pure-Python version of the play rules and the greedy policy, to check the kernels.

Cards are the same integer ids (suit * 16 + strength); everything else is lists and loops. A trump
suit of None is a deal without trump.
"""

import math

import numpy as np

from pocha.game.rules import Rules
from pocha.game.scoring import Scoring


def suit(card: int) -> int:
    return card // 16


def strength(card: int) -> int:
    return card % 16


def has_trump(rules: Rules, cards: int) -> bool:
    """Whether a deal of ``cards`` cards a player has trump: all but the whole deck dealt under full-deal-trump none."""
    return not (rules.full_deal_trump == "none" and cards * rules.players == 4 * len(rules.ranks))


def trump_suit(trump_card: int | None) -> int | None:
    """The suit the trump card names; None without a trump card."""
    return None if trump_card is None else suit(trump_card)


def beats(card: int, best: int, trump: int | None) -> bool:
    """Whether ``card`` beats ``best``, the card winning the trick so far."""
    if suit(card) == suit(best):
        return strength(card) > strength(best)
    return suit(card) == trump


def trick_winner(trick: list[int], trump: int | None) -> int:
    """Index in ``trick`` of the winning card."""
    winner = 0
    for i, card in enumerate(trick):
        if beats(card, trick[winner], trump):
            winner = i
    return winner


def trick_masks(trick: list[int], trump: int | None) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The trick as the kernels keep it: (led suit's cards not on it, trump suit's cards, cards that take the lead)."""
    trumps = 0 if trump is None else 0xFFFF << 16 * trump
    if not trick:
        return np.uint64(0), np.uint64(trumps), np.uint64((1 << 64) - 1)
    best = trick[trick_winner(trick, trump)]
    beat = sum(1 << card for card in range(64) if beats(card, best, trump))
    lane = range(16 * suit(trick[0]), 16 * suit(trick[0]) + 16)
    led = sum(1 << card for card in lane if card not in trick)
    return np.uint64(led), np.uint64(trumps), np.uint64(beat)


def legal_cards(hand: list[int], trick: list[int], trump: int | None, play: str) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick``, by the play rule (README, "What it simulates")."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    trump_on_trick = any(suit(c) == trump for c in trick)
    if following:
        duty = {
            "pocha": led == trump or not trump_on_trick,  # a trump on a plain-suit trick frees the followers
            "pocha-trump-lead-free": not trump_on_trick,  # so does a trump lead
            "pocha-always-beat": True,  # nothing does
        }.get(play, False)
        if duty:
            top = max(strength(c) for c in trick if suit(c) == led)
            higher = [c for c in following if strength(c) > top]
            if higher:
                return higher
        return following
    if play != "follow":
        trumps_played = [strength(c) for c in trick if suit(c) == trump]
        top = max(trumps_played) if trumps_played else -1
        overtrumps = [c for c in hand if suit(c) == trump and strength(c) > top]
        if overtrumps:
            return overtrumps
    return list(hand)


def cheapest(cards: list[int], trump: int | None) -> int:
    return min(cards, key=lambda c: (suit(c) == trump, strength(c), suit(c)))


def dearest(cards: list[int], trump: int | None) -> int:
    return max(cards, key=lambda c: (suit(c) == trump, strength(c), -suit(c)))


def greedy_card(legal: list[int], trick: list[int], trump: int | None, short: bool) -> int:
    """The greedy policy as its docstring in ``pocha.kernels`` states it."""
    if not trick:
        return dearest(legal, trump) if short else cheapest(legal, trump)
    best = trick[trick_winner(trick, trump)]
    takers = [c for c in legal if beats(c, best, trump)]
    if short:
        return cheapest(takers or legal, trump)
    duckers = [c for c in legal if c not in takers]
    return dearest(duckers, trump) if duckers else cheapest(legal, trump)


def score(bid: int, won: int, scoring: Scoring) -> int:
    if bid == won:
        return scoring.exact + scoring.per_trick * won
    return scoring.per_trick_missed * won + scoring.miss_per_trick * abs(won - bid)


def play_greedy(
    hands: list[list[int]], trump: int | None, leader: int, bids: list[int], play: str
) -> list[tuple[int, list[int]]]:
    """A whole deal under the greedy policy: ``[(leader, cards in play order), ...]``."""
    hands = [list(h) for h in hands]
    won = [0] * len(hands)
    tricks = []
    for _ in range(len(hands[0])):
        trick: list[int] = []
        for j in range(len(hands)):
            seat = (leader + j) % len(hands)
            legal = legal_cards(hands[seat], trick, trump, play)
            card = greedy_card(legal, trick, trump, won[seat] < bids[seat])
            hands[seat].remove(card)
            trick.append(card)
        tricks.append((leader, trick))
        leader = (leader + trick_winner(trick, trump)) % len(hands)
        won[leader] += 1
    return tricks


def table_features(
    hand: list[int], trump_card: int | None, earlier: list[int], cards: int, players: int, ranks: int
) -> list[int]:
    """The ``table`` strategy's cell of a hand, uncapped, in the order of ``pocha.strategies.table.FEATURES``."""
    trump, strongest = trump_suit(trump_card), ranks - 1
    trumps = [strength(c) for c in hand if suit(c) == trump]
    side = [c for c in hand if suit(c) != trump]
    high = sum(s > strongest - 3 for s in trumps)
    lead = sum(earlier) - len(earlier) * cards / players
    return [
        cards - 1,
        len(earlier),
        high,
        len(trumps) - high,
        sum(strength(c) == strongest for c in side),
        sum(strength(c) == strongest - 1 for c in side),
        sum(1 for s in range(4) if s != trump and not any(suit(c) == s for c in hand)),
        0 if lead < -0.5 else 2 if lead > 0.5 else 1,
    ]


def expected_estimate(ctx) -> np.ndarray:
    """The ``expected`` estimate as whole-array numpy, factors per deal and suit included (its first version)."""
    from pocha.strategies.heuristics import _survival_table

    rules, k = ctx.rules, ctx.cards
    opponents = rules.players - 1
    unseen_count = rules.deck_size - k - (k * rules.players < rules.deck_size)
    survive = _survival_table(min(1.0, opponents * k / unseen_count))
    per_suit = np.bitwise_count(ctx.unseen).astype(np.float64) / unseen_count
    void = (1 - per_suit) ** k
    holds_trump = 1 - (1 - (per_suit * ctx.is_trump).sum(axis=1)) ** k  # 0 without trump: nobody can ruff
    not_ruffed = np.where(ctx.is_trump, 1.0, (1 - void * holds_trump[:, None]) ** opponents)
    total = np.zeros(ctx.size)
    one = np.uint64(1)
    for strength in range(len(ctx.rules.ranks)):
        shift = np.uint64(strength)
        held = (ctx.lanes >> shift) & one
        stronger = np.bitwise_count(ctx.unseen >> (shift + one))
        guards = np.bitwise_count(ctx.lanes & ((one << shift) - one))
        total += (held * survive[stronger, guards] * not_ruffed).sum(axis=1)
    return total


def nearest_legal(estimate: float, cards: int, forbidden: int) -> int:
    """``nearest_legal`` of one estimate, as its docstring says it."""
    bid = min(max(math.floor(estimate + 0.5), 0), cards)
    if bid != forbidden:
        return bid
    step = 1 if estimate >= bid else -1
    return bid + step if 0 <= bid + step <= cards else bid - step


def random_bid(uniform: float, cards: int, forbidden: int) -> int:
    """The ``random`` strategy's bid from its uniform draw: the draw's share of the legal bids, counted upwards."""
    legal = [bid for bid in range(cards + 1) if bid != forbidden]
    return legal[math.floor(uniform * len(legal))]


def solve_open(
    hands: list[list[int]],
    trick: list[int],
    leader: int,
    won: list[int],
    bids: list[int],
    score: np.ndarray,
    trump: int | None,
    play: str,
    root: int | None = None,
) -> list[int]:
    """The tricks each seat takes from a position with every hand known, by trying every legal card.

    root None: each seat plays the card with the most points for itself at the end (score[bid, won]),
    the lowest card on ties. A root seat: it plays for the most points, every other seat for the
    fewest of the root's (only the root's count is the solver's then). trick: the cards on the
    trick from ``leader`` on; hands are not changed.
    """
    players = len(hands)
    if len(trick) == players:
        winner = (leader + trick_winner(trick, trump)) % players
        taken = [int(seat == winner) for seat in range(players)]
        if not hands[winner]:
            return taken
        after = [w + t for w, t in zip(won, taken, strict=True)]
        rest = solve_open(hands, [], winner, after, bids, score, trump, play, root)
        return [t + r for t, r in zip(taken, rest, strict=True)]
    seat = (leader + len(trick)) % players
    mover = seat if root is None else root
    sign = 1 if root is None or seat == root else -1  # a paranoid opponent wants the root's points low
    best: list[int] = []
    best_points = 0
    for card in sorted(legal_cards(hands[seat], trick, trump, play)):
        rest_hands = [[c for c in hand if c != card] if s == seat else hand for s, hand in enumerate(hands)]
        value = solve_open(rest_hands, [*trick, card], leader, won, bids, score, trump, play, root)
        points = sign * int(score[bids[mover], won[mover] + value[mover]])
        if not best or points > best_points:
            best, best_points = value, points
    return best
