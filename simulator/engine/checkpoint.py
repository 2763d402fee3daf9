"""Checkpoints: a run's merged accumulators and finished chunks, saved now and then, to resume from.

A checkpoint is an npz file (a zip: each member carries a CRC, so a truncated or damaged file is
detected) holding the tally's integer arrays, the numbers of the finished tasks and the run's
options. It is written under a temporary name and renamed, so a run killed at any moment leaves the
previous checkpoint whole. Resuming checks that the options are the same and plays the rest.
"""

import json
import time
import zipfile
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from pocha.engine.atomic import atomic_path, check_writable
from pocha.engine.tally import Tally
from pocha.errors import PochaError
from pocha.version import __version__

FORMAT = "pocha-checkpoint/1"
ARRAYS = ("boards", "moments", "cross", "hand_fields", "errors")  # the Tally's accumulators
DEFAULT_EVERY = 5.0  # seconds of progress between saves


class Run(Protocol):
    """What a checkpoint needs of a run's plan (``pocha.engine.simulate.Plan``)."""

    def fingerprint(self) -> dict[str, Any]:
        """The options that fix the results, as plain data."""
        ...

    @property
    def task_count(self) -> int:
        """How many tasks the run has."""
        ...

    def empty_tally(self) -> Tally:
        """Zeroed accumulators."""
        ...


@dataclass
class Checkpoint:
    """Saves a run's progress to ``path`` every ``every`` seconds; resumes from ``resume`` if given."""

    path: Path | None
    every: float = DEFAULT_EVERY
    resume: Path | None = None
    last: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.path is not None:
            check_writable(self.path, "checkpoint", is_checkpoint, "pocha checkpoint")
        if self.resume is not None and not Path(self.resume).is_file():
            raise PochaError(f"resume: no checkpoint file '{self.resume}'")
        if self.every <= 0:
            raise PochaError(f"checkpoint-every: must be more than 0 seconds, not {self.every}")

    def saved_chunk_size(self) -> int | None:
        """The chunk size of the run being resumed (so a resume need not repeat it), None if not resuming."""
        if self.resume is None:
            return None
        return int(read(Path(self.resume))[0]["run"]["chunk_size"])

    def start(self, plan: Run) -> tuple[Tally, set[int]]:
        """The tally and finished tasks to start from: the resumed checkpoint's, or nothing yet."""
        if self.resume is None:
            return plan.empty_tally(), set()
        return load(Path(self.resume), plan)

    def tick(self, plan: Run, tally: Tally, done: Set[int]) -> None:
        """Save if the last save is ``every`` seconds old."""
        if time.monotonic() - self.last >= self.every:
            self.save(plan, tally, done)

    def save(self, plan: Run, tally: Tally, done: Set[int]) -> None:
        """Write the checkpoint, whole or not at all."""
        self.last = time.monotonic()
        if self.path is None:
            return
        meta = {"format": FORMAT, "version": __version__, "run": plan.fingerprint(), "tasks": plan.task_count}
        with atomic_path(self.path) as temporary, open(temporary, "wb") as stream:
            arrays = {name: getattr(tally, name) for name in ARRAYS}
            np.savez(stream, meta=np.array(json.dumps(meta)), done=np.array(sorted(done), np.int64), **arrays)


def is_checkpoint(path: Path) -> bool:
    """Whether a file is a pocha checkpoint, so a new one may replace it."""
    try:
        read(path)
    except PochaError:
        return False
    return True


def read(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray], set[int]]:
    """A checkpoint's options, arrays and finished tasks; one clear line if it is damaged."""
    try:
        with open(path, "rb") as stream, np.load(stream) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {name: data[name] for name in ARRAYS}
            done = set(data["done"].tolist())
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, json.JSONDecodeError) as error:
        raise PochaError(
            f"resume: '{path}' is not a whole pocha checkpoint (truncated or damaged: {error}); it was not used"
        ) from None
    if meta.get("format") != FORMAT:
        raise PochaError(f"resume: '{path}' is not a {FORMAT} file")
    return meta, arrays, done


def load(path: Path, plan: Run) -> tuple[Tally, set[int]]:
    """A checkpoint's tally and finished tasks, refused with one clear line if damaged or from other options."""
    meta, arrays, done = read(path)
    ours = plan.fingerprint()
    if meta["run"] != ours:
        differ = [key for key in ours if meta["run"].get(key) != ours.get(key)]
        shown = "; ".join(f"{key}: {meta['run'].get(key)} there, {ours.get(key)} here" for key in differ)
        raise PochaError(f"resume: '{path}' was saved by a run with other options ({shown}); give the same options")
    tally = plan.empty_tally()
    if any(arrays[name].shape != getattr(tally, name).shape for name in ARRAYS) or not done <= set(
        range(meta["tasks"])
    ):
        raise PochaError(f"resume: '{path}' does not match this run's shape; it was not used")
    for name in ARRAYS:
        setattr(tally, name, arrays[name])
    return tally, done
