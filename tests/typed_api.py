"""What a type checker sees of the public API: checked by mypy (tests/test_typing.py), never run."""

from pathlib import Path
from typing import assert_type

import pocha
from pocha.engine.advice import Advice, CardAdvice
from pocha.playing import GameOutcome
from pocha.reports.match import Match
from pocha.results import GamesResult, ModelsResult, RulesInfo, SimulationResult, TrainingResult, VariantsResult

assert_type(pocha.simulate("expected", cards=5, deals=2_000), SimulationResult)
assert_type(pocha.compare(["expected", "random"], players=3), SimulationResult)
assert_type(pocha.play_games(["expected", "random"], games=10), GamesResult)
assert_type(pocha.variants(["ludoteka", "polish"]), VariantsResult)
assert_type(pocha.score_models(), ModelsResult)
assert_type(pocha.train("table.npz", deals=100), TrainingResult)
assert_type(pocha.rules_info(rules="italian"), RulesInfo)
assert_type(pocha.report("run"), tuple[Path, list[Path]])
assert_type(pocha.make_rules("polish", 5), pocha.Rules)
assert_type(pocha.advise("1O 3O 12C", "7O", players=3, seed=2), Advice | CardAdvice)
assert_type(pocha.advise_card("1O 3O", "7O", bids=[1, 0, 1, 0]), CardAdvice)
assert_type(pocha.match("strong", deals=10), Match)
assert_type(pocha.play_game("expected@greedy"), GameOutcome)
