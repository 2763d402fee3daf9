"""The ``pocha`` command line, the top layer: the Typer app and what commands share (``app``), ``flags``, ``commands``.

``main`` is the console script ``pocha``; ``app`` the Typer app a test invokes. Nothing here loads
numba: a command imports the API when it runs, so ``--version`` and every ``--help`` stay quick.
"""

from pocha.cli.commands import app as app
from pocha.cli.commands import main as main
