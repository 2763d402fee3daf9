"""Checkpoints: a run's merged accumulators and finished tasks, saved now and then, to resume from.

A checkpoint is an npz file (a zip: each member carries a CRC, so a truncated or damaged file is
detected) holding the total's integer arrays (a ``Tally``'s: only runs of deals are checkpointed),
the numbers of the finished tasks, and the plan as run.json holds it with the chunk size that cut
it into those tasks. It is written under a temporary name and renamed, so a run killed at any
moment leaves the previous checkpoint whole. Resuming checks that the plan is the same and plays the rest.
"""

import json
import time
import zipfile
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from pocha.engine.atomic import atomic_path, check_writable
from pocha.engine.workload import Workload
from pocha.errors import PochaError
from pocha.version import __version__

CHECKPOINT_FORMAT = "pocha-checkpoint/3"  # /3: the plan as run.json holds it; /2: the rules say play_rule
ARRAYS = ("boards", "moments", "cross", "hand_fields", "errors")  # the Tally's accumulators
DEFAULT_EVERY = 5.0  # seconds of progress between saves

T = TypeVar("T")


@dataclass
class Checkpoint:
    """Saves a run's progress to ``path`` every ``every`` seconds; resumes from ``resume`` if given.

    A stopped run's checkpoint at ``path`` is replaced only when it is the one resumed, or with
    ``force``: a run given the same options again, without ``--resume``, must not lose it without a word.
    """

    path: Path | None
    every: float = DEFAULT_EVERY
    resume: Path | None = None
    last: float = field(default_factory=time.monotonic)
    force: bool = False

    def __post_init__(self) -> None:
        if self.path is not None:
            check_writable(self.path, "checkpoint", is_checkpoint, "pocha checkpoint")
            resumed = self.resume is not None and Path(self.resume).resolve() == Path(self.path).resolve()
            if not (self.force or resumed) and Path(self.path).exists() and is_stopped(Path(self.path)):
                raise PochaError(
                    f"checkpoint: '{self.path}' holds the progress of a stopped run; --resume {self.path} "
                    "continues it, --force starts the run over"
                )
        if self.resume is not None and not Path(self.resume).is_file():
            raise PochaError(f"resume: no checkpoint file '{self.resume}'")
        if self.resume is not None:
            read(Path(self.resume))  # a damaged file is refused before any work, not after a first progress line
        if self.every <= 0:
            raise PochaError(f"checkpoint-every: must be more than 0 seconds, not {self.every}")

    def saved_chunk_size(self) -> int | None:
        """The chunk size of the run being resumed (so a resume need not repeat it), None if not resuming."""
        if self.resume is None:
            return None
        return int(read(Path(self.resume))[0]["run"]["chunk_size"])

    def start(self, workload: Workload[T]) -> tuple[T, set[int]]:
        """The total and finished tasks to start from: the resumed checkpoint's, or nothing yet."""
        if self.resume is None:
            return workload.empty(), set()
        return load(Path(self.resume), workload)

    def tick(self, workload: Workload[T], total: T, done: Set[int]) -> None:
        """Save if the last save is ``every`` seconds old."""
        if time.monotonic() - self.last >= self.every:
            self.save(workload, total, done)

    def save(self, workload: Workload[T], total: T, done: Set[int]) -> None:
        """Write the checkpoint, whole or not at all."""
        self.last = time.monotonic()
        if self.path is None:
            return
        meta = {
            "format": CHECKPOINT_FORMAT,
            "version": __version__,
            "plan": type(workload).__name__,  # what kind of run: a checkpoint of another is refused as such
            "run": saved_plan(workload),
            "tasks": workload.task_count,
        }
        with atomic_path(self.path) as temporary, open(temporary, "wb") as stream:
            arrays = {name: getattr(total, name) for name in ARRAYS}
            np.savez(stream, meta=np.array(json.dumps(meta)), done=np.array(sorted(done), np.int64), **arrays)


def saved_plan(workload: Workload[Any]) -> dict[str, Any]:
    """What a checkpoint holds of a run: its plan as run.json holds it, and the chunk size its tasks were cut by."""
    return workload.to_dict() | {"chunk_size": workload.chunk_size}


def is_stopped(path: Path) -> bool:
    """Whether a checkpoint holds a run that did not finish: some of its tasks are still to play."""
    meta, _, done = read(path)
    return len(done) < meta["tasks"]


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
    except OSError as error:
        raise PochaError(f"resume: cannot read '{path}' ({error.strerror or error})") from None
    except (ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile):  # numpy's words would name no fix
        raise PochaError(
            f"resume: '{path}' is not a whole pocha checkpoint (truncated, damaged or another kind of file); "
            "it was not used"
        ) from None
    found = str(meta.get("format")) if isinstance(meta, dict) else ""
    if found != CHECKPOINT_FORMAT:
        if found.startswith("pocha-checkpoint/"):
            raise PochaError(f"resume: '{path}' was saved by another version of pocha ({found}); start the run again")
        raise PochaError(f"resume: '{path}' is not a pocha checkpoint ({CHECKPOINT_FORMAT})")
    return meta, arrays, done


def load(path: Path, workload: Workload[T]) -> tuple[T, set[int]]:
    """A checkpoint's total and finished tasks, refused with one clear line if damaged or from other options."""
    meta, arrays, done = read(path)
    ours = saved_plan(workload)
    if meta.get("plan", type(workload).__name__) != type(workload).__name__:
        raise PochaError(
            f"resume: '{path}' was saved by another command's run (simulate and compare each resume only their "
            "own checkpoints); resume it with the command that saved it"
        )
    if meta["run"] != ours:
        differ = [key for key in ours if meta["run"].get(key) != ours.get(key)]
        shown = "; ".join(f"{key}: {meta['run'].get(key)} there, {ours.get(key)} here" for key in differ)
        raise PochaError(f"resume: '{path}' was saved by a run with other options ({shown}); give the same options")
    total = workload.empty()
    if any(arrays[name].shape != getattr(total, name).shape for name in ARRAYS) or not done <= set(
        range(meta["tasks"])
    ):
        raise PochaError(f"resume: '{path}' does not match this run's shape; it was not used")
    for name in ARRAYS:
        setattr(total, name, arrays[name])
    return total, done
