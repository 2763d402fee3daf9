"""The project's one numba decorator, and its inlined form."""

import numba

from pocha.kernels.cache import kernel_cache


def jit(function=None, **options):
    """The project's one numba decorator: disk cache on (``kernels.cache``'s folder), no GIL, numpy error model."""

    def decorate(function):
        with kernel_cache():
            return numba.njit(function, cache=True, nogil=True, error_model="numpy", **options)

    return decorate if function is None else decorate(function)


def jit_inline(function):
    """``jit``, inlined: for the per-card steps, and for the helpers the kernels call with constants.

    A per-card step has many arguments: inlined, no call survives in the play loop. A helper given a
    constant (a stream number) would otherwise be compiled once per constant value. LLVM inlines the
    small helpers by itself; inlining all of them at numba level cost 3 s more compile for no
    measurable speed.
    """
    return jit(inline="always")(function)
