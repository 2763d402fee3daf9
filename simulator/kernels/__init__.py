"""The numba kernels, one topic a file: they take plain arrays and integers, never Python objects."""
