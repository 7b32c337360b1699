"""What every pane shares: its help text (F1) and keys with ids (so a keymap can move them),
and for list panes a filter box over a table. Loading runs in workers; a pane only draws."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from memo_tui.ui import messages
from memo_tui.ui.widgets.table import Row, Table

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists
    from memo_tui.ui.app import MemoApp


class Pane(Vertical):
    """A pane of the main screen."""

    HELP: ClassVar[str] = ""

    @property
    def memo(self) -> MemoApp:
        from memo_tui.ui.app import MemoApp

        assert isinstance(self.app, MemoApp)
        return self.app

    def focus_first(self) -> None:
        """Put the keyboard where the pane's work starts."""
        self.query_one(DataTable).focus()

    def start_filter(self) -> None:
        """`/`: narrow what the pane lists."""


class ListPane(Pane):
    """A table of rows with a `/` filter: type to narrow, escape to clear."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()
    EMPTY: ClassVar[str] = ""  # what to do when there is nothing to list yet
    OPENS: ClassVar[str] = ""  # what a row is, when enter opens it (see messages.RowOpened)
    BINDINGS = [Binding("escape", "clear_filter", "Clear filter", show=False, id="list.clear")]

    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.rows: list[Row] = []

    def compose(self) -> ComposeResult:
        yield Input(
            placeholder="Filter: type to narrow, enter to keep, escape to clear",
            compact=True,
            classes="filter",
        )
        table = Table(id=f"{self.id}-table", cursor_type="row", zebra_stripes=True)
        table.add_columns(*self.COLUMNS)
        yield table
        yield Static(Text(self.EMPTY, style="dim"), classes="empty")

    def on_mount(self) -> None:
        self.query_one(".filter", Input).display = False
        self.query_one(".empty", Static).display = False

    @on(DataTable.RowSelected)
    def _opened(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value
        if key is not None and self.OPENS:
            self.post_message(messages.RowOpened(self.OPENS, int(key)))

    def fill(self, lists: Lists, width: int) -> list[Row]:
        """The rows to show, from what the store held at the last refresh, cut to the
        terminal's `width` (in a worker: it reads nothing of the screen)."""
        raise NotImplementedError

    def show_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self.query_one(".empty", Static).display = not rows and bool(self.EMPTY)
        self._draw()

    def _draw(self) -> None:
        table = self.query_one(DataTable)
        selected = self.selected_key()
        needle = self.query_one(".filter", Input).value.lower().strip()
        table.clear()
        for r in self.rows:
            if needle in r.haystack:
                table.add_row(*r.cells, key=r.key)
                if r.key == selected:  # the cursor stays on the row it was on
                    table.move_cursor(row=table.row_count - 1, animate=False)

    def selected_key(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    def _run_on_selected(self, agent: str) -> None:
        """Run `agent` on the selected row's entity."""
        key = self.selected_key()
        if key is None:
            self.notify("Nothing selected.")
            return
        self.post_message(messages.AgentRunRequested(agent, on=(self.OPENS, int(key))))

    def start_filter(self) -> None:
        box = self.query_one(".filter", Input)
        box.display = True
        box.focus()

    @on(Input.Changed, ".filter")
    def narrow(self) -> None:
        self._draw()

    @on(Input.Submitted, ".filter")
    def keep(self) -> None:
        self.focus_first()

    def action_clear_filter(self) -> None:
        box = self.query_one(".filter", Input)
        if box.display:
            box.value = ""
            box.display = False
            self.focus_first()
