import contextlib
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import numba
import pandas as pd
import pytest
from typer.testing import CliRunner

from pocha import api, playing
from pocha.cli import commands
from pocha.cli.app import COMPILE_SECONDS, app, compiling_announced
from pocha.engine import startup
from pocha.engine.bench import BENCHMARKS, Measurement, reference_program, reference_rate
from pocha.engine.startup import run_seconds
from pocha.errors import PochaError
from pocha.options import RuleOptions
from pocha.reports.text import bench_lines, startup_lines

runner = CliRunner()


def invoke(*args: str):
    """Run the CLI with these arguments, or with one command line split as a shell splits it."""
    return runner.invoke(app, shlex.split(args[0]) if len(args) == 1 else list(args))


def test_simulate_prints_a_table_by_position_and_by_hand_size():
    result = invoke("simulate", "--deals", "300")
    assert result.exit_code == 0, result.output
    for text in ("expected", "aces-trumps", "fair-share", "random", "By bidding position", "By hand size", "±95%"):
        assert text in result.stdout


def test_simulate_one_size_csv_and_file_agree(tmp_path):
    out = tmp_path / "results.csv"
    result = invoke("simulate", "-k", "5", "-n", "400", "-s", "expected", "--format", "csv", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text() == result.stdout
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # not the private mode of a temporary file
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert list(frame.columns[:6]) == ["strategy", "play", "cards", "position", "deals", "hands"]
    assert set(frame.play) == {"learned"}  # the default play
    assert set(frame.position.astype(str)) == {"1", "2", "3", "4", "all"}
    assert set(frame.strategy) == {"expected"}


def test_simulate_json():
    result = invoke("simulate -k 2 -n 100 -p 3 --format json --seed 5")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["run"]["seed"] == 5 and data["run"]["rules"]["players"] == 3
    assert {row["strategy"] for row in data["results"]} == {"expected", "aces-trumps", "fair-share"}


@pytest.mark.slow
def test_trace_file(tmp_path):
    path = tmp_path / "deals.jsonl"
    result = invoke("simulate", "-k", "3", "-n", "100", "--trace", str(path), "--trace-deals", "10")
    assert result.exit_code == 0, result.output
    header, *deals = (json.loads(line) for line in path.read_text().splitlines())
    assert header["format"] == "pocha-trace/3" and header["seed"] == 0
    assert len(deals) == 10 and deals[0]["cards"] == 3 and len(deals[0]["tricks"]) == 3


def test_same_seed_same_bytes_whatever_the_chunk_size(tmp_path):
    outputs = []
    for chunk in ("5", "64", "16384"):
        csv, trace = tmp_path / f"r{chunk}.csv", tmp_path / f"t{chunk}.jsonl"
        args = ["simulate", "-n", "150", "--seed", "3", "--out", str(csv), "--trace", str(trace), "--chunk-size", chunk]
        assert invoke(*args).exit_code == 0
        outputs.append((csv.read_bytes(), trace.read_bytes()))
    assert outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2"], "no deck for 2 players"),
        (["--players", "7"], "no deck for 7 players"),
        (["--preset", "polish", "--players", "5"], "preset 'polish' has no deck for 5 players"),
        (["--preset", "poker"], "unknown preset 'poker'"),
        (["--cards", "11"], "1..10"),
        (["--cards", "lots"], "'lots' is not hand sizes such as 4,7,10 or 1-5"),
        (["--cards", "2,2"], "cards: 2 given more than once"),
        (["--cards", "9-11"], "cards: 11 is not a hand size here"),
        (["--players", "9", "--deck", "1,3"], "does not give 9 players a card each"),
        (["--deck", "44"], "no 44-card Spanish deck"),
        (["-s", "expectd"], "did you mean 'expected'"),
        (["-s", "expected:boldness=2"], "unknown parameter 'boldness'"),
        (["-s", "random", "-s", "zero"], "2 given for 4 players"),
        (["--deals", "0"], "deals: must be from 1 to 1,000,000,000,000,000, not 0"),
        (["--play", "clever"], "play: unknown 'clever'"),
        (["--hook", "sometimes"], "hook: unknown rule 'sometimes'"),
        (["--full-deal-trump", "joker"], "full-deal-trump: unknown rule 'joker'; accepted: dealer-card, none"),
        (["--format", "xml"], "format: unknown 'xml'"),
        (["--out", "no/such/folder/r.csv"], "folder 'no/such/folder' does not exist"),
        (["--trace", "no/such/folder/t.jsonl"], "folder 'no/such/folder' does not exist"),
        (["--plot"], "figures need --out FOLDER, not a .csv file"),
        (["-s", "expected:bias=0.3,bias=0.4"], "strategy 'expected:bias=0.3,bias=0.4': parameter bias given twice"),
        (
            ["--csv-style", "excel"],
            "csv-style: unknown style 'excel'; did you mean 'excel-es'? accepted: plain, excel-es",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_1(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("simulate", "-n", "10", "--out", "results.csv", *args)
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # no partial or empty output file


def test_a_failing_run_leaves_no_files(tmp_path):
    out, trace = tmp_path / "r.csv", tmp_path / "t.jsonl"
    # every seat bids 1 of 4: the dealer's bid is forbidden, in the first chunk
    args = ["-k", "4", "-s", "sample_strategy:Broken:value=1", "--out", str(out), "--trace", str(trace)]
    result = invoke("simulate", "-n", "10", *args)
    assert result.exit_code == 1 and "hook rule forbids" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_rules_command():
    result = invoke("rules")
    assert result.exit_code == 0
    assert "40 cards" in result.stdout and "10 cards each" in result.stdout and "(22 hands)" in result.stdout
    six = invoke("rules", "--players", "6", "--deck", "48").stdout
    assert "48 cards" in six and "8 cards each" in six
    data = json.loads(invoke("rules", "--preset", "turkish", "--players", "3", "--format", "json").stdout)
    assert data["rules"]["play_rule"] == "trump" and data["rules"]["ranks"][:2] == [1, 12]
    assert len(data["hand_sizes"]) == 25
    bad = invoke("rules", "--players", "7")
    assert bad.exit_code == 1 and bad.stderr.startswith("Error: ")
    assert "10 cards each; trump dealer-card: the dealer's last card names trump" in result.stdout
    bare = invoke("rules", "--full-deal-trump", "none")
    assert "10 cards each; trump none: no card is shown and no suit is trump" in bare.stdout
    bare_data = json.loads(invoke("rules", "--full-deal-trump", "none", "--format", "json").stdout)
    assert bare_data["rules"]["full_deal_trump"] == "none"


def test_the_scoring_flag_takes_a_name_or_numbers(tmp_path):
    shown = invoke("rules", "--scoring", "tricks+10").stdout
    assert "scoring    tricks+10: exact 10 + 1 per trick; missed 1 per trick taken\n" in shown
    assert ["bonus-only", "10", "0", "0", "0", "only"] in [line.split()[:6] for line in shown.splitlines()]
    assert "scoring    pocha: exact 10 + 5 per trick; missed -5 per trick off\n" in invoke("rules").stdout
    assert "scoring    10,1,2,-3: exact 10 + 1 per trick; missed 2 per trick taken, -3 per trick off" in (
        invoke("rules", "--scoring", "10,1,2,-3").stdout
    )
    data = json.loads(invoke("rules --scoring 20,2,-10 --format json").stdout)
    assert data["rules"]["scoring"] == {"exact": 20, "per_trick": 2, "per_trick_missed": 0, "miss_per_trick": -10}
    assert data["scoring_name"] is None and data["scoring_systems"]["exact-only"]["per_trick_missed"] == 0
    trace = tmp_path / "t.jsonl"
    result = invoke("simulate", "-k", "3", "-n", "50", "--scoring", "tricks+10", "--trace", str(trace))
    assert result.exit_code == 0 and "hook except-one-card, scoring tricks+10)" in result.stdout
    header, *deals = (json.loads(line) for line in trace.read_text().splitlines())
    assert header["rules"]["scoring"] == {"exact": 10, "per_trick": 1, "per_trick_missed": 1, "miss_per_trick": 0}
    assert all(p == w + 10 * (b == w) for d in deals for b, w, p in zip(d["bids"], d["won"], d["points"], strict=True))
    bad = invoke("simulate", "-n", "10", "--scoring", "10,5")
    assert bad.exit_code == 1 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    assert "tricks+10, exact-only, bonus-only" in bad.stderr and "E,T,W,M or E,T,M" in bad.stderr


def test_bench_prints_the_workloads():
    result = invoke("bench", "--deals", "2000", "--repeats", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 12 and "random bids + random play, 4 x 10" in lines[1] and "montecarlo bids" in lines[5]
    assert "bidding decisions" in lines[5] and "expected bids + greedy play, 4 x 10" in lines[6]
    assert "expected bids + learned play, 4 x 10" in lines[7] and "expected bids + pimc play, 4 x 10" in lines[8]
    assert "expected bids + pimc:solve=3 play, 4 x 10" in lines[9]
    assert "expected bids + pimc:samples=64,solve=4 play, 4 x 10" in lines[10]
    assert "4 players, whole games" in lines[11] and "games/s" in lines[11]


def test_bench_stages_profiles_each_step():
    result = invoke("bench", "--stages", "--repeats", "1")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()[1:]
    assert header.split()[1:] == ["deal", "bids", "play", "tally", "total", "deals/s"]
    assert len(rows) == 5 and rows[0].startswith("random bids + random play, 4 x 10")
    cells = [float(cell.replace(",", "")) for cell in rows[0].split()[-6:]]
    assert all(cell > 0 for cell in cells) and abs(sum(cells[:4]) - cells[4]) <= 2
    assert invoke("bench", "--stages", "--threads", "1,2").exit_code == 1


@pytest.mark.slow
def test_bench_startup_times_each_command_in_a_new_process():
    times = list(api.bench_startup(repeats=2, cold=False))
    assert [time.command for time in times] == ["pocha --version", "pocha --help", "pocha simulate --deals 1000"]
    assert all(len(time.seconds) == 2 and time.median > 0 and not time.cold for time in times)
    header, *lines = startup_lines(times, cold=False)
    assert "new process" in header and lines[2].startswith("pocha simulate --deals 1000 (warm)")
    assert invoke("bench", "--startup", "--stages").exit_code == 1
    with pytest.raises(PochaError, match="startup: pocha simulate --deals 0 failed: Error: "):
        run_seconds(("simulate", "--deals", "0"), dict(os.environ))


def test_bench_startup_says_what_it_times_before_its_first_run(monkeypatch):
    """The walk of issue 46: pocha bench --startup was silent 35 s, its cold run included, then printed all."""
    runs: list[tuple[str, ...]] = []
    monkeypatch.setattr(startup, "run_seconds", lambda args, _: runs.append(args) or 0.5)
    lines = iter(startup_lines(api.bench_startup(repeats=2)))
    assert "from an empty cache, which compiles first" in next(lines) and runs == []
    assert next(lines).startswith("pocha --version (warm)") and len(runs) == 3  # the untimed warm-up and 2 runs
    assert len(list(lines)) == 3 and len(runs) == 1 + 3 * 2 + 1
    with pytest.raises(PochaError, match="repeats: must be at least 1"):
        api.bench_startup(repeats=0)  # said when asked, before any line


def test_a_bench_run_of_one_deal_is_one_deal():
    """The walk of issue 46: the slowest workloads at -n 2000 printed "(1 deals a run; runs: 6)"."""
    (line,) = bench_lines([Measurement(BENCHMARKS[-2], "1 thread", 1, 1, [6.0])])
    assert line.endswith("(1 deal a run; runs: 6)")


def test_bench_against_a_reference_prints_its_ratio(tmp_path):
    fake = tmp_path / "ref"
    fake.write_text('#!/bin/sh\necho "mode=$1 k=$2 deals=$3 seed=$4 secs=1 deals_per_s=1000 ns_per_deal=1"\n')
    fake.chmod(0o755)
    result = invoke("bench", "--deals", "2000", "--repeats", "2", "--threads", "1,2", "--against", str(fake))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "reference 1,000: ratio" in lines[1] and "its mode H" in lines[3]  # aces-trumps: H
    assert "reference" not in lines[2]  # two threads: no per-core ratio
    assert sum("reference" in line for line in lines[1:]) == 3  # the workloads the reference has
    bad = invoke("bench", "--deals", "2000", "--against", "/bin/true")
    assert bad.exit_code == 1 and bad.stdout == "" and "did not print deals_per_s=" in bad.stderr


def test_bench_against_a_file_takes_the_file_as_named(tmp_path, monkeypatch):
    """Issue 46: ``--against mybids.py`` looked for mybids.py on the PATH ("No such file or directory").

    A file is taken where it is, relative or absolute, a .py one run by this Python; a bare name with no
    such file is a program on the PATH. What is not a timing program is told so in one line.
    """
    monkeypatch.chdir(tmp_path)
    Path("ref").write_text("#!/bin/sh\necho deals_per_s=1000\n")
    Path("ref").chmod(0o755)
    Path("ref.py").write_text("print('deals_per_s=2000')\n")
    for named, rate in (("ref", 1000), ("./ref", 1000), (str(tmp_path / "ref"), 1000), ("ref.py", 2000)):
        assert reference_rate(reference_program(named), "W", 1, 1000, 1) == rate
    assert reference_program("true") == (shutil.which("true"),)  # a program on the PATH
    Path("mybids.py").write_text("class TrumpsOnly:\n    pass\n")  # a strategy file, as the README's
    Path("notes").write_text("x\n")
    for named, said in (
        ("mybids.py", "did not print deals_per_s= (exit 0) (--against times a program's speed; a strategy file is "),
        ("nothing-here", "no file nothing-here and no program of that name on the PATH; give a program that runs "),
        ("./nothing-here", "no file ./nothing-here; give a program that runs as BINARY W|H K DEALS SEED"),
        ("notes", "notes is not executable (chmod +x notes); give a program that runs as BINARY W|H K DEALS SEED"),
    ):
        result = invoke("bench", "--deals", "2000", "--against", named)
        assert result.exit_code == 1 and result.stdout == "" and said in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_bench_against_c_source_that_cannot_be_built(tmp_path, monkeypatch):
    missing = invoke("bench", "--deals", "2000", "--against", str(tmp_path / "none.c"))
    assert missing.exit_code == 1 and missing.stdout == "" and "cannot read" in missing.stderr
    broken = tmp_path / "broken.c"
    broken.write_text("int main( {\n")
    if shutil.which("cc"):
        result = invoke("bench", "--deals", "2000", "--against", str(broken))
        assert result.exit_code == 1 and result.stdout == "" and "cc could not build" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    monkeypatch.setattr(shutil, "which", lambda name: None)
    result = invoke("bench", "--deals", "2000", "--against", str(broken))
    assert result.exit_code == 1 and result.stdout == "" and "needs a C compiler (cc)" in result.stderr


def test_help_has_examples():
    result = invoke("simulate", "--help")
    assert result.exit_code == 0 and "Examples" in result.stdout and "--strategy" in result.stdout


@pytest.mark.slow
def test_every_example_of_advise_help_runs_as_shown():
    """Its French hand needs the oh-hell preset, and the example and the --hand help say so."""
    shown = invoke("advise", "--help").stdout
    assert "with --preset oh-hell or --deck french" in " ".join(shown.split())
    lines = [line.strip() for line in shown.split("Examples:")[1].splitlines() if line.strip()]
    assert any('"AS KH 10D 2C"' in line and "--preset oh-hell" in line for line in lines)
    for line in lines:
        words = shlex.split(line)[1:]
        if "--samples" in words:  # cut to test size
            del words[words.index("--samples") : words.index("--samples") + 2]
        result = invoke(*words, "--samples", "200")
        assert result.exit_code == 0, (line, result.output)


def test_a_run_too_small_to_reach_every_position():
    result = invoke("simulate", "-k", "1", "-n", "3", "--format", "csv")
    assert result.exit_code == 0 and "Warning" not in result.output
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert frame[frame.hands == 0].mean_points.isna().all()


def test_simulate_into_a_folder_with_figures(tmp_path):
    folder = tmp_path / "run1"
    result = invoke("simulate", "-n", "300", "--out", str(folder), "--plot")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        [
            "results.csv",
            "errors.csv",
            "run.json",
            "points_by_size.png",
            "exact_rate_by_size.png",
            "points_by_position.png",
            "won_minus_bid.png",
        ]
    )
    run = json.loads((folder / "run.json").read_text())
    assert run["command"] == "simulate" and run["deals_per_size"] == 300 and run["rules"]["players"] == 4
    assert all((folder / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names if n.endswith(".png"))


def test_compare_reports_pairs_with_verdicts():
    result = invoke("compare", "expected", "random", "-k", "6", "-n", "400")
    assert result.exit_code == 0, result.output
    assert "each played 4 times" in result.stdout
    assert "expected ahead of random by" in result.stdout and "points per hand" in result.stdout
    assert "one pair, no adjustment needed" in result.stdout
    assert "(p < 0.001)" in result.stdout and "adjusted p" not in result.stdout  # a lone pair's p is not adjusted


def test_compare_says_its_verdicts_are_adjusted_and_its_cells_exploratory():
    result = invoke("compare expected zero aces-trumps random -k 2-3 -n 200")
    assert result.exit_code == 0, result.output
    assert "(all hand sizes; difference in mean points per hand, Holm-adjusted over 6 pairs):" in result.stdout
    said = " ".join(result.stdout.split())
    assert "among the 6 pairs, is at most 5%" in said and "(from 95% to 99.2%)" in said
    assert "Pairwise by hand size, exploratory (a - b in points per hand; each row unadjusted" in result.stdout


def test_compare_json_and_plain_seating():
    result = invoke("compare expected zero aces-trumps -p 3 -k 3 -n 200 --no-duplicate --format json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["run"]["duplicate"] is False and data["run"]["complete"] is True
    assert {(p["strategy_a"], p["strategy_b"]) for p in data["pairs"]} == {
        ("expected", "zero"),
        ("expected", "aces-trumps"),
        ("zero", "aces-trumps"),
    }


def test_compare_refuses_an_uneven_table_and_offers_a_field():
    """Reproduced first: 3 strategies at 4 seats used to seat the first one twice, meeting itself."""
    refused = invoke("compare", "expected", "zero", "aces-trumps", "-k", "3", "-n", "100")
    assert refused.exit_code == 1 and "give --field STRATEGY to fill the 1 other seat," in refused.stderr
    result = invoke("compare expected zero aces-trumps --field random -k 3 -n 100")
    assert result.exit_code == 0, result.output
    assert "seats 0: expected, 1: zero, 2: aces-trumps, 3: random (field)" in result.stdout
    frame = json.loads(invoke("compare expected zero --field random -p 5 -k 2 -n 100 --format json").stdout)
    assert frame["run"]["field"] == "random" and frame["run"]["strategies"] == ["expected", "zero"] + ["random"] * 3
    hands = {row["strategy"]: row["hands"] for row in frame["results"] if row["position"] == "all"}
    assert hands == {"expected": 500, "zero": 500, "random": 1500}  # one seat each, in every rotation
    assert (
        "leave --field out"
        in invoke("compare", "expected", "zero", "aces-trumps", "--field", "random", "-p", "3").stderr
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["expected"], "give 2 to 8 strategies, not 1"),
        (["a", "b", "c", "d", "e", "f", "g", "h", "i"], "give 2 to 8 strategies, not 9"),
        (["expected", "zero", "random", "fair-share", "aces-trumps", "--no-duplicate"], "5 strategies but 4 seats"),
        (["expected", "expected"], "the same strategy is given twice"),
        (["expected", "zero", "--field", "zero"], "the same strategy is given twice"),
    ],
)
def test_compare_bad_input(args, message):
    result = invoke("compare", "-n", "10", *args)
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.output


def test_game_and_report(tmp_path):
    folder = tmp_path / "games"
    result = invoke("game", "-g", "300", "--out", str(folder))
    assert result.exit_code == 0, result.output
    assert "Whole games (22 hands each" in result.stdout and "Tie-breaks (all:" in result.stdout
    games = pd.read_csv(folder / "games.csv")
    assert games.win_rate.sum() == pytest.approx(1.0) and len(games) == 4
    report = invoke("report", str(folder))
    assert report.exit_code == 0, report.output
    page = (folder / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 5 and "won the most games" in page and 'src="http' not in page
    assert (folder / "win_probability.png").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["game", "-g", "0"], "games: must be from 1 to"),
        (["game", "--plot"], "give --out FOLDER"),
        (["game", "--schedule", "long"], "schedule: unknown 'long'; accepted: full, short, up, full-only"),
        (["game", "--schedule", "1,11"], "schedule: 11 is not a hand size here"),
        (["game", "--tie-break", "coin"], "tie-break: unknown rule 'coin'; accepted: all, tied, one"),
        (["game", "--full-deals", "n+2"], "full-deals: unknown rule 'n+2'; did you mean 'n+1'? accepted: n, n+1"),
        (
            ["game", "--schedule", "short", "--full-deals", "n+1"],
            "full-deals: n+1 counts the full deals of the full and up schedules, not of 'short'; accepted with it: n",
        ),
        (["rules", "--play-rule", "montando"], "play-rule: unknown rule 'montando'; accepted: pocha, "),
        (["game", "--trace", "t.jsonl", "--trace-games", "-1"], "trace-games: must be at least 1, not -1"),
        (["game", "--trace", "t.jsonl", "--trace-games", "0"], "trace-games: must be at least 1, not 0"),
        (["game", "--trace-games", "3"], "trace-games: does nothing without --trace"),
        (["report", "."], "no run.json"),
    ],
)
def test_game_and_report_bad_input(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.output


STOPPER = "sample_strategy:Interrupting:after=30"  # raises KeyboardInterrupt mid-run, as Ctrl-C would


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "-s", STOPPER, "-s", "zero", "-s", "zero", "-s", "zero", "--trace", "t.jsonl"],
        ["compare", STOPPER.replace("30", "60"), "zero"],  # compare's first chunk asks for 40 bids
    ],
)
@pytest.mark.usefixtures("unprobed")
def test_ctrl_c_prints_what_it_has_and_writes_nothing(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # one thread: with two, both first chunks may ask their bids before either ends (then nothing is finished)
    result = invoke(
        *command, "-k", "3", "-n", "1000", "--chunk-size", "100", "--threads", "1", "--out", "run", "--plot"
    )
    assert result.exit_code == 130, result.output
    assert "Interrupted: the results above cover the finished deals only" in result.stderr
    assert "By bidding position" in result.stdout and "zero" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_advise_prints_chances_and_a_recommended_bid():
    result = invoke("advise --hand '1O 3O 12C 5E 2B' --trump 7O --position 2 --bids 1,0 --samples 2000")
    assert result.exit_code == 0, result.output
    assert "Tricks you take" in result.stdout and "Recommended bid: 2" in result.stdout


def test_advise_a_full_deal_without_trump():
    hand = "1O 3O 12O 1C 3C 2E 4E 5B 6B 7B"
    args = ("advise", "--hand", hand, "--full-deal-trump", "none", "--samples", "200", "--assume", "expected")
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert f"Hand {hand} (10 cards), no trump, 4 players" in result.stdout
    assert json.loads(invoke(*args, "--format", "json").stdout)["trump_card"] is None


def test_advise_json():
    result = invoke("advise --hand 1C --trump 7O --position 3 --bids 0,0,0 --samples 500 --format json")
    data = json.loads(result.stdout)
    assert data["hand"] == ["1C"] and data["forbidden_bid"] is None  # one card: no hook under ludoteka rules
    assert sum(t["chance"] for t in data["tricks"]) == pytest.approx(1.0) and len(data["bids"]) == 2


def test_advise_takes_french_cards_and_shows_suit_symbols_on_a_terminal_that_can(monkeypatch):
    args = "advise --preset oh-hell --hand 'as kh TD 2c' --trump 7H --assume expected --samples 500"
    plain = invoke(args)
    assert plain.exit_code == 0, plain.output
    assert "Hand AS KH 10D 2C (4 cards), trump 7H (hearts)" in plain.stdout
    monkeypatch.setattr(commands, "shows_suit_symbols", lambda: True)
    shown = invoke(args)
    assert "Hand A\u2660 K\u2665 10\u2666 2\u2663 (4 cards), trump 7\u2665 (hearts)" in shown.stdout
    data = json.loads(invoke(args + " --format json").stdout)
    assert data["hand"] == ["AS", "KH", "10D", "2C"] and data["trump_card"] == "7H"  # files keep the letters


@pytest.mark.slow
def test_advise_a_card_given_the_play_so_far():
    args = "advise --hand '1O 3O 12C 5E 2B 7B' --trump 7O --bids 2,2,0,1 --samples 2000"
    lead = invoke(args + " --played ''")
    assert lead.exit_code == 0, lead.output
    assert (
        "6 of 6 cards left" in lead.stdout
        and "card  makes the bid" in lead.stdout
        and "Recommended card:" in lead.stdout
    )
    rows = [line for line in lead.stdout.splitlines() if re.match(r"\s*\S+\s+\d+\.\d%", line)]
    assert "every seat plays learned" in lead.stdout and len(rows) == 6
    follow = json.loads(invoke(args + " --position 1 --played '4O 6O 10O 11O | 3E 12E' --format json").stdout)
    assert [card["card"] for card in follow["cards"]] == ["5E"] and follow["played"][-1] == "12E"  # must follow


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--played", "", "--bid", "1"], "bid: does nothing with --played"),
        (["--played", "", "--assume", "expected"], "assume: does nothing with --played"),
        (["--played", "", "--bids", "1,0"], "give all 4 bids in bidding order (2 given)"),
        (
            ["--played", "", "--bids", "1,0,1,2", "--position", "1"],
            "position: it is position 0's turn, not position 1's",
        ),
        (["--played", "", "--bids", "1,0,1,2", "--play", "pimc"], "card advice plays its worlds out greedy or learned"),
        (["--played", "1O", "--bids", "1,0,1,2"], "1O appears more than once"),
        (["--played", "", "--bids", "1,x"], "bids: '1,x' is not a list of whole numbers"),
        (
            ["--played", "", "--bids", "1,0,1,2", "--samples", "1"],
            "card advice draws a whole number of worlds from 2 to 100,000",
        ),
        (["--played", "", "--bids", "1,0,1,2", "--samples", "200000"], "from 2 to 100,000, not 200,000"),
    ],
)
def test_card_advice_bad_input(args, message):
    result = invoke("advise", "--hand", "1O 3O 12C", "--trump", "7O", *args)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: ") and message in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "1O 3X", "--trump", "7O"], "'3X' is not a card"),
        (["--hand", "AS KH", "--trump", "7O"], "a French card needs the French pack (--deck french)"),
        (["--preset", "oh-hell", "--hand", "AS 1O", "--trump", "7H"], "a Spanish card needs the Spanish pack"),
        (["--preset", "oh-hell", "--hand", "AS 1S", "--trump", "7H"], "'1' is not a rank of the French pack"),
        (["--hand", "1O 1o", "--trump", "7O"], "1O appears more than once"),
        (["--hand", "1O 8C", "--trump", "7O"], "'8C' is not in this deck"),
        (["--hand", "1O 3O 12O 11O 10O 7O 6O 5O 4O 2O 1C", "--trump", "7C"], "11 cards, but 4 players with 40 cards"),
        (["--hand", "1O 3O", "--trump", "3O"], "3O is held or played, but in a deal that is not full"),
        (
            ["--hand", "1O 3O 12O 11O 10O 7O 6O 5O 4O 2O", "--trump", "1C", "--position", "3", "--bids", "1,2,3"],
            "must be in your hand",
        ),
        (
            ["--hand", "1O 3O 12O 11O 10O 7O 6O 5O 4O 2O", "--trump", "2O", "--position", "1", "--bids", "1"],
            "is the dealer's, not yours",
        ),
        (["--hand", "1O 3O", "--trump", "7O", "--position", "2", "--bids", "1"], "position 2 means 2 bids before"),
        (["--hand", "1O 3O", "--trump", "7O", "--position", "1", "--bids", "3"], "3 is not a bid with 2 cards"),
        (["--hand", "1O 3O", "--trump", "7O", "--position", "4"], "0..3"),
        (["--hand", "1O 3O", "--trump", "7O", "--position", "3", "--bids", "1,0,0", "--bid", "1"], "forbidden"),
        (["--hand", "1O 3O", "--trump", "7O", "--bid", "5"], "5 is not a bid with 2 cards"),
        (["--hand", "1O 3O", "--trump", "7O", "--samples", "1"], "samples: must be from 2 to 10,000,000"),
        (["--hand", "1O 3O", "--trump", "7O", "--sharpness", "-1"], "sharpness: must be 0 or more"),
        (["--hand", "1O 3O"], "trump: give the trump card"),
        (["--hand", "1O 3O", "--full-deal-trump", "none"], "trump: give the trump card"),  # not a full deal
        (
            ["--hand", "1O 3O 12O 11O 10O 7O 6O 5O 4O 2O", "--trump", "1C", "--full-deal-trump", "none"],
            "under full-deal-trump none a full deal has no trump; leave out the trump card 1C",
        ),
    ],
)
def test_advise_bad_input(args, message):
    result = invoke("advise", *args)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: ") and message in result.stderr and "Traceback" not in result.output


def test_train_writes_a_table_the_strategy_reads(tmp_path):
    path = tmp_path / "t.npz"
    result = invoke("train", "--players", "3", "--deals", "200", "--out", str(path))
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stdout and path.is_file()
    run = invoke("simulate", "-p", "3", "-k", "4", "-n", "50", "-s", f"table:path={path}", "--format", "csv")
    assert run.exit_code == 0, run.output
    bad = invoke("train", "--players", "3", "--deals", "10", "--out", str(tmp_path / "missing" / "t.npz"))
    assert bad.exit_code == 1 and "does not exist" in bad.stderr


def test_ctrl_c_in_training_writes_no_table(tmp_path, monkeypatch):
    from pocha.engine.training import Training

    count_chunk, calls = Training.run, []

    def stop_after_three(*args):
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return count_chunk(*args)

    monkeypatch.setattr(Training, "run", stop_after_three)
    path = tmp_path / "t.npz"
    result = invoke("train", "--players", "3", "--deals", "500", "--chunk-size", "100", "--out", str(path))
    assert result.exit_code == 130, result.output
    said = result.stderr.splitlines()[-1]  # before any chunk finished (while timed for the estimate), or after
    assert said in ("Interrupted: no table was written.", "Interrupted: nothing was written.") and not path.exists()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_once_the_files_are_written_leaves_a_finished_run(stop, tmp_path, monkeypatch):
    """Issue 46: a signal just after results.csv and run.json were written said "nothing was written", exit 130."""
    from pocha import _execution

    monkeypatch.chdir(tmp_path)
    write_outputs = _execution.write_outputs

    def written_then_signalled(*args):
        files = write_outputs(*args)
        signal.raise_signal(stop)  # its handler runs here, in this (the main) thread, before the next line
        return files

    monkeypatch.setattr("pocha._execution.write_outputs", written_then_signalled)
    result = invoke("simulate -k 1 -n 10 --out run --checkpoint ck.npz")
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if not line.startswith("compiling the kernels")] == [
        "wrote run: results.csv, errors.csv, run.json",
        "The run is complete: its checkpoint ck.npz is no longer needed; remove it when you like",
    ]
    assert "Per strategy" in result.stdout and (tmp_path / "run" / "run.json").is_file()


def test_a_signal_once_the_table_is_written_leaves_it_trained(tmp_path, monkeypatch):
    """Issue 46: the same for pocha train: "no table was written" with the table there."""
    atomic_path = api.atomic_path

    @contextlib.contextmanager
    def renamed_then_signalled(path):
        with atomic_path(path) as temporary:
            yield temporary
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr("pocha.api.atomic_path", renamed_then_signalled)
    path = tmp_path / "t.npz"
    result = invoke("train", "--players", "3", "--deals", "100", "--out", str(path))
    assert result.exit_code == 0 and result.stdout.startswith(f"wrote {path}: "), result.output
    assert path.is_file()


def test_once_the_run_is_over_a_signal_is_let_go_until_the_command_ends():
    from pocha.interrupt import interruptible, run_over

    started = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, not a nohup'd suite
    try:
        with interruptible():
            run_over()
            signal.raise_signal(signal.SIGINT)
        with interruptible(), pytest.raises(KeyboardInterrupt):  # the next command is stopped as ever
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, started)


def test_once_the_command_has_ended_a_signal_no_longer_changes_the_exit_status():
    """Issue 46: a signal in the 0.3 s the interpreter takes to close made a finished run's exit status 130."""
    code = (
        "import os, signal, sys\nfrom pocha.cli import main\nsys.argv = ['pocha', '--version']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "os.kill(os.getpid(), signal.SIGINT)\nos.kill(os.getpid(), signal.SIGTERM)\nprint('closed')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.endswith("closed\n"), done.stderr


def test_version():
    from pocha.version import __version__

    result = invoke("--version")
    assert result.exit_code == 0 and result.stdout == f"pocha {__version__}\n"


def test_strategies_lists_names_parameters_and_defaults():
    result = invoke("strategies")
    assert result.exit_code == 0, result.output
    shown = (
        "expected  (built-in)",
        "    bias: float = 0.0  (added to the estimate",
        "    samples: int = 32",
        "    assume: Strategy = table",
        "    path: str = ''",
        "file.py:Class",
    )
    for text in shown:
        assert text in result.stdout
    listed = json.loads(invoke("strategies", "--format", "json").stdout)
    assert {
        "name": "zero",
        "source": "built-in",
        "description": "Bids 0; 1 when 0 is forbidden.",
        "parameters": [],
    } in listed


def test_schedule_is_offered_only_where_it_does_something():
    result = invoke("compare", "expected", "zero", "--schedule", "short")
    assert result.exit_code == 2 and "No such option: --schedule" in result.output
    for flag in ("--schedule ", "--full-deals "):
        assert flag in invoke("game", "--help").stdout and flag not in invoke("simulate", "--help").stdout
        assert flag in invoke("rules", "--help").stdout


def test_another_commands_amount_is_answered_with_this_ones():
    """Issue 46's walk: `game --deals 500` offered --full-deals (a rule), and `game -n 500` said nothing more."""
    for command, hint in (
        ("game --deals 500", "No such option: --deals (this command counts whole games: -g/--games N)"),
        ("variants -n 500", "No such option: -n (this command counts whole games: -g/--games N)"),
        ("simulate -g 5", "No such option: -g (this command counts deals: -n/--deals N; whole games: pocha game)"),
    ):
        result = invoke(command)
        assert result.exit_code == 2 and hint in result.output, result.output
    assert "(Possible options: --force, --format, --hook)" in invoke("game --foo").output  # others as click says


def test_strategies_given_as_arguments_to_a_command_that_takes_them_by_s_are_pointed_there():
    """`pocha simulate expectd` (compare takes strategies as arguments) said only "unexpected extra argument"."""
    hint = "this command takes strategies with -s/--strategy (-s expectd)"
    for command in ("simulate expectd -n 10", "simulate -n 10 expectd ./mine.py:Mine", "game expectd"):
        result = invoke(command)
        assert result.exit_code == 2 and "Got unexpected extra argument(s) (expectd" in result.output, result.output
        assert hint in result.output and "Traceback" not in result.output
    result = invoke("bench extra")  # a command without strategies: click's words alone
    assert result.exit_code == 2 and "(extra)\n" in result.output and "-s/--strategy" not in result.output


def test_the_readings_of_the_texts_are_options():
    shown = invoke("rules", "--full-deals", "n+1", "--play-rule", "pocha-always-beat").stdout
    assert "schedule   full: 1 2 3 4 5 6 7 8 9 10 10 10 10 10 9 8 7 6 5 4 3 2 1 (23 hands)\n" in shown
    assert "full deals n+1: the one the climb reaches, then one per player\n" in shown
    assert "play rule  pocha-always-beat: as pocha, but followers beat the led suit's best card even once" in shown
    assert "full deals n: one per player" in invoke("rules").stdout
    assert "\nfull deals" not in invoke("rules", "--schedule", "short").stdout  # no full deals to count
    for flag in ("--full-deals n+1", "--tie-break tied", "--deck 40"):  # the other readings of text 003
        assert flag in invoke("rules").stdout
    result = invoke("simulate", "-n", "30", "-k", "3", "--play-rule", "pocha-always-beat", "--preset", "italian")
    assert result.exit_code == 0 and "play pocha-always-beat, hook always" in result.stdout


def test_a_game_of_n_plus_one_full_deals(tmp_path):
    path = tmp_path / "games.jsonl"
    args = ("-g", "4", "-p", "3", "--schedule", "up", "--full-deals", "n+1", "--trace", str(path), "--trace-games", "1")
    result = invoke("game", *args)
    assert result.exit_code == 0, result.output
    assert "(up schedule, first dealer by lot)" in result.stdout and "full deals n+1)" in result.stdout
    header, *deals = (json.loads(line) for line in path.read_text().splitlines())
    assert header["rules"]["full_deals"] == "n+1"
    assert [deal["cards"] for deal in deals][:15] == [*range(1, 12), 12, 12, 12, 12]


def test_game_trace_holds_every_hand_of_the_first_games(tmp_path):
    path = tmp_path / "games.jsonl"
    result = invoke("game", "-g", "20", "-p", "3", "--schedule", "short", "--trace", str(path), "--trace-games", "2")
    assert result.exit_code == 0, result.output
    header, *deals = (json.loads(line) for line in path.read_text().splitlines())
    assert header["rules"]["schedule"] == "short" and header["rules"]["tie_break"] == "all"
    assert {deal["game"] for deal in deals} == {0, 1} and [d["hand"] for d in deals[:12]] == list(range(12))
    assert all(len(deal["strategies"]) == 3 for deal in deals)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["simulate", "--help"], ["advise", "--help"]])
def test_version_and_help_load_neither_numba_nor_pandas(args):
    code = (
        "import sys\nfrom pocha.cli import main\nsys.argv = ['pocha', *sys.argv[1:]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted({'numba', 'pandas'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_cold_cache_is_announced_once_before_it_compiles(capsys):
    with compiling_announced("simulate"):
        numba.njit(lambda x: x + 1)(1)  # new functions: compiled here
        numba.njit(lambda x: x + 2)(1)
    numba.njit(lambda x: x + 3)(1)  # after the command: not announced
    said = "compiling the kernels this pocha simulate run needs and the cache lacks (kept there for later runs): "
    said += f"up to about {COMPILE_SECONDS['simulate']} s on 2 idle cores, minutes on a busy machine\n"
    assert capsys.readouterr().err == said


def test_a_first_question_at_the_table_says_it_compiles_the_advice(monkeypatch):
    """The walk of issue 46: play's notice comes at its start; its first ?, minutes later, compiled 36 s unsaid."""
    told: list[str] = []
    monkeypatch.setattr(playing, "advise", lambda *_, **__: numba.njit(lambda x: x + 4)(1))  # a kernel to compile
    monkeypatch.setattr(playing, "advice_text", lambda _: "the advice")
    answers = iter(["?", "q"])
    rules = RuleOptions(players=3, schedule="2")
    say = told.append
    playing.play_game("zero@random", rules=rules, trace=None, ask=lambda _: next(answers), say=say, messages=say)
    asked = told.index("the advice")
    assert told[asked - 1] == playing.ADVICE_COMPILES and told.count(playing.ADVICE_COMPILES) == 1


def test_every_compile_notice_says_whose_kernels_and_the_most_it_takes():
    """Issue 46: play announced 80 s (its players took 2 to 36), its first ? "tens of seconds" (1 to 35)."""
    notice = re.compile(
        r"compiling the kernels (this pocha [a-z-]+ run|the advice \(\?\)) needs and the cache lacks \(kept there for "
        r"later runs\): up to about (\d+) s on 2 idle cores, minutes on a busy machine"
    )
    for command in COMPILE_SECONDS:
        with compiling_announced(command), redirect_stderr(io.StringIO()) as said:
            numba.njit(lambda x: x + 5)(1)  # a new function: compiled here
        assert notice.fullmatch(said.getvalue().strip()), said.getvalue()
    assert (found := notice.fullmatch(playing.ADVICE_COMPILES)) and int(found[2]) <= COMPILE_SECONDS["advise"]
    assert COMPILE_SECONDS["play"] < COMPILE_SECONDS["advise"]  # its players' kernels, not the advice's too


def test_a_warm_run_says_nothing_of_compiling():
    invoke("simulate -k 1 -n 10")  # compiles in this process if it must
    result = invoke("simulate -k 1 -n 10")
    assert result.exit_code == 0 and "compiling" not in result.stderr


FIRST_RUNS = [  # each command once, in an order that leaves each of them kernels of its own to compile
    ("play", "play -p 3 -s expected@greedy --schedule 2 --trace p.jsonl", "?\nq\n"),
    ("match", "match expected@greedy --against ismcts:engine=numba,simulations=10 --game oh_hell(players=3) -k 2 -n 1"),
    ("simulate", "simulate -k 2 -n 10"),
    ("game", "game -g 10 --schedule 1-2"),
    ("compare", "compare expected random -k 2 -n 10"),
    ("variants", "variants ludoteka:schedule=1-2 ludoteka:schedule=1-2:hook=never -g 40 --strong expected --weak zero"),
    ("advise", "advise --hand '1O 3O 12C' --trump 4O --samples 100"),
    ("models", "models -k 2 -n 100"),
    ("train", "train -n 100 --out t.npz"),
    ("bench", "bench -n 1000 --repeats 1"),
    ("rules", "rules"),
    ("strategies", "strategies"),
]


def cache_files(folder: Path) -> int:
    """The compiled kernels' files in a cache folder (none when it is not made yet)."""
    return sum(1 for path in folder.rglob("*") if path.is_file())


def test_every_command_that_compiles_says_so_first_through_a_fresh_cache(tmp_path):
    """Issue 46: pocha match and pocha play (at its first ?) compiled for 40 s without a word."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install -e '.[openspiel]'")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), POCHA_CACHE_DIR=str(tmp_path / "pocha"))
    compiled = []
    for name, line, *given in FIRST_RUNS:
        before = cache_files(tmp_path / "numba")
        done = subprocess.run(
            [sys.executable, "-m", "pocha", *shlex.split(line)],
            input=given[0] if given else "",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
        )
        assert done.returncode == 0, (name, done.stderr)
        if (
            cache_files(tmp_path / "numba") > before
        ):  # it compiled kernels the cache lacked: said first, before the wait
            compiled.append(name)
            said = "".join(line for line in done.stderr.splitlines(True) if not line.startswith("progress: "))
            assert said.startswith(f"compiling the kernels this pocha {name} run needs"), (name, done.stderr)
    assert compiled[:3] == ["play", "match", "simulate"] and "rules" not in compiled


def test_the_lazy_api_is_the_package_attribute_an_import_gives():
    import pocha
    import pocha.api as imported

    assert pocha.api is imported and imported.simulate is api.simulate


# --- nothing a newcomer trips on: messages, plurals, nonsense refused, help lines -------------------


def one_line_error(result, *texts: str) -> None:
    """A refusal as the house does it: exit 1, one line on stderr saying each text, no traceback."""
    assert result.exit_code == 1, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    for text in texts:
        assert text in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("args", "texts"),
    [
        (
            "simulate -s expected@pimcc",
            ["strategy 'expected@pimcc': unknown play 'pimcc' after '@'", "did you mean 'pimc'?", "random, greedy"],
        ),
        ("simulate -s expected@", ["unknown play '' after '@'"]),
        ("simulate --play pimcc", ["play: unknown 'pimcc'; did you mean 'pimc'?"]),
        ("compare expected@gredy random", ["did you mean 'greedy'?"]),
        ("variants --strong montecarlo@pimcc", ["strong: strategy 'montecarlo@pimcc': unknown play 'pimcc'"]),
        ("simulate -s @pimc", ["strategy: no strategy named;"]),
        ("advise --hand 1O --trump 7O --assume expected@pimc", ["assume: 'expected@pimc' names a card play"]),
    ],
)
def test_a_player_spec_whose_play_is_not_a_policy_says_so(args, texts):
    one_line_error(invoke(args + " -n 10 -k 1" if not args.startswith(("variants", "advise")) else args), *texts)


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        ("simulate -n 10 --csv-style EXCEL-ES --out r.csv", "excel-es"),
        ("simulate -n 10 --format CSV", "csv"),
        ("simulate -n 10 --backend Dask", "dask"),
        ("simulate -n 10 -s EXPECTED", "expected"),
        ("simulate -n 10 --play GREEDY", "greedy"),
        ("simulate -n 10 -s expected@PIMC", "pimc"),
        ("simulate -n 10 -s ./mybids.py:trumpsonly", "TrumpsOnly"),
        ("rules --preset ITALIAN", "italian"),
        ("rules --hook Never", "never"),
        ("rules --play-rule TRUMP", "trump"),
        ("rules --rank-order Natural", "natural"),
        ("rules --schedule Short", "short"),
        ("rules --format JSON", "json"),
    ],
)
def test_a_name_in_capitals_is_answered_with_the_name_meant(args, meant, tmp_path, monkeypatch):
    """Loose end of issue 46: --csv-style EXCEL-ES got no 'did you mean' where -s expectd did; every option alike."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybids.py").write_text("class TrumpsOnly:\n    name = 'trumps-only'\n")
    one_line_error(invoke(args), f"did you mean '{meant}'?")
    assert not list(tmp_path.glob("*.csv"))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ("simulate -n 1e6", "deals: '1e6' is not a whole number; write digits alone (no commas, points or e)"),
        ("simulate --deals=1,000,000", "deals: '1,000,000' is not a whole number"),
        ("game -g1.5", "games: '1.5' is not a whole number"),
        ("simulate -p four", "players: 'four' is not a whole number"),
        ("simulate --confidence high", "confidence: 'high' is not a number, such as 0.95"),
    ],
)
def test_a_number_written_as_the_output_writes_it_is_one_line(args, said):
    """The walk of issue 46: -n 1e6 or -n 1,000,000 (as the tables write it) gave click's three lines of usage."""
    one_line_error(invoke(args), said)


def test_the_same_strategy_twice_names_only_the_strategies_given():
    one_line_error(invoke("compare expected expected -n 10"), "given twice among expected, expected")
    with_field = invoke("compare expected expected --field random -p 3 -n 10")
    one_line_error(with_field, "given twice among expected, expected, random")
    assert "None" not in with_field.stderr


@pytest.mark.parametrize(
    "strategies",
    [
        "expected zero random",
        "fair-share expected zero",
        "expected fair-share aces-trumps",
        "expected@pimc zero random",
    ],
)
def test_the_field_suggested_for_uneven_seats_is_one_that_runs(strategies):
    """The suggestion is a strategy not in the line-up: following it runs, never "given twice" (issue 34's loop)."""
    refused = invoke(f"compare {strategies} -k 1 -n 20")
    one_line_error(refused, "cannot share 4 seats evenly", "e.g. --field ")
    suggested = refused.stderr.strip().rsplit("--field ", 1)[1]
    assert suggested not in strategies.split()
    followed = invoke(f"compare {strategies} -k 1 -n 20 --field {suggested}")
    assert followed.exit_code == 0, followed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("compare expected zero -n 10 --no-duplicate --duplicate", "duplicate: --duplicate and --no-duplicate both"),
        ("compare expected zero -n 10 --duplicate --no-duplicate", "duplicate: --duplicate and --no-duplicate both"),
        ("game -g 40 --rotate --no-rotate", "rotate: --rotate and --no-rotate both given; give one"),
    ],
)
def test_a_flag_given_both_ways_is_refused(args, message):
    """Which was meant cannot be told (Click would take the last without a word)."""
    one_line_error(invoke(args), message)


@pytest.mark.parametrize("players", ["0", "1"])
@pytest.mark.parametrize(
    "command", ["simulate -n 10", "simulate -n 10 --deck 40", "rules", "rules --preset oh-hell", "variants"]
)
def test_too_few_players_are_refused_before_any_deck_is_asked_for(command, players):
    one_line_error(invoke(f"{command} -p {players}"), f"players: must be a whole number of at least 2, not {players}")


def test_a_damaged_checkpoint_is_one_line_in_pocha_words(tmp_path):
    import numpy as np

    np.save(tmp_path / "array.npy", np.arange(3))  # an npy, not an npz
    (tmp_path / "array.npy").rename(tmp_path / "array.npz")
    (tmp_path / "text.npz").write_text("hello")  # numpy would advise allow_pickle
    np.savez(tmp_path / "other.npz", x=np.arange(3))  # an npz, not a checkpoint
    for name in ("array.npz", "text.npz", "other.npz"):
        result = invoke("simulate", "-n", "10", "-k", "1", "--resume", str(tmp_path / name))
        one_line_error(result, "is not a whole pocha checkpoint (truncated, damaged or another kind of file)")
        assert "pickle" not in result.stderr and "archive" not in result.stderr
        table = invoke("simulate", "-n", "10", "-k", "1", "-s", f"table:path={tmp_path / name}")
        one_line_error(table, "as a trick table (truncated, damaged or another kind of file)")


def test_a_checkpoint_of_another_command_is_said_as_such(tmp_path):
    """Issue 46: a simulate checkpoint resumed by compare said "duplicate: None there, True here"."""
    saved = tmp_path / "ck.npz"
    assert invoke(f"simulate -n 10 -k 1 -s expected --checkpoint {saved}").exit_code == 0
    one_line_error(
        invoke(f"compare expected random -n 10 -k 1 --resume {saved}"),
        f"resume: '{saved}' was saved by another command's run (simulate and compare each resume only their own",
    )


@pytest.mark.parametrize(
    ("command", "shown", "left_out"),
    [
        ("simulate -n 10", "Per strategy (all hand sizes):", "By bidding position"),
        ("compare expected random -n 10 -k 1-3", "Pairwise, paired by deal", "By hand size"),
        ("game -g 10", "Whole games", "Tie-breaks"),
        (
            "variants ludoteka:schedule=1-2 ludoteka:schedule=1-2:hook=never -g 40 --strong expected --weak zero",
            "Skill pays alike",  # the hook changes no bid in these 40 games: the same games
            "Seat advantage",
        ),
    ],
)
def test_the_summary_alone(command, shown, left_out):
    """Issue 46: no way to print only the summary (the default simulate prints about 75 lines)."""
    result = invoke(f"{command} --format summary")
    full = invoke(command).stdout
    assert result.exit_code == 0 and shown in result.stdout and left_out not in result.stdout and left_out in full
    assert full.startswith(result.stdout.rstrip("\n")) or len(result.stdout.splitlines()) <= 12


def test_strategies_shows_the_parameters_of_a_strategy_of_your_own(tmp_path, monkeypatch):
    """Issue 46: pocha strategies could not show a plug-in's parameters."""
    monkeypatch.chdir(tmp_path)
    Path("mybids.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass TrumpsOnly:\n"
        '    """Bids the trumps it holds, plus a bias."""\n\n    name = "trumps-only"\n'
        "    bias: float = 0.0  # added before rounding\n"
    )
    shown = invoke("strategies ./mybids.py:TrumpsOnly expected")
    assert shown.exit_code == 0 and shown.stdout.splitlines()[:3] == [
        "./mybids.py:TrumpsOnly  (file)",
        "    Bids the trumps it holds, plus a bias.",
        "    bias: float = 0.0  (added before rounding)",
    ]
    assert "expected  (built-in)" in shown.stdout and "Card play" not in shown.stdout
    assert json.loads(invoke("strategies ./mybids.py:TrumpsOnly --format json").stdout)[0]["parameters"] == [
        ["bias", "float", "0.0", "added before rounding"]
    ]
    one_line_error(invoke("strategies expectd"), "did you mean 'expected'")


def test_a_finished_run_says_its_checkpoint_is_no_longer_needed(tmp_path, monkeypatch):
    """Issue 46: a checkpoint stayed after a successful resume without a word."""
    monkeypatch.chdir(tmp_path)
    said = "The run is complete: its checkpoint ck.npz is no longer needed; remove it when you like\n"
    assert invoke("simulate -n 10 -k 1 --checkpoint ck.npz").stderr == said
    assert invoke("simulate -n 10 -k 1 --resume ck.npz").stderr == said
    assert invoke("simulate -n 10 -k 1").stderr == ""


def test_a_strategy_class_misspelt_in_a_file_gets_did_you_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mybids.py").write_text("class TrumpsOnly:\n    name = 'trumps-only'\n")
    one_line_error(invoke("simulate -n 10 -s ./mybids.py:TrumpOnly"), "has no 'TrumpOnly'; did you mean 'TrumpsOnly'?")


def test_an_out_file_in_capitals_is_a_table_and_an_earlier_one_needs_force(tmp_path, monkeypatch):
    """Issue 46: --out run.CSV made a folder; --out r.csv twice replaced the first without a word."""
    monkeypatch.chdir(tmp_path)
    assert invoke("simulate -n 10 -k 1 --out run.CSV").exit_code == 0 and Path("run.CSV").is_file()
    first = Path("run.CSV").read_bytes()
    one_line_error(
        invoke("simulate -n 10 -k 1 --seed 1 --out run.CSV"),
        "out: 'run.CSV' holds an earlier pocha table; --force replaces it",
    )
    assert Path("run.CSV").read_bytes() == first
    assert invoke("simulate -n 10 -k 1 --seed 1 --out run.CSV --force").exit_code == 0
    assert Path("run.CSV").read_bytes() != first and sorted(p.name for p in tmp_path.iterdir()) == ["run.CSV"]


def test_a_run_names_every_file_it_wrote(tmp_path, monkeypatch):
    """Issue 46: compare --out cmp --plot listed only the figures."""
    monkeypatch.chdir(tmp_path)
    folder = invoke("compare expected random -k 1,2,3 -n 10 --out cmp --plot")
    written = folder.stderr.strip().removeprefix("wrote cmp: ").split(", ")
    assert sorted(written) == sorted(path.name for path in (tmp_path / "cmp").iterdir())
    assert {"results.csv", "pairs.csv", "run.json", "pairs_by_size.png"} <= set(written)
    assert invoke("simulate -k 1 -n 10 --out r.csv").stderr == "wrote r.csv\n"


def test_a_folder_that_takes_no_files_is_said_in_pocha_words(tmp_path, monkeypatch):
    import errno
    import tempfile

    def refused(*args, **kwargs):
        raise OSError(errno.ENOENT, "No such file or directory")

    monkeypatch.setattr(tempfile, "TemporaryFile", refused)
    result = invoke("simulate", "-n", "10", "--out", str(tmp_path / "x"))
    one_line_error(result, f"out: cannot write in '{tmp_path}': it takes no new files; give another folder")
    assert "No such file" not in result.stderr
    monkeypatch.setattr(tempfile, "TemporaryFile", lambda **kwargs: (_ for _ in ()).throw(OSError(errno.EROFS, "")))
    one_line_error(invoke("simulate", "-n", "10", "--out", str(tmp_path / "x.csv")), "on a read-only file system")


def test_counts_of_one_take_the_singular():
    from pocha.words import counted

    assert [counted(n, "card") for n in (0, 1, 2, 1000)] == ["0 cards", "1 card", "2 cards", "1,000 cards"]
    assert (
        counted(1, "strategy", "strategies") == "1 strategy"
        and counted(3, "strategy", "strategies")[2:] == "strategies"
    )
    one = invoke("simulate -n 1 -k 1 -p 3")
    assert "1 deal per hand size, 1 card, seed 0" in one.stdout and "Per strategy (1 card):" in one.stdout
    assert "1 games" not in invoke("game -g 1 -p 3 --schedule 1-2").stdout
    one_line_error(invoke("compare expected zero aces-trumps -n 10"), "to fill the 1 other seat, e.g.")
    one_line_error(invoke("advise --hand 1O --trump 7O --position 1 --bids 1,1"), "means 1 bid before yours")
    one_line_error(invoke("advise --hand 1O --trump 7O --bid 5"), "is not a bid with 1 card (0..1)")


@pytest.mark.parametrize(
    ("args", "text"),
    [
        ("rules --scoring 10,5,5", "scoring: 10,5,5 would pay a missed bid 5 points per trick off"),
        ("rules --scoring 0,0,5,0", "a bid of 0 that takes 1 trick scores 5, more than the exact bid of 1 (0)"),
        ("simulate -n 10 --scoring -10,0,-5", "a missed bid must not pay more than a made one"),
        ("simulate -n 10 --trace t.jsonl --trace-deals 0", "trace-deals: must be at least 1, not 0"),
        ("train --out t.csv -n 10", "out: a trick table is an .npz file; give a name ending in .npz, not 't.csv'"),
    ],
)
def test_nonsense_is_refused(args, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(invoke(args), text)
    assert list(tmp_path.iterdir()) == []


def test_every_named_scoring_and_the_usual_numbers_stay_accepted():
    for scoring in ("pocha", "tricks+10", "exact-only", "bonus-only", "openspiel-penalty", "20,2,-10", "10,1,2,-3"):
        for preset in ("ludoteka", "oh-hell"):
            assert invoke(f"rules --scoring {scoring} --preset {preset} -p 4").exit_code == 0
    # 2 a trick taken when missed, 1 when made: in hands of 14 cards and more, missing by one pays more
    one_line_error(
        invoke("rules --scoring 10,1,2,-3 --preset oh-hell -p 3"), "a bid of 13 that takes 14 tricks scores 25"
    )


def test_more_threads_than_eight_a_core_are_refused(monkeypatch):
    from pocha.engine import backends

    monkeypatch.setattr(backends, "default_threads", lambda: 2)
    for option in ("--threads 17", "--backend dask --workers 17"):
        one_line_error(invoke(f"simulate -n 10 {option}"), "17 on 2 cores is too many; give at most 16")
    one_line_error(invoke("bench --threads 1,17"), "threads: 17 on 2 cores")
    one_line_error(invoke("bench --dask 17"), "dask: 17 on 2 cores")
    assert invoke("simulate -n 10 -k 1 --threads 16").exit_code == 0


def test_one_game_or_deal_leaves_its_missing_interval_blank():
    shown = invoke("game -g 1 -p 3 --schedule 1-2").stdout
    assert "nan" not in shown
    row = next(line for line in shown.splitlines() if line.strip().startswith("expected"))
    assert "  15.0       15" in row  # the score, then a blank ±95%, then the quantiles
    models = invoke("models -n 1 -k 1 -s expected -m expected -m random").stdout
    assert "nan" not in models and "random   random      0.00    -0.693  -0.693" in models


def test_a_heading_names_each_seats_play_when_they_differ():
    mixed = invoke("game -g 3 -p 3 --schedule 1-2 -s expected@pimc -s random -s zero").stdout
    assert "play by seat 0: pimc, 1: learned, 2: learned," in mixed.splitlines()[0]
    alike = invoke("simulate -n 10 -k 1 -p 3 -s random@random").stdout
    assert ", random play, 10 deals" in alike.splitlines()[0]


def test_the_bench_header_names_dask_only_when_it_runs():
    from pocha.reports.text import bench_header

    assert "Dask" not in bench_header(5, reference=False, dask=False)
    assert "Dask in chunks" in bench_header(5, reference=False, dask=True)
    assert bench_header(1, reference=False, dask=False).startswith("per second, median of 1 run;")


@pytest.mark.slow
def test_advice_labels_its_intervals_as_every_table_does():
    bid = invoke("advise --hand '1O 3O 12C' --trump 7O --samples 400").stdout
    assert "tricks  chance   ±95%" in bid and "bid  exact  expected points   ±95%" in bid
    assert "±95%: half-width of the 95% interval" in bid and "±:" not in bid
    card = invoke("advise --hand '1O 3O 12C' --trump 7O --bids 1,1,0,0 --played '' --samples 400").stdout
    assert "card  makes the bid  ±95%  expected points  ±95%" in card
    data = json.loads(invoke("advise --hand '1O 3O 12C' --trump 7O --samples 400 --format json").stdout)
    assert data["interval"].startswith("95%: each error is the half-width of a 95% interval")


def test_strategies_lists_the_play_policies_after_the_strategies():
    shown = invoke("strategies").stdout
    strategies, policies = shown.split("\nCard play:")
    assert "zero  (built-in)" in strategies and "pimc" not in strategies.split("montecarlo")[0]
    for text in ("\ngreedy\n", "\nrandom\n", "\npimc\n", "    samples: int = 8", "    sharpness: float = 5.0"):
        assert text in policies


def test_report_html_offers_a_command_that_runs_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("compare expected zero -k 2 -n 50 --out cmp").exit_code == 0
    assert invoke("report cmp").exit_code == 0
    page = (tmp_path / "cmp" / "report.html").read_text()
    shown = re.search(r"To run it again, replacing this run: <code>(.*?)</code>", page)[1]
    assert shown == "pocha compare expected zero -k 2 -n 50 --out cmp --force"
    assert invoke(*shlex.split(shown)[1:]).exit_code == 0


def test_report_html_shows_its_figures_before_the_long_tables(tmp_path):
    """The summary, then the figures, then the tables by hand size, position and pair (66 rows in issue 34)."""
    folder = tmp_path / "cmp"
    assert invoke(f"compare expected zero random -p 3 -k 1-3 -n 50 --out {folder}").exit_code == 0
    assert invoke(f"report {folder}").exit_code == 0
    page = (folder / "report.html").read_text()
    order = [
        page.index(mark)
        for mark in ("<h2>Summary", "<h2>Figures", "<figure", "<h2>By hand size", "<h2>Pairs by hand size")
    ]
    assert order == sorted(order)


COMMANDS = ["simulate", "compare", "game", "variants", "advise", "models", "match", "train", "report"]
COMMANDS += ["rules", "strategies", "bench", "play"]


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_python_type_and_h_is_help(command):
    long, short = invoke(f"{command} --help"), invoke(f"{command} -h")
    assert long.exit_code == 0 and short.stdout == long.stdout
    assert not re.search(r"<(str|int|float|bool|list)|list\[|\{[A-Z]+\}|3, 4, 5, 6 or 8", long.stdout), long.stdout
