"""A type checker reads the public API: mypy on tests/typed_api.py, whose ``assert_type`` lines name each result."""

import os
import subprocess
import sys

import pytest
from layout import ROOT, build_view

TYPED = ROOT / "tests" / "typed_api.py"


@pytest.fixture(scope="module")
def mypy(tmp_path_factory):
    """mypy on one file, ``pocha`` laid out as a wheel installs it (as tests/test_style.py checks the package).

    One cache for the module's checks: the second reads the package's types from the first.
    """
    place = tmp_path_factory.mktemp("typing")
    environment = {**os.environ, "MYPYPATH": str(build_view(place / "view"))}

    def check(path) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "mypy", "--cache-dir", str(place / "cache"), "--no-error-summary", str(path)]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=environment)

    return check


def test_mypy_sees_each_run_s_result_type(mypy):
    result = mypy(TYPED)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_result_type_is_caught(mypy, tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text(TYPED.read_text().replace("players=3), SimulationResult)", "players=3), GamesResult)"))
    result = mypy(wrong)
    assert result.returncode == 1 and 'Expression is of type "SimulationResult", not "GamesResult"' in result.stdout


def test_a_misspelt_or_mistyped_keyword_is_caught(mypy, tmp_path):
    """The runs' signatures are visible, their flat keywords among them (``**flat: Unpack[...Keywords]``)."""
    wrong = tmp_path / "keywords.py"
    wrong.write_text(
        "import pocha\n"
        "pocha.compare(['expected', 'random'], deelz=3)\n"
        "pocha.simulate('expected', players='three')\n"
        "pocha.variants(['ludoteka'], preset='polish')\n"
    )
    result = mypy(wrong)
    assert result.returncode == 1, result.stdout
    assert 'Unexpected keyword argument "deelz"' in result.stdout, result.stdout
    assert 'Argument "players" to "simulate" has incompatible type "str"' in result.stdout, result.stdout
    assert 'Unexpected keyword argument "preset" for "variants"' in result.stdout, result.stdout  # no rules group
