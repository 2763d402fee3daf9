"""Estimates of a variants study (``pocha variants``): seat advantage, skill, luck and the game, with intervals.

The unit is the game: the study sums integer measures per game into ``GAME_GROUPS`` groups of games
(``pocha.engine.variants``). Every figure is a function of those sums; its interval is the
groups' jackknife (the figure again without each group in turn), with Student's t for one degree
of freedom fewer than the groups. A group holds the same game numbers in every variant, so a
difference between two variants, worked out group by group, is paired: where the variants deal
the same cards it is much tighter than the two intervals side by side.
"""

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from pocha.engine.confidence import Z95
from pocha.engine.dealing import dealt_alike
from pocha.engine.variants import WIN_UNITS, Variant, VariantTally
from pocha.game.cards import PACKS
from pocha.game.rules import Rules
from pocha.reports.record import RunRecord, rules_brief, schedule_text
from pocha.words import give_or_take

VARIANT_COLUMNS = (
    "variant",
    "measure",
    "cards",
    "position",
    "value",
    "ci_low",
    "ci_high",
    "diff",
    "diff_low",
    "diff_high",
)
MEASURES = {  # name -> what it is, in words (the tables' and the report's legend)
    "points": "points per hand of a bidding position (1 bids first, the last is the dealer), by the line-up",
    "dealer_gap": "the dealer's points per hand minus the table's mean per seat, by the line-up",
    "skill_points": "points per hand the strong player takes over the weak one at the same seat, on the same cards",
    "strong_win": "the strong player's chance of winning a game among weak players (a shared first place in part)",
    "weak_win": "the weak player's chance at the same seat of the all-weak table (about 1 / players)",
    "skill_win": "strong_win minus weak_win: what the skill is worth in won games",
    "luck_hand": "the share of the spread of a hand's points that the cards explain, a correlation (see LUCK)",
    "luck_game": "the share of the spread of final scores that the cards explain, a correlation",
    "exact_rate": "the share of bids made exactly, by the line-up",
    "mean_points": "points per hand per seat, by the line-up",
    "hook_binds": "the share of hands in which the hook forbids the dealer a bid (the earlier bids leave one in reach)",
    "hands_per_game": "hands a game lasts, tie-break hands included",
    "tie_rate": "the share of games tied for first after the schedule (played on by the tie-break rule)",
    "shared_rate": "the share of games whose first place stays shared after the tie-break",
    "winner_margin": "the winner's lead over the runner-up after the schedule, in points (0 when tied)",
}
LUCK = (
    "Luck is read from duplicate play: the strong player's seat and the same seat of the all-weak table hold the "
    "same cards, played by different players with their own dice. The part of the spread of their points that the "
    "two have in common is what the cards decide: the correlation of the two, hands compared within a hand size, "
    "games by their final scores (1: the cards decide everything; 0: nothing; below 0, rare, the two players' "
    "points move apart on the same cards)."
)
BOUNDS = {  # the figures that cannot leave a range: their intervals are cut to it
    "strong_win": (0.0, 1.0),
    "weak_win": (0.0, 1.0),
    "exact_rate": (0.0, 1.0),
    "hook_binds": (0.0, 1.0),
    "tie_rate": (0.0, 1.0),
    "shared_rate": (0.0, 1.0),
    "luck_hand": (-1.0, 1.0),
    "luck_game": (-1.0, 1.0),
}

INTERVALS = (
    "± is the half-width of a 95% interval (the jackknife of 40 groups of games); 'vs first' is the paired "
    "difference to the first variant, game by game. variants.csv (--out) holds every figure, hand size by hand size."
)

Sums = dict[str, np.ndarray]
Figures = dict[tuple[str, str, str], np.ndarray]  # (measure, cards, position) -> values per replicate


def t95(freedom: int) -> float:
    """Student's t two-sided 95% quantile (Cornish-Fisher's expansion of the normal one: 3 decimals from 5 on)."""
    z = Z95
    if freedom < 1:
        return float("nan")
    return z + (z**3 + z) / (4 * freedom) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * freedom**2)


def replicates(tally: VariantTally) -> tuple[np.ndarray, list[Sums]]:
    """The whole study and each leave-one-group-out subset: games int64[R] and per variant the sums [R, ...].

    Row 0 is the whole; rows 1.. drop one group of games each (empty groups are no replicate).
    """
    kept = np.flatnonzero(tally.games)
    games = np.concatenate([[tally.games.sum()], tally.games.sum() - tally.games[kept]])
    sums = [
        {
            name: np.concatenate([values.sum(axis=0)[None], values.sum(axis=0)[None] - values[kept]])
            for name, values in s.items()
        }
        for s in tally.sums
    ]
    return games, sums


def correlation(m: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Co-spread, spread of x and of y (sums of squares about the means) from moments [..., 5] over ``count`` pairs."""
    x, y, xx, yy, xy = np.moveaxis(m.astype(np.float64), -1, 0)
    return xy - x * y / count, xx - x * x / count, yy - y * y / count


def figures(variant: Variant, games: np.ndarray, sums: Sums) -> Figures:
    """Every figure of one variant, per replicate (see MEASURES)."""
    rules = variant.rules
    players, schedule = rules.players, rules.hand_sizes()
    sizes = sorted(set(schedule))
    per_size = np.array([schedule.count(k) for k in sizes], np.float64)
    n, hands = games.astype(np.float64), float(len(schedule))
    with np.errstate(divide="ignore", invalid="ignore"):
        out: Figures = {}
        by_position = sums["position_points"] / (n[:, None] * hands)
        by_size = sums["size_points"] / (n[:, None, None] * per_size[None, :, None])
        for cards, table in (("all", by_position), *((str(k), by_size[:, i]) for i, k in enumerate(sizes))):
            for p in range(players):
                out["points", cards, str(p + 1)] = table[:, p]
            out["dealer_gap", cards, ""] = table[:, -1] - table.mean(axis=1)
        out["skill_points", "all", ""] = sums["skill"] / (n * hands)
        out["strong_win", "all", ""] = sums["strong_win"] / (n * WIN_UNITS)
        out["weak_win", "all", ""] = sums["weak_win"] / (n * WIN_UNITS)
        out["skill_win", "all", ""] = out["strong_win", "all", ""] - out["weak_win", "all", ""]
        cov, var_x, var_y = correlation(sums["hand_moments"], n[:, None] * per_size[None, :])
        out["luck_hand", "all", ""] = cov.sum(axis=1) / np.sqrt(var_x.sum(axis=1) * var_y.sum(axis=1))
        cov, var_x, var_y = correlation(sums["game_moments"], n)
        out["luck_game", "all", ""] = cov / np.sqrt(var_x * var_y)
        out["exact_rate", "all", ""] = sums["exact"] / (n * hands * players)
        out["mean_points", "all", ""] = sums["points"] / (n * hands * players)
        out["hook_binds", "all", ""] = sums["hook"] / (n * hands)
        out["hands_per_game", "all", ""] = sums["hands"] / n
        out["tie_rate", "all", ""] = sums["tied"] / n
        out["shared_rate", "all", ""] = sums["shared"] / n
        out["winner_margin", "all", ""] = sums["margin"] / n
    return out


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """(estimate, low, high): row 0 the estimate, the other rows its leave-one-group-out replicates."""
    estimate, left_out = float(values[0]), values[1:]
    groups = len(left_out)
    if groups < 2 or not np.isfinite(values).all():
        return estimate, float("nan"), float("nan")
    error = float(np.sqrt((groups - 1) / groups * ((left_out - left_out.mean()) ** 2).sum()))
    half = t95(groups - 1) * error
    return estimate, estimate - half, estimate + half


def variant_table(variants: tuple[Variant, ...], tally: VariantTally) -> pd.DataFrame:
    """``variants.csv``: every figure of every variant with its 95% interval, and its paired difference to the first's.

    Columns: variant, measure (see MEASURES), cards (``all`` or a hand size), position (1 .. players
    for ``points``, else empty), value, ci_low, ci_high, diff, diff_low, diff_high (empty for the
    first variant, and for a figure the first has not, such as a hand size it does not deal).
    """
    games, sums = replicates(tally)
    found = [figures(variant, games, s) for variant, s in zip(variants, sums, strict=True)]
    rows = []
    for variant, mine in zip(variants, found, strict=True):
        shortest = len(variant.rules.hand_sizes())  # a game lasts at least its schedule
        for key, values in mine.items():
            value, low, high = interval(values)
            bottom, top = BOUNDS.get(key[0], (shortest, np.inf) if key[0] == "hands_per_game" else (-np.inf, np.inf))
            low, high = max(low, bottom), min(high, top)
            base = found[0].get(key) if variant is not variants[0] else None
            diff = interval(values - base) if base is not None else (np.nan, np.nan, np.nan)
            rows.append((variant.name, *key, value, low, high, *diff))
    return pd.DataFrame(rows, columns=list(VARIANT_COLUMNS))


def same_deals(first: Variant, other: Variant) -> str:
    """How many of a game's hands two variants deal alike: ``all``, ``N of M hands`` (those of one size), or ``none``.

    A deal is cards by strength: two decks of as many ranks deal the same cards whatever their names
    or packs. Hands are numbered by their place in the game, so games of different lengths share none;
    a hand dealt under deal conditions is alike where both variants' conditions deal it alike.
    """
    a, b = first.rules, other.rules
    sizes_a, sizes_b = a.hand_sizes(), b.hand_sizes()
    if (a.players, a.deck_size) != (b.players, b.deck_size) or len(sizes_a) != len(sizes_b):
        return "none"
    shared = sum(
        x == y and dealt_alike(first.conditioned, other.conditioned, x) for x, y in zip(sizes_a, sizes_b, strict=True)
    )
    return "all" if shared == len(sizes_a) else f"{shared} of {len(sizes_a)} hands" if shared else "none"


def figure(table: pd.DataFrame, measure: str, cards: str = "all", position: str = "") -> pd.DataFrame:
    """One figure of every variant (rows by variant, in the study's order): value, interval, difference."""
    rows = table[
        (table.measure == measure)
        & (table.cards.astype(str) == cards)
        & (table.position.fillna("").astype(str) == position)
    ]
    return rows.set_index("variant")


def rank_order(rules: Rules) -> str:
    """The name of the rank order a deck's ranks follow (``ace-three``), or its ranks written out."""
    pack = PACKS[rules.pack]
    named = [order for order in pack.rank_orders if pack.deck_ranks(order, rules.deck_size) == rules.ranks]
    return f"{named[0]} order" if named else "ranks " + " ".join(pack.rank_names[rank] for rank in rules.ranks)


DIFFERENCES: dict[str, Callable[[Rules], str]] = {  # what else may tell a study's rule sets apart, in words
    "rank order": rank_order,
    "schedule": lambda rules: f"schedule {schedule_text(rules)}",
    "tie-break": lambda rules: f"tie-break {rules.tie_break}",
    "scoring": lambda rules: f"scoring {rules.scoring.label}",
}


def rules_in_words(names: Sequence[str], rule_sets: Sequence[Rules]) -> list[str]:
    """Each variant's rules: deck, play rule and hook, and whatever else differs between the study's rule sets."""
    words = [rules_brief(rules, name.split(":")[0]) for name, rules in zip(names, rule_sets, strict=True)]
    for describe in DIFFERENCES.values():
        said = [describe(rules) for rules in rule_sets]
        if len(set(said)) > 1:
            words = [f"{mine}, {part}" for mine, part in zip(words, said, strict=True)]
    return words


def plus_minus(rows: pd.DataFrame, value: str, high: str, format_: str) -> list[str]:
    """``value ± half`` of each row, the half-width of its interval (empty where there is no value)."""
    return ["" if pd.isna(v) else give_or_take(v, h - v, format_) for v, h in zip(rows[value], rows[high], strict=True)]


def columns(table: pd.DataFrame, shown: dict[str, tuple[str, str]], versus: str | None = None) -> pd.DataFrame:
    """Figures by variant as text: ``shown`` heading -> (measure, format), and the difference to the first of one."""
    out = {}
    for heading, (measure, format_) in shown.items():
        rows = figure(table, measure)
        out[heading] = plus_minus(rows, "value", "ci_high", format_)
        if measure == versus:
            out["vs first"] = plus_minus(rows, "diff", "diff_high", format_.replace("{:+", "{:").replace("{:", "{:+"))
    return pd.DataFrame(out, index=figure(table, "mean_points").index)


def question_tables(run: RunRecord, table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The study's answers as titled tables of text, by variant: the rules, seats, skill, luck and the game."""
    section = run.section  # a study's (``pocha.reports.kinds.variants``)
    players = run.rules.players
    rule_sets = [Rules.from_dict(data) for data in section.variant_rules]
    described = list(zip(rules_in_words(section.variants, rule_sets), section.same_deals, strict=True))
    described[0] = (described[0][0], "(the first)")
    listing = pd.DataFrame(described, columns=["rules", "same deals as the first"], index=list(section.variants))
    listing = listing.apply(lambda words: words.str.ljust(words.str.len().max()))  # text reads left to right
    seats = pd.DataFrame(
        {str(p): [f"{v:.2f}" for v in figure(table, "points", position=str(p)).value] for p in range(1, players + 1)},
        index=figure(table, "mean_points").index,
    ).join(columns(table, {"dealer gap": ("dealer_gap", "{:+.2f}")}, "dealer_gap"))
    skill = columns(
        table,
        {
            "points/hand": ("skill_points", "{:+.2f}"),
            "strong wins": ("strong_win", "{:.1%}"),
            "weak wins": ("weak_win", "{:.1%}"),
            "win gain": ("skill_win", "{:+.1%}"),
        },
        "skill_points",
    )
    luck = columns(table, {"hands": ("luck_hand", "{:.3f}")}, "luck_hand").join(
        columns(table, {"games": ("luck_game", "{:.3f}")})
    )
    game = columns(
        table,
        {
            "exact": ("exact_rate", "{:.1%}"),
            "points/hand": ("mean_points", "{:.2f}"),
            "hook binds": ("hook_binds", "{:.1%}"),
            "hands/game": ("hands_per_game", "{:.2f}"),
            "tied": ("tie_rate", "{:.1%}"),
            "winner's lead": ("winner_margin", "{:.1f}"),
        },
    )
    for frame in (listing, seats, skill, luck, game):
        frame.index.name = "variant"
    return [
        ("Variants (the same deals: the hands each deals alike with the first, game by game)", listing),
        (
            f"Seat advantage: points per hand by bidding position (1 bids first and leads, {players} deals), "
            "and the dealer's gap to the table's mean",
            seats,
        ),
        (
            f"Skill: {section.strong} at one seat among {section.weak}, against {section.weak} at the same seat, "
            "on the same cards (points per hand it gains; its chance of winning a game)",
            skill,
        ),
        ("Luck: the share of the spread of points the cards explain, hand by hand and over whole games", luck),
        ("The game, by the line-up", game),
    ]
