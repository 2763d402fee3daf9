"""A run folder: one run's tables as CSV, its figures, ``report.html``, and ``run.json`` listing every file.

Files:
  results.csv  one row per strategy x hand size x bidding position (see ``pocha.reports.stats.summary``)
  errors.csv   hands per value of won - bid (``pocha.reports.stats.error_distribution``)
  pairs.csv    paired differences, ``pocha compare`` (``pocha.reports.stats.pair_differences``); one
               written before its Holm columns is completed on loading
  games.csv    whole-game results, ``pocha game`` (``pocha.reports.game_stats.game_summary``)
  predictions.csv  the recorded predictions, one row per hand (``pocha.reports.predictions``)
  variants.csv  every figure of a rule-set study, ``pocha variants`` (``pocha.reports.variants.variant_table``)
  *.png        figures (``--plot``, ``pocha report``), report.html (``pocha report``)
  run.json     the run record (``pocha.reports.record``), its ``files`` naming every file above
               with each table's number of data rows

A folder holds one run. A run writes into a new or empty folder, or, with ``force``, replaces the
earlier run a folder holds (only the files its run.json lists). The files of one write appear
together or not at all. ``load_run`` reads only the files run.json lists and checks them first (a deleted figure or
report.html is drawn again).
"""

import io
import json
from dataclasses import replace
from pathlib import Path

import pandas as pd

from pocha.engine.atomic import check_folder_writable, clear_leftovers, is_leftover, named, together
from pocha.engine.checkpoint import is_checkpoint
from pocha.engine.predictions import PREDICTION_COLUMNS
from pocha.errors import PochaError
from pocha.reports.game_stats import GAME_COLUMNS
from pocha.reports.kinds import kind_of, record_from
from pocha.reports.record import RunRecord
from pocha.reports.stats import ERROR_COLUMNS, PAIR_COLUMNS, RAW_PAIR_COLUMNS, RESULT_COLUMNS, with_holm
from pocha.reports.tables import CSV_STYLES, csv_text
from pocha.reports.variants import VARIANT_COLUMNS

RECORD = "run.json"
TABLE_COLUMNS = {
    "results": RESULT_COLUMNS,
    "pairs": PAIR_COLUMNS,
    "errors": ERROR_COLUMNS,
    "games": GAME_COLUMNS,
    "predictions": PREDICTION_COLUMNS,
    "variants": VARIANT_COLUMNS,
}
EARLIER = {"pairs": (RAW_PAIR_COLUMNS, with_holm)}  # tables an earlier pocha wrote with fewer columns: completed
LABEL_COLUMNS = {"cards": str, "position": str, "play": str}  # "all" beside numbers, policy specs: read as text
TEXT_COLUMNS = {"strategy", "strategy_a", "strategy_b", "variant", "measure", *LABEL_COLUMNS}


def is_table_csv(path: Path) -> bool:
    """Whether a file is one of pocha's tables (its header is one of TABLE_COLUMNS), so it may be replaced."""
    try:
        with open(path, encoding="utf-8") as stream:
            header = stream.readline().strip()
    except (OSError, UnicodeDecodeError):
        return False
    headers = [*TABLE_COLUMNS.values(), *(columns for columns, _ in EARLIER.values())]
    return header in {separator.join(columns) for columns in headers for separator, _ in CSV_STYLES.values()}


def read_record(folder: Path) -> RunRecord:
    """A folder's run.json, checked; one line if it is missing, damaged or foreign."""
    path = folder / RECORD
    if not path.is_file():
        raise PochaError(f"no {RECORD} in '{folder}'; give a folder written by --out FOLDER")
    try:
        record = record_from(json.loads(path.read_text(encoding="utf-8")))
    except PochaError as error:  # read, but not as pocha writes it
        raise PochaError(f"{path} is not a pocha run record ({error})") from None
    except (OSError, UnicodeDecodeError, TypeError, ValueError, AttributeError):  # the parser's words name no fix
        raise PochaError(f"{path} is not a pocha run record (damaged, or another kind of file)") from None
    if record.files is None:
        raise PochaError(f"{path} lists no files (it was not written by this version of pocha)")
    return record


def check_out_folder(path: str | Path, force: bool) -> None:
    """Refuse, before any work, a folder that could not be written or holds anything but an earlier run to replace."""
    folder = named(path, "out", "a folder name, or FILE.csv for one table")
    if folder.exists() and not folder.is_dir():
        raise PochaError(f"out: '{folder}' is a file; give a folder, or a name ending in .csv for one table")
    check_folder_writable(folder if folder.exists() else folder.parent, "out")
    if not folder.exists() or all(is_leftover(path) or is_checkpoint(path) for path in folder.iterdir()):
        return  # a killed run's leftovers are cleared; a checkpoint is its run's (Checkpoint says if it is replaced)
    try:
        earlier = read_record(folder)
    except PochaError:
        raise PochaError(
            f"out: folder '{folder}' is not empty and holds no pocha run; give a new or empty folder"
        ) from None
    if not force:
        raise PochaError(
            f"out: folder '{folder}' holds an earlier run ({earlier.command_line or 'pocha ' + earlier.command}); "
            "give --force to replace it, or another folder"
        )


def csv_bytes(frame: pd.DataFrame, style: str = "plain") -> bytes:
    """A table as the CSV file holds it."""
    return csv_text(frame, style).encode("utf-8")


def write_table(frame: pd.DataFrame, path: Path | str, style: str = "plain") -> None:
    """One table as a CSV file, whole or not at all."""
    target = Path(path)
    with together(target.parent) as path_for:
        path_for(target.name).write_bytes(csv_bytes(frame, style))


def save_run(folder: Path, run: RunRecord, tables: dict[str, pd.DataFrame], figures: dict[str, bytes]) -> RunRecord:
    """Write a run's tables, figures and run.json into ``folder``, replacing an earlier run; the record written."""
    earlier = (read_record(folder).files or {}) if (folder / RECORD).is_file() else {}
    contents = {f"{name}.csv": csv_bytes(frame) for name, frame in tables.items()}
    contents |= {f"{name}.png": data for name, data in figures.items()}
    rows = {f"{name}.csv": len(frame) for name, frame in tables.items()}
    record = replace(run, files={name: rows.get(name) for name in contents})
    write_files(folder, record, contents, [folder / name for name in earlier])
    return record


def add_to_run(folder: Path, run: RunRecord, contents: dict[str, bytes]) -> RunRecord:
    """Add (or redraw) files of a finished run: written together with its run.json, which lists them."""
    record = replace(run, files={**(run.files or {}), **dict.fromkeys(contents)})
    write_files(folder, record, contents, [])
    return record


def write_files(folder: Path, record: RunRecord, contents: dict[str, bytes], replacing: list[Path]) -> None:
    """Write the files and run.json together; the files in ``replacing`` go at the same moment, a killed run's first."""
    if folder.is_dir():
        clear_leftovers(folder)
    with together(folder, [*replacing, folder / RECORD]) as path_for:
        for name, data in contents.items():
            path_for(name).write_bytes(data)
        path_for(RECORD).write_text(json.dumps(record.to_dict(), indent=2) + "\n", encoding="utf-8")


def read_table(folder: Path, name: str, rows: int | None) -> pd.DataFrame:
    """A table run.json lists, checked: its columns, their types and its number of rows."""
    path = folder / f"{name}.csv"
    try:
        frame = pd.read_csv(io.StringIO(path.read_text(encoding="utf-8")), dtype=LABEL_COLUMNS)
    except (OSError, UnicodeDecodeError, ValueError):  # pandas' words name no fix
        raise PochaError(f"report: cannot read {path} (damaged, or not a CSV table)") from None
    expected = TABLE_COLUMNS[name]
    earlier, complete = EARLIER.get(name, (None, None))
    if complete is not None and tuple(frame.columns) == earlier:
        frame = complete(frame)
    if tuple(frame.columns) != expected:
        raise PochaError(f"report: {path} has the columns {', '.join(frame.columns)}, not {', '.join(expected)}")
    if len(frame) != rows:
        raise PochaError(f"report: {path} has {len(frame)} rows; run.json says {rows}")
    wrong = [c for c in expected if c not in TEXT_COLUMNS and not pd.api.types.is_numeric_dtype(frame[c])]
    if wrong:
        raise PochaError(f"report: {path}: column {wrong[0]} holds something other than numbers")
    return frame


def drawn(name: str) -> bool:
    """Whether a run's file is one ``pocha report`` draws again (a figure, report.html): missing, it is no damage."""
    return name == "report.html" or name.endswith(".png")


def load_run(path: str | Path) -> tuple[RunRecord, dict[str, pd.DataFrame]]:
    """The record and tables of a finished run folder; one line, and nothing touched, if it does not add up."""
    folder = Path(path)
    if not folder.is_dir():
        raise PochaError(f"report: '{folder}' is not a folder")
    try:
        run = read_record(folder)
    except PochaError as error:
        raise PochaError(f"report: {error}") from None
    if not kind_of(run.command).writes_folder:
        raise PochaError(f"report: '{folder}' holds a {run.command} run, which writes no run folder to report on")
    files = run.files or {}
    missing = [name for name in files if not (folder / name).is_file() and not drawn(name)]
    if missing:
        raise PochaError(f"report: {folder / missing[0]} is listed in run.json but missing")
    if not run.complete:
        raise PochaError(f"report: '{folder}' holds a stopped run")
    lacking = [f"{name}.csv" for name in kind_of(run.command).needed if f"{name}.csv" not in files]
    if lacking:
        raise PochaError(f"report: run.json of a {run.command} run does not list {lacking[0]}")
    tables = {
        stem: read_table(folder, stem, files[name])
        for name in files
        if (stem := name.removesuffix(".csv")) in TABLE_COLUMNS and name.endswith(".csv")
    }
    return run, tables


def write_report(folder: Path) -> tuple[Path, list[Path]]:
    """Redraw a finished run folder's figures and write its ``report.html``: ``(report, figures)``.

    Only the files its run.json lists are read, and checked first; the new files appear together.
    """
    from pocha.reports.html import report_page
    from pocha.reports.plots import render_figures

    run, tables = load_run(folder)
    check_folder_writable(folder, "report")
    figures = render_figures(run, tables)
    contents = {f"{name}.png": data for name, data in figures.items()}
    contents["report.html"] = report_page(run, tables, figures).encode("utf-8")
    add_to_run(folder, run, contents)
    return folder / "report.html", [folder / f"{name}.png" for name in figures]
