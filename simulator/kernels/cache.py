"""pocha's per-user cache folder (``POCHA_CACHE_DIR``, else the platform's): compiled kernels and learned tables.

numba keeps the compiled kernels in it, never in the installed package.

numba's default puts its cache files beside the source, in ``__pycache__``: inside site-packages for
an installed copy, where an uninstall leaves them behind (and the leftover folder can then shadow a
later install). pocha's kernels go to the platform's cache folder instead, under a key made of the
version and a hash of the package's source files, so two installs or versions never read each
other's compiled code, and a kernel calling a changed kernel in another file is never stale.
``NUMBA_CACHE_DIR``, when set, wins (as numba documents); the choice applies to pocha's kernels only.
The ``table`` strategy keeps the tables it learns on first use beside them (``pocha.strategies.table``).
"""

import contextlib
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import numba

from pocha.version import __version__

SUBPACKAGES = ("strategies", "reports")  # kernels may live in any module of the package
KEEP_DAYS = 30  # a cache folder no run has used for this long is removed


def user_cache_root() -> Path:
    """The platform's usual per-user cache folder: XDG on Linux, Library/Caches on macOS, LOCALAPPDATA on Windows."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def pocha_cache_root() -> Path:
    """The cache folder of pocha: ``POCHA_CACHE_DIR`` if set, else ``pocha`` in the user's cache folder."""
    return Path(os.environ.get("POCHA_CACHE_DIR") or user_cache_root() / "pocha")


def source_files() -> list[Path]:
    """Every Python file of the package, wherever its sub-packages live (an editable install maps folders)."""
    folders = [Path(__file__).parent.parent]  # simulator/, the package root, with game/, kernels/, engine/
    for name in SUBPACKAGES:
        spec = importlib.util.find_spec(f"pocha.{name}")
        if spec is not None and spec.submodule_search_locations:
            folders += [Path(folder) for folder in spec.submodule_search_locations]
    return sorted({path.resolve() for folder in folders for path in folder.rglob("*.py")})


def source_key() -> str:
    """The version and a hash of every source file's path and content."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{__version__}-{digest.hexdigest()[:16]}"


def prune(parent: Path) -> None:
    """Remove the folders of other versions or sources that no run has used for KEEP_DAYS days."""
    stale = time.time() - KEEP_DAYS * 86400
    for folder in parent.iterdir():
        with contextlib.suppress(OSError):
            if folder.is_dir() and folder.stat().st_mtime < stale:
                shutil.rmtree(folder)


@cache
def kernel_cache_dir() -> str:
    """The folder for pocha's compiled kernels: ``NUMBA_CACHE_DIR`` if set, else a keyed folder in pocha's cache.

    Falls back to the temporary folder when the user's cache folder cannot be written.
    """
    if numba.config.CACHE_DIR:
        return str(numba.config.CACHE_DIR)
    key = source_key()
    user = getattr(os, "getuid", lambda: "")()
    for root in (pocha_cache_root(), Path(tempfile.gettempdir()) / f"pocha-cache-{user}" / "pocha"):
        folder = root / "numba" / key
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.utime(folder)  # in use: kept from pruning
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            prune(folder.parent)
            return str(folder)
    return str(Path(tempfile.mkdtemp(prefix="pocha-numba-")))


@contextmanager
def kernel_cache() -> Iterator[None]:
    """Point numba's cache at ``kernel_cache_dir()`` while pocha's kernels are decorated.

    numba fixes a function's cache folder when it is decorated, so the setting is put back at once
    and other numba code in the process keeps its own.
    """
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = kernel_cache_dir()
    try:
        yield
    finally:
        numba.config.CACHE_DIR = previous
