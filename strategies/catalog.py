"""The shipped strategies as the command line shows them, without loading them: names and defaults.

Loading a strategy loads numba (its kernels); ``pocha --help`` must not wait for that, so what the
help prints lives here. ``registry`` maps the same names to the strategies (a test keeps them equal).
"""

SHIPPED_NAMES = ("random", "zero", "fair-share", "aces-trumps", "expected", "montecarlo", "table")
MONTECARLO_SHARPNESS = 1.5  # montecarlo reading the bids through ``table``: its best log score of montecarlo's bids
LEARN_DEALS = 300_000  # deals per hand size of a table learned on first use (and by pocha train): past the knee
