"""A note's text, written or edited; escape asks before dropping what was typed."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Select, TextArea

from memo_tui.core.safety import sanitize
from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line


@dataclass(frozen=True)
class Written:
    """A note's text, and which of the offered owners it is about (0: the first)."""

    body: str
    about: int = 0


class NoteEditor(Dialog[Written]):
    """Write or edit a note; ctrl+s saves, escape leaves it as it was. With several owners
    offered (a project and its client), the note can be about either.

    The text it is given (an agent's section, a note) is shown sanitized, controls made
    visible; saved unchanged, it dismisses with None, so nothing is rewritten or marked as
    the user's."""

    HELP = (
        "A note about a project or a client, kept beside the meetings and found by search and "
        "ask. ctrl+s saves it."
    )

    BINDINGS = [Binding("ctrl+s", "save", "Save", id="note.save")]

    def __init__(self, title: str, body: str = "", owners: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.body = sanitize(body)
        self.owners = owners

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(self.title_text), classes="title")
            if len(self.owners) > 1:
                yield Select(
                    [(line(f"About {owner}"), n) for n, owner in enumerate(self.owners)],
                    value=0,
                    allow_blank=False,
                    compact=True,
                    id="note-about",
                )
            yield TextArea(self.body, id="note-body", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()
        self.warned = False

    def action_cancel(self) -> None:
        """Escape; with text typed and not saved, the first one only says so."""
        if self.query_one(TextArea).text.strip() != self.body.strip() and not self.warned:
            self.warned = True
            self.notify("Not saved: ctrl+s saves it, escape again leaves without it.")
            return
        self.dismiss(None)

    def action_save(self) -> None:
        body = self.query_one(TextArea).text.strip()
        if not body:
            self.notify(
                "A note needs some text (escape leaves without saving).", severity="warning"
            )
            return
        if body == self.body.strip():
            self.dismiss(None)  # as it was
            return
        about = self.query("#note-about")
        chosen = about.first(Select).value if about else 0
        self.dismiss(Written(body, chosen if isinstance(chosen, int) else 0))

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)
