"""What every dialog is: a centred box with a typed result; escape cancels, and the arrows move
between its buttons. A dialog returns what the caller needs and never touches the store."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen

T = TypeVar("T")


class Dialog(ModalScreen[T | None], Generic[T]):
    """A centred box; escape dismisses with None. The arrow keys move between buttons (a
    box or a list that has the keyboard keeps its own arrows)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
        Binding("left,up", "app.focus_previous", "Previous", id="dialog.previous", show=False),
        Binding("right,down", "app.focus_next", "Next", id="dialog.next", show=False),
    ]

    def action_cancel(self) -> None:
        self.dismiss(None)
