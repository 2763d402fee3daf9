"""The additive accumulators of a run: integer sums that chunks merge exactly, in any order, on any machine.

The unit of independence is the *board*: one deal with all its plays (one play in plain seating,
one per rotation of the seating in duplicate). Per board and per (strategy, bidding position) a
``Tally`` adds the strategy's points T and hands H and their squares and products, so the
estimates in ``pocha.reports.stats`` never count hands that share a board as independent. A
``GameTally`` does the same per whole game. The kernels do the per-deal work.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pocha.kernels.play import Outcome
from pocha.kernels.tally import tally_boards

MOMENTS = ("T", "T2", "H", "H2", "TH", "E", "E2", "EH")  # first axis of ``Tally.moments``: points T, hands H,
# exact bids E per board, with the squares and products the ratio estimator needs
HAND_FIELDS = ("exact", "bid", "won", "abs_error")  # last axis of ``Tally.hand_fields`` (``tally_boards``)


@dataclass
class Tally:
    """Accumulators of a run, by strategy, bidding position and hand size.

    moments: int64[MOMENTS, strategy, position + 1, size]: sums over boards of T, T^2, H, H^2, T*H,
    E, E^2 and E*H (position index ``players`` = all positions). cross: int64[size, strategy, strategy]: sums over
    boards of T_a * T_b (all positions), for paired differences. hand_fields: int64[strategy,
    position, size, HAND_FIELDS]; errors: int64[strategy, size, won - bid + max size].
    """

    strategies: tuple[str, ...]  # labels, in line-up order
    players: int
    sizes: tuple[int, ...]  # hand sizes of the run, in order
    boards: np.ndarray = field(repr=False)  # int64[size]
    moments: np.ndarray = field(repr=False)
    cross: np.ndarray = field(repr=False)
    hand_fields: np.ndarray = field(repr=False)
    errors: np.ndarray = field(repr=False)

    @classmethod
    def empty(cls, strategies: tuple[str, ...], players: int, sizes: tuple[int, ...]) -> "Tally":
        """Zeroed accumulators."""
        g, s, k = len(strategies), len(sizes), max(sizes)
        return cls(
            tuple(strategies),
            players,
            tuple(sizes),
            boards=np.zeros(s, np.int64),
            moments=np.zeros((len(MOMENTS), g, players + 1, s), np.int64),
            cross=np.zeros((s, g, g), np.int64),
            hand_fields=np.zeros((g, players, s, len(HAND_FIELDS)), np.int64),
            errors=np.zeros((g, s, 2 * k + 1), np.int64),
        )

    def add_boards(self, size_index: int, numbers: np.ndarray, plays: Sequence[tuple[np.ndarray, ...]]) -> None:
        """Count a batch of boards: the deals ``numbers``, each played once or more (see ``tally_boards``).

        plays: per play (one, or one per rotation of the seating in duplicate), its seating, bids,
        tricks won and points, int64[deal, seat] each.
        """
        stacked = (values[0][None] if len(plays) == 1 else np.stack(values) for values in zip(*plays, strict=True))
        seating, bids, won, points = stacked
        accumulators = (self.moments, self.cross, self.hand_fields, self.errors)
        tally_boards(numbers, size_index, seating, bids, Outcome(won, points), *accumulators)
        self.boards[size_index] += len(numbers)

    def merge(self, other: "Tally") -> "Tally":
        """The tally of both runs' boards (same strategies, players and sizes)."""
        if (self.strategies, self.players, self.sizes) != (other.strategies, other.players, other.sizes):
            raise ValueError("only tallies of the same strategies, players and hand sizes merge")
        return Tally(
            self.strategies,
            self.players,
            self.sizes,
            self.boards + other.boards,
            self.moments + other.moments,
            self.cross + other.cross,
            self.hand_fields + other.hand_fields,
            self.errors + other.errors,
        )


GAME_SUMS = ("W", "W2", "T", "T2", "S")  # first axis of ``GameTally.sums``: wins, final scores, shared first places


@dataclass
class GameTally:
    """Per strategy: games, seats held, sums over games of wins, scores and shared first places; tie-breaks.

    ``sums`` adds, per game, the strategy's seats' outright wins W, final scores T (with their
    squares) and shared first places S; ``scores`` counts final scores.
    """

    strategies: tuple[str, ...]
    seats: np.ndarray  # int64[strategy]: seats held in every game
    games: int
    sums: np.ndarray = field(repr=False)  # int64[GAME_SUMS, strategy]
    scores: list[Counter] = field(repr=False)  # per strategy: final score -> seats
    tie_break_games: int = 0  # games that needed extra one-card hands
    tie_break_hands: int = 0  # extra one-card hands played in all
    shared_games: int = 0  # games whose first place is shared (a tie the tie-break left, or the limit reached)
    unresolved: int = 0  # of those, games still tied after MAX_TIE_HANDS extra hands

    @classmethod
    def empty(cls, strategies: tuple[str, ...], seats: np.ndarray) -> "GameTally":
        """No game yet."""
        sums = np.zeros((len(GAME_SUMS), len(strategies)), np.int64)
        return cls(strategies, seats, 0, sums, [Counter() for _ in strategies])

    def add(
        self, seating: np.ndarray, scores: np.ndarray, first: np.ndarray, extra_hands: np.ndarray, unresolved: int
    ) -> None:
        """Count finished games.

        seating, scores int64[game, seat]; first bool[game, seat]: the seats in first place (one is
        an outright win, several share it); extra_hands int64[game]; unresolved: games the tie-break
        limit left tied.
        """
        shared = first.sum(axis=1, keepdims=True) > 1
        wins, ties = (first & ~shared).astype(np.int64), (first & shared).astype(np.int64)
        for g in range(len(self.strategies)):
            mine = seating == g
            w, t, s = ((values * mine).sum(axis=1) for values in (wins, scores, ties))
            self.sums[:, g] += [w.sum(), (w * w).sum(), t.sum(), (t * t).sum(), s.sum()]
            values, counts = np.unique(scores[mine], return_counts=True)
            self.scores[g].update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
        self.games += len(scores)
        self.tie_break_games += int((extra_hands > 0).sum())
        self.tie_break_hands += int(extra_hands.sum())
        self.shared_games += int(shared.sum())
        self.unresolved += unresolved

    def merge(self, other: "GameTally") -> "GameTally":
        """Both tallies' games together."""
        return GameTally(
            strategies=self.strategies,
            seats=self.seats,
            games=self.games + other.games,
            sums=self.sums + other.sums,
            scores=[a + b for a, b in zip(self.scores, other.scores, strict=True)],
            tie_break_games=self.tie_break_games + other.tie_break_games,
            tie_break_hands=self.tie_break_hands + other.tie_break_hands,
            shared_games=self.shared_games + other.shared_games,
            unresolved=self.unresolved + other.unresolved,
        )
