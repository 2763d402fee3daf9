"""The pieces report.html is made of: escaped text, tables that scroll on a phone, means and shares as shown."""

import html
from collections.abc import Iterable

import numpy as np

from pocha.words import give_or_take


def text(value: object) -> str:
    """Escaped text for the page."""
    return html.escape(str(value))


def table(header: Iterable[str], rows: Iterable[Iterable[object]], words: bool = False) -> str:
    """A plain table, wrapped so a narrow screen scrolls it sideways; ``words``: its cells of text wrap instead."""
    head = "".join(f"<th>{text(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{text(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    kind = "scroll words" if words else "scroll"
    return f'<div class="{kind}"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def points(mean: float, low: float, high: float) -> str:
    """A mean with its interval's half-width: ``4.54 ± 0.01``; ``-`` for no mean."""
    return give_or_take(mean, (high - low) / 2) if np.isfinite(mean) else "-"


def share(value: float, low: float | None = None, high: float | None = None) -> str:
    """A share: ``48.2%``, with its interval when given: ``48.2% (47.5-48.9)``."""
    if not np.isfinite(value):
        return "-"
    shown = f"{100 * value:.1f}%"
    return shown if low is None or high is None else f"{shown} ({100 * low:.1f}-{100 * high:.1f})"
