"""Output files that appear whole or not at all: written under a temporary name, renamed at the end."""

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pocha.errors import PochaError


def check_writable(path: str | os.PathLike[str], what: str) -> Path:
    """Refuse, before any work, an output path whose folder is missing or that names a folder."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise PochaError(f"{what}: folder '{folder}' does not exist (for '{target}'); create it first")
    if target.is_dir():
        raise PochaError(f"{what}: '{target}' is a folder; give a file name")
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; it replaces ``path`` only if the block ends without error."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
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
