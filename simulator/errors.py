"""The one error a user can cause: every layer raises it, only the command line turns it into a line and an exit."""


class PochaError(ValueError):
    """A user's mistake (bad rule option, hand, strategy, file): the CLI shows it as one line."""
