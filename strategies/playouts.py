"""Play-outs of a bidder's deal: its unseen cards dealt many ways, each sample played out per candidate bid.

For each deal the bidder's unseen cards are dealt to the other seats ``samples`` ways (consistent
with its hand and the visible trump card). With a ``sharpness`` above 0 each sampled world counts as
much as it makes the earlier bids likely, read through the assumed strategy (``bid_likelihood``),
or more worlds are drawn and the likeliest played (``oversample``), and the later bidders' bids
answer each candidate bid. The later bidders' bids come from the assumed strategy on their sampled
hands; then every sample is played out once per candidate bid with the play-out policy, greedy
unless asked otherwise (it plays to its bid, so the bid changes the play). The (weighted) counts
of the bidder's tricks under each bid give each bid's expected points under the rule set's scoring.
Sampling and play-outs run in numba. The assumed ``table`` (the default) bids in numba too, from its
arrays (``TrickTable.model``): reading the bids and answering the candidates cost a kernel call a
block; any other assumed strategy is asked position by position, on whole batches. The
``montecarlo`` strategy and ``pocha advise`` both stand on this.
"""

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from pocha.errors import PochaError
from pocha.game.rules import Rules, forbidden_bids
from pocha.interrupt import pieces
from pocha.kernels.bidding import TableModel
from pocha.kernels.codes import POLICIES, STREAM_ROLLOUT, STREAM_SAMPLE
from pocha.kernels.learned import Model, no_model
from pocha.kernels.play import Chunk, DealRules, Policies
from pocha.kernels.playouts import (
    rollout_counts,
    sample_completions,
    solved_rollout_counts,
    table_answers,
    table_weights,
    unseen_cards,
    whole_rollout_counts,
)
from pocha.kernels.seats import positions_to_seats, seats_to_positions
from pocha.kernels.solve import MOST_SOLVE
from pocha.kernels.streams import stream_states
from pocha.strategies.base import BidContext, Strategy, checked_bids
from pocha.strategies.play_models import run_models
from pocha.strategies.table import TableStrategy

BLOCK = 512  # deals sampled at once: memory stays at BLOCK * samples (* oversample) sampled deals
PIMC_ROLLOUT_SAMPLES = 2  # worlds per card of a pimc play-out: the seats' own 8 would cost four times as much
ASSUMED_SEED_SALT = 0x5EED_A55E  # the assumed bidders draw from their own streams, not the real bidders'


class Playouts(NamedTuple):
    """What the play-outs of a batch of deals found.

    counts float64[deal, bid, tricks]: per deal and candidate bid 0..k, the (weighted) number of
    play-outs in which the bidder took each number of tricks; effective float64[deal]: how many
    equally weighted samples the weighted ones are worth, (sum w)^2 / sum w^2 (the samples when
    every weight is 1), for the standard errors.
    """

    counts: np.ndarray
    effective: np.ndarray


def check_solve(solve: int, rollout: str, where: str, rollout_option: str) -> None:
    """A clear line unless ``solve`` (the tricks solved at the end of a play-out) suits ``rollout``: greedy only."""
    if not 0 <= solve <= MOST_SOLVE:
        raise PochaError(f"{where}: solve must be a whole number of tricks from 0 to {MOST_SOLVE}, not {solve}")
    if solve and rollout != "greedy":
        raise PochaError(
            f"{where}: solve=N finishes greedy play-outs exactly; it needs {rollout_option}greedy, not '{rollout}'"
        )


def play_outs(
    ctx: BidContext,
    samples: int,
    assumed: Strategy,
    rollout: str = "greedy",
    sharpness: float = 0.0,
    oversample: int = 1,
    solve: int = 0,
    *,
    considered: np.ndarray | None = None,
    progress: Callable[[int], None] | None = None,
) -> Playouts:
    """Sample each deal's unseen cards ``samples`` ways and play every candidate bid out (see the module docstring).

    Every seat plays by ``rollout`` (greedy, random, learned or pimc), whatever the run's play policy: the
    play-outs estimate the tricks, they are not the play. sharpness: 0 plays today's montecarlo
    (every sample counts once; the later bidders see the assumed strategy's bid in the bidder's
    place); above 0 a sample counts by ``bid_likelihood`` of the earlier bids in its world, and the
    later bidders answer each candidate bid. oversample: above 1 (when reading), ``oversample`` times
    as many worlds are drawn and weighed, and ``samples`` of them are picked by their weights
    (systematic resampling) to be played out, each counting once: the play-outs, the costly part,
    go to the worlds the bids make likely. solve: above 0 (greedy only), the last ``solve`` tricks of
    each play-out are solved exactly, every hand of the world open (``solved_rollout_counts``).
    considered: bool[deal, bid], the candidates a pimc or learned play-out plays (None: every bid);
    the others count nothing. Without oversampling, the samples are played a piece at a time
    (``pieces``: a signal stops them within one), each piece's random streams going on from the
    last's: the counts are one call's. progress: told the play-outs (samples of a deal) each piece finished.
    """
    rules, k = ctx.rules, ctx.cards
    if considered is None:
        considered = np.ones((ctx.size, k + 1), np.bool_)
    counts = np.zeros((ctx.size, k + 1, k + 1))
    effective = np.zeros(ctx.size)
    reading = sharpness > 0
    playing = Playing(
        assumed,
        assumed.model(ctx) if type(assumed) is TableStrategy else None,  # the table bids in the kernels
        (samples, samples * oversample if reading else samples),
        (rollout, solve),
        sharpness,
        DealRules.of(rules, k),
        rollout_policies(rollout, rules.players),
        run_models(rules, ("",)) if rollout == "learned" else no_model(),
    )
    drawn = playing.worlds[1]
    for start in range(0, ctx.size, BLOCK):
        block = ctx.subset(slice(start, start + BLOCK))
        streams = Streams.start(block)
        own = None if reading else checked_bids(assumed_label(assumed), assumed, block)  # for every candidate
        weights = np.empty((block.size, samples))  # what each play-out counts for
        shortlist, block_counts = considered[start : start + block.size], counts[start : start + block.size]
        for first, last in pieces(samples) if drawn == samples else [(0, drawn)]:
            played = playing.play(block, (first, last), streams, own, shortlist, block_counts)
            weights[:, first : first + played.shape[1]] = played
            if progress is not None:
                progress(played.shape[1])
        effective[start : start + block.size] = weights.sum(axis=1) ** 2 / (weights**2).sum(axis=1)
    return Playouts(counts, effective)


class Streams(NamedTuple):
    """Where each deal of a block stands in its random streams between pieces: what the next piece goes on from."""

    sample: np.ndarray  # uint64[deal]: the sampling stream's state
    unseen: np.ndarray  # int64[deal, deck_size]: the cards the bidder cannot see, as the last sample shuffled them
    rollout: np.ndarray  # uint64[deal]: the play-outs' stream state

    @classmethod
    def start(cls, block: BidContext) -> "Streams":
        """The streams of ``block``'s deals before any sample."""
        k, numbers = block.cards, block.numbers
        return cls(
            stream_states(block.seed, k, numbers, STREAM_SAMPLE),
            unseen_cards(block.hands, block.trump_card, block.rules.deck()),
            stream_states(block.seed, k, numbers, STREAM_ROLLOUT),
        )


class Playing(NamedTuple):
    """What ``play_outs`` plays each piece of a block's samples with: the assumed bidders, the play-outs."""

    assumed: Strategy
    model: TableModel | None  # the assumed table's, to bid in the kernels; None: the strategy is asked
    worlds: tuple[int, int]  # the samples played per deal, and the worlds drawn to pick them from
    rollout: tuple[str, int]  # how every seat plays them, and the last tricks solved exactly
    sharpness: float
    deal_rules: DealRules
    policies: Policies
    models: Model

    def play(
        self,
        block: BidContext,
        piece: tuple[int, int],
        streams: Streams,
        own: np.ndarray | None,
        considered: np.ndarray,
        counts: np.ndarray,
    ) -> np.ndarray:
        """Deal worlds first..last (``piece``) of each deal of ``block``, weigh them, add their play-outs to ``counts``.

        streams: the deals', carried on; own: the assumed strategy's
        bid in each deal, standing for every candidate (None when reading: each candidate answered);
        considered: bool[deal, bid], the candidates a pimc or learned play-out plays.
        Returns the weights of the samples played, float64[deal, sample]: all of the worlds drawn,
        or as many as ``samples`` picked from them all (oversampling).
        """
        (first, last), (samples, drawn) = piece, self.worlds
        rules, k, position, players = block.rules, block.cards, block.position, block.rules.players
        reading = self.sharpness > 0
        rows = np.repeat(np.arange(block.size), last - first)  # sampled deal -> its deal in the block
        hands = np.empty((len(rows), players), np.uint64)
        sample_completions(
            streams.sample, streams.unseen, k, block.numbers, position, block.hands, block.trump_card, hands
        )
        dealt = block.numbers[rows]  # each sample's deal number: its dealer, so its seats' positions
        held = np.empty((players, len(rows)), np.uint64)
        seats_to_positions(hands, dealt, held)
        worlds = BidContext(
            rules=rules,
            cards=k,
            position=position,
            hands=held[position],
            trump_card=block.trump_card[rows],
            earlier_bids=np.empty((len(rows), 0), np.int64),
            forbidden=np.full(len(rows), -1),
            seed=block.seed ^ ASSUMED_SEED_SALT,
            numbers=dealt * drawn + np.tile(np.arange(first, last), block.size),
            policy=block.policy,
        )
        earlier = block.earlier_bids[rows]
        weights = np.ones(len(rows))
        if reading:
            read_bids(self.assumed, self.model, worlds, held, earlier, self.sharpness, weights)
        if drawn > samples:
            picked = systematic_resample(weights.reshape(block.size, drawn), samples, block.uniform()[:, 0])
            hands, dealt, held, earlier = hands[picked], dealt[picked], held[:, picked], earlier[picked]
            worlds, weights = worlds.subset(picked), np.ones(len(picked))
        # the bidder's candidates 0..k, each answered; or the assumed strategy's bid standing for them all
        candidates = np.tile(np.arange(k + 1), (len(dealt), 1)) if own is None else own[rows].reshape(-1, 1)
        bids = answered_bids(self.assumed, self.model, worlds, dealt, held, earlier, candidates)
        chunk = Chunk(k, dealt, hands, worlds.trump_card, bids)
        rollout, solve = self.rollout
        if solve:
            solved_rollout_counts(chunk, position, self.deal_rules, solve, weights, counts)
        elif rollout in ("pimc", "learned"):
            whole_rollout_counts(
                streams.rollout,
                chunk,
                position,
                self.deal_rules,
                self.policies,
                self.models,
                weights,
                considered=considered,
                counts=counts,
            )
        else:
            rollout_counts(streams.rollout, chunk, position, self.deal_rules, self.policies, weights, counts)
        return weights.reshape(block.size, -1)


def rollout_policies(rollout: str, players: int) -> Policies:
    """Every seat of a play-out playing ``rollout``: greedy, random, learned or pimc (``PIMC_ROLLOUT_SAMPLES`` worlds).

    The pimc seats weigh every legal card (``exhaustive``), as montecarlo's play-outs always have.
    """
    samples = PIMC_ROLLOUT_SAMPLES if rollout == "pimc" else 0
    row = (1, players)
    none, model = np.zeros(row, np.int64), np.full(row, 0 if rollout == "learned" else -1)
    codes, exhaustive = np.full(row, POLICIES[rollout]), np.ones(row, np.int64)
    return Policies(codes, np.full(row, samples), exhaustive, none, none, model, np.full(row, POLICIES["greedy"]), none)


def systematic_resample(weights: np.ndarray, samples: int, uniform: np.ndarray) -> np.ndarray:
    """int64[deal * samples]: ``samples`` rows of each deal's worlds (weights float64[deal, world]), as flat indices.

    Systematic resampling: the points (u + j) / samples, j = 0..samples-1, one uniform u per deal, fall
    on the cumulative normalised weights; a world of weight w is picked about w * samples times, never
    further from it than one, which keeps the noise lower than drawing the samples independently.
    """
    deals, drawn = weights.shape
    cumulative = np.cumsum(weights, axis=1)
    cumulative /= cumulative[:, -1:]
    cumulative[:, -1] = 1.0  # exactly, so a point never falls past its own deal
    points = (uniform[:, None] + np.arange(samples)[None, :]) / samples
    offsets = np.arange(deals)[:, None]
    return np.searchsorted((cumulative + offsets).ravel(), (points + offsets).ravel(), side="right")


def read_bids(
    assumed: Strategy,
    model: TableModel | None,
    worlds: BidContext,
    held: np.ndarray,
    earlier: np.ndarray,
    sharpness: float,
    weights: np.ndarray,
) -> None:
    """weights[world] *= how likely the earlier bids (int64[world, position]) are in each world, read by ``assumed``.

    held: uint64[position, world], the sampled hands; model: the assumed table's ``TableModel``, to
    read in one kernel, else None (the assumed strategy is asked position by position).
    """
    k = worlds.cards
    if model is not None:
        table_weights(model, held, worlds.trump_card, earlier, likelihoods(k, sharpness), weights)
        return
    by_position = np.ascontiguousarray(earlier.T)
    for position in range(worlds.position):
        bids, forbidden = assumed_bids(assumed, replace(worlds, position=position), held, by_position)
        weights *= bid_likelihood(by_position[position], bids, k, forbidden, sharpness)


def answered_bids(
    assumed: Strategy,
    model: TableModel | None,
    worlds: BidContext,
    dealt: np.ndarray,
    held: np.ndarray,
    earlier: np.ndarray,
    own: np.ndarray,
) -> np.ndarray:
    """int64[world, candidate, seat]: the bids when the bidder bids own[world, candidate], ``assumed`` answering.

    dealt: int64[world], the deal numbers (their dealers); held, earlier, model: as ``read_bids``.
    """
    players, position = len(held), worlds.position
    bids = np.empty((len(dealt), own.shape[1], players), np.int64)
    if model is not None:
        table_answers(model, held, worlds.trump_card, dealt, earlier, own, bids)
        return bids
    by_position = np.zeros((players, len(dealt)), np.int64)
    by_position[:position] = earlier.T
    seat_bids = np.empty((len(dealt), players), np.int64)
    for c in range(own.shape[1]):
        by_position[position] = own[:, c]
        for later in range(position + 1, players):
            by_position[later] = assumed_bids(assumed, replace(worlds, position=later), held, by_position)[0]
        positions_to_seats(by_position, dealt, seat_bids)
        bids[:, c] = seat_bids
    return bids


def assumed_bids(
    assumed: Strategy, worlds: BidContext, held: np.ndarray, by_position: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The assumed strategy's bids at ``worlds.position`` in every sampled world, and the bid the hook forbids there.

    held: uint64[position, world], the sampled hands; by_position: int64[position, world], the bids before.
    """
    earlier = np.ascontiguousarray(by_position[: worlds.position].T)
    forbidden = forbidden_bids(worlds.rules, worlds.cards, earlier)
    at = replace(worlds, hands=held[worlds.position], earlier_bids=earlier, forbidden=forbidden)
    return checked_bids(assumed_label(assumed), assumed, at), forbidden


def assumed_label(assumed: Strategy) -> str:
    """How an error names the assumed strategy."""
    return f"{getattr(assumed, 'name', 'assumed')} (assumed)"


def bid_likelihood(
    bids: np.ndarray, model: np.ndarray, cards: int, forbidden: np.ndarray, sharpness: float
) -> np.ndarray:
    """float64[world]: the chance a bidder who bids like ``model`` (its bid in each world) bid ``bids``.

    A probabilistic form of a strategy: the legal bid b has weight exp(-sharpness * |b - model|), so
    a bid one away from the model's is less likely, not impossible (a strategy is never exactly the
    player it stands for). forbidden: the bid the hook rule takes away in each world, -1 for none.
    """
    candidates = np.arange(cards + 1)
    weight = np.exp(-sharpness * np.abs(candidates[None, :] - model[:, None]))
    weight[candidates[None, :] == forbidden[:, None]] = 0.0
    return np.asarray(weight[np.arange(len(bids)), bids] / weight.sum(axis=1))


@lru_cache(maxsize=64)
def likelihoods(cards: int, sharpness: float) -> np.ndarray:
    """float64[model's bid, forbidden + 1, bid]: ``bid_likelihood`` of every case at a hand size (``table_weights``)."""
    model, forbidden, bids = (axis.ravel() for axis in np.indices((cards + 1, cards + 2, cards + 1)))
    return bid_likelihood(bids, model, cards, forbidden - 1, sharpness).reshape(cards + 1, cards + 2, cards + 1)


def expected_points(counts: np.ndarray, rules: Rules, cards: int) -> np.ndarray:
    """float64[deal, bid]: the mean points of each bid over the play-outs; -inf for a bid not played out."""
    totals = counts.sum(axis=2)
    points = (counts * rules.scoring.points_grid(cards)).sum(axis=2)
    return np.asarray(np.divide(points, totals, out=np.full(totals.shape, -np.inf), where=totals > 0))
