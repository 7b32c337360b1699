"""F1: the keys of the screen in hand, and what its pane shows."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from memo_tui.ui.dialogs.base import Dialog


class Help(Dialog[None]):
    """The keys of the focused pane, then the app's, with their binding ids for keymaps."""

    BINDINGS = [Binding("f1,question_mark,q", "cancel", "Close", id="help.close")]

    def __init__(self, title: str, about: str, keys: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.about = about
        self.keys = keys

    def compose(self) -> ComposeResult:
        table = Table(box=None, pad_edge=False, show_edge=False, expand=True)
        table.add_column("Key", style="bold", no_wrap=True)
        table.add_column("Does")
        table.add_column("Binding id", style="dim", no_wrap=True)
        for key, does, binding_id in self.keys:
            table.add_row(key, does, binding_id)
        with Vertical():
            yield Label(self.title_text, classes="title")
            with VerticalScroll():
                yield Static(Text(self.about + "\n"))
                yield Static(table)
            yield Label(
                Text(
                    'Rebind any key in config.toml: [keymap] "pane.ask" = "a". Escape closes.',
                    style="dim",
                )
            )

    def on_resize(self) -> None:
        """What does not fit the terminal scrolls (the title and the hint stay in view)."""
        self.query_one(VerticalScroll).styles.max_height = max(3, self.size.height - 5)
