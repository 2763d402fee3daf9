"""The project's one numba decorator, its inlined and vectorised forms, and word of the first compile."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba
from numba.core import event

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


VECTORISED: set[Callable[..., object]] = set()  # the Python functions ``jit_vectorised`` compiles


def jit_vectorised(function):
    """``jit``, compiled with LLVM's SLP vectoriser on: for a loop written as independent lanes (a block of sums).

    numba leaves the SLP vectoriser off for every function (``NUMBA_SLP_VECTORIZE``: it once
    miscompiled), so eight sums kept in registers stay scalar. It is switched on only while such a
    function compiles (``Vectorising``); callers inline the vector code. Each lane still adds its terms
    in order, with no fused multiply-add: the same bits on any CPU, vector or not.
    """
    VECTORISED.add(function)
    return jit(function)


class Vectorising(event.Listener):
    """Keeps numba's SLP vectoriser on while a ``jit_vectorised`` function compiles, and only then."""

    def __init__(self) -> None:
        self.before: list[int] = []

    def on_start(self, event_: event.Event) -> None:
        """A compile starts: a vectorised function's switches the vectoriser on."""
        if event_.data["dispatcher"].py_func in VECTORISED:
            self.before.append(numba.config.SLP_VECTORIZE)
            numba.config.SLP_VECTORIZE = 1

    def on_end(self, event_: event.Event) -> None:
        """A compile ends: a vectorised function's puts the setting back."""
        if event_.data["dispatcher"].py_func in VECTORISED:
            numba.config.SLP_VECTORIZE = self.before.pop()


event.register("numba:compile", Vectorising())


class FirstCompile(event.Listener):
    """Calls ``announce`` when the process starts its first compile, once (a kernel loaded from the cache is none)."""

    def __init__(self, announce: Callable[[], None]) -> None:
        self.announce: Callable[[], None] | None = announce

    def on_start(self, _: event.Event) -> None:
        """A compile starts: the first one announces."""
        if self.announce is not None:
            announce, self.announce = self.announce, None
            announce()

    def on_end(self, _: event.Event) -> None:
        """A compile ends: nothing to say."""


class CompileCount(event.Listener):
    """Counts the compiles that start while it listens (a kernel loaded from the cache is none)."""

    def __init__(self) -> None:
        self.started = 0

    def on_start(self, _: event.Event) -> None:
        """A compile starts."""
        self.started += 1

    def on_end(self, _: event.Event) -> None:
        """A compile ends: counted at its start."""


@contextmanager
def counting_compiles() -> Iterator[CompileCount]:
    """Inside, the compiles that start, counted (``CompileCount.started``)."""
    counter = CompileCount()
    with event.install_listener("numba:compile", counter):
        yield counter


@contextmanager
def announcing_first_compile(announce: Callable[[], None]) -> Iterator[None]:
    """Inside, call ``announce`` just before the first kernel compiles: a cold cache, worth a word to a user.

    numba compiles a kernel on its first call with new argument types when its cache holds none; the
    event comes only then, not when a cached kernel is loaded.
    """
    with event.install_listener("numba:compile", FirstCompile(announce)):
        yield
