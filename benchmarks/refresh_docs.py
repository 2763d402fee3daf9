"""Rerun the docs' commands whose shown output tests/test_docs.py does not check, and refresh it.

test_docs.py runs every ``$ pocha ...`` command of README.md and docs/, but checks the lines it
shows only when the command runs as written; a command it cuts to test size (more deals, games or
samples than CUT allows) is run, its output left unchecked. This script reruns those commands as
written, in a scratch folder holding the page's files, and says which shown outputs differ;
``--write`` puts what they print now in place of the shown lines, line by line: each shown line
no longer printed gives way to the printed line of the same row or sentence (the same words, its
figures apart), so the page's cut, order and notes (``...``, ``(...)``) stay. A block without notes
whose lines cannot all be matched so is replaced whole; one with notes is reported. The commands
are slow (that is why they are cut): choose some with ``--match``. ``--all`` takes the checked
commands too, after a change that moves every output (a new default model).

    python benchmarks/refresh_docs.py --list
    python benchmarks/refresh_docs.py --match "rules" --write
    python benchmarks/refresh_docs.py --all --write
"""

import argparse
import importlib.util
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("test_docs", ROOT / "tests" / "test_docs.py")
assert spec is not None and spec.loader is not None
docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(docs)  # the docs test's own reading of the pages: one parser for both


def showing(page: Path, checked: bool) -> list[tuple[str, list[str]]]:
    """The page's commands that show output: those the docs test does not check (it runs them cut), or all."""
    return [
        (command, shown)
        for command, shown in docs.commands(page)
        if shown and (checked or docs.cut(argv(command)) != argv(command))
    ]


def argv(command: str) -> list[str]:
    """A shown command's arguments after ``pocha``."""
    return shlex.split(command, comments=True)[1:]


def commandless(page: Path) -> list[str]:
    """The first line of each plain block with no ``pocha`` command: nothing reruns it.

    Such a block is output shown for a command in the prose, or another program's lines.
    """
    return [
        text.split("\n", 1)[0]
        for language, text in docs.blocks(page)
        if language in ("", "text") and not any(line.startswith(("pocha", "$ pocha")) for line in text.splitlines())
    ]


CHATTER = ("compiling the kernels ", "progress: ", "this run will take ")  # stderr's word on a run, not its output


def rerun(page: Path, command: str) -> list[str]:
    """What the command prints now (stdout, then stderr less CHATTER), run as written beside the page's files."""
    with tempfile.TemporaryDirectory() as scratch:
        for name, text in docs.files(page).items():
            (Path(scratch) / name).write_text(text, encoding="utf-8")
        (Path(scratch) / "benchmarks").symlink_to(ROOT / "benchmarks")
        done = subprocess.run(
            [sys.executable, "-m", "pocha", *argv(command)],
            cwd=scratch,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise SystemExit(f"{page.name}: `{command}` failed: {done.stderr.strip().splitlines()[-1:]}")
    said = [line for line in done.stderr.splitlines() if not line.startswith(CHATTER)]
    lines = [line.rstrip() for line in [*done.stdout.splitlines(), *said]]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def rewrite(page: Path, command: str, shown: list[str], printed: list[str]) -> None:
    """Put ``printed`` in place of the lines shown after ``$ command`` on the page."""
    text = page.read_text(encoding="utf-8")
    old = "\n".join([f"$ {command}", *shown]) + "\n"
    assert text.count(old) == 1, f"{page.name}: `{command}` is shown {text.count(old)} times"
    page.write_text(
        text.replace(old, "\n".join([f"$ {command}", *printed]) + "\n"),
        encoding="utf-8",
    )


FIGURES = r"[-+]?\d[\d,]*\.\d+%?|[-+]?\d+%|[-+]\d[\d,]*"  # what a run measures: decimals, percentages, signed
NUMBERS = r"\d[\d,.]*"  # every number, counts and labels too


def key(line: str, numbers: str = FIGURES) -> str:
    """A line with its numbers blanked: which row or sentence it is, whatever it measured."""
    return " ".join(re.sub(numbers, "#", line).split())


def counterpart(line: str, shown: list[str], printed: list[str]) -> str | None:
    """The printed line that is the shown ``line`` now: the one of its key, or of several the same in turn.

    Tried with the measured figures blanked, then (a count or a label changed too) with every number. A
    page that shows fewer lines of a key than are printed is taken to show the first ones (a cut block).
    """
    for numbers in (FIGURES, NUMBERS):
        same = [candidate for candidate in printed if key(candidate, numbers) == key(line, numbers)]
        alike = [other for other in shown if key(other, numbers) == key(line, numbers)]
        if same and len(alike) <= len(same):  # several rows of one key: the first shown is the first printed...
            return same[alike.index(line)]
    return None


def refreshed(shown: list[str], printed: list[str]) -> tuple[list[str], list[str]]:
    """The shown lines with each one no longer printed replaced by its ``counterpart``.

    Keeps the page's cut, order and notes. Also the shown lines that found none (left as they were).
    """
    lines, unmatched = [], []
    for line in shown:
        if docs.noted(line) or line.rstrip() in printed:
            lines.append(line)
            continue
        now = counterpart(line, shown, printed)
        lines.append(now or line)
        if now is None:
            unmatched.append(line.strip())
    return lines, unmatched


def main() -> None:
    """List, rerun or rewrite the unchecked outputs (or all), as the options say."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the unchecked commands, run nothing")
    parser.add_argument("--match", default="", help="only the commands containing this text")
    parser.add_argument("--write", action="store_true", help="rewrite the shown outputs that differ")
    parser.add_argument("--all", action="store_true", help="the commands the docs test checks too")
    options = parser.parse_args()
    for page in docs.PAGES:
        if options.list:
            for first in commandless(page):
                print(f"{page.relative_to(ROOT)}: no command, a block starting {first[:60]!r}")
        for command, shown in showing(page, options.all):
            if options.match not in command:
                continue
            where = f"{page.relative_to(ROOT)}: {command}"
            if options.list:
                print(where)
                continue
            lines = rerun(page, command)  # blank lines kept for the page, left out of the comparison
            printed = [line for line in lines if line]
            lines_now, unmatched = refreshed(shown, printed)
            if lines_now == shown and not unmatched:  # every shown line still printed
                print(f"same     {where}")
            elif options.write and not unmatched:
                rewrite(page, command, shown, lines_now)  # line by line: the page's cut and notes kept
                print(f"written  {where}")
            elif options.write and not any(docs.noted(line) for line in shown if line.strip()):
                rewrite(page, command, shown, lines)  # a whole output whose lines changed: all of it again
                print(f"written  {where} (the whole output)")
            else:
                print(f"differs  {where}")
                for line in unmatched[:3]:
                    print(f"  shown, not printed now: {line}")


if __name__ == "__main__":
    main()
