"""Output files that appear whole or not at all: checked before the work, written under a temporary name, renamed.

Every destination is checked before a run plays a deal: its folder exists and can be written, it
is not a folder, and a file already there is one of pocha's own of the same kind (a run never
overwrites a file of the user's). Files that belong together (a run folder) appear together.
"""

import contextlib
import errno
import glob
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from pocha.errors import PochaError

WHY_NOT_WRITTEN = {  # what an error number means for a folder a file cannot be made in, in pocha's words
    errno.EACCES: "you have no permission to write there",
    errno.EPERM: "you have no permission to write there",
    errno.EROFS: "it is on a read-only file system",
    errno.ENOSPC: "its disk is full",
}


def check_folder_writable(folder: Path, what: str) -> None:
    """Refuse a folder that is missing, not a folder, or cannot be written (read-only, no permission)."""
    if not folder.exists():
        raise PochaError(f"{what}: folder '{folder}' does not exist; create it first")
    if not folder.is_dir():
        raise PochaError(f"{what}: '{folder}' is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        why = WHY_NOT_WRITTEN.get(error.errno or 0, "it takes no new files")
        raise PochaError(f"{what}: cannot write in '{folder}': {why}; give another folder") from None


def named(path: str | os.PathLike[str], what: str, wanted: str = "a file name") -> Path:
    """The path of an option, refused when its name is empty (``--out ""`` names no place; Path makes it '.')."""
    if not str(path).strip():
        raise PochaError(f"{what}: the name is empty; give {wanted}")
    return Path(path)


def check_writable(
    path: str | os.PathLike[str], what: str, ours: Callable[[Path], bool] | None = None, kind: str = "file"
) -> Path:
    """Refuse, before any work, an output file that could not be written, or a file there that is not ours.

    ours(path): whether an existing file is pocha's own of this kind (then it may be replaced).
    """
    target = named(path, what)
    if target.is_dir():
        raise PochaError(f"{what}: '{target}' is a folder; give a file name")
    check_folder_writable(target.parent, what)
    if target.exists() and ours is not None and not ours(target):
        raise PochaError(f"{what}: '{target}' exists and is not a {kind}; give another name (it was left alone)")
    return target


def is_leftover(path: Path) -> bool:
    """Whether a file is a temporary one of pocha's that a killed run left (SIGKILL runs no clean-up)."""
    return path.name.startswith(".") and path.name.endswith(".part")


def clear_leftovers(folder: Path) -> None:
    """Remove the temporary files a killed run left in a folder of pocha's own (a run folder), whatever their names.

    A killed ``--plot`` run leaves one for a figure the next run, without ``--plot``, does not write:
    ``temporary_for`` alone would keep it for good.
    """
    for stale in folder.glob(".*.part"):
        with contextlib.suppress(OSError):
            stale.unlink()


def temporary_for(folder: Path, name: str) -> Path:
    """A new temporary file in ``folder`` to become ``name``; those an earlier, killed run left for it go first."""
    for stale in folder.glob(f".{glob.escape(name)}.*.part"):
        with contextlib.suppress(OSError):
            stale.unlink()
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
    os.close(handle)
    return Path(temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; it replaces ``path`` only if the block ends without error."""
    target = Path(path)
    temporary = temporary_for(target.parent, target.name)
    try:
        yield Path(temporary)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes the file private; outputs get the usual mode
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """Open a text file for writing that replaces ``path`` only if the block ends without error."""
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8", newline="\n") as stream:
        yield stream


@contextlib.contextmanager
def together(folder: Path, replacing: Iterable[Path] = ()) -> Iterator[Callable[[str], Path]]:
    """Temporary paths in ``folder`` for files that appear together when the block ends, or not at all.

    The block asks for a path per file name and writes it; at the end the files in ``replacing``
    (an earlier run's) are removed and the new ones renamed into place. On an error nothing changes.
    """
    folder.mkdir(exist_ok=True)
    pending: dict[Path, Path] = {}

    def path_for(name: str) -> Path:
        pending[folder / name] = temporary_for(folder, name)
        return pending[folder / name]

    try:
        yield path_for
    except BaseException:
        for temporary in pending.values():
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
        raise
    for old in replacing:
        if old not in pending:
            with contextlib.suppress(FileNotFoundError):
                old.unlink()
    for target, temporary in pending.items():
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
