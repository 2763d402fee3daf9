"""Off a terminal (a pipe, a log), a run says how far it is in whole lines, early and now and then."""

import re
import time

import pytest
from typer.testing import CliRunner

from pocha.api import simulate
from pocha.cli import app, progress
from pocha.cli.progress import ProgressBar, ProgressLines, progress_shown

LINE = re.compile(r"progress: \d+% \([\d,]+ of [\d,]+\) after \d+ s")


@pytest.fixture
def said_at_once(monkeypatch):
    """Progress lines from the first count on, one every 50 ms."""
    monkeypatch.setattr(progress, "FIRST", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.05)


def test_a_pipe_gets_lines_and_a_terminal_the_bar(monkeypatch):
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    assert isinstance(progress_shown(), ProgressLines)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert isinstance(progress_shown("games"), ProgressBar)


def test_lines_come_before_any_work_is_done_and_stop_when_all_is(said_at_once, capsys):
    shown = ProgressLines()
    shown(0, 2_000)  # a run about to play: a first compile, the probe of its estimate
    time.sleep(0.12)
    shown(2_000, 2_000)  # all done: tabulating, writing
    time.sleep(0.12)
    first = capsys.readouterr().err.splitlines()
    shown.close()
    assert first[0] == "progress: 0% (0 of 2,000) after 1 s" and len(first) >= 2
    assert capsys.readouterr().err == ""  # none while all was done, none after close


def test_a_command_says_nothing_before_its_first_count(said_at_once, capsys):
    shown = ProgressLines()
    time.sleep(0.1)
    shown.close()
    assert capsys.readouterr().err == ""


def test_a_run_is_told_its_work_before_any_is_done():
    seen = []
    simulate("expected", cards=[1, 2], deals=300, chunk_size=100, progress=lambda *now: seen.append(now))
    assert seen[0] == (0, 600) and seen[-1] == (600, 600)


@pytest.mark.parametrize(
    "line",
    [
        "simulate -k 1-10 -n 20000 --threads 1",
        "compare expected random -k 1-10 -n 5000 --threads 1",
        "game -g 2000 --threads 1",
        "models -k 1-5 -n 400 --threads 1",
        "train -n 2000 --threads 1 --out t.npz",
        *(  # the play-outs' kernels: out of the fast tier
            pytest.param(f"advise --hand 1O,3O,12C,5E,2B --trump 7O --play greedy {asked}", marks=pytest.mark.slow)
            for asked in ("--samples 3000", "--bids 1,2,0,1 --played 4O --position 1")  # a bid, a card
        ),
    ],
)
def test_a_command_in_a_pipe_says_its_progress_in_whole_lines(line, said_at_once, tmp_path, monkeypatch):
    """Issue 46: with stderr not a terminal, pocha variants ... 2>&1 | cat said nothing for 43 s."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, line.split())
    assert result.exit_code == 0, result.output
    lines = [said for said in result.stderr.splitlines() if said.startswith("progress: ")]
    assert lines and all(LINE.fullmatch(said) for said in lines) and "\r" not in result.stderr, result.stderr
    assert "progress: " not in result.stdout
