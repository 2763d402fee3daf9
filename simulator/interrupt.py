"""Ctrl-C and SIGTERM as one rule: a ``KeyboardInterrupt`` in the main thread, never lost inside numba's compiler.

numba hands LLVM Python callbacks through ctypes (llvmlite's object cache, called on every compile
and every load of a cached kernel). An exception raised inside one is printed as "Exception ignored
on calling ctypes callback function" and dropped: Python's own SIGINT handler, run there, loses the
Ctrl-C (the run then goes on to its end) and leaves the kernel without its object code (numba's "no
compiled object yet"). The handler here raises only outside those callbacks; inside one, it asks
again a moment later, once the callback has returned.
"""

import _thread
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

ENGINE = "llvmlite.binding.executionengine"  # the module whose ctypes callbacks swallow exceptions
CALLBACKS = ("_raw_object_cache_notify", "_raw_object_cache_getbuffer")  # its ExecutionEngine's
RETRY = 0.01  # seconds before a signal that came inside a callback is delivered again
STOPPING = (signal.SIGINT, signal.SIGTERM)
PIECE_SECONDS = 0.25  # about how long each of ``pieces`` lasts: how long a signal waits for a kernel to return
OVER = threading.Event()  # set once a run writes and shows what it did: a signal then has nothing left to stop


def in_callback(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside one of llvmlite's ctypes callbacks (it, or a frame it called)."""
    engine = sys.modules.get(ENGINE)
    if engine is None:  # llvmlite not loaded: no compile can be under way
        return False
    codes = {getattr(engine.ExecutionEngine, name).__code__ for name in CALLBACKS}
    while frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


def stop(signum: int, frame: FrameType | None) -> None:
    """Raise ``KeyboardInterrupt``, or, inside a compiler callback, deliver ``signum`` again shortly.

    Once the run is over (``run_over``) the signal is let go: it came too late to stop anything.
    """
    if OVER.is_set():
        return
    if in_callback(frame):
        again = threading.Timer(RETRY, _thread.interrupt_main, (signum,))
        again.daemon = True
        again.start()
        return
    raise KeyboardInterrupt


@contextmanager
def interruptible() -> Iterator[None]:
    """Inside, SIGINT and SIGTERM both raise ``KeyboardInterrupt`` (main thread only, as signals are).

    A signal the process was started ignoring (``nohup``, a shell's background job) stays ignored.
    """
    ignored = {signum for signum in STOPPING if signal.getsignal(signum) == signal.SIG_IGN}
    OVER.clear()
    previous = {signum: signal.signal(signum, stop) for signum in STOPPING if signum not in ignored}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        OVER.clear()


def closing() -> None:
    """From now on SIGINT and SIGTERM are ignored: the command has ended, only the interpreter's shutdown is left.

    It takes about 0.3 s with numba loaded, under Python's handlers again and, once its signal
    module is gone, the system's (SIGINT kills): a signal then turned a finished run's exit status 0
    into 130 (143 for SIGTERM). An ignored signal stays ignored through the shutdown.
    """
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_IGN)


def run_over() -> None:
    """Say that the run has played all it will: inside ``interruptible``, a signal from now on stops nothing.

    Called as a run starts writing its files: a signal a moment later would otherwise end the
    command as "nothing was written", with the files there, and a finished run with exit status 130.
    """
    OVER.set()


def pieces(total: int, first: int = 16) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` ranges covering 0..total in order, each about PIECE_SECONDS of the caller's work on it.

    A kernel holds the main thread until it returns, and only then is a signal handled: long work done
    a piece a call stops within a piece. The first piece is ``first`` long (it may wait for a compile);
    each next is sized by how long the last took, growing at most fourfold.
    """
    start, size = 0, max(first, 1)
    while start < total:
        stop = min(start + size, total)
        began = time.perf_counter()
        yield start, stop
        took = time.perf_counter() - began
        size = max(1, min(4 * size, int((stop - start) * PIECE_SECONDS / max(took, 1e-9))))
        start = stop
