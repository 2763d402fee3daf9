"""pocha: a Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell.

The Python API (the command line calls the same functions)::

    import pocha

    result = pocha.compare(["expected", "aces-trumps"], cards=5, deals=20_000)
    result.to_frame()        # one row per strategy, hand size and bidding position
    result.pairs()           # paired differences with 95% intervals

    rules = pocha.RuleOptions(preset="italian", players=5, hook="never")
    pocha.simulate("expected", rules=rules, run=pocha.RunOptions(seed=3, play="pimc"), cards=4, deals=2_000)

The option groups (``RuleOptions``, ``RunOptions``, ``OutputOptions``, ``CheckpointOptions``, and
``DealOptions`` for the deals a run asks for) may also be given as plain keywords:
``pocha.simulate("expected", players=5, seed=3, where="trumps(dealer) >= 3")``.

Names are loaded on first use, so ``import pocha`` stays quick and pulls in neither numba nor pandas.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pocha.version import __version__

if TYPE_CHECKING:  # what the names below are, for type checkers and editors
    from pocha.advising import advise as advise
    from pocha.advising import advise_card as advise_card
    from pocha.api import DealView as DealView
    from pocha.api import Player as Player
    from pocha.api import bench as bench
    from pocha.api import bench_decisions as bench_decisions
    from pocha.api import compare as compare
    from pocha.api import match as match
    from pocha.api import play_games as play_games
    from pocha.api import report as report
    from pocha.api import rules_info as rules_info
    from pocha.api import score_models as score_models
    from pocha.api import simulate as simulate
    from pocha.api import train as train
    from pocha.api import variants as variants
    from pocha.errors import PochaError as PochaError
    from pocha.game.presets import make_rules as make_rules
    from pocha.game.rules import Rules as Rules
    from pocha.game.scoring import Scoring as Scoring
    from pocha.options import CheckpointOptions as CheckpointOptions
    from pocha.options import DealOptions as DealOptions
    from pocha.options import OutputOptions as OutputOptions
    from pocha.options import RuleOptions as RuleOptions
    from pocha.options import RunOptions as RunOptions
    from pocha.playing import play_game as play_game
    from pocha.strategies.base import BidContext as BidContext
    from pocha.strategies.base import Strategy as Strategy

_HOMES = {
    "simulate": "pocha.api",
    "compare": "pocha.api",
    "play_games": "pocha.api",
    "variants": "pocha.api",
    "advise": "pocha.advising",
    "advise_card": "pocha.advising",
    "Player": "pocha.api",
    "DealView": "pocha.api",
    "train": "pocha.api",
    "report": "pocha.api",
    "rules_info": "pocha.api",
    "score_models": "pocha.api",
    "match": "pocha.api",
    "bench": "pocha.api",
    "bench_decisions": "pocha.api",
    "play_game": "pocha.playing",
    "RuleOptions": "pocha.options",
    "RunOptions": "pocha.options",
    "OutputOptions": "pocha.options",
    "CheckpointOptions": "pocha.options",
    "DealOptions": "pocha.options",
    "PochaError": "pocha.errors",
    "Rules": "pocha.game.rules",
    "Scoring": "pocha.game.scoring",
    "make_rules": "pocha.game.presets",
    "BidContext": "pocha.strategies.base",
    "Strategy": "pocha.strategies.base",
}
__all__ = ["__version__", *_HOMES]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'pocha' has no attribute '{name}'")
    value = getattr(import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
