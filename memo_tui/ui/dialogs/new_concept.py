"""A new concept for the concept agent to keep a document about."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label

from memo_tui.ui.dialogs.base import Dialog


class NewConcept(Dialog[str]):
    """A concept's name: an idea to follow across meetings and mail."""

    HELP = (
        "A concept is an idea to follow across meetings and mail; its agent keeps a living "
        "document about it."
    )

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("New concept (an idea to follow, e.g. event sourcing)", classes="title")
            yield Input(placeholder="Concept name", id="concept-name")
            with Horizontal(classes="buttons"):
                yield Button("Add", id="add", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#concept-name", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#add")
    def add(self) -> None:
        name = " ".join(self.query_one("#concept-name", Input).value.split())
        if not name:
            self.notify("The concept needs a name.", severity="warning")
            return
        self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)
