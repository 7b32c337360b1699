"""Yes or no, with what the yes would do (deleting a capture, and the like)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line, plural


class Confirm(Dialog[bool]):
    """A question with a yes button (named for what it does) and a no."""

    HELP = (
        "A question before memo does something you may not want: the yes button says what it "
        "does, no leaves everything as it is."
    )

    def __init__(
        self, title: str, body: Text | Table, yes: str, no: str = "Cancel", danger: bool = False
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.yes = yes
        self.no = no
        self.danger = danger

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(self.title_text), classes="title")
            yield Static(self.body)
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="error" if self.danger else "primary")
                yield Button(self.no, id="no")

    def on_mount(self) -> None:
        self.query_one("#no" if self.danger else "#yes", Button).focus()

    @on(Button.Pressed)
    def answer(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


def delete_dialog(title: str, date: str | None, decisions: int, action_items: int) -> Confirm:
    body = line(f"{title} ({date or 'no date'})")
    body.append(
        f"\n{plural(decisions, 'decision')}, {plural(action_items, 'action item')}, its "
        "transcript and its search entries go too. This cannot be undone."
    )
    return Confirm("Delete this capture?", body, "Delete", danger=True)
