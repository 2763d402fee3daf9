"""Nothing misleading, nothing lost: output folders hold one run, destinations are checked first, stops are honest."""

import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import pocha
import pocha.engine.chunk
from pocha.cli import app
from pocha.errors import PochaError
from pocha.reports.stats import as_planned
from pocha.reports.tables import pair_size_table

STOPPER = "sample_strategy:Interrupting:after=200"  # raises KeyboardInterrupt mid-run, as Ctrl-C would


def invoke(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of a folder and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_reused_folder_no_longer_mixes_two_runs(tmp_path):
    """Reproduced first: compare then simulate into one folder left pairs.csv and a report about the wrong run."""
    mix = tmp_path / "mix"
    assert invoke("compare", "expected", "random", "-k", "2", "-n", "100", "--out", mix, "--plot").exit_code == 0
    before = snapshot(mix)
    second = [
        "simulate",
        "-s",
        "zero",
        "-s",
        "fair-share",
        "-s",
        "aces-trumps",
        "-s",
        "expected",
        "-k",
        "2",
        "-n",
        "100",
        "--out",
        mix,
    ]
    refused = invoke(*second)
    assert refused.exit_code == 1 and "holds an earlier run (pocha compare expected random" in refused.stderr
    assert "--force" in refused.stderr and snapshot(mix) == before
    replaced = invoke(*second, "--force")
    assert replaced.exit_code == 0, replaced.output
    assert sorted(p.name for p in mix.iterdir()) == ["errors.csv", "results.csv", "run.json"]
    assert invoke("report", mix).exit_code == 0
    page = (mix / "report.html").read_text()
    assert "pocha simulate" in page and "random" not in page and "ahead of" not in page
    listed = json.loads((mix / "run.json").read_text())["files"]
    assert sorted(listed) == sorted(p.name for p in mix.iterdir() if p.name != "run.json")


def test_force_replaces_only_the_earlier_runs_files(tmp_path):
    folder = tmp_path / "run"
    assert invoke("simulate", "-k", "2", "-n", "50", "--out", folder).exit_code == 0
    (folder / "notes.txt").write_text("mine")
    assert invoke("simulate", "-k", "3", "-n", "50", "--out", folder, "--force").exit_code == 0
    assert (folder / "notes.txt").read_text() == "mine"


def test_a_folder_of_other_files_is_never_written(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "cat.jpg").write_bytes(b"meow")
    for extra in ([], ["--force"]):
        result = invoke("simulate", "-k", "2", "-n", "50", "--out", folder, *extra)
        assert result.exit_code == 1 and "is not empty and holds no pocha run" in result.stderr
    assert snapshot(folder) == {"cat.jpg": b"meow"}


def break_results(folder: Path) -> None:
    frame = pd.read_csv(folder / "results.csv")
    frame.iloc[:-1].to_csv(folder / "results.csv", index=False)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda f: (f / "errors.csv").unlink(), "errors.csv is listed in run.json but missing"),
        (break_results, "has 4 rows; run.json says 5"),
        (lambda f: (f / "results.csv").write_text("strategy,cards\nx,1\n"), "has the columns strategy, cards"),
        (
            lambda f: (f / "results.csv").write_text((f / "results.csv").read_text().replace(",0.", ",zero.", 1)),
            "holds something other than numbers",
        ),
        (lambda f: (f / "run.json").write_text("{not json"), "is not a pocha run record (damaged, or another kind"),
        (lambda f: (f / "run.json").write_text("[1]"), "is not a pocha run record (damaged, or another kind"),
        (lambda f: (f / "run.json").write_text('{"command": "simulate"}'), "missing field(s)"),
        (
            lambda f: (f / "run.json").write_text(
                json.dumps({**json.loads((f / "run.json").read_text()), "seed": "x"})
            ),
            "seed",
        ),
        (lambda f: (f / "results.csv").write_bytes(b"\xff\xfe\x00"), "cannot read"),
        (lambda f: (f / "results.csv").write_text('a,b\n"1'), "results.csv (damaged, or not a CSV table)"),
    ],
)
def test_report_refuses_a_folder_that_does_not_add_up_and_touches_nothing(damage, message, tmp_path):
    folder = tmp_path / "run"
    assert invoke("simulate", "-k", "2", "-n", "50", "-s", "expected", "--out", folder).exit_code == 0
    damage(folder)
    before = snapshot(folder)
    result = invoke("report", folder)
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.output, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and snapshot(folder) == before


def test_a_compare_folder_written_before_the_holm_columns_still_reports(tmp_path):
    """pairs.csv of an earlier pocha (no p-values): loaded, its Holm columns computed as a new run's are."""
    from pocha.reports.runs import RAW_PAIR_COLUMNS, load_run, read_table

    folder = tmp_path / "run"
    args = ("compare", "expected", "random", "zero", "fair-share", "-k", "2-3", "-n", "100", "--out", folder)
    assert invoke(*args).exit_code == 0
    fresh = load_run(folder)[1]["pairs"]
    fresh[list(RAW_PAIR_COLUMNS)].to_csv(folder / "pairs.csv", index=False, lineterminator="\n")
    pd.testing.assert_frame_equal(read_table(folder, "pairs", len(fresh)), fresh, check_exact=False, rtol=1e-8)
    assert invoke("report", folder).exit_code == 0
    assert "Holm-adjusted over 6 pairs" in (folder / "report.html").read_text()
    assert invoke(*args, "--force").exit_code == 0  # the earlier table is a pocha file: replaced


def test_report_reads_only_the_files_run_json_lists(tmp_path):
    folder = tmp_path / "run"
    assert invoke("simulate", "-k", "2", "-n", "50", "--out", folder).exit_code == 0
    (folder / "pairs.csv").write_text("not, a, table\n")  # a stray file is ignored
    assert invoke("report", folder).exit_code == 0
    assert "Pairwise" not in (folder / "report.html").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--out", ""], "out: the name is empty; give a folder name, or FILE.csv for one table"),
        (["game", "-g", "40", "--out", " "], "out: the name is empty; give a folder name"),
        (["simulate", "--trace", ""], "trace: the name is empty; give a file name"),
        (["simulate", "--checkpoint", ""], "checkpoint: the name is empty; give a file name"),
        (["simulate", "--resume", ""], "resume: the name is empty; give a file name"),
    ],
)
def test_an_empty_name_is_refused_not_taken_for_the_current_folder_or_for_none(args, message, tmp_path, monkeypatch):
    """--out "" (a shell variable never set) named '.', "not empty"; --checkpoint "" was dropped without a word."""
    monkeypatch.chdir(tmp_path)
    result = invoke(*args, "-n", "10", "-k", "1") if args[0] == "simulate" else invoke(*args)
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.output, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and not any(tmp_path.iterdir())


def test_report_draws_again_a_deleted_page_or_figure(tmp_path):
    """report.html and the figures are report's own output: deleted, they are drawn again, not called damage."""
    folder = tmp_path / "run"
    assert invoke("simulate", "-k", "2", "-n", "50", "--out", folder, "--plot").exit_code == 0
    assert invoke("report", folder).exit_code == 0
    figure = next(folder.glob("*.png"))
    (folder / "report.html").unlink()
    figure.unlink()
    result = invoke("report", folder)
    assert result.exit_code == 0, result.output
    assert (folder / "report.html").is_file() and figure.is_file()


def test_a_failed_report_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    import pocha.reports.plots as plots

    folder = tmp_path / "run"
    assert invoke("simulate", "-n", "50", "--out", folder, "--plot").exit_code == 0
    before = snapshot(folder)
    drawn = []

    def failing(run, tables):
        drawn.append(1)
        if len(drawn) == 3:
            raise RuntimeError("the disk filled up")
        return plots.points_by_size(run, tables)

    monkeypatch.setitem(plots.FIGURES, "won_minus_bid", failing)
    monkeypatch.setitem(plots.FIGURES, "points_by_position", failing)
    monkeypatch.setitem(plots.FIGURES, "exact_rate_by_size", failing)
    with pytest.raises(RuntimeError):
        pocha.report(folder)
    assert snapshot(folder) == before  # no half-redrawn figures, no temporary files


@pytest.fixture
def no_deal_is_played(monkeypatch):
    """Any deal dealt fails the test: the refusal must come first."""

    def refuse(*args, **kwargs):
        raise AssertionError("a deal was played before the destination was checked")

    monkeypatch.setattr(pocha.engine.chunk, "deal_chunk", refuse)
    monkeypatch.setattr("pocha.engine.simulate.deal_chunk", refuse)


def unwritable_folder() -> Path | None:
    """A folder no file can be created in (a read-only or pseudo file system; as root, permissions do not stop
    writes), when this machine has one."""
    for candidate in (Path("/proc/self"), Path("/sys/kernel")):
        try:
            with open(candidate / "pocha-probe", "w"):
                pass
        except OSError:
            return candidate
    return None


@pytest.mark.parametrize(
    ("option", "target", "message"),
    [
        ("--out", "missing/run", "folder 'missing' does not exist"),
        ("--out", "file.txt/run", "'file.txt' is not a folder"),
        ("--out", "file.txt", "'file.txt' is a file"),
        ("--out", "foreign.csv", "'foreign.csv' exists and is not a pocha table"),
        ("--out", "folder.csv", "'folder.csv' is a folder"),
        ("--trace", "missing/t.jsonl", "folder 'missing' does not exist"),
        ("--trace", "foreign.csv", "'foreign.csv' exists and is not a pocha trace"),
        ("--trace", "folder.csv", "is a folder"),
        ("--checkpoint", "foreign.csv", "'foreign.csv' exists and is not a pocha checkpoint"),
        ("--checkpoint", "missing/ck.npz", "folder 'missing' does not exist"),
    ],
)
def test_every_destination_is_checked_before_any_deal(
    option, target, message, tmp_path, monkeypatch, no_deal_is_played
):
    monkeypatch.chdir(tmp_path)
    Path("file.txt").write_text("x")
    Path("foreign.csv").write_text("name,age\nann,3\n")
    Path("folder.csv").mkdir()
    result = invoke("simulate", "-k", "2", "-n", "50", option, target)
    assert result.exit_code == 1 and message in result.stderr, result.output
    assert Path("foreign.csv").read_text() == "name,age\nann,3\n"


def test_train_checks_its_table_file_first(tmp_path, no_deal_is_played):
    (tmp_path / "foreign.npz").write_bytes(b"PK not a table")
    result = invoke("train", "--out", tmp_path / "foreign.npz", "-p", "3", "-n", "10")
    assert result.exit_code == 1 and "exists and is not a pocha trick table" in result.stderr


def test_a_folder_that_cannot_be_written_is_refused_first(no_deal_is_played):
    folder = unwritable_folder()
    if folder is None:
        pytest.skip("no folder here refuses new files")
    for option in ("--out", "--trace"):
        result = invoke("simulate", "-k", "2", "-n", "50", option, folder / "x.csv")
        assert result.exit_code == 1 and "cannot write in" in result.stderr, result.output


def test_a_stopped_run_weighs_the_sizes_it_played_as_the_full_run_does_and_claims_nothing_of_the_rest():
    """Issue 46: the overall figure pooled the deals played (another mixture), and a size with none got a verdict."""
    args = ["compare", STOPPER.replace("200", "60"), "zero", "-k", "1-3", "-n", "1000", "--no-duplicate"]
    stopped = invoke(*args, "--chunk-size", "100", "--threads", "1", "--format", "json")
    assert stopped.exit_code == 130
    data = json.loads(stopped.stdout)
    pairs, results = (pd.DataFrame(data[name]).astype({"cards": str}) for name in ("pairs", "results"))
    sizes = pairs[pairs.cards != "all"]
    assert sizes.deals.nunique() > 1  # unevenly played
    overall = pairs[pairs.cards == "all"].iloc[0]
    assert overall.mean_diff == pytest.approx(sizes.mean_diff.mean())  # each size weighed alike, as planned
    mine = results[(results.strategy == "zero") & (results.position == "all")].set_index("cards")
    assert mine.loc["all", "mean_points"] == pytest.approx(mine.drop("all").mean_points.mean())
    assert mine.loc["all", "exact_rate"] == pytest.approx(mine.drop("all").exact_rate.mean())


def test_a_hand_size_not_played_is_said_and_gets_no_verdict():
    """Issue 46: "every hand size played 0 to 16,130 deals", then a verdict for the size with none."""
    from pocha.reports.text import run_text, stopped_note

    stopper = "sample_strategy:Interrupting:after=9"  # stops in the third chunk: one of each of sizes 1 and 2
    stopped = pocha.compare([stopper, "zero"], cards=[1, 2, 3], deals=1000, chunk_size=100, threads=1, duplicate=False)
    assert stopped_note(stopped.record, stopped.tables).endswith(
        "(none at 3 cards; the other hand sizes played 100 deals)"
    )
    shown = run_text(stopped.record, stopped.tables)
    assert re.search(r" 3 +not played\n", shown) and "all hand sizes" not in shown
    assert "Per strategy (the hand sizes played, 100 deals each, weighed alike as in the full run, the deals" in shown


def test_a_hand_size_not_played_gets_no_verdict():
    frame = pd.DataFrame(
        {"strategy_a": ["a"] * 2, "strategy_b": ["b"] * 2, "cards": ["9", "10"], "deals": [100, 0]}
        | {"mean_diff": [0.5, np.nan], "ci_low": [0.1, np.nan], "ci_high": [0.9, np.nan]}
    )
    shown = pair_size_table(frame).splitlines()
    assert shown[1].endswith("a ahead") and shown[2].endswith("not played")
    assert shown[0].split() == ["a", "-", "b", "cards", "difference", "±95%", "finding"]  # every column named
    assert list(as_planned(np.array([3.0, 4.0, 5.0]), np.array([100, 50, 0]))) == [3.0, 8.0, 0.0]


def test_a_csv_number_has_ten_significant_digits_as_json_has(tmp_path):
    """Issue 46: CSV files carried 16 significant digits, float dust a reader cannot use."""
    out = tmp_path / "r.csv"
    assert invoke("simulate", "-k", "2", "-n", "50", "--out", out).exit_code == 0
    assert significant_digits(out.read_text(), 4) == 10


def significant_digits(csv: str, first: int) -> int:
    """The most significant digits of a number in CSV text, from its column ``first`` on."""
    numbers = [cell for line in csv.splitlines()[1:] for cell in line.split(",")[first:]]
    return max(len(cell.split("e")[0].replace("-", "").replace(".", "").lstrip("0")) for cell in numbers if cell)


def test_models_csv_has_the_ten_digits_of_every_other_csv():
    """The walk of issue 46: pocha models --format csv (its help's example, > scores.csv) printed 17 digits."""
    result = invoke("models", "-k", "2", "-n", "50", "-m", "expected", "-m", "random", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert significant_digits(result.stdout, 5) == 10


def test_the_temporary_files_a_killed_run_left_are_cleared_by_the_next(tmp_path):
    """Issue 46: SIGKILL (no clean-up runs) left a hidden 0-byte .part file that stayed for good."""
    (tmp_path / ".r.csv.k2x9_a.part").touch()
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / ".results.csv.q8z1.part").touch()
    assert invoke("simulate", "-k", "2", "-n", "50", "--out", tmp_path / "r.csv").exit_code == 0
    assert invoke("simulate", "-k", "2", "-n", "50", "--out", tmp_path / "run").exit_code == 0
    assert not [path for path in tmp_path.rglob("*") if path.name.endswith(".part")]


def test_a_run_folder_loses_the_temporary_files_of_a_killed_run_whatever_they_were_for(tmp_path):
    """The walk of issue 46: a killed --plot run's figure .part stayed, as the next run (no --plot) wrote no figure."""
    run = tmp_path / "run"
    assert invoke("simulate", "-k", "1,2", "-n", "50", "--out", run, "--plot").exit_code == 0
    (run / ".points_by_size.png.k2x9_a.part").touch()
    assert invoke("simulate", "-k", "1,2", "-n", "50", "--out", run, "--force").exit_code == 0
    assert not [path.name for path in run.iterdir() if path.name.endswith(".part")]
    (run / ".pairs.csv.q8z1.part").touch()  # a killed compare's, in a folder pocha report then draws
    assert invoke("report", run).exit_code == 0
    assert not [path.name for path in run.iterdir() if path.name.endswith(".part")]


def test_pocha_files_of_the_same_kind_may_be_replaced(tmp_path):
    """A trace is replaced; a table, as a run's folder, only with --force (a second run must not lose the first)."""
    csv, trace = tmp_path / "r.csv", tmp_path / "t.jsonl"
    for force in ([], ["--force"]):
        assert invoke("simulate", "-k", "2", "-n", "50", "--out", csv, "--trace", trace, *force).exit_code == 0


@pytest.mark.usefixtures("unprobed")
def test_a_stopped_run_has_covered_every_hand_size_and_says_so_in_every_format(tmp_path):
    """Reproduced first: sizes ran in order, so a stop left sizes 2-10 empty and the 'all' row was one-card deals."""
    args = ["simulate", "-s", STOPPER, "-s", "zero", "-s", "zero", "-s", "zero", "-n", "1000", "--chunk-size", "100"]
    table = invoke(*args)
    assert table.exit_code == 130
    first_lines = table.stdout.splitlines()[:3]
    assert first_lines[2].startswith("stopped: ") and " of 10,000 deals played" in first_lines[2]
    spread = re.search(r"\(every hand size played (?:(400) to )?500 deals\)", first_lines[2])
    assert spread, first_lines
    pooled = "all hand sizes" if spread[1] is None else "the hand sizes played, 400 to 500 deals each, weighed alike"
    assert f"By bidding position ({pooled}" in table.stdout and f"Per strategy ({pooled}" in table.stdout
    csv = invoke(*args, "--format", "csv")
    assert csv.exit_code == 130 and csv.stdout.startswith("# stopped: ")
    frame = pd.read_csv(io.StringIO(csv.stdout), comment="#", dtype={"cards": str, "position": str})
    per_size = frame[(frame.position == "all") & (frame.cards != "all")].groupby("cards").deals.max()
    assert len(per_size) == 10 and per_size.min() >= 400 and per_size.max() - per_size.min() <= 100
    data = json.loads(invoke(*args, "--format", "json").stdout)
    assert data["run"]["complete"] is False and 0 < data["run"]["played"] < 10_000


def stopped_checkpoint(path: Path) -> None:
    """A checkpoint of ``simulate -k 2 -n 1000 --chunk-size 100 --threads 1`` stopped after three chunks."""

    def stop_after_three(done: int, total: int) -> None:
        if done >= 300:
            raise KeyboardInterrupt

    stopped = pocha.simulate(cards=2, deals=1000, chunk_size=100, threads=1, checkpoint=path, progress=stop_after_three)
    assert not stopped.complete and path.is_file()


def test_a_stopped_run_s_checkpoint_is_resumed_or_started_over_never_lost_without_a_word(tmp_path, monkeypatch):
    """Issue 46: the same command again, without --resume, started afresh over a stopped run's checkpoint."""
    monkeypatch.chdir(tmp_path)
    run = ["simulate", "-k", "2", "-n", "1000", "--chunk-size", "100", "--threads", "1"]
    stopped_checkpoint(Path("ck.npz"))
    saved = Path("ck.npz").read_bytes()
    again = invoke(*run, "--checkpoint", "ck.npz")
    assert again.exit_code == 1 and again.stdout == "", again.output
    assert again.stderr == (
        "Error: checkpoint: 'ck.npz' holds the progress of a stopped run; --resume ck.npz continues it, "
        "--force starts the run over\n"
    )
    assert Path("ck.npz").read_bytes() == saved
    over = invoke(*run, "--checkpoint", "ck.npz", "--force")  # --force needs no --out here
    assert over.exit_code == 0 and "The run is complete: its checkpoint ck.npz" in over.stderr, over.output
    assert invoke(*run, "--checkpoint", "ck.npz").exit_code == 0  # a finished run's: replaced without a word


def test_a_checkpoint_in_the_out_folder_resumes_into_it(tmp_path, monkeypatch):
    """Issue 46: the resume command a stopped run printed was refused: the folder held "no pocha run"."""
    monkeypatch.chdir(tmp_path)
    Path("run").mkdir()
    stopped_checkpoint(Path("run/ck.npz"))
    run = ["simulate", "-k", "2", "-n", "1000", "--chunk-size", "100", "--threads", "1", "--out", "run"]
    resumed = invoke(*run, "--checkpoint", "run/ck.npz", "--resume", "run/ck.npz")
    assert resumed.exit_code == 0, resumed.output
    assert sorted(path.name for path in Path("run").iterdir()) == ["ck.npz", "errors.csv", "results.csv", "run.json"]


def game_stopped_after(calls: int):
    stopper = f"sample_strategy:Interrupting:after={calls}"
    lineup = ["-s", stopper, "-s", "zero", "-s", "zero", "-s", "zero"]
    return invoke("game", *lineup, "-g", "400", "--chunk-size", "20", "--threads", "1")


def test_pooled_rows_of_unevenly_played_hand_sizes_say_so():
    """issue 34: a stop left small hands played more; "all hand sizes" then pooled them unevenly, unsaid."""
    from pocha.reports.text import per_strategy

    result = pocha.simulate("zero", cards=[1, 10], deals=20)
    frame = result.tables["results"]
    assert per_strategy(result.record, frame)[0] == "\nPer strategy (all hand sizes):"
    frame = frame.assign(deals=frame.deals.where(frame.cards != "10", 7))
    said = "\nPer strategy (the hand sizes played, 7 to 20 deals each, weighed alike as in the full run):"
    assert per_strategy(result.record, frame)[0] == said


@pytest.mark.usefixtures("unprobed")
def test_a_stopped_game_run_says_so():
    result = game_stopped_after(200)
    assert result.exit_code == 130 and " of 400 games played" in result.stdout.splitlines()[2], result.output


def test_a_run_stopped_before_any_game_ended_shows_no_table():
    result = game_stopped_after(1)
    assert result.exit_code == 130 and result.stdout == "", result.output
    assert result.stderr.splitlines()[-1] == "Interrupted: nothing was written."


def test_bench_stops_on_ctrl_c_and_times_no_cut_run(monkeypatch):
    import pocha.engine.bench

    def cut(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pocha.engine.bench, "measure", cut)
    result = invoke("bench", "-n", "1000", "--repeats", "1")
    assert result.exit_code == 130 and "Interrupted" in result.stderr
    assert "thread" not in result.stdout  # no median printed


def test_a_cut_bench_run_is_never_timed(monkeypatch):
    import pocha.engine.bench
    from pocha.engine.runner import RunTotal
    from pocha.engine.tally import Tally

    monkeypatch.setattr(pocha.engine.bench, "simulate", lambda *a, **k: RunTotal(Tally.empty(("x",), 4, (10,)), False))
    with pytest.raises(KeyboardInterrupt):
        pocha.engine.bench.measure(pocha.engine.bench.BENCHMARKS[0], 1000, pocha.engine.bench.Threads(1), None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "-1"], "seed: must be a whole number from 0 to 2**63 - 1"),
        (["--seed", str(2**63)], "seed: must be a whole number from 0 to 2**63 - 1"),
        (["--threads", "0"], "threads: must be at least 1, not 0"),
        (["-n", str(10**16)], "deals: must be from 1 to"),
        (["--scheduler", "tcp://x:1"], "scheduler: only for --backend dask"),
        (["--workers", "3"], "workers: only for --backend dask"),
        (["--backend", "dask", "--threads", "2"], "threads: the dask backend runs --workers"),
        (["--trace-deals", "5"], "trace-deals: does nothing without --trace"),
        (["--checkpoint-every", "2"], "checkpoint-every: does nothing without --checkpoint"),
        (["--force"], "force: it replaces an earlier run in the --out folder"),
        (["--resume", "missing.npz"], "no checkpoint file"),
        (["-s", "table:path=missing.npz"], "cannot read 'missing.npz'"),
    ],
)
def test_options_at_the_limits_or_without_their_partner_are_one_line(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("simulate", "-k", "2", "-n", "20", *args)
    assert result.exit_code == 1 and message in result.stderr, result.output
    assert "Traceback" not in result.output and list(tmp_path.iterdir()) == []


def test_a_strategy_that_raises_is_one_line(tmp_path):
    plugin = tmp_path / "bad.py"
    plugin.write_text("class Raises:\n    name = 'raises'\n\n    def bid(self, ctx):\n        return 1 / 0\n")
    result = invoke("simulate", "-s", f"{plugin}:Raises", "-k", "1", "-n", "20")
    assert result.exit_code == 1 and "with 1 card failed: ZeroDivisionError: division by zero" in result.stderr
    assert "Traceback" not in result.output


def test_a_damaged_trick_table_is_one_line(tmp_path):
    bad = tmp_path / "t.npz"
    bad.write_bytes(b"PK\x03\x04 damaged")
    with pytest.raises(PochaError, match="cannot read"):
        pocha.simulate(f"table:path={bad}", cards=2, deals=10)


def test_a_spanish_spreadsheet_csv_reads_back_to_the_same_numbers(tmp_path):
    args = ("compare", "expected", "zero", "-k", "3", "-n", "200", "--format", "csv")
    plain = invoke(*args)
    spanish = invoke(*args, "--csv-style", "excel-es", "--out", tmp_path / "results.csv")
    assert plain.exit_code == 0 and spanish.exit_code == 0, spanish.output
    labels = {"cards": str, "position": str}
    expected = pd.read_csv(io.StringIO(plain.stdout), dtype=labels)
    assert ";" in spanish.stdout.splitlines()[0] and "," not in spanish.stdout.splitlines()[0]
    for text in (spanish.stdout, (tmp_path / "results.csv").read_text()):
        pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(text), sep=";", decimal=",", dtype=labels), expected)


def test_csv_on_stdout_is_one_table_and_compare_says_where_the_pairs_are():
    result = invoke("compare", "expected", "zero", "-k", "2", "-n", "100", "--format", "csv")
    assert result.exit_code == 0
    assert "#" not in result.stdout and result.stdout.count("strategy,") == 1
    assert "--out FOLDER also writes pairs.csv" in result.stderr


def test_a_run_folder_refuses_the_spreadsheet_csv_style(tmp_path):
    result = invoke("simulate", "-k", "2", "-n", "10", "--csv-style", "excel-es", "--out", tmp_path / "run")
    assert result.exit_code != 0 and "csv-style: a run folder holds plain CSV" in result.output
    assert not (tmp_path / "run").exists()
    wrong = invoke("simulate", "-k", "2", "-n", "10", "--csv-style", "excel")
    assert wrong.exit_code != 0 and "accepted: plain, excel-es" in wrong.output
