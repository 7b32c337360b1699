"""The list every pane draws: rows with a key, cells, and what `/` matches."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Self

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

Cell = str | Text


@dataclass(frozen=True)
class Row:
    key: str
    cells: tuple[Cell, ...]
    haystack: str  # what `/` matches against, lower-cased


def row(key: object, *cells: Cell) -> Row:
    text = " ".join(c.plain if isinstance(c, Text) else c for c in cells)
    return Row(str(key), cells, text.lower())


class Table(DataTable[Cell]):
    """A DataTable whose header follows its columns as they widen, and whose Home and End
    (or g and G) go to the first and last row.

    DataTable measures new rows when idle, after it may already have drawn (and cached) the
    header at the old widths; nothing then redraws the header, so it stays misaligned until
    something else changes. Clearing the line caches after measuring fixes that.
    """

    BINDINGS = [
        Binding("home,g", "scroll_top", "First row", id="table.first", show=False),
        Binding("end,G", "scroll_bottom", "Last row", id="table.last", show=False),
    ]

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        super()._update_dimensions(new_rows)
        self._clear_caches()
        self.refresh()

    def clear(self, columns: bool = False) -> Self:
        """Rows gone, and the columns as narrow as their labels again (DataTable keeps a
        column as wide as the widest row it ever held: after a resize to 80 columns the
        rows cut short would sit in columns laid out for 120)."""
        super().clear(columns)
        for column in self.columns.values():
            if column.auto_width:
                column.content_width = column.label.cell_len
        return self
