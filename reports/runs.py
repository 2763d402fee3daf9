"""A run folder: the tidy tables as CSV, ``run.json`` to reproduce the run, and figures.

Files (each written whole or not at all):
  results.csv  one row per strategy x hand size x bidding position (see ``pocha.reports.stats.summary``)
  errors.csv   hands per value of won - bid (``pocha.reports.stats.error_distribution``)
  pairs.csv    paired differences, ``pocha compare`` (``pocha.reports.stats.pair_differences``)
  games.csv    whole-game results, ``pocha game`` (``pocha.reports.game_stats.game_summary``)
  run.json     the run record (``pocha.reports.record``): command line, rules, strategies, seed, amounts
"""

import json
from pathlib import Path

import pandas as pd

from pocha.atomic import atomic_open
from pocha.errors import PochaError
from pocha.reports.record import RunRecord

TABLES = ("results", "errors", "pairs", "games")
LABEL_COLUMNS = {"cards": str, "position": str}  # hold "all" beside numbers: read back as text


def check_folder(path: str | Path) -> Path:
    """Refuse, before any work, an output folder that is a file or whose parent is missing (it is made at the end)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise PochaError(f"out: '{folder}' is a file; give a folder, or a name ending in .csv for one table")
    if not folder.parent.is_dir():
        raise PochaError(f"out: folder '{folder.parent}' does not exist (for '{folder}'); create it first")
    return folder


def write_table(frame: pd.DataFrame, path: Path | str) -> None:
    """One table as CSV."""
    with atomic_open(path) as stream:
        frame.to_csv(stream, index=False, lineterminator="\n")


def save_run(folder: Path, run: RunRecord, tables: dict[str, pd.DataFrame]) -> None:
    """Write the tables and ``run.json`` into ``folder`` (made if missing)."""
    folder.mkdir(exist_ok=True)
    for name, frame in tables.items():
        write_table(frame, folder / f"{name}.csv")
    with atomic_open(folder / "run.json") as stream:
        stream.write(json.dumps(run.to_dict(), indent=2) + "\n")


def load_run(path: str | Path) -> tuple[RunRecord, dict[str, pd.DataFrame]]:
    """``run.json`` and the tables of a finished run folder."""
    folder = Path(path)
    if not (folder / "run.json").is_file():
        raise PochaError(f"report: no run.json in '{folder}'; give a folder written by --out DIR")
    try:
        run = RunRecord.from_dict(json.loads((folder / "run.json").read_text(encoding="utf-8")))
    except json.JSONDecodeError as error:
        raise PochaError(f"report: {folder / 'run.json'} is not valid JSON ({error})") from None
    except (TypeError, AttributeError) as error:
        raise PochaError(f"report: {folder / 'run.json'} is not a pocha run record ({error})") from None
    tables = {
        name: pd.read_csv(folder / f"{name}.csv", dtype=LABEL_COLUMNS)
        for name in TABLES
        if (folder / f"{name}.csv").is_file()
    }
    if "results" not in tables:
        raise PochaError(f"report: no results.csv in '{folder}'")
    return run, tables
