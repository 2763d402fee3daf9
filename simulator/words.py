"""Counts, times and notices in words, for every layer's messages and headings: "1 card", "1,000 deals", "8 min"."""

import difflib
import math
from collections.abc import Iterable


def counted(number: int, noun: str, nouns: str | None = None) -> str:
    """``number`` and its noun, singular for exactly one: ``counted(3, "card")`` is "3 cards".

    nouns: the plural where adding "s" is wrong (``counted(2, "strategy", "strategies")``).
    """
    return f"{number:,} {noun if number == 1 else nouns or noun + 's'}"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``did you mean 'x'? `` for the known name closest to ``word``, capitals aside (EXCEL-ES: excel-es); else "".

    >>> did_you_mean("EXCEL-ES", ["plain", "excel-es"]), did_you_mean("Italain", ["italian"]), did_you_mean("x", ["y"])
    ("did you mean 'excel-es'? ", "did you mean 'italian'? ", '')
    """
    by_lower = {name.lower(): name for name in known}
    close = difflib.get_close_matches(word.lower(), by_lower, n=1)
    return f"did you mean '{by_lower[close[0]]}'? " if close else ""


def duration(seconds: float) -> str:
    """A time as a person says it: ``40 s``, ``8 min``, ``2.5 h``, ``3 days``."""
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    hours = seconds / 3600
    return f"{hours:.1f} h" if hours < 10 else f"{hours:.0f} h" if hours < 48 else f"{hours / 24:,.0f} days"


def round_down(value: float) -> int:
    """The largest of 1, 2, 5, 10, 20, 50, ... not above ``value`` (0 below 1): an amount as a person picks one."""
    if value < 1:
        return 0
    power = 10 ** int(math.log10(value))
    return max(step * power for step in (1, 2, 5) if step * power <= value)


def give_or_take(value: float, half: float, format_: str = "{:.2f}") -> str:
    """A figure and its interval's half-width, the one way every table, line and page writes one: ``4.54 ± 0.01``.

    format_: the figure's (``{:+.2f}`` gives ``+4.04 ± 0.47``: the half-width takes no sign); the figure
    alone when it has no finite interval (one deal, one game group).

    >>> give_or_take(0.712, 0.0114, "{:.1%}"), give_or_take(-0.39, float("nan"), "{:+.2f}")
    ('71.2% ± 1.1%', '-0.39')
    """
    shown = format_.format(value)
    return f"{shown} ± {format_.format(half).lstrip('+')}" if math.isfinite(half) else shown


def compile_notice(needs: str, seconds: int) -> str:
    """The line said before a first compile: whose kernels, and the most it takes, measured from an empty cache.

    needs: whose they are (``this pocha simulate run needs``). A run with new options compiles only
    the kernels it adds, so the time is the most, not a promise; the cache keeps them for later runs.
    """
    return (
        f"compiling the kernels {needs} and the cache lacks (kept there for later runs): "
        f"up to about {seconds} s on 2 idle cores, minutes on a busy machine"
    )
