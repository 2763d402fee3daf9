"""Play-outs of a bidder's deal: its unseen cards dealt many ways, each sample played out per candidate bid.

For each deal the bidder's unseen cards are dealt to the other seats ``samples`` ways (consistent
with its hand and the visible trump card); the later bidders' bids come from an assumed strategy
on their sampled hands; then every sample is played out once per candidate bid with the run's
play-out policy, greedy unless asked otherwise (it plays to its bid, so the bid changes the play). The counts of
the bidder's tricks under each bid give each bid's expected points under the rule set's scoring.
Sampling and play-outs run in numba; numpy works on whole batches (the assumed bids). The
``montecarlo`` strategy and ``pocha advise`` both stand on this.
"""

import numpy as np

from pocha.game.rules import Rules, forbidden_bids
from pocha.kernels.codes import POLICIES
from pocha.kernels.play import Chunk, DealRules
from pocha.kernels.playouts import rollout_counts, sample_completions
from pocha.kernels.seats import positions_to_seats, seats_to_positions
from pocha.strategies.base import BidContext, Strategy, checked_bids

BLOCK = 512  # deals sampled at once: memory stays at BLOCK * samples sampled deals
ASSUMED_SEED_SALT = 0x5EED_A55E  # the assumed bidders draw from their own streams, not the real bidders'


def trick_counts(ctx: BidContext, samples: int, assumed: Strategy, rollout: str = "greedy") -> np.ndarray:
    """int64[deal, bid, tricks]: per deal and bid 0..k, how often the bidder took each number of tricks.

    There are ``samples`` play-outs per deal and bid, every seat playing by ``rollout`` (greedy or
    random), whatever the run's play policy: the play-outs estimate the tricks, they are not the play.
    """
    rules, k, position, players = ctx.rules, ctx.cards, ctx.position, ctx.rules.players
    counts = np.zeros((ctx.size, k + 1, k + 1), np.int64)
    deal_rules = DealRules.of(rules, k)
    for start in range(0, ctx.size, BLOCK):
        block = ctx.subset(slice(start, start + BLOCK))
        rows = np.repeat(np.arange(block.size), samples)  # sampled deal -> its deal in the block
        hands = np.empty((len(rows), players), np.uint64)
        sample_completions(ctx.seed, k, block.numbers, position, block.hands, block.trump_card, rules.deck(), hands)
        dealt = block.numbers[rows]  # each sample's deal number: its dealer, so its seats' positions
        by_position = np.zeros((players, len(rows)), np.int64)
        by_position[:position] = block.earlier_bids[rows].T
        label = f"{getattr(assumed, 'name', 'assumed')} (assumed)"
        by_position[position] = checked_bids(label, assumed, block)[rows]  # what the later bidders see of it
        held = np.empty((players, len(rows)), np.uint64)
        seats_to_positions(hands, dealt, held)
        sampled_deals = dealt * samples + np.tile(np.arange(samples), block.size)
        trump_card = block.trump_card[rows]
        for later in range(position + 1, players):
            earlier = np.ascontiguousarray(by_position[:later].T)
            later_ctx = BidContext(
                rules=rules,
                cards=k,
                position=later,
                hands=held[later],
                trump_card=trump_card,
                earlier_bids=earlier,
                forbidden=forbidden_bids(rules, k, earlier),
                seed=ctx.seed ^ ASSUMED_SEED_SALT,
                numbers=sampled_deals,
                policy=ctx.policy,
            )
            by_position[later] = checked_bids(label, assumed, later_ctx)
        bids = np.empty((len(rows), players), np.int64)
        positions_to_seats(by_position, dealt, bids)
        sampled = Chunk(k, dealt, hands, trump_card, bids)
        rollout_counts(ctx.seed, sampled, position, deal_rules, POLICIES[rollout], counts[start : start + block.size])
    return counts


def expected_points(counts: np.ndarray, rules: Rules, cards: int) -> np.ndarray:
    """float64[deal, bid]: the mean points of each bid over the play-outs."""
    totals = counts.sum(axis=2)
    return (counts * rules.scoring.points_grid(cards)).sum(axis=2) / totals
