"""The level of a run's intervals: how wide they are, how they are named, which levels are accepted.

Light (no numpy, no numba): the command line checks a level before anything heavy loads.
"""

from statistics import NormalDist

from pocha.errors import PochaError

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal: intervals are +- Z95 standard errors
CONFIDENCE = 0.95  # the intervals' level unless a run asks for another


def normal_quantile(confidence: float) -> float:
    """Standard errors either side of a two-sided normal interval at ``confidence``, the one place they come from.

    Z95 at 0.95: the digits every golden output was made with (the inverse normal's last digit differs).
    """
    return Z95 if confidence == CONFIDENCE else NormalDist().inv_cdf((1 + confidence) / 2)


def check_confidence(confidence: float) -> None:
    """Refuse a level outside (0, 1) with one line, naming the fraction meant when it is plainly a percentage.

    Only 50 to 100 reads as one (95, 99.9): 1.5 is likelier a slip than 1.5% intervals, so nothing is guessed.
    """
    accepted = "a level strictly between 0 and 1, such as 0.95"
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise PochaError(f"confidence: {confidence!r} is not a number; give {accepted}")
    if not 0 < confidence < 1:
        meant = f"; for {confidence:g}% give {confidence / 100:g}" if 50 <= confidence < 100 else ""
        raise PochaError(f"confidence: {confidence:g} is not {accepted}{meant}")


def percent(confidence: float) -> str:
    """A level as the tables and captions say it: 0.95 is "95%", 0.995 "99.5%"."""
    return f"{100 * confidence:g}%"
