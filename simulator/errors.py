"""The one error a user can cause: every layer raises it, only the command line turns it into a line and an exit."""


class PochaError(ValueError):
    """A user's mistake (bad rule option, hand, strategy, file): the CLI shows it as one line."""


def missing_extra(extra: str, what: str) -> PochaError:
    """The error of an optional dependency not installed: what is missing, and the one line that installs it."""
    return PochaError(
        f"{extra}: {what} is not installed; install it with pip install 'pocha-simulator[{extra}]' "
        f"(in a clone of pocha: pip install -e '.[{extra}]')"
    )
