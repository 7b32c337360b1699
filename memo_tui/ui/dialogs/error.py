"""An error the user should see, and what to do about it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line, plain


class ErrorDialog(Dialog[None]):
    """Something failed: what, and what to do. The app carries on."""

    HELP = "Something failed: what, and what to do. The app carries on."

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(self.title_text), classes="title")
            yield Static(plain(self.message))
            with Horizontal(classes="buttons"):
                yield Button("OK", id="ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def close(self) -> None:
        self.dismiss(None)
