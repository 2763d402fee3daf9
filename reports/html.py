"""``report.html``: one self-contained page a player reads and a colleague reruns, from a run folder.

At the top the exact command, the date, the version, the rules and the seed; then a summary (the
verdicts and a table per strategy), each figure with a caption, the results by hand size and by
position, the pairs, the games, and how to read the intervals: the run's kind says what its parts
are (``pocha.reports.kinds``). Figures are embedded, the style is inline: no network. It reads on
a phone (tables scroll sideways) and prints.
"""

import base64
import shlex

import pandas as pd

from pocha.reports.kinds import kind_of
from pocha.reports.markup import text
from pocha.reports.plots import CAPTIONS
from pocha.reports.record import RunRecord

STYLE = """
body { font-family: system-ui, -apple-system, sans-serif; margin: 0 auto; padding: 1rem; max-width: 62rem;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; } h2 { font-size: 1.2rem; margin-top: 2rem;
     border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
code { background: #f3f3f3; padding: 0.1rem 0.3rem; border-radius: 3px; word-break: break-all; }
.command { font-size: 0.95rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; font-size: 0.9rem; }
dl.facts dt { color: #555; } dl.facts dd { margin: 0; }
.scroll { overflow-x: auto; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; font-size: 0.88rem; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.3rem 0.6rem; text-align: right; white-space: nowrap; }
th { background: #f5f5f5; } th:first-child, td:first-child { text-align: left; }
.words td, .words th { white-space: normal; text-align: left; }
.verdicts li { margin: 0.2rem 0; }
figure { margin: 1rem 0 1.5rem; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9rem; color: #444; margin-top: 0.3rem; }
footer { margin-top: 2rem; font-size: 0.8rem; color: #666; }
@media print { .scroll { overflow: visible; } figure, table { break-inside: avoid; } body { max-width: none; } }
"""


def run_again(run: RunRecord) -> str:
    """The command that made a run, as one that makes it again in its folder: replacing it (``--force``)."""
    if run.command_line is None:
        return f"pocha {run.command} (the command was not recorded)"
    if not run.command_line.startswith("pocha "):  # a Python call
        return f"{run.command_line} with force=True"
    words = shlex.split(run.command_line)
    return shlex.join(words if "--force" in words else [*words, "--force"])


def report_page(run: RunRecord, tables: dict[str, pd.DataFrame], figures: dict[str, bytes]) -> str:
    """``report.html``: one self-contained page, the figures (PNG data by name) embedded."""
    kind = kind_of(run.command)
    summary, details = kind.page(run, tables)
    parts = [
        f"<h1>pocha {text(run.command)}: {text(', '.join(dict.fromkeys(kind.named(run))))}</h1>",
        f'<p class="command">To run it again, replacing this run: <code>{text(run_again(run))}</code></p>',
        *summary,
        *(["<h2>Figures</h2>"] if figures else []),
    ]
    for name, png in figures.items():  # before the long tables: a reader sees the picture first
        data = base64.b64encode(png).decode("ascii")
        parts.append(
            f'<figure><img alt="{text(name.replace("_", " "))}" src="data:image/png;base64,{data}">'
            f"<figcaption>{text(CAPTIONS[name])}</figcaption></figure>"
        )
    parts += details
    how = kind.how_to_read(run)
    parts += ["<h2>How to read the intervals</h2>", *(f"<p>{text(paragraph)}</p>" for paragraph in how)]
    listed = ", ".join(f"{name}.csv" for name in tables)
    parts.append(
        f"<footer>The full tables are the CSV files beside this page ({listed}); run.json holds the run record. "
        f"Written by pocha {text(run.version)}.</footer>"
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>pocha {text(run.command)} report</title><style>{STYLE}</style></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )
