"""pocha at OpenSpiel's tables, split as OpenSpiel splits itself: games, bots, algorithms, and a match.

``games``: OpenSpiel's ``oh_hell`` as pocha's rules and cards, a state as a seat's view;
``pocha_game``: pocha's own rules as the OpenSpiel game ``pocha``, registered on import;
``bots``: a pocha player as an OpenSpiel bot (``PochaBot``); ``algorithms``: OpenSpiel's IS-MCTS as an
opponent (``Search``, its worlds ``UnseenCards``); ``match``: a pocha player against OpenSpiel's players
(``pocha match``). Needs OpenSpiel (``pip install 'pocha-simulator[openspiel]'``): without it, importing
any of these is one line saying how to install it. The names docs/openspiel.md uses are here.
"""

from pocha.errors import missing_extra

try:
    import pyspiel  # noqa: F401 - the one check that OpenSpiel is installed, before any module here needs it
except ImportError:
    raise missing_extra("openspiel", "OpenSpiel") from None

from pocha.openspiel.algorithms import RandomRollouts as RandomRollouts
from pocha.openspiel.algorithms import Search as Search
from pocha.openspiel.algorithms import UnseenCards as UnseenCards
from pocha.openspiel.bots import PochaBot as PochaBot
from pocha.openspiel.games import card_action as card_action
from pocha.openspiel.games import card_name as card_name
from pocha.openspiel.games import deck_size as deck_size
from pocha.openspiel.games import load_game as load_game
from pocha.openspiel.games import most_tricks as most_tricks
from pocha.openspiel.games import rules_for as rules_for
from pocha.openspiel.games import view_of as view_of
from pocha.openspiel.match import bot_seed as bot_seed
from pocha.openspiel.match import deal_chance as deal_chance
from pocha.openspiel.match import opponent_side as opponent_side
from pocha.openspiel.match import play_deal as play_deal
from pocha.openspiel.match import play_rotated as play_rotated
from pocha.openspiel.match import pocha_side as pocha_side
