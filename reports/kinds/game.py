"""``pocha game``: whole games by the rules' schedule, each strategy's chance of winning, and how ties were parted."""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pocha.engine.backends import Backend
from pocha.engine.confidence import percent
from pocha.engine.games import Games, GameTotals, play_games
from pocha.engine.predictions import Rows
from pocha.engine.runner import Outputs, RunTotal
from pocha.engine.tally import GameTally, Tally
from pocha.game.rules import CLIMBING, FULL_DEALS, TIE_BREAKS
from pocha.reports.game_stats import game_summary
from pocha.reports.kinds.hands import HandsKind
from pocha.reports.kinds.kind import RecordedResult, Tables
from pocha.reports.markup import points, share, table, text
from pocha.reports.record import RunRecord, schedule_text
from pocha.reports.stats import error_distribution, summary
from pocha.reports.tables import game_table
from pocha.words import counted


@dataclass(frozen=True, kw_only=True)
class GameRun:
    """What a ``game`` run played: whole games, and how their ties were parted."""

    games: int  # whole games played
    rotate: bool  # seating moved one seat every game
    hand_sizes: tuple[int, ...]  # the hand sizes of one game, in order
    tie_break_games: int  # games that needed extra one-card hands
    tie_break_hands: int  # extra one-card hands played in all
    shared_games: int  # games whose first place is shared (a tie the tie-break left)
    unresolved_games: int  # of those, games still tied when the tie-break limit ran out
    conditions: dict[str, Any] | None = None  # the deal conditions of the hands they apply to; None: any deal

    @property
    def planned(self) -> int:
        """Games the run was asked to play."""
        return self.games


def games_table(games: Any, level: str) -> str:
    """Per strategy: wins, shared first places, final scores (report.html)."""
    return table(
        ["Strategy", f"Won ({level} CI)", "Shared first", "Final score", "Median", "Middle half", "Games"],
        [
            [
                r.strategy,
                share(r.win_rate, r.win_ci_low, r.win_ci_high),
                share(r.shared_rate),
                points(r.mean_score, r.score_ci_low, r.score_ci_high),
                f"{r.score_median:.0f}",
                f"{r.score_p25:.0f} to {r.score_p75:.0f}",
                f"{r.games:,}",
            ]
            for r in games.itertuples()
        ],
    )


@dataclass(frozen=True, eq=False)
class GamesResult(RecordedResult):
    """A ``game`` run: its record, the per-hand and whole-game accumulators, its tables and the files it wrote."""

    record: RunRecord
    hand_tally: Tally  # every hand of the games
    game_tally: GameTally  # the games' final results
    tables: dict[str, pd.DataFrame]  # by CSV file name: games, results (per hand) and errors
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    def to_frame(self) -> pd.DataFrame:
        """``games.csv``: one row per strategy: win rate and final score with intervals, score quantiles."""
        return self.tables["games"]


class GameKind(HandsKind[Games, GameTotals, GamesResult]):
    """Whole games: the games' table, then every hand of them as a run of deals shows them."""

    command = "game"
    section = GameRun
    unit = "game"
    needed = ("games", "results")
    figures = ("points_by_size", "exact_rate_by_size", "points_by_position", "won_minus_bid", "win_probability")

    def play(self, plan: Games, outputs: Outputs, backend: Backend) -> RunTotal[GameTotals]:
        """Whole games played (``engine.games``)."""
        return play_games(plan, outputs, backend)

    def results(self, plan: Games, total: GameTotals) -> dict[str, Any]:
        """How the games' ties were parted."""
        tally = total.game_tally
        return {
            "tie_break_games": tally.tie_break_games,
            "tie_break_hands": tally.tie_break_hands,
            "shared_games": tally.shared_games,
            "unresolved_games": tally.unresolved,
        }

    def result(self, run: RunRecord, total: GameTotals, tables: Tables, files: tuple[Path, ...]) -> GamesResult:
        """The record, the tallies of the hands and of the games, the tables and the files."""
        return GamesResult(run, total.hand_tally, total.game_tally, tables, files)

    def played(self, total: GameTotals) -> int:
        """The games played to the end."""
        return total.game_tally.games

    def tables(self, run: RunRecord, plan: Games, total: GameTotals, predictions: list[Rows] | None = None) -> Tables:
        """games, results (per hand) and errors."""
        policies = run.policy_of
        return {
            "games": game_summary(total.game_tally, policies, run.level),
            "results": summary(total.hand_tally, policies, run.level),
            "errors": error_distribution(total.hand_tally),
        }

    def dealt_sizes(self, run: RunRecord) -> tuple[int, ...]:
        """The schedule's hand sizes."""
        return tuple(run.section.hand_sizes)

    def amount(self, run: RunRecord) -> str:
        """Games, their schedule, and whether the seating moved."""
        section = run.section
        return f"{counted(section.games, 'game')} ({schedule_text(run.rules)} schedule, first dealer by lot)" + (
            ", seating rotated" if section.rotate else ""
        )

    def summary(self, run: RunRecord, tables: Tables) -> list[str]:
        """Win rates and scores."""
        return self.text(run, tables)[:2]

    def text(self, run: RunRecord, tables: Tables) -> list[str]:
        """Win rates and scores, and how ties were parted."""
        section = run.section
        games = int(tables["games"].games.iloc[0])
        tied, extra = section.tie_break_games, section.tie_break_hands
        shared, unresolved = section.shared_games, section.unresolved_games
        lines = [
            f"\nWhole games ({counted(len(section.hand_sizes), 'hand')} each; win: share of games won outright per "
            "seat held):",
            game_table(tables["games"], percent(run.level)),
            f"\nTie-breaks ({run.rules.tie_break}: {TIE_BREAKS[run.rules.tie_break]}): {counted(tied, 'game')} "
            f"({tied / max(games, 1):.1%}) needed extra one-card hands ({counted(extra, 'hand')} in all)",
        ]
        if shared:
            limit = f", {unresolved:,} of them when the limit of extra hands ran out" if unresolved else ""
            lines.append(f"{counted(shared, 'game')} ended with first place shared{limit} (column shared).")
        return lines

    def figure_amount(self, run: RunRecord) -> str:
        """Games."""
        return counted(run.section.games, "game")

    def described(self, run: RunRecord) -> str:
        """Whole games, their schedule, the seating."""
        section = run.section
        return (
            f"{counted(section.games, 'whole game')} ({schedule_text(run.rules)} schedule), "
            f"seating {'rotated' if section.rotate else 'kept'}"
        )

    def more_facts(self, run: RunRecord) -> dict[str, str]:
        """The full deals of a climbing schedule, and the tie-break."""
        rules = run.rules
        climbing = {"full deals": f"{rules.full_deals}: {FULL_DEALS[rules.full_deals]}"}
        return (climbing if rules.schedule in CLIMBING else {}) | {
            "tie-break": f"{rules.tie_break}: {TIE_BREAKS[rules.tie_break]}"
        }

    def answers(self, run: RunRecord, tables: Tables) -> list[str]:
        """Who won the most games, the games' table and the tie-breaks."""
        best = tables["games"].sort_values("win_rate", ascending=False).iloc[0]
        section = run.section
        tied, extra, shared = section.tie_break_games, section.tie_break_hands, section.shared_games
        tie_breaks = (
            f"Tie-breaks ({run.rules.tie_break}: {TIE_BREAKS[run.rules.tie_break]}): {counted(tied, 'game')} needed "
            f"extra one-card hands ({counted(extra, 'hand')} in all); {shared:,} ended with first place shared."
        )
        return [
            f"<p>{text(best.strategy)} won the most games: {share(best.win_rate)} of the games per seat "
            f"held, against a fair share of {100 / run.rules.players:.0f}%.</p>",
            games_table(tables["games"], percent(run.level)),
            f"<p>{text(tie_breaks)}</p>",
            "<h3>Every hand of the games</h3>",
        ]


GAME_KIND = GameKind()
