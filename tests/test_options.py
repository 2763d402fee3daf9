"""The option groups as values: checked when made, frozen, and the same run whether given grouped or flat."""

import dataclasses
import inspect
import typing

import pytest

import pocha
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.options import CheckpointOptions, OutputOptions, RuleOptions, RunOptions
from pocha.reports.kinds import record_from
from pocha.reports.kinds.compare import CompareRun
from pocha.reports.kinds.game import GameRun
from pocha.reports.kinds.simulate import DealsRun
from pocha.reports.record import RunRecord


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: RunOptions(seed=-1), "seed: must be a whole number"),
        (lambda: RunOptions(play="pimcc"), "play: unknown 'pimcc'"),
        (lambda: OutputOptions(plot=True), "plot: figures are written into the --out folder; give --out FOLDER$"),
        (lambda: OutputOptions(out="t.CSV", plot=True), "plot: figures need --out FOLDER, not a .csv file"),
        (lambda: CheckpointOptions(checkpoint_every=3), "checkpoint-every: does nothing without --checkpoint"),
        (lambda: CheckpointOptions(checkpoint="c.npz", checkpoint_every=0), "checkpoint-every: must be more than 0"),
        (lambda: RuleOptions(preset=make_rules("italian", 5), players=4), "a Rules object holds every option"),
    ],
)
def test_a_bad_option_is_refused_when_the_value_is_made(make, message):
    with pytest.raises(PochaError, match=message):
        make()


def test_options_are_frozen_and_the_policy_is_parsed_once():
    run = RunOptions(play="pimc:samples=4", seed=2)
    assert (run.policy.name, run.policy.samples) == ("pimc", 4)
    assert RunOptions(play="pimc") == RunOptions(play="pimc:samples=8")  # the same policy, named two ways
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.seed = 3  # type: ignore[misc]


def test_rule_options_resolve_a_preset_with_overrides():
    preset, rules = RuleOptions(preset="italian", players=5, hook="never", scoring="20,2,-10").resolve()
    assert preset == "italian" and rules.players == 5 and rules.hook == "never" and rules.scoring.exact == 20
    assert RuleOptions(preset=rules).resolve() == (None, rules)


def test_grouped_and_flat_options_run_the_same_deals():
    grouped = pocha.simulate(
        "expected", cards=3, deals=300, rules=RuleOptions(preset="turkish", players=3), run=RunOptions(seed=5)
    )
    flat = pocha.simulate("expected", cards=3, deals=300, rules="turkish", players=3, seed=5)
    assert grouped.to_frame().equals(flat.to_frame())
    assert flat.record.command_line == (
        "pocha.simulate(strategies='expected', cards=3, deals=300, rules='turkish', players=3, seed=5)"
    )


def test_an_option_beside_its_group_or_unknown_is_refused():
    with pytest.raises(PochaError, match="rules: give players inside it, not beside it"):
        pocha.simulate("expected", rules=RuleOptions(players=5), players=4, cards=1, deals=10)
    with pytest.raises(TypeError, match="unexpected keyword arguments: resume"):
        pocha.play_games("expected", resume="x.npz", games=1)


def test_the_run_record_has_a_header_and_the_section_of_its_command():
    rules = make_rules()
    header = dict(rules=rules, preset="ludoteka", strategies=("a",) * 4, policy="greedy", policies=("greedy",) * 4)
    game = GameRun(
        games=3,
        rotate=True,
        hand_sizes=(1, 2),
        tie_break_games=0,
        tie_break_hands=0,
        shared_games=0,
        unresolved_games=0,
    )
    record = RunRecord(command="game", seed=1, section=game, **header)
    assert record_from(record.to_dict()) == record and record.planned == 3
    older = {("play" if k == "policy" else "plays" if k == "policies" else k): v for k, v in record.to_dict().items()}
    assert record_from(older) == record  # run.json before the play rule was named play_rule
    compare = RunRecord(
        command="compare", seed=1, section=CompareRun(cards=(2,), deals_per_size=7, duplicate=True), **header
    )
    assert compare.to_dict()["duplicate"] is True and "field" not in compare.to_dict()
    with pytest.raises(PochaError, match="unknown field"):  # a game's section read as a simulate run's
        record_from(record.to_dict() | {"command": "simulate"})
    with pytest.raises(PochaError, match="unknown command 'replay'; known: simulate, compare, game, variants"):
        record_from(record.to_dict() | {"command": "replay"})
    with pytest.raises(PochaError, match="missing field"):
        record_from({k: v for k, v in record.to_dict().items() if k != "games"})
    assert DealsRun(cards=(1, 2), deals_per_size=5).planned == 10


@pytest.mark.parametrize(
    "run",
    [
        pocha.simulate,
        pocha.compare,
        pocha.play_games,
        pocha.variants,
        pocha.score_models,
        pocha.train,
        pocha.rules_info,
        pocha.advise,
        pocha.advise_card,
    ],
)
def test_a_run_declares_as_flat_keywords_the_fields_of_its_groups(run):
    """What a type checker reads (``**flat: Unpack[...Keywords]``) is what the run takes: its groups' fields."""
    from pocha.options import GROUPS

    parameters = inspect.signature(inspect.unwrap(run)).parameters
    (keywords,) = typing.get_args(parameters["flat"].annotation)
    fields_ = {
        item.name
        for group, kind in GROUPS.items()
        if group in parameters
        for item in dataclasses.fields(kind)
        if item.init
    }
    assert keywords.__optional_keys__ == fields_ and not keywords.__required_keys__
