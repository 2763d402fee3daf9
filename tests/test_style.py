"""The tooling gates, run with the suite: ruff (lint and format) and mypy on the package as users import it."""

import os
import subprocess
import sys

import pytest
from layout import ROOT, build_view


@pytest.mark.parametrize("tool", [["ruff", "check", "."], ["ruff", "format", "--check", "."]], ids=" ".join)
def test_ruff_passes(tool):
    result = subprocess.run([sys.executable, "-m", *tool], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_passes_on_the_installed_layout(tmp_path):
    """mypy checks ``pocha`` laid out as a wheel installs it, so it sees the import names a user sees."""
    view = build_view(tmp_path / "view")
    environment = {**os.environ, "MYPYPATH": str(view)}
    command = [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=environment)
    assert result.returncode == 0, (result.stdout + result.stderr).replace(str(view), "<pocha>")
