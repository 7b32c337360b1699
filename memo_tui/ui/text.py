"""Untrusted text made safe to show: one sanitizer, and never read as markup.

Transcripts, names and model output can carry escape sequences, bidi overrides and
Rich markup. Everything the app shows from them goes through these helpers, which run
`core.safety.sanitize` and return `rich.text.Text` (a plain `str` in a Textual widget or
table cell would be parsed as markup).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.core.words import plural as plural  # the UI's spelling of counts too

if TYPE_CHECKING:
    from store import FactRecord

_WHITESPACE = re.compile(r"\s+")


def styled(text: str, style: str = "") -> Text:
    """Text whose style covers only itself: what is appended later keeps its own (Rich's
    `Text(..., style=)` is a base style that would spread to everything appended)."""
    out = Text(text)
    if style:
        out.stylize(style)
    return out


def plain(text: str, style: str = "") -> Text:
    """Untrusted text as a renderable: controls made visible, no markup read."""
    return styled(sanitize(text), style)


def line(text: str, width: int | None = None, style: str = "") -> Text:
    """One line of untrusted text (each run of whitespace, newlines too, folded to one
    space), cut to `width` with an ellipsis."""
    folded = sanitize_line(_WHITESPACE.sub(" ", text))
    if width is not None and len(folded) > width:
        folded = folded[: max(width - 1, 0)] + "…"
    return styled(folded, style)


def span(start: int | None, end: int | None) -> str:
    """A fact's transcript lines, as shown next to it: L12, L12-14, or (unverified)."""
    if start is None:
        return "(unverified)"
    return f"L{start}" if start == end else f"L{start}-{end}"


def fact_span(fact: FactRecord) -> str:
    """`span` for a fact; a note or a digest has no transcript, so no lines at all."""
    return span(fact.line_start, fact.line_end) if fact.capture_id is not None else ""


def day(occurred_at: str | None, captured_at: str) -> str | Text:
    """A meeting's day for a list; one that gave no date shows the day it was captured,
    dimmed (lists sort by it, so it must show, but not pass for the meeting's)."""
    return occurred_at or Text(captured_at[:10], style="dim italic")


def items(rows: list[tuple[str, Text]]) -> Table:
    """Facts under their transcript lines: the lines in a narrow column, the text wrapping
    in its own column (so a long one stays indented)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", no_wrap=True, style="dim", min_width=7)
    grid.add_column(ratio=1)
    for where, text in rows:
        grid.add_row(where, text)
    return grid
