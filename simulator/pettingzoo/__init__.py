"""pocha as a PettingZoo environment: a deal as an AEC environment (``aec``), ``env`` and ``raw_env``.

Needs PettingZoo (``pip install 'pocha-simulator[pettingzoo]'``); docs/pettingzoo.md.
"""

from pocha.pettingzoo.aec import RENDER_MODES as RENDER_MODES
from pocha.pettingzoo.aec import env as env
from pocha.pettingzoo.aec import raw_env as raw_env
