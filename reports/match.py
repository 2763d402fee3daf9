"""A match at OpenSpiel's ``oh_hell`` table: each side's points per hand, their paired difference, its speed.

Every deal is played once per seat: the player at that seat, the opponent at the others. So both
sides hold every seat of every deal, and the deal is the unit: per deal, the player's mean points
over its hands minus the opponent's mean over its hands. Intervals are normal 95% intervals over
deals (mean +- 1.96 standard errors); the ``all`` row combines the hand sizes as the other tables do.
"""

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pocha.engine.confidence import Z95
from pocha.game.rules import Rules
from pocha.reports.stats import stratified
from pocha.reports.tables import plain

DEAL_COLUMNS = (  # one row per deal, played once per seat
    "cards",
    "deal",
    "player_points",  # the player's mean over its hands (one per seat)
    "opponent_points",  # the opponent's mean over its hands (players - 1 per seat)
    "player_seconds",  # time the player took to decide, over the deal's plays
    "player_decisions",
    "opponent_seconds",
    "opponent_decisions",
)
ESTIMATES = ("player", "opponent", "diff")  # points per hand of each side, and the player's lead
SUMMARY_COLUMNS = (
    "cards",
    "deals",
    "player_points",
    "player_ci_low",
    "player_ci_high",
    "opponent_points",
    "opponent_ci_low",
    "opponent_ci_high",
    "mean_diff",
    "se_diff",
    "ci_low",
    "ci_high",
    "player_ms",
    "opponent_ms",
)


@dataclass(frozen=True, eq=False)
class Match:
    """A match played: what was played, by whom, and the points and times of every deal."""

    game: str  # OpenSpiel's game string, without the hand size
    rules: Rules  # the same game as pocha's rules
    player: str  # the pocha player's spec
    opponent: str  # the opponent, as its spec reads in full (ismcts with its budget)
    seed: int
    deals: pd.DataFrame  # one row per deal played (DEAL_COLUMNS)
    complete: bool  # False when Ctrl-C stopped it: the deals finished so far

    def summary(self) -> pd.DataFrame:
        """One row per hand size (and ``all``): each side's points per hand, the difference, ms per decision."""
        groups = dict(list(self.deals.groupby("cards")))
        found = {cards: estimates(group) for cards, group in groups.items()}
        rows = [summary_row(str(cards), group, found[cards]) for cards, group in groups.items()]
        if len(groups) > 1:
            weights = np.array([len(group) for group in groups.values()], np.float64)
            parts = {name: np.array([each[name] for each in found.values()]) for name in ESTIMATES}
            rows.append(
                summary_row("all", self.deals, {name: stratified(weights, *parts[name].T) for name in ESTIMATES})
            )
        return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)

    def to_frame(self) -> pd.DataFrame:
        """The summary."""
        return self.summary()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the game, the rules, the sides, the seed, and the summary's rows."""
        rows = json.loads(self.summary().to_json(orient="records"))
        return {
            "game": self.game,
            "rules": self.rules.to_dict(),
            "player": self.player,
            "opponent": self.opponent,
            "seed": self.seed,
            "complete": self.complete,
            "summary": [plain(row) for row in rows],
        }


def mean_and_error(values: pd.Series) -> tuple[float, float]:
    """A mean over deals and its standard error (NaN with fewer than 2 deals)."""
    error = float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else float("nan")
    return float(values.mean()), error


def per_decision(seconds: pd.Series, decisions: pd.Series) -> float:
    """Milliseconds per decision."""
    return 1000 * float(seconds.sum()) / float(decisions.sum()) if decisions.sum() else float("nan")


def estimates(deals: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Each of ESTIMATES over some deals: ``(mean, standard error)``."""
    return {
        "player": mean_and_error(deals.player_points),
        "opponent": mean_and_error(deals.opponent_points),
        "diff": mean_and_error(deals.player_points - deals.opponent_points),
    }


def summary_row(cards: str, deals: pd.DataFrame, found: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """A summary row: the estimates with their intervals, and each side's time per decision over the deals."""
    (player, player_se), (opponent, opponent_se), (diff, diff_se) = (found[name] for name in ESTIMATES)
    return {
        "cards": cards,
        "deals": len(deals),
        "player_points": player,
        "player_ci_low": player - Z95 * player_se,
        "player_ci_high": player + Z95 * player_se,
        "opponent_points": opponent,
        "opponent_ci_low": opponent - Z95 * opponent_se,
        "opponent_ci_high": opponent + Z95 * opponent_se,
        "mean_diff": diff,
        "se_diff": diff_se,
        "ci_low": diff - Z95 * diff_se,
        "ci_high": diff + Z95 * diff_se,
        "player_ms": per_decision(deals.player_seconds, deals.player_decisions),
        "opponent_ms": per_decision(deals.opponent_seconds, deals.opponent_decisions),
    }
