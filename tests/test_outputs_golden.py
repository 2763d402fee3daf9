"""What a few commands print and write, byte for byte as recorded in tests/golden/outputs.

A refactoring must leave every output, run.json and help text as it was: each case runs a command
(or a pair: a run and its resume) and compares stdout, stderr and the files it wrote with the
recorded text. A change meant to show is recorded again with ``POCHA_WRITE_GOLDEN=1 pytest
tests/test_outputs_golden.py -n 0`` and said in CHANGELOG.md. The date a run records and the
folder the test writes in are the only parts blanked.
"""

import json
import os
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pocha.cli import app

GOLDEN = Path(__file__).parent / "golden" / "outputs"
STOPPER = "sample_strategy:Interrupting:after=40"  # raises KeyboardInterrupt on its 40th call, as Ctrl-C would
# said only on a cold cache, which depends on what ran before
CACHED = re.compile(r"^(compiling the kernels|table: learning the trick table) .*$\n?", re.MULTILINE)
STOPPED = re.compile(r"(?s)\nstopped: .*")  # how far a stopped run got depends on when the probe of its speed ran
COMMANDS = ("simulate", "compare", "game", "variants", "advise", "models", "match", "play")
COMMANDS += ("train", "train-play", "report", "rules", "strategies", "bench")
CASES = {
    "simulate": ["simulate -k 2 -n 1000"],
    "simulate_csv": ["simulate -k 1-3 -n 500 --format csv"],
    "compare_out": ["compare expected random -k 3 -n 1000 --out OUT/cmp"],
    "compare_field": ["compare expected random -p 3 --field fair-share -k 2 -n 500 --no-duplicate --format summary"],
    "game_out": ["game --games 200 --schedule 1-3 --out OUT/game"],
    "variants": ["variants ludoteka ludoteka:hook=never --games 40 --out OUT/variants"],
    "checkpoint_resumed": [
        "simulate -k 2 -n 400 --chunk-size 100 --threads 1 --checkpoint OUT/ck.npz",
        "simulate -k 2 -n 400 --chunk-size 100 --threads 1 --resume OUT/ck.npz",
    ],
    "stopped": [f"simulate -s {STOPPER} -k 2 -n 1000 --chunk-size 100 --threads 1 --checkpoint OUT/st.npz"],
    "stopped_game": [f"game -s {STOPPER.replace('40', '100')} --games 400 --schedule 1-3 --chunk-size 10 --threads 1"],
    "models": ["models -k 2 -n 200"],
    "rules": ["rules --preset polish -p 5"],
    "help": ["--help"],
    **{f"help_{command}": [f"{command} --help"] for command in COMMANDS},
}


def ran(args: list[str], out: Path) -> str:
    """The commands' exit codes, stdout and stderr, then every file written, as one text."""
    parts = []
    for line in args:
        result = CliRunner().invoke(app, shlex.split(line.replace("OUT", str(out))), env={"COLUMNS": "100"})
        stderr = CACHED.sub("", result.stderr)
        stdout = STOPPED.sub("\nstopped: ...", result.stdout) if "Interrupted" in stderr else result.stdout
        parts += [f"$ pocha {line}", f"exit {result.exit_code}", "--- stdout", stdout, "--- stderr", stderr]
    for path in sorted(out.rglob("*")):
        if path.suffix in (".csv", ".json", ".html", ".txt"):
            text = path.read_text()
            if path.name == "run.json":
                data = json.loads(text)
                data["date"] = "DATE"
                text = json.dumps(data, indent=1)
            parts += [f"--- file {path.relative_to(out)}", text]
        elif path.is_file():
            parts.append(f"--- file {path.relative_to(out)} ({path.suffix} file)")
    return "\n".join(parts).replace(str(out), "OUT") + "\n"


@pytest.mark.parametrize("case", CASES)
def test_a_command_prints_and_writes_what_it_did(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shown = ran(CASES[case], tmp_path)
    recorded = GOLDEN / f"{case}.txt"
    if os.environ.get("POCHA_WRITE_GOLDEN"):
        recorded.parent.mkdir(parents=True, exist_ok=True)
        recorded.write_text(shown)
    assert shown == recorded.read_text()
