"""The installed layout of the package, read from pyproject.toml: which folder holds which part of ``pocha``."""

import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parent.parent


def package_folders() -> dict[str, Path]:
    """Package name -> the repository folder it is installed from (``pocha`` -> ``simulator/``, ...).

    A package without a ``package-dir`` entry lies in its parent's folder (``pocha.game`` -> ``simulator/game``).
    """
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders: dict[str, Path] = {}
    for package in sorted(config["packages"], key=len):
        parent, _, name = package.rpartition(".")
        folders[package] = (
            ROOT / config["package-dir"][package] if package in config["package-dir"] else folders[parent] / name
        )
    return folders


def modules() -> Iterator[tuple[str, Path]]:
    """``(module name, source file)`` of every module of the installed package."""
    for package, folder in package_folders().items():
        for path in sorted(folder.glob("*.py")):
            yield (package if path.stem == "__init__" else f"{package}.{path.stem}"), path


def build_view(target: Path) -> Path:
    """Lay the package out under ``target`` as a wheel installs it, as links to the sources; returns ``target``."""
    for package, folder in package_folders().items():
        place = target.joinpath(*package.split("."))
        place.mkdir(parents=True, exist_ok=True)
        for path in folder.glob("*.py"):
            (place / path.name).symlink_to(path)
        if (folder / "py.typed").exists():
            (place / "py.typed").symlink_to(folder / "py.typed")
    return target
