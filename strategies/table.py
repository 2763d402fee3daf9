"""The ``table`` strategy: bid from a learned table of trick distributions, no play-outs at bid time.

``pocha train`` plays many deals (every seat bidding with ``expected``, the run's play policy) and
counts, for each hand's features, how many tricks it took. The features (all capped small):

  cards          hand size k
  position       bidding position, 0 = first bidder
  high_trumps    trumps among the deck's three strongest ranks (0..3)
  low_trumps     other trumps (0..4, 4 = four or more)
  side_aces      cards of the strongest rank in the other suits (0..3)
  side_seconds   cards of the second-strongest rank in the other suits (0..2, 2 = two or more)
  voids          other suits the hand has no card of (0..2, 2 = two or more)
  bids_so_far    earlier bids against an even share, sum - position * k / players:
                 0 below by more than 1/2, 1 within, 2 above (always 1 for the first bidder)

The strategy reads the distribution of tricks for the hand's cell and bids the legal value with
the most expected points under the scoring. A cell seen fewer than MIN_HANDS times falls back to
coarser cells, dropping features in the order of BACKOFF (their counts summed); if even the
coarsest cell is too thin, the hand is bid as ``expected`` would.

Without a path the strategy bids from the default table of the run's rules and play
(``default_table``): a shipped one where it fits, else one learned on first use and kept in pocha's
cache folder. A table fits rules whose ``conditions`` equal its own.
"""

import hashlib
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.game.scoring import Scoring
from pocha.kernels.bidding import Bidder, TableModel, hand_features
from pocha.kernels.cache import pocha_cache_root
from pocha.strategies.base import BidContext, Prediction, best_legal, bid_outcome
from pocha.strategies.catalog import LEARN_DEALS
from pocha.strategies.heuristics import Expected, expected_tables, expected_tricks
from pocha.version import __version__

FEATURES = ("cards", "position", "high_trumps", "low_trumps", "side_aces", "side_seconds", "voids", "bids_so_far")
CAPS = {"high_trumps": 3, "low_trumps": 4, "side_aces": 3, "side_seconds": 2, "voids": 2, "bids_so_far": 2}
BACKOFF = ("bids_so_far", "voids", "side_seconds", "position", "side_aces", "low_trumps")
MIN_HANDS = 50
SHIPPED = files("pocha.strategies") / "tables"  # players-N.npz (greedy play) and players-N-pimc.npz, default rules
LEARNED_PLAYS = ("greedy", "random", "learned")  # cheap enough to learn a table under on first use; pimc is not
LEARN_SEED = 0  # a learned table depends on the rules and play, not on the seed of the run that needed it


def table_shape(rules: Rules) -> tuple[int, ...]:
    """Axes of the count array: the features, then tricks taken 0..full deal."""
    top = rules.full_deal
    return (top, rules.players, *(CAPS[name] + 1 for name in FEATURES[2:]), top + 1)


def conditions(rules: Rules, play: str) -> dict[str, Any]:
    """What a table's counts depend on besides chance, under ``rules`` and a play policy spec.

    The features read the player count, the pack and the ranks (deck size and order). The tricks taken depend
    on the play rule, on whether the dealer is hooked in hands of two cards or more (one card plays
    itself, so "always" and "except-one-card" learn the same counts), on the play policy (by name:
    pimc's samples and learned's model are not told apart), on whether the largest hand has trump
    (``Rules.has_trump``) and, under pimc and learned, which play for points, on the scoring. The
    schedule and the tie-break play no part.
    """
    name = play.partition(":")[0]
    found: dict[str, Any] = {
        "players": rules.players,
        "pack": rules.pack,
        "ranks": " ".join(map(str, rules.ranks)),
        "play rule": rules.play_rule,
        "hook": "never" if rules.hook == "never" else "beyond one card",
        "play": name,
        "largest hand": "with trump" if rules.has_trump(rules.full_deal) else "without trump",
    }
    if name in ("pimc", "learned"):
        found["scoring"] = rules.scoring.spec
    return found


def feature_caps() -> np.ndarray:
    """int64[FEATURES]: each feature's cap (none for the hand size and the position)."""
    return np.array([CAPS.get(name, np.iinfo(np.int64).max) for name in FEATURES], np.int64)


def features(ctx: BidContext) -> np.ndarray:
    """int64[deal, FEATURES]: the table cell of each hand (see the module docstring)."""
    out = np.empty((ctx.size, len(FEATURES)), np.int64)
    caps = feature_caps()
    bidder = Bidder(ctx.cards, ctx.rules.players, ctx.position)
    hand_features(ctx.hands, ctx.trump_card, ctx.earlier_bids.sum(axis=1), bidder, len(ctx.rules.ranks) - 1, caps, out)
    return out


@dataclass(frozen=True, eq=False)
class TrickTable:
    """Counts of tricks taken by feature cell, with the conditions they were learned under."""

    rules: Rules
    policy: str  # card-play policy of the training deals
    counts: np.ndarray = field(repr=False)  # int64[table_shape(rules)]
    deals_per_size: int = 0
    levels: list[np.ndarray] = field(init=False, repr=False)  # counts, then sums over the BACKOFF features
    # (hand size, scoring) -> ``expected_points``
    by_cell: dict[tuple[int, Scoring], tuple[np.ndarray, np.ndarray]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        levels = [self.counts]
        for name in BACKOFF:
            levels.append(levels[-1].sum(axis=FEATURES.index(name), keepdims=True))
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "by_cell", {})

    def save(self, path: str | Path) -> None:
        """Write as compressed npz (counts as uint32 while they fit)."""
        counts = self.counts.astype(np.uint32) if self.counts.max() < 2**32 else self.counts
        meta = json.dumps({"rules": self.rules.to_dict(), "policy": self.policy, "deals_per_size": self.deals_per_size})
        with open(path, "wb") as stream:
            np.savez_compressed(stream, counts=counts, meta=np.array(meta))

    @classmethod
    def load(cls, path: str | Path) -> "TrickTable":
        """Read a table written by ``save``; a missing or foreign file is refused with a clear line."""
        try:
            with open(path, "rb") as stream, np.load(stream) as data:
                meta = json.loads(str(data["meta"]))
                counts = data["counts"].astype(np.int64)
            rules, policy, deals = Rules.from_dict(meta["rules"]), meta["policy"], meta["deals_per_size"]
        except OSError as error:
            raise PochaError(f"table: cannot read '{path}' ({error.strerror or error})") from None
        except (KeyError, ValueError, EOFError, TypeError, zipfile.BadZipFile):  # numpy's words would name no fix
            raise PochaError(
                f"table: cannot read '{path}' as a trick table (truncated, damaged or another kind of file)"
            ) from None
        if counts.shape != table_shape(rules):
            raise PochaError(f"table: '{path}' holds counts of shape {counts.shape}, not {table_shape(rules)}")
        return cls(rules, policy, counts, deals)

    def fits(self, rules: Rules, play: str | None = None) -> bool:
        """Whether the counts hold under ``rules`` and ``play`` (default: the play it was learned under)."""
        return conditions(rules, play or self.policy) == conditions(self.rules, self.policy)

    def check_fits(self, rules: Rules, source: str) -> None:
        """Refuse a table learned under other rules (it is taken to be played as it was learned: its policy)."""
        if not self.fits(rules):
            mine, theirs = conditions(self.rules, self.policy), conditions(rules, self.policy)
            differ = [name for name in mine if mine[name] != theirs[name]]
            raise PochaError(
                f"table: {source} was learned for {', '.join(f'{name} {mine[name]}' for name in differ)}; this run "
                f"has {', '.join(f'{name} {theirs[name]}' for name in differ)} (train one with pocha train)"
            )

    def distributions(self, cells: np.ndarray, cards: int) -> tuple[np.ndarray, np.ndarray]:
        """float64[deal, tricks 0..k] from the finest cell with MIN_HANDS hands, and bool[deal] "found"."""
        result = np.zeros((len(cells), cards + 1))
        found = np.zeros(len(cells), bool)
        for level in self.levels:
            index = tuple(np.where(np.array(level.shape[:-1]) == 1, 0, cells).T)
            rows = level[index][:, : cards + 1]
            usable = ~found & (rows.sum(axis=1) >= MIN_HANDS)
            result[usable] = rows[usable] / rows[usable].sum(axis=1, keepdims=True)
            found |= usable
        return result, found

    def expected_points(self, rules: Rules, cards: int) -> tuple[np.ndarray, np.ndarray]:
        """float64[cell, bid]: each cell's expected points of bids 0..k under the scoring, and bool[cell] "found".

        Every cell of hand size k, in ``cell_index`` order, from ``distributions``; worked out once
        per hand size and scoring, so bidding costs one lookup a hand.
        """
        key = (cards, rules.scoring)
        if key not in self.by_cell:
            shape = self.counts.shape[1:-1]
            cells = np.column_stack([np.full(np.prod(shape), cards - 1), np.indices(shape).reshape(len(shape), -1).T])
            chances, found = self.distributions(cells, cards)
            self.by_cell[key] = (chances @ rules.scoring.points_grid(cards).T, found)
        return self.by_cell[key]

    def model(self, rules: Rules, cards: int) -> TableModel:
        """The table at hand size ``cards`` as the kernels bid with it (``cell_bid``): the bids of ``bid``."""
        points, found = self.expected_points(rules, cards)
        shape = self.counts.shape[1:-1]
        strides = [0, *(int(np.prod(shape[i + 1 :])) for i in range(len(shape)))]
        survive, not_ruffed = expected_tables(rules, cards)
        return TableModel(
            players=rules.players,
            cards=cards,
            points=points,
            best=best_legal(points, np.full(len(points), -1)),
            found=found,
            strides=np.array(strides, np.int64),
            caps=feature_caps(),
            strongest=len(rules.ranks) - 1,
            hook=rules.hook_applies(cards),
            deck=rules.deck_mask,
            turned=cards * rules.players < rules.deck_size,
            survive=survive,
            not_ruffed=not_ruffed,
        )

    def cell_index(self, cells: np.ndarray) -> np.ndarray:
        """int64[deal]: where cells of one hand size are in ``expected_points``."""
        return np.asarray(np.ravel_multi_index(tuple(cells[:, 1:].T), self.counts.shape[1:-1]))


def is_table_file(path: Path) -> bool:
    """Whether a file is a trick table ``pocha train`` wrote, so a new one may replace it."""
    try:
        TrickTable.load(path)
    except PochaError:
        return False
    return True


@lru_cache(maxsize=16)
def load_table(path: str) -> TrickTable:
    """A table from a file (kept for the next call)."""
    return TrickTable.load(path)


@dataclass(frozen=True)
class DefaultTable:
    """The table ``table`` bids from when given no path, for one rule set and play: shipped, or learned on first use."""

    rules: Rules
    play: str  # the play policy it is learned under: the run's, or greedy for pimc where no pimc table fits
    deals: int  # deals per hand size, when learned
    path: Path
    shipped: bool


def learned_path(rules: Rules, play: str, deals: int, cache: Path) -> Path:
    """Where a table learned on first use is kept in pocha's ``cache`` folder: by version, named by what it fits."""
    key = json.dumps({**conditions(rules, play), "deals": deals, "seed": LEARN_SEED}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return cache / "tables" / __version__ / f"players-{rules.players}-{play}-{digest}.npz"


def default_table(rules: Rules, play: str, deals: int = LEARN_DEALS) -> DefaultTable:
    """The shipped table that fits the rules and the play, else one learned on first use under the play.

    pimc is too slow to learn a better table on first use than greedy's (README): where no pimc
    table ships for the rules, pimc play bids from the greedy table.
    """
    return find_default_table(rules, play.partition(":")[0], deals, pocha_cache_root())


@lru_cache(maxsize=64)
def find_default_table(rules: Rules, play: str, deals: int, cache: Path) -> DefaultTable:
    """``default_table`` of a play policy's name, kept for the next bid."""
    learned = play if play in LEARNED_PLAYS else "greedy"
    for candidate in dict.fromkeys((play, learned)):
        shipped = SHIPPED / f"players-{rules.players}{'' if candidate == 'greedy' else '-' + candidate}.npz"
        if shipped.is_file() and load_table(str(shipped)).fits(rules, candidate):
            return DefaultTable(rules, candidate, deals, Path(str(shipped)), shipped=True)
    return DefaultTable(rules, learned, deals, learned_path(rules, learned, deals, cache), shipped=False)


@dataclass(frozen=True)
class TableStrategy:
    """Bids the legal value with the most expected points under a learned trick distribution.

    ``path``: a table written by ``pocha train``; empty for the default table of the rules and play
    (``default_table``: shipped for 3, 4 and 5 players under the default rules, else learned on first
    use from ``deals`` deals per hand size). See the module docstring for the features and fall-backs.
    """

    name: ClassVar[str] = "table"
    path: str = ""  # a .npz table from pocha train; empty: the default one of the rules and play
    deals: int = LEARN_DEALS  # deals per hand size when the default table is learned on first use

    def trick_table(self, ctx: BidContext) -> TrickTable:
        """The table this strategy reads for ``ctx``'s rules and play, checked to fit them."""
        source = Path(self.path) if self.path else default_table(ctx.rules, ctx.policy, self.deals).path
        if not self.path and not source.is_file():
            raise PochaError(
                f"table: no table learned yet for these rules and {ctx.policy} play (pocha runs learn it on first use)"
            )
        table = load_table(str(source))
        table.check_fits(ctx.rules, f"'{source}'")
        return table

    def model(self, ctx: BidContext) -> TableModel:
        """The table at ``ctx``'s hand size as the kernels bid with it: the bids of ``bid``, per hand in numba."""
        return self.trick_table(ctx).model(ctx.rules, ctx.cards)

    def bid(self, ctx: BidContext) -> np.ndarray:
        table = self.trick_table(ctx)
        points, found = table.expected_points(ctx.rules, ctx.cards)
        cell = table.cell_index(features(ctx))
        bids = best_legal(points[cell], ctx.forbidden)
        thin = ~found[cell]
        if thin.any():
            bids[thin] = Expected().bid(ctx.subset(thin))
        return bids

    def predict(self, ctx: BidContext, bids: np.ndarray) -> Prediction:
        """The cell's mean tricks and the bid's expected points; a thin cell predicts as ``expected`` (tricks only)."""
        chances, found = self.trick_table(ctx).distributions(features(ctx), ctx.cards)
        tricks, points = bid_outcome(chances, bids, ctx)
        thin = ~found
        if thin.any():
            tricks[thin] = expected_tricks(ctx.subset(thin))
            points[thin] = np.nan
        return Prediction(tricks, points)


def table_strategies(strategy: object) -> Iterator[TableStrategy]:
    """The ``table`` strategies a strategy bids with: itself, or one inside it (``montecarlo:assume=table``)."""
    if isinstance(strategy, TableStrategy):
        yield strategy
    elif is_dataclass(strategy) and not isinstance(strategy, type):
        for item in fields(strategy):
            yield from table_strategies(getattr(strategy, item.name))


def describe(table: TrickTable) -> dict[str, Any]:
    """What a table was learned from, for ``pocha train``'s report."""
    return {
        "players": table.rules.players,
        "hands": int(table.counts.sum()),
        "cells_used": int((table.counts.sum(axis=-1) > 0).sum()),
        "cells_with_min_hands": int((table.counts.sum(axis=-1) >= MIN_HANDS).sum()),
        "deals_per_size": table.deals_per_size,
        "policy": table.policy,
    }
