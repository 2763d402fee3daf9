"""The docs run: every command and Python block of the README and docs/ runs here, its shown output checked.

A command is a line of a fenced block that starts with ``pocha`` or ``$ pocha``; the lines after a
``$`` command, up to the next, are its shown output. Amounts are cut to test size (deals, games,
samples, repeats); a command run as written has every line it shows checked against what it prints
(``...`` stands for lines left out, a line in parentheses is a note). A Python block whose first
line is ``# NAME.py`` is a file the page's commands use (saved beside them); every other Python
block is run, its amount (a line ``DEALS = N``, ``GAMES`` or ``SAMPLES``) cut to 2. A block or
command that needs an optional extra (OpenSpiel, PettingZoo) is skipped where it is not installed,
with the line that installs it. Every relative link and image of the pages (and of CONTRIBUTING and
the CHANGELOG) must name a file that exists, and a ``#`` anchor one of that page's headings.
"""

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocha.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CUT = {"-n": 200, "--deals": 200, "-g": 40, "--games": 40, "--samples": 2000, "--repeats": 1}  # option -> at most
CUT_OF = {"match": {"-n": 1}, "train-play": {"-n": 4, "--deals": 4}}  # own cuts: a match decision costs seconds
DEFAULTS = {  # a command whose default amount is long runs with this instead
    "variants": ["--games", "40"],
    "train-play": ["--deals", "20", "--rounds", "1", "--teacher", "pimc:samples=4,solve=2"],
}
SCRIPT_AMOUNT = re.compile(r"^(DEALS|GAMES|SAMPLES) = \d[\d_]*$", re.M)  # a block's amount, cut to 2
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
EXTRAS = {"openspiel": "pyspiel", "pettingzoo": "pettingzoo"}  # an optional extra -> the module it installs
NEEDS = re.compile(r"\b(pyspiel|open_spiel|openspiel|pettingzoo)\b")  # what a block names of one
COMMAND_NEEDS = {"match": "openspiel"}  # a command -> the extra it needs


def skip_without(extra: str) -> None:
    """Skip the test where ``extra`` is not installed, saying how to install it."""
    reason = f"the {extra} extra is not installed: pip install -e '.[{extra}]'"
    pytest.importorskip(EXTRAS[extra], reason=reason)


def test_the_glossarys_example_verdict_is_one_the_readme_shows():
    """Issue 46: the glossary's example verdict had numbers no run gave."""
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    verdict = re.search(r'\| verdict \| a sentence such as "([^"]+)"', glossary)[1]
    assert verdict in (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(page: Path) -> list[tuple[str, str]]:
    """The fenced blocks of a page: (language, text)."""
    return FENCE.findall(page.read_text(encoding="utf-8"))


def files(page: Path) -> dict[str, str]:
    """The files a page's commands use: its Python blocks that start with ``# NAME.py``."""
    found = {}
    for language, text in blocks(page):
        first = text.split("\n", 1)[0]
        if language == "python" and re.fullmatch(r"# [\w.-]+\.py", first):
            found[first[2:]] = text
    return found


def commands(page: Path) -> list[tuple[str, list[str]]]:
    """Every command of a page's fenced blocks, with the output lines shown after it."""
    found: list[tuple[str, list[str]]] = []
    for language, text in blocks(page):
        if language == "python":
            continue
        shown = None
        for line in text.splitlines():
            if line.startswith(("$ pocha ", "pocha ")) or line in ("$ pocha", "pocha"):
                found.append((line.removeprefix("$ "), []))
                shown = found[-1][1] if line.startswith("$") else None
            elif shown is not None:
                shown.append(line)
    return found


def cut(args: list[str]) -> list[str]:
    """The command's arguments with its amounts cut to test size."""
    out = list(args)
    limits = CUT | CUT_OF.get(out[0] if out else "", {})
    for i, word in enumerate(out[:-1]):
        if word in limits and out[i + 1].isdigit():
            out[i + 1] = str(min(int(out[i + 1]), limits[word]))
    default = DEFAULTS.get(out[0] if out else "", [])
    return out + default if default and default[0] not in out else out


def noted(line: str) -> bool:
    """Whether a shown line is the page's note rather than output: ``...`` or ``(...)``."""
    text = line.strip()
    return text in ("", "...") or (text.startswith("(") and text.endswith(")"))


CASES = [
    pytest.param(page, command, shown, id=f"{page.name}: {command[:70]}")
    for page in PAGES
    for command, shown in commands(page)
]
SCRIPTS = [
    pytest.param(text, id=f"{page.name}: block {i}")
    for page in PAGES
    for i, (language, text) in enumerate(blocks(page))
    if language == "python" and text not in files(page).values()
]


@pytest.mark.docs
@pytest.mark.parametrize(("page", "command", "shown"), CASES)
def test_every_command_of_the_docs_runs(page, command, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in files(page).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    (tmp_path / "strategies" / "tables").mkdir(parents=True)  # where the training commands write
    args = shlex.split(command, comments=True)[1:]
    if args and args[0] in COMMAND_NEEDS:
        skip_without(COMMAND_NEEDS[args[0]])
    result = CliRunner().invoke(app, cut(args), input="q\n")  # pocha play stops at its first question
    assert result.exit_code == 0, result.output
    if cut(args) == args:
        printed = {line.rstrip() for line in (result.stdout + result.stderr).splitlines()}
        missing = [line for line in shown if not noted(line) and line.rstrip() not in printed]
        assert not missing, f"shown but not printed: {missing[:3]}"


@pytest.mark.docs
@pytest.mark.parametrize("text", SCRIPTS)
def test_every_python_block_of_the_docs_runs(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tests").symlink_to(ROOT / "tests")  # blocks run "from the repository's root" read its files
    for named in sorted(set(NEEDS.findall(text))):
        skip_without("pettingzoo" if named == "pettingzoo" else "openspiel")
    code = SCRIPT_AMOUNT.sub(lambda amount: f"{amount[1]} = 2", text)
    exec(compile(code, "<docs>", "exec"), {"__name__": "__docs__"})


LINKED = [*PAGES, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")  # a link's or an image's target: [text](target), ![alt](target)
HEADING = re.compile(r"^#+ (.+)$", re.M)


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(page: Path) -> list[str]:
    """The relative links and images of a page (outside its code blocks) that lead nowhere."""
    found = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):  # https:, mailto:: not this repository's
            continue
        path, _, place = target.partition("#")
        linked = (page.parent / path) if path else page
        if not linked.is_file():
            found.append(f"{target}: no such file")
        elif place and place not in {anchor(h) for h in HEADING.findall(FENCE.sub("", linked.read_text("utf-8")))}:
            found.append(f"{target}: no such heading in {linked.name}")
    return found


@pytest.mark.parametrize("page", LINKED, ids=lambda page: page.name)
def test_every_relative_link_and_image_resolves(page):
    assert broken_links(page) == []


def test_a_link_to_a_missing_file_or_heading_is_caught(tmp_path):
    (tmp_path / "there.md").write_text("# A heading, with `code`\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n[a](gone.md) ![b](gone.png) [c](#top) [d](#nowhere) [e](https://example.org) "
        "[f](there.md#a-heading-with-code) [g](there.md#other)\n```\n[h](in-a-code-block.md)\n```\n"
    )
    assert broken_links(page) == [
        "gone.md: no such file",
        "gone.png: no such file",
        "#nowhere: no such heading in page.md",
        "there.md#other: no such heading in there.md",
    ]


def test_refresh_docs_keeps_a_runs_output_and_leaves_its_chatter_out(monkeypatch, tmp_path):
    """Issue 46's walk: `refresh_docs.py --write` put a run's `progress:` line into strong-bidding.md and dropped
    its blank lines (it filtered an old wording of the compile notice, and wrote the lines it compared)."""
    import importlib.util
    import subprocess

    spec = importlib.util.spec_from_file_location("refresh_docs", ROOT / "benchmarks" / "refresh_docs.py")
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    said = "compiling the kernels this pocha models run needs\nprogress: 50% (8 of 16) after 2 s\nwhere: 12.0%\n"
    ran = subprocess.CompletedProcess([], 0, stdout="heading\n\ntable  \n", stderr=said)
    monkeypatch.setattr(refresh.subprocess, "run", lambda *args, **kwargs: ran)
    (tmp_path / "page.md").write_text("# A page\n", encoding="utf-8")
    assert refresh.rerun(tmp_path / "page.md", "pocha models") == ["heading", "", "table", "where: 12.0%"]
