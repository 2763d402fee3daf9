"""Reports: additive statistics of a run, and their tables."""
