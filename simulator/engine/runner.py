"""The one loop of every run: tasks played on a backend, each result merged as it comes, Ctrl-C kept.

``simulate``, ``compare``, whole games and training all go through ``run_tasks``. The backend plays
the tasks (threads of this process or a Dask cluster) and hands the results back as they finish;
each is merged into the running total at once, so memory stays flat. A Ctrl-C (or a SIGTERM the
command line turns into one) ends the loop with everything merged so far.
"""

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from pocha.engine.backends import Backend

Total = TypeVar("Total")


class Part(Protocol):
    """A finished task's result: it stands for ``count`` deals (or games) of work."""

    @property
    def count(self) -> int:
        """Deals or games the task played."""
        ...


Result = TypeVar("Result", bound=Part)


def run_tasks(
    backend: Backend,
    work: Callable[[Any], Result],
    tasks: Iterable[Any],
    total: Total,
    merge: Callable[[Total, Result], Total],
    progress: Callable[[int], None] | None = None,
) -> tuple[Total, bool]:
    """``(total, complete)``: every task's ``work`` merged into ``total``; complete is False after Ctrl-C.

    merge(total, result) returns the new total (it may also write the result's trace or save a
    checkpoint); progress is called with each result's count.
    """
    try:
        for part in backend.run(work, tasks):
            total = merge(total, part)
            if progress is not None:
                progress(part.count)
    except KeyboardInterrupt:
        return total, False
    return total, True
