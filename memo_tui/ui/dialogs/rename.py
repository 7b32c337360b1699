"""A new name for a project (or a client), starting from the one it has."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label

from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line


class Rename(Dialog[str]):
    """Dismisses with the new name (spacing tidied), or None when escaped or left as it was."""

    HELP = (
        "A new name. Everything stays linked to it: its meetings, notes, living document and "
        "agent runs. A name something else already has is refused, and nothing changes."
    )

    def __init__(self, what: str, name: str) -> None:
        super().__init__()
        self.what, self.old_name = what, name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(f"Rename the {self.what} {self.old_name}"), classes="title")
            yield Input(value=self.old_name, id="new-name")
            with Horizontal(classes="buttons"):
                yield Button("Rename", id="rename", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#new-name", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#rename")
    def rename(self) -> None:
        name = " ".join(self.query_one("#new-name", Input).value.split())
        if not name:
            self.notify(f"The {self.what} needs a name.", severity="warning")
            return
        self.dismiss(None if name == self.old_name else name)

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)
