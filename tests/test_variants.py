"""pocha variants: rule sets side by side, checked against answers known beforehand."""

import json
import shlex

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import pocha
from pocha import api
from pocha.cli import app
from pocha.engine.variants import GAME_GROUPS, Variant
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.options import STUDY, parse_variant
from pocha.reports.kinds import record_from
from pocha.reports.kinds.variants import variant_answers
from pocha.reports.variants import VARIANT_COLUMNS, figure, interval, same_deals, t95

CHEAP = {"strong": "expected@greedy", "weak": "zero@greedy", "threads": 1}  # fast players for every study here


def study(*variants: str, games: int = GAME_GROUPS, **options) -> pd.DataFrame:
    """The variants table of a small study (cheap players unless told otherwise)."""
    return api.variants(list(variants), games=games, **{**CHEAP, **options}).to_frame()


def value(table: pd.DataFrame, variant: str, measure: str, column: str = "value", **where: str) -> float:
    return float(figure(table, measure, **where).loc[variant, column])


def test_a_variant_is_a_preset_with_overrides():
    assert parse_variant("ludoteka:hook=never", 4)[1].resolve()[1] == make_rules("ludoteka", 4, hook="never")
    assert parse_variant(" Ludoteka : HOOK = never ", 4)[0] == "ludoteka:hook=never"  # the canonical name
    deck = parse_variant("oh-hell:deck=french:32:play-rule=pocha", 4)[1].resolve()[1]
    assert deck.deck_size == 32 and deck.pack == "french" and deck.play_rule == "pocha"
    assert parse_variant("italian:schedule=1-3,3", 5)[1].resolve()[1].hand_sizes() == [1, 2, 3, 3]
    for name in STUDY:
        parse_variant(name, 4)  # the default study is valid at four players


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("ludoteka:colour=red", "variant 'ludoteka:colour=red': unknown option 'colour'; accepted: deck, "),
        ("ludoteka:hok=never", "unknown option 'hok'; did you mean 'hook'\\? accepted: deck, "),  # issue 46's walk
        ("ludoteka:never", "'never' is not OPTION=VALUE"),
        ("ludoteka:players=5", "variant 'ludoteka:players=5': players are the study's, not a variant's: give -p 5 "),
        ("ludoteka:Player=3", "not a variant's: give -p 3 "),  # not "did you mean 'play-rule'": issue 46's walk
        ("bridge", "preset: unknown preset 'bridge'"),
        ("ludoteka:hook=sometimes", "variant 'ludoteka:hook=sometimes': hook: unknown rule 'sometimes'"),
        ("ludoteka:hook=never:hook=always", "hook given twice"),
        ("ludoteka:deck=", "deck needs a value"),
        ("polish:deck=36", None),  # valid: the check below is that it is
    ],
)
def test_a_wrong_variant_is_one_line(written, message):
    if message is None:
        parse_variant(written, 4)
        return
    with pytest.raises(PochaError, match=message.replace("(", r"\(")):
        parse_variant(written, 4)


def test_a_variant_against_itself_differs_in_nothing():
    table = study("ludoteka", "ludoteka:hook=except-one-card")
    second = table[table.variant == "ludoteka:hook=except-one-card"]
    assert (second["diff"] == 0).all() and (second.diff_low == 0).all() and (second.diff_high == 0).all()
    with pytest.raises(PochaError, match="ludoteka given twice; a variant against itself differs in nothing"):
        study("ludoteka", "LUDOTEKA")


def test_with_the_hook_the_dealers_points_fall():
    table = study("ludoteka:hook=never", "ludoteka:hook=always", "ludoteka", games=80, strategies="expected")
    for variant in ("ludoteka:hook=always", "ludoteka"):
        assert value(table, variant, "dealer_gap", "diff_high") < 0  # the dealer loses, interval and all
    assert value(table, "ludoteka:hook=never", "hook_binds") == 0 < value(table, "ludoteka", "hook_binds")
    assert value(table, "ludoteka:hook=always", "hook_binds", "diff_low") > 0  # one-card hands too
    for position in "1234":  # the two hooks differ in one-card hands only: the other sizes are the same games
        assert value(table, "ludoteka", "points", "diff", cards="5", position=position) == pytest.approx(
            value(table, "ludoteka:hook=always", "points", "diff", cards="5", position=position)
        )


def test_a_random_player_against_a_random_player_shows_no_skill():
    table = study("ludoteka", "ludoteka:hook=never", strong="random@random", weak="random@random", games=120)
    for variant in ("ludoteka", "ludoteka:hook=never"):
        for measure in ("skill_points", "skill_win"):
            _, low, high = (value(table, variant, measure, column) for column in ("value", "ci_low", "ci_high"))
            assert low < 0 < high
        assert 0 < value(table, variant, "luck_hand") < 1  # two players with their own dice share only the cards


def test_a_player_against_a_copy_of_itself_leaves_everything_to_the_cards():
    table = study("ludoteka", "turkish", strong="expected@greedy", weak="expected@greedy")
    for variant in ("ludoteka", "turkish"):
        assert value(table, variant, "skill_points") == 0
        assert value(table, variant, "luck_hand") == pytest.approx(1)
        assert value(table, variant, "luck_game") == pytest.approx(1)
        assert value(table, variant, "strong_win") == value(table, variant, "weak_win")


def test_a_strong_player_gains_and_wins_more():
    table = study("ludoteka", strong="montecarlo@pimc", weak="expected@greedy", games=GAME_GROUPS)
    assert value(table, "ludoteka", "skill_points", "ci_low") > 0
    assert value(table, "ludoteka", "strong_win", "ci_low") > value(table, "ludoteka", "weak_win", "ci_high")


def test_the_line_up_figures_are_the_game_commands():
    """Seats and ties of the line-up are those of pocha game with the same players, seed and rules."""
    played = pocha.variants(["portuguese"], games=GAME_GROUPS, strategies="expected", seed=4, **CHEAP)
    assert played.record.command_line.startswith("pocha.variants(variants=['portuguese'], games=40, ")
    games = api.play_games("expected", games=GAME_GROUPS, rules="portuguese", seed=4, threads=1)
    results = games.tables["results"]
    by_position = results[(results.cards == "all") & (results.position != "all")].set_index("position")
    table = played.to_frame()
    for position, row in by_position.iterrows():
        assert value(table, "portuguese", "points", position=position) == pytest.approx(row.mean_points)
    assert value(table, "portuguese", "tie_rate") * GAME_GROUPS == games.record.section.tie_break_games
    tie_hands = games.record.section.tie_break_hands
    assert value(table, "portuguese", "hands_per_game") == pytest.approx(
        len(make_rules("portuguese").hand_sizes()) + tie_hands / GAME_GROUPS
    )


def test_results_do_not_depend_on_chunks_or_threads():
    one = study("ludoteka", "ludoteka:hook=never", games=GAME_GROUPS + 7)
    other = api.variants(
        ["ludoteka", "ludoteka:hook=never"], games=GAME_GROUPS + 7, chunk_size=9, **{**CHEAP, "threads": 2}
    )
    pd.testing.assert_frame_equal(one, other.to_frame())


@pytest.mark.parametrize("players", [3, 5, 6, 8])
def test_every_player_count(players):
    table = study("ludoteka", "ludoteka:hook=always", players=players)
    assert set(figure(table, "points", position="1").index) == {"ludoteka", "ludoteka:hook=always"}
    positions = table[(table.measure == "points") & (table.cards == "all")].position
    assert set(positions) == {str(p) for p in range(1, players + 1)}
    assert np.isfinite(table.value).all()


def test_same_deals():
    ludoteka = Variant("ludoteka", "ludoteka", make_rules("ludoteka", 4))
    assert same_deals(ludoteka, Variant("a", "ludoteka", make_rules("ludoteka", 4, hook="never"))) == "all"
    assert same_deals(ludoteka, Variant("b", "italian", make_rules("italian", 4))) == "all"  # cards by strength
    assert same_deals(ludoteka, Variant("b", "ludoteka", make_rules("ludoteka", 4, deck="36"))) == "none"
    sizes = (*range(1, 11), *range(10, 0, -1), 1, 1)  # 22 hands, as many as the full schedule's
    other = Variant("c", "ludoteka", make_rules("ludoteka", 4, schedule=sizes))
    alike = sum(a == b for a, b in zip(ludoteka.rules.hand_sizes(), sizes, strict=True))
    assert 0 < alike < 22 and same_deals(ludoteka, other) == f"{alike} of 22 hands"
    short = Variant("d", "ludoteka", make_rules("ludoteka", 4, schedule="short"))
    assert same_deals(ludoteka, short) == "none"  # another length: the hands are numbered otherwise


def test_jackknife_interval_of_a_mean_is_the_usual_one():
    rng = np.random.default_rng(1)
    groups = rng.normal(3.0, 2.0, GAME_GROUPS)
    whole = groups.sum() / GAME_GROUPS
    values = np.concatenate([[whole], (groups.sum() - groups) / (GAME_GROUPS - 1)])
    estimate, low, high = interval(values)
    assert estimate == pytest.approx(whole)
    assert (high - low) / 2 == pytest.approx(t95(GAME_GROUPS - 1) * groups.std(ddof=1) / np.sqrt(GAME_GROUPS))
    assert t95(39) == pytest.approx(2.0227, abs=1e-3) and t95(10) == pytest.approx(2.2281, abs=3e-3)


def invoke(command: str):
    return CliRunner().invoke(app, shlex.split(command))


def test_the_command_prints_every_question_and_writes_a_run_folder(tmp_path):
    out = tmp_path / "study"
    result = invoke(f"variants ludoteka ludoteka:hook=never -g 40 --strong expected --weak zero --out {out} --plot")
    assert result.exit_code == 0, result.output
    for heading in ("Variants", "Seat advantage", "Skill", "Luck", "The game", "dealer gap", "vs first"):
        assert heading in result.stdout
    written = json.loads((out / "run.json").read_text())
    assert record_from(written).section.variants == ("ludoteka", "ludoteka:hook=never")
    assert {"variants.csv", "seat_advantage.png", "skill_and_luck.png", "game_shape.png"} <= set(written["files"])
    report = invoke(f"report {out}")
    assert report.exit_code == 0, report.output
    page = (out / "report.html").read_text()
    assert "Seat advantage" in page and "Skill pays most under" in page
    data = json.loads(invoke("variants ludoteka -g 40 --strong zero --weak zero --format json").stdout)
    assert data["run"]["command"] == "variants" and {row["variant"] for row in data["variants"]} == {"ludoteka"}


def study_table(figures: dict[str, list[tuple[float, float, float, float]]]) -> pd.DataFrame:
    """variants.csv by hand: per measure, each variant's (value, half-width, paired diff to the first, its half)."""
    rows = [
        (
            f"v{i}",
            measure,
            "all",
            "",
            value,
            value - half,
            value + half,
            *(diff + np.array([0, -dh, dh]) if i else [np.nan] * 3),
        )
        for measure, per_variant in figures.items()
        for i, (value, half, diff, dh) in enumerate(per_variant)
    ]
    return pd.DataFrame(rows, columns=list(VARIANT_COLUMNS))


def test_the_summary_follows_the_paired_difference_the_page_shows():
    """Unpaired intervals that overlap, a paired one that leaves out 0: a clear difference, said once and plainly."""
    overlapping = [(-0.2, 0.3, 0.0, 0.0), (0.42, 0.32, 0.62, 0.23)]
    skill, dealer, luck = variant_answers(
        study_table({"skill_points": overlapping, "dealer_gap": overlapping, "luck_hand": overlapping})
    )
    assert skill == (
        "Skill pays most under v1: the strong player gains +0.42 ± 0.32 points a hand; "
        "+0.62 ± 0.23 against v0, paired game by game: a clear difference."
    )
    assert dealer.endswith(
        "worst under v0 (-0.20 ± 0.30); +0.62 ± 0.23 against v0, paired game by game: a clear difference."
    )
    assert luck.endswith("(-0.200 ± 0.300); +0.620 ± 0.230 against v0, paired game by game: a clear difference.")
    near = [(3.90, 0.52, 0.0, 0.0), (4.04, 0.47, 0.14, 0.35)]
    assert variant_answers(study_table(dict.fromkeys(["skill_points", "dealer_gap", "luck_hand"], near)))[0].endswith(
        "+0.14 ± 0.35 against v0, paired game by game: no clear difference."
    )
    first_ahead = [(1.0, 0.1, 0.0, 0.0), (0.5, 0.1, -0.5, 0.05)]
    dealer = variant_answers(study_table(dict.fromkeys(["skill_points", "dealer_gap", "luck_hand"], first_ahead)))[1]
    assert dealer.endswith("; +0.50 ± 0.05 against v1, paired game by game: a clear difference.")


def test_two_variants_the_study_does_not_pair_are_told_apart_only_beyond_both_intervals():
    three = [(0.0, 0.1, 0.0, 0.0), (2.0, 0.3, 2.0, 0.1), (1.8, 0.3, 1.8, 0.1)]
    far = [(0.0, 0.1, 0.0, 0.0), (2.0, 0.1, 2.0, 0.1), (1.0, 0.1, 1.0, 0.1)]
    said = variant_answers(study_table({"skill_points": three, "dealer_gap": three, "luck_hand": three}))[0]
    assert said == (
        "Skill pays most under v1: the strong player gains +2.00 ± 0.30 points a hand, +1.80 ± 0.30 under v2; "
        "the two are not told apart (their intervals overlap; the study pairs each variant with the first only)."
    )
    said = variant_answers(study_table({"skill_points": far, "dealer_gap": far, "luck_hand": far}))
    assert said[0].endswith(", +1.00 ± 0.10 under v2; their intervals do not overlap: a clear difference.")
    assert said[1].endswith(  # best v1 and worst v0: the paired difference
        "worst under v0 (+0.00 ± 0.10); +2.00 ± 0.10 against v0, paired game by game: a clear difference."
    )
    alone = variant_answers(study_table(dict.fromkeys(["skill_points", "dealer_gap", "luck_hand"], three[:1])))
    assert alone[0] == "Skill pays most under v0: the strong player gains +0.00 ± 0.10 points a hand."


def test_each_variant_is_named_once_with_its_figure():
    """Issue 46: "worst under X (-0.50 ± 0.31); X at -0.50, their intervals apart" said X's figure twice."""
    worst_not_first = [(0.1, 0.1, 0.0, 0.0), (0.5, 0.1, 0.4, 0.1), (-0.5, 0.31, -0.6, 0.3)]
    for said in variant_answers(
        study_table(dict.fromkeys(["skill_points", "dealer_gap", "luck_hand"], worst_not_first))
    ):
        for name in ("v0", "v1", "v2"):
            assert said.count(f"{name} at") == 0 and said.count(f"under {name}") <= 1, said


def test_variants_that_play_the_same_games_are_said_alike():
    """The walk of issue 46: ludoteka and polish (the same rules at 4 players) read "fares best under ludoteka
    (+0.19 ± 0.53) and worst under polish (+0.19 ± 0.53); -0.00 ± 0.00 against polish"."""
    same = [(0.19, 0.53, 0.0, 0.0), (0.19, 0.53, -0.0, 0.0)]
    skill, dealer, luck = variant_answers(study_table(dict.fromkeys(["skill_points", "dealer_gap", "luck_hand"], same)))
    assert skill == "Skill pays alike under v0 and v1: the strong player gains +0.19 ± 0.53 points a hand under each."
    assert dealer == (
        "The dealer fares alike under every variant (+0.19 ± 0.53 points a hand against the table's mean)."
    )
    assert luck == "The cards explain the same share of a hand's spread of points under every variant (0.190 ± 0.530)."


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("variants ludoteka:hook=maybe", "Error: variant 'ludoteka:hook=maybe': hook: unknown rule 'maybe'"),
        ("variants ludoteka -g 10", f"Error: games: at least {GAME_GROUPS}"),
        ("variants polish -p 6", "Error: variant 'polish': players: preset 'polish' has no deck for 6 players"),
        ("variants ludoteka --strong nobody", "Error: strong: "),
        ("variants ludoteka --weak expected@pimcc", "Error: weak: "),
        ("variants ludoteka -g 0", f"Error: games: at least {GAME_GROUPS}"),
    ],
)
def test_a_mistake_is_one_line(command, message):
    result = invoke(command)
    assert result.exit_code == 1 and result.stderr.startswith(message) and result.stderr.count("\n") == 1
