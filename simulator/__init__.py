"""pocha: a Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell."""

__version__ = "0.1.0"


class PochaError(ValueError):
    """A user's mistake (bad rule option, hand, strategy, file): the CLI shows it as one line."""
