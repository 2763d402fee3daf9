"""The OpenSpiel game ``pocha``, registered on import: its old home, kept for ``import pocha.openspiel_game``.

The game lives in ``pocha.openspiel.pocha_game`` (docs/openspiel.md); this module stays so the
import docs/openspiel.md showed before keeps registering it and naming ``game_string``.
"""

from pocha.openspiel.pocha_game import PochaGame as PochaGame
from pocha.openspiel.pocha_game import PochaState as PochaState
from pocha.openspiel.pocha_game import game_string as game_string
