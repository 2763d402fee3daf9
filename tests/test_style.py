"""The tooling gates, run with the suite: ruff (lint and format), mypy on the package as users import it, and
the limits that keep calls readable by name."""

import ast
import os
import re
import subprocess
import sys

import pytest
from layout import ROOT, build_view, modules

MOST_POSITIONAL = 8  # parameters a function takes, or arguments a call passes, by position
MOST_FORMAT_SKIPS = 15  # "# fmt: skip" markers in the whole tree


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


def long_positional(tree: ast.AST, in_kernels: bool) -> list[str]:
    """Functions taking, and calls passing, more than MOST_POSITIONAL arguments by position (kernels may take more)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and not in_kernels:
            count = len(node.args.posonlyargs) + len(node.args.args)
            if count > MOST_POSITIONAL:
                found.append(f"def {node.name} takes {count} positional parameters")
        elif isinstance(node, ast.Call):
            count = sum(not isinstance(argument, ast.Starred) for argument in node.args)
            if count > MOST_POSITIONAL:
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...) passes {count} arguments by position")
    return found


def test_calls_read_by_name():
    found = [
        f"{name}: {problem}"
        for name, path in modules()
        for problem in long_positional(ast.parse(path.read_text()), name.startswith("pocha.kernels."))
    ]
    assert found == []


def test_the_positional_limit_is_caught():
    source = "def f(a, b, c, d, e, f, g, h, i):\n    pass\nf(1, 2, 3, 4, 5, 6, 7, 8, 9)\n"
    assert len(long_positional(ast.parse(source), in_kernels=False)) == 2
    assert len(long_positional(ast.parse(source), in_kernels=True)) == 1


def test_few_format_skips():
    sources = [path for _, path in modules()] + sorted((ROOT / "tests").glob("*.py"))
    lines = [line for path in sources for line in path.read_text().splitlines()]
    assert sum(line.rstrip().endswith("# fmt: skip") for line in lines) <= MOST_FORMAT_SKIPS


AD_HOC_PLURALS = re.compile(r"""["']s["'] \* \(|["']s["'] if [^"']|["']["'] if \S+ == 1 else ["']s["']""")


def test_plurals_come_from_one_helper():
    """A count's noun is ``pocha.words.counted``'s ("1 card", "2 cards"), never an ``'s' * (n != 1)`` of its own."""
    found = [
        f"{name}:{number}: {line.strip()}"
        for name, path in modules()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if AD_HOC_PLURALS.search(line)
    ]
    assert found == []
    assert AD_HOC_PLURALS.search("""f"{n} card{'s' * (n != 1)}" """) and AD_HOC_PLURALS.search("""'s' if n > 1""")
