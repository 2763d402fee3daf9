"""Whole games: the schedule's hands one after another, points carried over, ties parted by the tie-break rule.

Every game draws its first dealer by lot (from the seed and the game's number); the deal then
passes one seat every hand. With rotation, game ``g`` seats the line-up moved ``g`` seats on from
that first dealer, so over any ``players`` consecutive games each strategy holds each seat relative
to the first dealer once; without it, the line-up keeps its seats and only the lot moves the deal.

Vectorised like the core: each hand of the schedule is one batch over a chunk of games. Hand ``j``
of game ``g`` (tie-break hands after the schedule's) is deal number ``(g * stride + j) * players +
dealer``: unique over games and hands, and ``number % players`` is its dealer, as the kernels read
it. A game depends only on the seed and ``g``, so chunks of games can be played on any backend.
Here ``games`` is always a count and ``numbers`` are game numbers; deal numbers are named so.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Self

import numpy as np

from pocha.engine import trace as traces
from pocha.engine.backends import Backend, Threads
from pocha.engine.chunk import Chunk, SeatPolicies, check_run, collect_bids, deal_chunk, play_chunk, seat_policies
from pocha.engine.dealing import Conditioned, conditions_at, conditions_entry
from pocha.engine.runner import Outputs, RunTotal, run
from pocha.engine.seating import Lineup
from pocha.engine.tally import GameTally, Tally
from pocha.engine.workload import MOST_GAMES, Amount, Part, Plan, seated
from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.kernels.codes import STREAM_LOT
from pocha.kernels.streams import uniform_batch

MAX_TIE_HANDS = 1000  # extra one-card hands before a still-tied game is given up (its first place shared)


@dataclass
class GameTotals:
    """Games played: per-hand statistics by hand size and game statistics."""

    hand_tally: Tally
    game_tally: GameTally


@dataclass(frozen=True, kw_only=True)
class Games(Plan):
    """A run of ``games`` whole games by a line-up (``pocha game``); task ``i`` plays from game ``i * chunk_size``.

    rotate: seat the line-up on from each game's first dealer (see the module docstring).
    trace_games: with a trace in the outputs, the games whose every deal it gets, from the first
    (all when None), game by game in play order (ordered backends only). conditioned: the deal
    conditions the schedule's hands of the sizes they apply to meet (the others, and tie-break
    hands, are dealt freely; None: any deal).
    """

    rules: Rules
    lineup: Lineup
    games: int
    preset: str | None = None  # the preset the rules came from (None: rules given whole)
    rotate: bool = True
    trace_games: int | None = None
    conditioned: Conditioned | None = None

    def __post_init__(self) -> None:
        self.amount.check(least=False)

    @property
    def amount(self) -> Amount:
        """Games."""
        return Amount("--games", self.games, MOST_GAMES)

    @property
    def bidders(self) -> Lineup:
        """The line-up."""
        return self.lineup

    @property
    def rule_sets(self) -> tuple[Rules, ...]:
        """The run's rules."""
        return (self.rules,)

    @property
    def sizes(self) -> tuple[int, ...]:
        """The distinct hand sizes of the schedule (the hand tally's sizes)."""
        return tuple(sorted(set(self.rules.hand_sizes())))

    @property
    def task_count(self) -> int:
        """How many chunks of games the run has."""
        return -(-self.games // self.chunk)

    def count(self, index: int) -> int:
        """Games chunk ``index`` plays."""
        return min(self.chunk, self.games - index * self.chunk)

    @property
    def deals_each(self) -> int:
        """A game deals the schedule's hands (tie-break hands are few)."""
        return len(self.rules.hand_sizes())

    def check(self, backend: Backend, traced: bool, predicted: bool) -> None:
        """Refuse a run the rules cannot deal, or a trace but on the local backend."""
        check_run(self.rules, self.lineup, self.rules.hand_sizes(), self.chunk)
        if traced and not backend.ordered:
            raise PochaError("trace: games are traced on the local backend only")

    def ready(self, backend: Backend, saved: int | None, traced: bool, predicted: bool) -> Self:
        """Cut and checked, every deal of its first ``trace_games`` games traced (all when None)."""
        plan = super().ready(backend, saved, traced, predicted)
        shown = (plan.games if plan.trace_games is None else plan.trace_games) if traced else 0
        return replace(plan, trace_games=shown)

    def trace_header(self) -> dict[str, Any]:
        """The rules, line-up, seed, play and deal conditions."""
        return traces.header(self.rules, self.lineup, self.seed, self.policy, self.conditioned)

    def sample(self, amount: int) -> Self:
        """The run's first ``amount`` games, one chunk."""
        games = min(amount, self.games)
        return replace(self, games=games, chunk_size=games)

    def empty(self) -> GameTotals:
        """No game played yet."""
        held = np.bincount(self.lineup.seating(), minlength=len(self.lineup.labels))
        hands = Tally.empty(self.lineup.labels, self.rules.players, self.sizes)
        return GameTotals(hands, GameTally.empty(self.lineup.labels, held))

    def merge(self, total: GameTotals, part: GameTotals) -> GameTotals:
        """Both totals' games together."""
        return GameTotals(total.hand_tally.merge(part.hand_tally), total.game_tally.merge(part.game_tally))

    def to_dict(self) -> dict[str, Any]:
        """The run as run.json holds it."""
        return {
            "rules": self.rules.to_dict(),
            **seated(self.lineup, self.policy),
            **super().to_dict(),
            "games": self.games,
            "rotate": self.rotate,
            "hand_sizes": self.rules.hand_sizes(),
            **conditions_entry(self.conditioned),
        }

    def run(self, index: int) -> Part[GameTotals]:
        """Play chunk ``index`` of games to the end: their hand tally, game tally and trace lines."""
        start = index * self.chunk
        count = self.count(index)
        traced = self.trace_games or 0
        lines: list[list[dict[str, Any]]] = [[] for _ in range(min(count, max(0, traced - start)))]
        played = self.seat(np.arange(start, start + count, dtype=np.int64), self.seed).play_through(lines)
        totals = self.empty()
        for cards, (dealt, won, points) in zip(self.rules.hand_sizes(), played.hands, strict=True):
            seats = [(played.seating, dealt.bids, won, points)]
            totals.hand_tally.add_boards(self.sizes.index(cards), dealt.numbers, seats)
        totals.game_tally.add(played.seating, played.scores, played.first, played.extra, played.unresolved)
        return Part(totals, [line for game in lines for line in game])

    def seat(self, numbers: np.ndarray, decisions: int) -> "GameHands":
        """The games ``numbers`` at the table (first dealers by lot, the line-up seated); choices from ``decisions``."""
        first = first_dealers(self.seed, numbers, self.rules.players)
        seating = game_seating(self.lineup.seating(), numbers, first, self.rotate)
        return GameHands(self, numbers, first, seating, decisions)


def first_dealers(seed: int, numbers: np.ndarray, players: int) -> np.ndarray:
    """int64[game]: each game's first dealer, drawn by lot from stream STREAM_LOT of the game's number."""
    draws = np.empty((len(numbers), 1))
    uniform_batch(seed, 0, numbers, STREAM_LOT, draws)
    return np.minimum((draws[:, 0] * players).astype(np.int64), players - 1)


def game_seating(lineup: np.ndarray, numbers: np.ndarray, first: np.ndarray, rotate: bool) -> np.ndarray:
    """int64[game, seat]: the strategy index at each seat of each game.

    lineup int64[seat]: the line-up's strategy indexes. With rotation the strategy at place ``i``
    of the line-up sits ``i + g`` seats after game ``g``'s first dealer; without, at seat ``i``.
    """
    players = len(lineup)
    if not rotate:
        return np.broadcast_to(lineup, (len(numbers), players)).copy()
    after_first_dealer = (np.arange(players)[None, :] - first[:, None]) % players
    return lineup[(after_first_dealer - numbers[:, None]) % players]


def first_place(scores: np.ndarray, running: np.ndarray) -> np.ndarray:
    """bool[game, seat]: the seats still in the running with the top score among them."""
    top = np.where(running, scores, np.iinfo(np.int64).min).max(axis=1, keepdims=True)
    return running & (scores == top)


def break_ties(
    scores: np.ndarray, tie_break: str, extra_hand: Callable[[np.ndarray, int], np.ndarray]
) -> tuple[np.ndarray, np.ndarray, int]:
    """Part tied leaders by the tie-break rule (``Rules.tie_break``); scores int64[game, seat] gain the extra hands.

    extra_hand(rows, t) plays tie-break hand ``t`` of the games ``rows`` (every player plays) and
    returns their points int64[row, seat]. ``all``: every score counts, until one seat leads;
    ``tied``: the seats tied after the schedule, until one of them leads the others; ``one``: a single hand, after which
    a tie stands. Returns (first bool[game, seat]: one seat, or several sharing first place;
    extra hands per game int64[game]; games still tied when MAX_TIE_HANDS ran out).
    """
    running = np.ones(scores.shape, bool)
    first = first_place(scores, running)
    if tie_break == "tied":  # the tied leaders contend to the end, behind or not; the others cannot win
        running = first.copy()
    tied = np.flatnonzero(first.sum(axis=1) > 1)
    extra = np.zeros(len(scores), np.int64)
    limit = 1 if tie_break == "one" else MAX_TIE_HANDS
    for t in range(limit):
        if not tied.size:
            break
        scores[tied] += extra_hand(tied, t)
        extra[tied] += 1
        first[tied] = first_place(scores[tied], running[tied])
        tied = tied[first[tied].sum(axis=1) > 1]
    return first, extra, len(tied) if tie_break != "one" else 0


@dataclass(frozen=True)
class PlayedGames:
    """A chunk of games played through: what each hand of the schedule dealt and scored, and each game's result."""

    seating: np.ndarray  # int64[game, seat]: the strategy index at each seat
    hands: list[tuple[Chunk, np.ndarray, np.ndarray]]  # per hand of the schedule: the deal with its bids, won, points
    scores: np.ndarray  # int64[game, seat]: final scores, tie-break hands included
    first: np.ndarray  # bool[game, seat]: the seats in first place (several share it)
    extra: np.ndarray  # int64[game]: tie-break hands played
    unresolved: int  # games still tied when MAX_TIE_HANDS ran out


@dataclass(frozen=True)
class GameHands:
    """A chunk of games at the table: their numbers, first dealers and seating; plays one hand at a time.

    decisions: the seed the seats' bids and choices draw from; the deals always come from the run's
    seed, so a table with other decisions replays the same cards with fresh choices.
    """

    games: Games
    numbers: np.ndarray  # int64[game]: game numbers
    first: np.ndarray  # int64[game]: first dealers
    seating: np.ndarray  # int64[game, seat]
    decisions: int

    def deal_numbers(self, hand_index: int, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """int64[game]: the deal numbers of hand ``hand_index`` (0 the first) of the games ``rows``."""
        players = self.games.rules.players
        stride = len(self.games.rules.hand_sizes()) + MAX_TIE_HANDS
        return (self.numbers[rows] * stride + hand_index) * players + (self.first[rows] + hand_index) % players

    @cached_property
    def policies(self) -> SeatPolicies:
        """The play policies of every game's seats (``seat_policies``): the same at every hand."""
        return seat_policies(self.games.lineup.competitors(self.games.policy), self.seating)

    def play(
        self,
        hand_index: int,
        cards: int,
        rows: np.ndarray | slice,
        lines: list[list[dict[str, Any]]],
        conditioned: Conditioned | None = None,
    ) -> tuple[Chunk, np.ndarray, np.ndarray]:
        """Deal, bid and play hand ``hand_index`` of the games ``rows``: ``(chunk, won, points)``.

        The traced games among them add their deal lines to ``lines`` (one list per game). The deal
        meets the conditions ``conditioned`` holds for its size, if any.
        """
        games, rules = self.games, self.games.rules
        numbers = self.numbers[rows]
        strategies = games.lineup.competitors(games.policy)
        conditions = conditions_at(conditioned, cards)
        chunk = deal_chunk(rules, games.seed, cards, self.deal_numbers(hand_index, rows), conditions)
        seating = self.seating[rows]
        collect_bids(rules, strategies, seating, self.decisions, chunk)
        traced = bool(numbers[0] < (games.trace_games or 0))  # the hand keeps its plays for the trace
        won, points, plays, leaders = play_chunk(rules, self.decisions, chunk, self.policies.rows(rows), traced)
        if traced:
            shown = int(np.searchsorted(numbers, games.trace_games or 0))
            dealt_lines = traces.deal_lines(rules, chunk.numbers, chunk, plays, leaders, won, points, shown)
            for row, line in zip(np.arange(len(self.numbers))[rows][:shown], dealt_lines, strict=True):
                seats = [games.lineup.labels[g] for g in self.seating[row]]
                lines[row].append({**line, "game": int(self.numbers[row]), "hand": hand_index, "strategies": seats})
        return chunk, won, points

    def play_through(self, lines: list[list[dict[str, Any]]]) -> PlayedGames:
        """Every hand of the schedule, points carried over, then the tie-break (traced games add their lines).

        The schedule's hands meet the game's deal conditions where they apply; tie-break hands are dealt freely.
        """
        schedule = self.games.rules.hand_sizes()
        scores = np.zeros(self.seating.shape, np.int64)
        hands = []
        for j, cards in enumerate(schedule):
            hands.append(self.play(j, cards, slice(None), lines, self.games.conditioned))
            scores += hands[-1][2]

        def extra_hand(rows: np.ndarray, t: int) -> np.ndarray:
            return self.play(len(schedule) + t, 1, rows, lines)[2]

        first, extra, unresolved = break_ties(scores, self.games.rules.tie_break, extra_hand)
        return PlayedGames(self.seating, hands, scores, first, extra, unresolved)


def play_games(games: Games, outputs: Outputs = Outputs(), backend: Backend = Threads(1)) -> RunTotal[GameTotals]:
    """Play the plan's games (see the module docstring); Ctrl-C stops after the chunks finished so far."""
    return run(games, backend, outputs)
