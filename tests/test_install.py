"""The README's two set-up commands, one after the other in one environment, in the order that once broke pocha.

A wheel install ran (``pip install . && pocha simulate``), then the editable install for the tests
came on top. numba's cache files, written into site-packages, outlived the uninstall and turned the
old package folder into an empty namespace package that shadowed the new install. Here a wheel is
built from a copy of the project and installed into a fresh virtual environment (which borrows this
environment's libraries, so nothing is downloaded), run, uninstalled, and replaced by an editable
install, which must then work from a folder holding its own ``reports`` and ``strategies`` packages.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from site import getsitepackages

import pytest
from layout import ROOT, package_folders

from pocha.version import __version__

pytestmark = pytest.mark.install

DISTRIBUTION = "pocha-simulator"  # what pip installs and the index would list; the command and import: pocha


def run(*command: str | Path, cwd: Path, env: dict[str, str]) -> str:
    """Run a command; fail the test with its output if it fails."""
    result = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(map(str, command))}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def copy_project(target: Path) -> Path:
    """The project's own files, as a clean clone holds them."""
    target.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, target / name)
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "examples")
    for folder in {path.relative_to(ROOT).parts[0] for path in package_folders().values()}:
        shutil.copytree(ROOT / folder, target / folder, ignore=skip)
    return target


def fresh_venv(place: Path) -> Path:
    """A virtual environment without pip that sees this environment's libraries (numpy, numba, pip...)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(place)], check=True)
    python = place / ("Scripts" if os.name == "nt" else "bin") / "python"
    site = Path(
        run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=place, env=dict(os.environ)
        ).strip()
    )
    paths = sysconfig.get_paths()  # and the system's, which a venv made with --system-site-packages reads
    borrowed = dict.fromkeys([paths["purelib"], paths["platlib"], *getsitepackages()])
    (site / "borrowed.pth").write_text("".join(f"{path}\n" for path in borrowed))  # paths only: no .pth runs
    return python


def test_a_wheel_install_that_ran_then_an_editable_install(tmp_path):
    source = copy_project(tmp_path / "clone")
    python = fresh_venv(tmp_path / "venv")
    site = Path(
        run(
            python,
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            cwd=tmp_path,
            env=dict(os.environ),
        ).strip()
    )
    pocha = python.parent / "pocha"
    user = tmp_path / "user"
    (user / "reports").mkdir(parents=True)  # a user's own packages named like the project's folders
    (user / "reports" / "__init__.py").write_text("raise ImportError('the user reports package was imported')\n")
    (user / "strategies").mkdir()
    (user / "strategies" / "__init__.py").write_text("raise ImportError('the user strategies package')\n")
    dropped = ("NUMBA_CACHE_DIR", "POCHA_CACHE_DIR", "PYTHONPATH")
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env |= {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}

    run(python, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist", source, cwd=tmp_path, env=env)
    (wheel,) = (tmp_path / "dist").glob("pocha_simulator-*.whl")  # the index's "pocha" is another project
    run(python, "-m", "pip", "install", "-q", "--no-deps", wheel, cwd=tmp_path, env=env)
    listed = run(python, "-m", "pip", "show", "-f", DISTRIBUTION, cwd=tmp_path, env=env).split("Files:")[1].split()
    tops = {Path(line).parts[0] for line in listed if not line.startswith("..")}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"pocha"}
    assert (site / "pocha" / "kernels" / "play.py").is_file()
    provides = "import importlib.metadata as m; print(*set(m.packages_distributions()['pocha']))"  # of import pocha
    assert run(python, "-c", provides, cwd=tmp_path, env=env) == f"{DISTRIBUTION}\n"  # (this one, and a borrowed one)

    run(pocha, "simulate", "-k", "2", "-n", "200", cwd=user, env=env)
    assert not [p.name for p in site.rglob("*") if p.suffix in (".nbi", ".nbc")], "numba cached into site-packages"
    assert list((tmp_path / "cache" / "pocha" / "numba").rglob("*.nbi")), "numba did not cache in the user folder"

    run(python, "-m", "pip", "uninstall", "-q", "-y", DISTRIBUTION, cwd=tmp_path, env=env)
    assert not (site / "pocha").exists(), f"left behind: {sorted(map(str, (site / 'pocha').rglob('*')))}"

    run(python, "-m", "pip", "install", "-q", "--no-deps", "-e", source, cwd=tmp_path, env=env)
    assert run(pocha, "--version", cwd=user, env=env) == f"pocha {__version__}\n"
    assert "Usage" in run(pocha, "--help", cwd=user, env=env)
    probe = "import pocha.cli, pocha.reports.text, pocha.strategies.registry; print(pocha.cli.__file__)"
    assert Path(run(python, "-c", probe, cwd=user, env=env).strip()).is_relative_to(source)
    run(pocha, "simulate", "-k", "2", "-n", "200", "--format", "csv", cwd=user, env=env)
