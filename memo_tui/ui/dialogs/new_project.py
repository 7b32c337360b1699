"""A new project, with its client if it has one."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input, Label

from memo_tui.core.safety import sanitize_line
from memo_tui.ui.dialogs.base import Dialog


class NewProject(Dialog[tuple[str, str | None]]):
    """A project's name and, optionally, its client (the clients memo knows complete as
    you type: tab or the right arrow takes one)."""

    HELP = (
        "A project's name and, if it has one, its client (the clients memo knows complete with "
        "tab or the right arrow)."
    )

    BINDINGS = [Binding("tab", "complete", "Complete", id="project.complete", priority=True)]

    def __init__(self, clients: Sequence[str] = ()) -> None:
        super().__init__()
        self.clients = [name for name in clients if sanitize_line(name) == name]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("New project", classes="title")
            yield Input(placeholder="Project name", id="project-name")
            yield Input(
                placeholder="Client (optional; known ones complete)",
                suggester=SuggestFromList(self.clients, case_sensitive=False),
                id="project-client",
            )
            with Horizontal(classes="buttons"):
                yield Button("Add", id="add", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#project-name", Input).focus()

    def action_complete(self) -> None:
        """Tab: in the client box, take the suggested client; elsewhere, move on."""
        box = self.focused
        if isinstance(box, Input) and box.id == "project-client":
            typed = box.value
            box.cursor_position = len(typed)
            box.action_cursor_right()  # (at the end of the text, this takes the suggestion)
            if box.value != typed:
                return
        self.focus_next()

    @on(Input.Submitted)
    @on(Button.Pressed, "#add")
    def add(self) -> None:
        name = " ".join(self.query_one("#project-name", Input).value.split())
        client = " ".join(self.query_one("#project-client", Input).value.split())
        if not name:
            self.notify("The project needs a name.", severity="warning")
            self.query_one("#project-name", Input).focus()
            return
        self.dismiss((name, client or None))

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)
