"""Every command fed random option values and files: exit 0, 1, 2 or 130, never a traceback, nothing left by a refusal.

The values mix good ones with the mistakes a user makes (out of range, misspelt, of the wrong
kind, files that are damaged or foreign or in the way). Runs stay small: amounts of play are drawn
from a few small or invalid values. The examples are derandomized, so a run of the suite is
repeatable; a failure prints the command that caused it.
"""

import functools
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pocha.cli import app

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))  # more, and random ones: FUZZ_EXAMPLES=2000 pytest ...
PLACES = {  # names of the sandbox's paths, prepared by ``sandbox``
    "new.csv",
    "new_folder",
    "missing/x.csv",
    "missing/folder",
    "foreign.csv",
    "folder",
    "empty",
    "file.txt/x",
    "damaged.npz",
    "foreign.jsonl",
    "run",
    "broken_run",
    "t.jsonl",
    "ck.npz",
    "table.npz",
    "bad.py",
}
NUMBERS = st.sampled_from(["0", "1", "2", "3", "-1", "x", "1.5", "99999999999999999999", "", "10"])
AMOUNTS = st.sampled_from(["0", "-5", "1", "7", "30", "abc", "10000000000000000000000"])
SPECS = st.sampled_from(
    [
        "expected",
        "zero",
        "random",
        "fair-share",
        "aces-trumps",
        "expected:bias=0.5",
        "expected:bias=x",
        "nosuch",
        "montecarlo:samples=2",
        "montecarlo:rollout=pimc:rollout=learned",
        "expected@pimc:samples=1,rollout=learned",
        "table",
        "table:path=<table.npz>",
        "table:path=<damaged.npz>",
        "<bad.py>:Bad",
        "<bad.py>:Missing",
        "expected:",
        ":",
        "a:b:c:d",
        "sample_strategy:Broken",
        "expected:bias=1e400",
    ]
)


def place(name: str) -> st.SearchStrategy[str]:
    """A path of the sandbox, as ``<name>`` (filled in when the sandbox exists)."""
    return st.just(f"<{name}>")


PATHS = st.sampled_from(sorted(PLACES)).flatmap(place)
RULE_OPTIONS = {
    "--players": NUMBERS | st.sampled_from(["4", "5", "8", "7"]),
    "--preset": st.sampled_from(["ludoteka", "italian", "polish", "turkish", "portuguese", "oh-hell", "bridge"]),
    "--deck": st.sampled_from(["36", "40", "48", "44", "20", "1,3,12", "1,1,3", "x", "0", "1"]),
    "--rank-order": st.sampled_from(["natural", "ace-three", "odd"]),
    "--play-rule": st.sampled_from(
        ["pocha", "trump", "follow", "pocha-trump-lead-free", "pocha-always-beat", "bridge"]
    ),
    "--hook": st.sampled_from(["always", "never", "except-one-card", "sometimes"]),
}
RUN_OPTIONS = {
    "--seed": NUMBERS | st.sampled_from(["9223372036854775807", "9223372036854775808", "-9"]),
    "--play": st.sampled_from(
        ["greedy", "random", "learned", "learned:model=damaged.npz", "clever", "pimc:samples=1,rollout=learned"]
        + ["pimc:rollout=lerned"]
    ),
    "--format": st.sampled_from(["table", "csv", "json", "xml"]),
    "--out": PATHS,
    "--plot": st.just(None),
    "--force": st.just(None),
    "--chunk-size": st.sampled_from(["1", "64", "0", "-2", "x"]),
    "--threads": NUMBERS,
    "--backend": st.sampled_from(["local", "spark"]),
    "--workers": NUMBERS,
    "--scheduler": st.just("tcp://127.0.0.1:1"),
    "--scoring": st.sampled_from(
        ["10,5,-5", "20,2,-10", "10,1,1,0", "tricks+10", "bonus-only", "1,2", "a,b,c", "10;5;-5"]
    ),
}
SAVING = {"--checkpoint": PATHS, "--resume": PATHS, "--checkpoint-every": st.sampled_from(["1", "0", "-3", "x"])}
COMMANDS = {
    "simulate": {
        **RULE_OPTIONS,
        **RUN_OPTIONS,
        **SAVING,
        "-n": AMOUNTS,
        "--cards": st.sampled_from(["all", "1", "3", "1-3", "2,2", "0", "11", "x", "3-1", "4,7"]),
        "-s": SPECS,
        "--trace": PATHS,
        "--trace-deals": NUMBERS,
        "--predictions": st.just(None),
    },
    "compare": {
        **RULE_OPTIONS,
        **RUN_OPTIONS,
        **SAVING,
        "-n": AMOUNTS,
        "--cards": st.sampled_from(["2", "1-2", "x"]),
        "--field": SPECS,
        "--no-duplicate": st.just(None),
    },
    "game": {
        **RULE_OPTIONS,
        **RUN_OPTIONS,
        "-g": AMOUNTS,
        "-s": SPECS,
        "--schedule": st.sampled_from(["full", "short", "up", "full-only", "1,2", "1-3", "0", "x", "99"]),
        "--tie-break": st.sampled_from(["all", "tied", "one", "coin"]),
        "--full-deals": st.sampled_from(["n", "n+1", "n+2"]),
        "--no-rotate": st.just(None),
        "--trace": PATHS,
        "--trace-games": NUMBERS,
    },
    "advise": {
        **RULE_OPTIONS,
        "--hand": st.sampled_from(["1O 3O 12C", "1O 1O", "", "3X", "8C", "1C"]),
        "--trump": st.sampled_from(["7O", "1O", "x", "12B"]),
        "--position": NUMBERS,
        "--bids": st.sampled_from(["", "1", "1,0", "x", "9", "0,0,0"]),
        "--bid": NUMBERS,
        "--samples": st.sampled_from(["2", "50", "1", "x"]),
        "--assume": SPECS,
        "--format": st.sampled_from(["table", "json", "csv"]),
        "--seed": NUMBERS,
    },
    "rules": {
        **RULE_OPTIONS,
        "--scoring": st.sampled_from(["10,5,-5", "exact-only", "1,2,3,4", "1,2"]),
        "--schedule": st.sampled_from(["short", "1,2", "x"]),
        "--tie-break": st.sampled_from(["one", "coin"]),
        "--full-deals": st.sampled_from(["n+1", "x"]),
        "--format": st.sampled_from(["text", "json", "csv"]),
    },
    "train": {
        **RULE_OPTIONS,
        "--out": PATHS,
        "-n": st.sampled_from(["1", "20", "0", "x"]),
        "--seed": NUMBERS,
        "--chunk-size": st.sampled_from(["5", "0"]),
        "--threads": NUMBERS,
    },
    "strategies": {"--format": st.sampled_from(["text", "json", "xml"])},
    "report": {},
}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A command and some of its options, in a random order (compare and report get their arguments)."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options = COMMANDS[command]
    chosen = draw(st.lists(st.sampled_from(sorted(options)), max_size=6, unique=True)) if options else []
    line = [command]
    if command == "compare":
        line += draw(st.lists(SPECS, min_size=0, max_size=4))
    if command == "report":
        line.append(draw(PATHS))
    if command == "train" and "--out" not in chosen:
        chosen.append("--out")
    if command in ("simulate", "compare", "game", "train") and not {"-n", "-g"} & set(chosen):
        line += ["-n", "20"] if command != "game" else ["-g", "4"]  # the defaults are long runs
    if command == "simulate" and "--cards" not in chosen:
        line += ["--cards", "2"]
    if command == "advise":
        line += [] if "--hand" in chosen else ["--hand", "1O 3O"]
        line += [] if "--trump" in chosen else ["--trump", "7C"]
    for option in chosen:
        value = draw(options[option])
        line += [option] if value is None else [option, value]
    return line


@functools.cache
def template() -> Path:
    """Files a user might point an option at: foreign files, damaged files, earlier runs (made once, copied)."""
    folder = Path(tempfile.mkdtemp(prefix="pocha-fuzz-"))
    (folder / "foreign.csv").write_text("name,age\nann,3\n")
    (folder / "folder").mkdir()
    (folder / "folder" / "photo.jpg").write_bytes(b"jpg")
    (folder / "empty").mkdir()
    (folder / "file.txt").write_text("x")
    (folder / "damaged.npz").write_bytes(b"PK\x03\x04 not a zip")
    (folder / "foreign.jsonl").write_text('{"format": "something else"}\n')
    (folder / "bad.py").write_text("class Bad:\n    name = 'bad'\n\n    def bid(self, ctx):\n        return 1 / 0\n")
    (folder / "broken_run").mkdir()
    (folder / "broken_run" / "run.json").write_text(json.dumps({"command": "simulate", "files": {"x.csv": 3}}))
    runner = CliRunner()
    runner.invoke(app, ["simulate", "-k", "2", "-n", "20", "--out", str(folder / "run")])
    runner.invoke(app, ["simulate", "-k", "2", "-n", "20", "--trace", str(folder / "t.jsonl")])
    runner.invoke(app, ["simulate", "-k", "2", "-n", "20", "--checkpoint", str(folder / "ck.npz")])
    runner.invoke(app, ["train", "--out", str(folder / "table.npz"), "-p", "4", "-n", "20"])
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", 150)),
    deadline=None,
    derandomize=not os.environ.get("FUZZ_EXAMPLES"),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(line=command_lines())
def test_any_command_line_ends_cleanly(line):
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory) / "sandbox"
        shutil.copytree(template(), folder)
        paths = {name: str(folder / name) for name in PLACES}
        args = [re.sub(r"<([^<>]+)>", lambda name: paths[name[1]], arg) for arg in line]
        before = files(folder)
        old = os.getcwd()
        os.chdir(folder)
        try:
            result = CliRunner().invoke(app, args)
        finally:
            os.chdir(old)
        shown = " ".join(args)
        assert result.exit_code in (0, 1, 2, 130), f"{shown}: exit {result.exit_code}\n{result.output}"
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{shown}: {type(result.exception).__name__}: {result.exception}"
        )
        assert "Traceback" not in result.output, f"{shown}\n{result.output}"
        if result.exit_code == 1:
            assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, f"{shown}\n{result.stderr}"
        if result.exit_code in (1, 2):
            assert files(folder) == before, f"{shown}: a refused run changed the files"
