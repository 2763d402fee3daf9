"""Work done, on stderr, as it goes: a bar on a terminal, plain lines in a pipe or a file.

A run that lasts must say so early wherever its stderr goes: a terminal gets rich's bar once the
run has lasted a second; a pipe or a log, where a bar would be carriage returns, gets a whole line
within FIRST seconds of the command's start and then one now and then, from a thread of its own,
since a run's first chunk (a compile, the probe of the estimate) can take long.
"""

import sys
import threading
import time
from typing import Any

from pocha.words import duration

FIRST = 2.0  # seconds into a command its first line of progress comes, off a terminal
EVERY = 10.0  # seconds at least between two lines after it (and a fifth of the time so far: a long run says less)


class ProgressBar:
    """Work done, on a terminal's stderr: rich's bar, once a run has lasted a second."""

    def __init__(self, unit: str = "deals") -> None:
        self.total, self.unit, self.done, self.start = 0, unit, 0, time.monotonic()
        self.bar: Any = None  # a rich Progress once shown
        self.task: Any = None  # its task

    def __call__(self, done: int, total: int) -> None:
        """Show ``done`` of ``total``; start the bar once the run has lasted a second; a new total starts it again.

        (A new total: the run itself, after a trick table it learned first.)
        """
        if self.bar is not None and total != self.total:
            self.bar.reset(self.task, total=total)
        self.done, self.total = done, total
        if self.bar is None and time.monotonic() - self.start > 1.0 and self.done < self.total:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(*Progress.get_default_columns(), console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task(self.unit, total=self.total)
            self.bar.start()
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        """Remove the bar, if one was shown."""
        if self.bar is not None:
            self.bar.stop()


class ProgressLines:
    """Work done, on stderr that is no terminal: a line FIRST seconds into the command, then every EVERY or more.

    ``progress: 26% (640,000 of 2,500,000) after 5 s``: no unit, since a game's count may be the deals
    of a trick table it learns first; no time to go, since the first chunks are no guide to the rest
    (the hand sizes take turns, the small ones first; a long run's estimate comes from its probe,
    ``pocha.engine.estimate``). The lines start with the first count (a run counts from 0 before
    it plays) and pause while all of it is done (tabulating, writing), so a command that counts
    nothing says nothing.
    """

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.done, self.total = 0, 0
        self.ended = threading.Event()
        self.thread: threading.Thread | None = None

    def __call__(self, done: int, total: int) -> None:
        """Note ``done`` of ``total`` (a new total: the run after a table it learned); the first starts the lines."""
        self.done, self.total = done, total
        if self.thread is None:
            self.thread = threading.Thread(target=self.tell, name="pocha-progress", daemon=True)
            self.thread.start()

    def tell(self) -> None:
        """Say the progress now and then until ``close``."""
        due = self.start + FIRST
        while not self.ended.wait(max(due - time.monotonic(), 0.0)):
            elapsed = time.monotonic() - self.start
            if self.done < self.total:
                print(self.line(elapsed), file=sys.stderr, flush=True)
            due = self.start + elapsed + max(EVERY, elapsed / 5)

    def line(self, elapsed: float) -> str:
        """The line for this moment: how much is done, of how much, how long into the command."""
        done, total = self.done, self.total
        return f"progress: {done / total:.0%} ({done:,} of {total:,}) after {duration(elapsed)}"

    def close(self) -> None:
        """Stop the lines."""
        self.ended.set()
        if self.thread is not None:
            self.thread.join()


def progress_shown(unit: str = "deals") -> ProgressBar | ProgressLines:
    """How this process shows a run's progress: a bar on a terminal's stderr, lines otherwise."""
    return ProgressBar(unit) if sys.stderr.isatty() else ProgressLines()
