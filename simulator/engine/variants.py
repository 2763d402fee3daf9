"""Rule sets side by side: the same games under every variant, played by three tables, measured game by game.

Every variant plays games ``0 .. games - 1`` from the run's seed, so wherever two variants deal
alike (the same players and deck at a hand of the same size) their hands hold the same cards.
Three tables play each variant's games:

- the line-up: the seats' and the game's figures (points by position, exact bids, the hook, ties);
- the weak table: the weak player at every seat;
- the skill table: the strong player at one seat (moved one seat every game, so it holds every
  seat alike), the weak player at the others. Its choices draw from another seed than the weak
  table's: even two copies of the same player replay the cards with their own dice.

The strong seat's points against the weak table's at the same seat, on the same cards, give the
skill (their difference) and the luck (how much the two have in common). Each game gives integer
measures, summed by group of games (game number mod ``GAME_GROUPS``): the groups are the same games
in every variant, which pairs the variants, and ``pocha.reports.variants`` turns the sums into
estimates with jackknife intervals.
"""

from dataclasses import dataclass, replace
from typing import Any, Self

import numpy as np

from pocha.engine.backends import Backend, Threads
from pocha.engine.chunk import check_run
from pocha.engine.dealing import Conditioned
from pocha.engine.games import Games, PlayedGames
from pocha.engine.runner import Outputs, RunTotal, run
from pocha.engine.seating import Entrant, Lineup
from pocha.engine.workload import MOST_GAMES, Amount, Part, Plan, seated
from pocha.errors import PochaError
from pocha.game.rules import Rules

GAME_GROUPS = 40  # games fall into groups by number; the intervals are the groups' jackknife
STUDY_GROUPS = f"the intervals need {GAME_GROUPS} groups of games"  # why a study plays at least GAME_GROUPS
WIN_UNITS = 2520  # a first place shared by k seats is 1/k of a win: 2520 / k is whole for k up to 10
CORRELATION_MOMENTS = 5  # x, y, x * x, y * y, x * y: what a correlation of x and y needs


@dataclass(frozen=True)
class Variant:
    """One rule set of a study: its name as the user wrote it (``ludoteka:hook=never``) and its rules.

    conditioned: the study's deal conditions as read against these rules, and the sizes they apply to
    (None: any deal).
    """

    name: str
    preset: str | None
    rules: Rules
    conditioned: Conditioned | None = None


@dataclass
class VariantTally:
    """Per group of games: how many, and per variant the sums of every measure (``measure``'s names and shapes)."""

    games: np.ndarray  # int64[GAME_GROUPS]
    sums: list[dict[str, np.ndarray]]  # per variant: name -> int64[GAME_GROUPS, ...]

    def merge(self, other: "VariantTally") -> "VariantTally":
        """Both tallies' games together."""
        sums = [
            {name: mine[name] + theirs[name] for name in mine}
            for mine, theirs in zip(self.sums, other.sums, strict=True)
        ]
        return VariantTally(self.games + other.games, sums)


def skill_seed(seed: int) -> int:
    """The seed the skill table's choices draw from: its own, fixed by the run's seed."""
    return int(np.random.SeedSequence(seed, spawn_key=(1,)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def positions(dealers: np.ndarray, players: int) -> np.ndarray:
    """int64[game, position]: the seat at each bidding position (0 the dealer's left) of deals with these dealers."""
    return (dealers[:, None] + 1 + np.arange(players)[None, :]) % players


def table_measures(rules: Rules, played: PlayedGames, first: np.ndarray) -> dict[str, np.ndarray]:
    """The line-up's measures of each game: points by position (all hands, and by hand size) and the game's shape."""
    games, players = played.scores.shape
    sizes = sorted(set(rules.hand_sizes()))
    rows = np.arange(games)[:, None]
    by_position = np.zeros((games, players), np.int64)
    by_size = np.zeros((games, len(sizes), players), np.int64)
    exact = np.zeros(games, np.int64)
    hook = np.zeros(games, np.int64)
    schedule_scores = np.zeros((games, players), np.int64)
    for j, (chunk, won, points) in enumerate(played.hands):
        dealer = (first + j) % players
        seated = points[rows, positions(dealer, players)]
        by_position += seated
        by_size[:, sizes.index(chunk.cards)] += seated
        exact += (chunk.bids == won).sum(axis=1)
        if rules.hook_applies(chunk.cards):
            earlier = chunk.bids.sum(axis=1) - chunk.bids[np.arange(games), dealer]
            hook += earlier <= chunk.cards  # a bid is forbidden to the dealer
        schedule_scores += points
    ranked = np.sort(schedule_scores, axis=1)
    return {
        "position_points": by_position,
        "size_points": by_size,
        "exact": exact,
        "points": schedule_scores.sum(axis=1),
        "hook": hook,
        "hands": len(played.hands) + played.extra,
        "tied": (played.extra > 0).astype(np.int64),
        "shared": (played.first.sum(axis=1) > 1).astype(np.int64),
        "margin": ranked[:, -1] - ranked[:, -2],
    }


def win_units(played: PlayedGames, seats: np.ndarray) -> np.ndarray:
    """int64[game]: WIN_UNITS for an outright win of the seat, a share of it for a shared first place, else 0."""
    rows = np.arange(len(seats))
    return np.where(played.first[rows, seats], WIN_UNITS // played.first.sum(axis=1), 0)


def moments(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """int64[..., CORRELATION_MOMENTS]: x, y, x*x, y*y, x*y."""
    return np.stack([x, y, x * x, y * y, x * y], axis=-1)


def skill_measures(rules: Rules, strong: PlayedGames, weak: PlayedGames, seats: np.ndarray) -> dict[str, np.ndarray]:
    """The strong seat against the weak table's same seat, game by game: points, wins and their moments.

    seats int64[game]: where the strong player sits. ``hand_moments`` [game, hand size, CORRELATION_MOMENTS]
    sums a hand's points of both (x strong, y weak); ``game_moments`` their final scores.
    """
    games = len(seats)
    sizes = sorted(set(rules.hand_sizes()))
    rows = np.arange(games)
    skill = np.zeros(games, np.int64)
    hand_moments = np.zeros((games, len(sizes), CORRELATION_MOMENTS), np.int64)
    for (chunk, _, x_points), (_, _, y_points) in zip(strong.hands, weak.hands, strict=True):
        x, y = x_points[rows, seats], y_points[rows, seats]
        skill += x - y
        hand_moments[:, sizes.index(chunk.cards)] += moments(x, y)
    return {
        "skill": skill,
        "strong_win": win_units(strong, seats),
        "weak_win": win_units(weak, seats),
        "hand_moments": hand_moments,
        "game_moments": moments(strong.scores[rows, seats], weak.scores[rows, seats]),
    }


@dataclass(frozen=True, kw_only=True)
class Study(Plan):
    """A study (``pocha variants``): ``games`` games of every variant by the line-up, the weak and the skill tables.

    Task ``i`` plays games ``i * chunk_size ..`` of every variant at the three tables.
    """

    variants: tuple[Variant, ...]
    lineup: Lineup
    strong: Entrant
    weak: Entrant
    games: int

    def __post_init__(self) -> None:
        self.amount.check(least=False)
        players = {variant.rules.players for variant in self.variants}
        if len(players) > 1:
            raise PochaError(f"variants: all must seat the same players, not {', '.join(map(str, sorted(players)))}")

    @property
    def amount(self) -> Amount:
        """Games of each variant, at least GAME_GROUPS (one a group of the intervals)."""
        return Amount("--games", self.games, MOST_GAMES, len(self.variants), GAME_GROUPS, STUDY_GROUPS)

    @property
    def bidders(self) -> Lineup:
        """The line-up, and the strong and weak players of the skill tables."""
        return Lineup((*self.lineup.seats, self.strong, self.weak))

    @property
    def rule_sets(self) -> tuple[Rules, ...]:
        """Each variant's rules."""
        return tuple(variant.rules for variant in self.variants)

    @property
    def preset(self) -> str | None:
        """The first variant's preset: the header's rules are the variant the others are compared with."""
        return self.variants[0].preset

    @property
    def task_count(self) -> int:
        """How many chunks of games the study has."""
        return -(-self.games // self.chunk)

    def count(self, index: int) -> int:
        """Games chunk ``index`` plays, every variant's counted."""
        return min(self.chunk, self.games - index * self.chunk) * len(self.variants)

    @property
    def cut_by(self) -> tuple[int, int]:
        """Games: each task plays its games under every variant."""
        return self.games, 1

    @property
    def deals_each(self) -> int:
        """A game of the study deals every variant's schedule at its three tables (two when the line-up is weak)."""
        return 3 * sum(len(variant.rules.hand_sizes()) for variant in self.variants)

    def check(self, backend: Backend, traced: bool, predicted: bool) -> None:
        """Refuse a study whose rules cannot deal its line-up's games."""
        super().check(backend, traced, predicted)
        for variant in self.variants:
            check_run(variant.rules, self.lineup, variant.rules.hand_sizes(), self.chunk)

    def sample(self, amount: int) -> Self:
        """The study's first ``amount`` games of every variant, one chunk."""
        games = min(amount, self.games)
        return replace(self, games=games, chunk_size=games)

    def tables(self, variant: Variant) -> tuple[Games, Games, Games]:
        """The line-up, the weak table and the skill table of one variant, as whole-game workloads."""
        rules = variant.rules
        players = rules.players
        weak = Lineup((self.weak,) * players)
        skill = Lineup((self.strong, *(self.weak,) * (players - 1)))
        lineup, weak_table, skill_table = (
            Games(
                rules=rules,
                lineup=lineup,
                games=self.games,
                seed=self.seed,
                policy=self.policy,
                rotate=True,
                chunk_size=self.chunk,
                conditioned=variant.conditioned,
            )
            for lineup in (self.lineup, weak, skill)
        )
        return lineup, weak_table, skill_table

    def empty(self) -> VariantTally:
        """No game played yet: every measure zero."""
        sums = []
        for variant in self.variants:
            players, sizes = variant.rules.players, len(set(variant.rules.hand_sizes()))
            shapes = {
                "position_points": (players,),
                "size_points": (sizes, players),
                "hand_moments": (sizes, CORRELATION_MOMENTS),
                "game_moments": (CORRELATION_MOMENTS,),
            }
            names = ("exact", "points", "hook", "hands", "tied", "shared", "margin", "skill", "strong_win", "weak_win")
            shapes |= dict.fromkeys(names, ())
            sums.append({name: np.zeros((GAME_GROUPS, *shape), np.int64) for name, shape in shapes.items()})
        return VariantTally(np.zeros(GAME_GROUPS, np.int64), sums)

    def merge(self, total: VariantTally, part: VariantTally) -> VariantTally:
        """Both tallies' games together."""
        return total.merge(part)

    def to_dict(self) -> dict[str, Any]:
        """The study as run.json holds it: the first variant's rules, the line-up, the variants and the two players."""
        return {
            "rules": self.variants[0].rules.to_dict(),
            **seated(self.lineup, self.policy),
            **super().to_dict(),
            "games": self.games,
            "variants": [variant.name for variant in self.variants],
            "variant_rules": [variant.rules.to_dict() for variant in self.variants],
            "strong": self.strong.label,
            "weak": self.weak.label,
            **self.conditions_entry(),
        }

    def conditions_entry(self) -> dict[str, Any]:
        """Each variant's deal conditions as run.json holds them, as read against its rules; none without."""
        if self.variants[0].conditioned is None:
            return {}
        return {"conditions": [variant.conditioned.to_dict() for variant in self.variants if variant.conditioned]}

    def run(self, index: int) -> Part[VariantTally]:
        """Play chunk ``index`` of games under every variant at the three tables, and sum their measures by group."""
        start = index * self.chunk
        numbers = np.arange(start, start + min(self.chunk, self.games - start), dtype=np.int64)
        groups = numbers % GAME_GROUPS
        total = self.empty()
        np.add.at(total.games, groups, 1)
        for variant, sums in zip(self.variants, total.sums, strict=True):
            lineup_games, weak_games, skill_games = self.tables(variant)
            weak = weak_games.seat(numbers, self.seed)
            played_weak = weak.play_through([])
            same = lineup_games.to_dict() == weak_games.to_dict()
            played_lineup = played_weak if same else lineup_games.seat(numbers, self.seed).play_through([])
            played_skill = skill_games.seat(numbers, skill_seed(self.seed)).play_through([])
            strong_seats = (weak.first + numbers) % variant.rules.players  # the line-up's first place, rotated
            measures = table_measures(variant.rules, played_lineup, weak.first)
            measures |= skill_measures(variant.rules, played_skill, played_weak, strong_seats)
            for name, values in measures.items():
                np.add.at(sums[name], groups, values)
        return Part(total)


def play_variants(study: Study, outputs: Outputs = Outputs(), backend: Backend = Threads(1)) -> RunTotal[VariantTally]:
    """Play the study (see the module docstring); Ctrl-C stops after the chunks finished so far."""
    return run(study, backend, outputs)
