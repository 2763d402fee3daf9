"""numba's compiled kernels go to a per-user folder keyed by version and source, or to NUMBA_CACHE_DIR."""

import numba
import pytest

from pocha.kernels import cache


def test_the_user_cache_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setattr(cache.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.user_cache_root() == tmp_path


def test_the_key_changes_with_any_source_file(monkeypatch, tmp_path):
    files = [tmp_path / "kernels.py", tmp_path / "table.py"]
    for path in files:
        path.write_text("x = 1\n")
    monkeypatch.setattr(cache, "source_files", lambda: files)
    before = cache.source_key()
    files[1].write_text("x = 2\n")
    assert cache.source_key() != before and cache.source_key().startswith(cache.__version__ + "-")


def test_the_key_covers_every_module_of_the_package():
    names = {path.name for path in cache.source_files()}
    assert {"play.py", "rules.py", "simulate.py", "table.py", "commands.py", "text.py"} <= names


def test_numba_cache_dir_wins_and_other_code_keeps_its_setting(monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    cache.kernel_cache_dir.cache_clear()
    try:
        assert cache.kernel_cache_dir() == str(tmp_path)
    finally:
        cache.kernel_cache_dir.cache_clear()
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(cache, "kernel_cache_dir", lambda: str(tmp_path / "ours"))
    with cache.kernel_cache():
        assert str(tmp_path / "ours") == numba.config.CACHE_DIR
    assert numba.config.CACHE_DIR == ""


def test_without_numba_cache_dir_the_folder_is_keyed_under_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(cache, "user_cache_root", lambda: tmp_path)
    monkeypatch.delenv("POCHA_CACHE_DIR")
    cache.kernel_cache_dir.cache_clear()
    try:
        folder = cache.kernel_cache_dir()
    finally:
        cache.kernel_cache_dir.cache_clear()
    assert folder == str(tmp_path / "pocha" / "numba" / cache.source_key())


def test_pocha_cache_dir_moves_the_whole_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setenv("POCHA_CACHE_DIR", str(tmp_path))
    cache.kernel_cache_dir.cache_clear()
    try:
        folder = cache.kernel_cache_dir()
    finally:
        cache.kernel_cache_dir.cache_clear()
    assert cache.pocha_cache_root() == tmp_path and folder == str(tmp_path / "numba" / cache.source_key())


def test_folders_unused_for_a_month_are_pruned(tmp_path):
    import os
    import time

    old, recent = tmp_path / "0.0.9-aaaa", tmp_path / "0.1.0-bbbb"
    for folder in (old, recent):
        folder.mkdir()
    month_ago = time.time() - 31 * 86400
    os.utime(old, (month_ago, month_ago))
    cache.prune(tmp_path)
    assert not old.exists() and recent.exists()


def test_each_xdist_worker_compiles_into_its_own_folder():
    """Two workers never save into one numba index (its read-modify-write is not safe across processes)."""
    import os

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        pytest.skip("not run by an xdist worker")
    assert os.path.basename(cache.kernel_cache_dir()) == worker
    assert os.environ["NUMBA_CACHE_DIR"] == cache.kernel_cache_dir()
