"""What every dialog is: a centred box with a typed result; escape cancels, F1 says what it asks,
and the arrows move between its buttons. A dialog returns what the caller needs and never
touches the store."""

from __future__ import annotations

import re
from typing import ClassVar, Generic, TypeVar

from textual import on
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Button

T = TypeVar("T")


class Dialog(ModalScreen[T | None], Generic[T]):
    """A centred box; escape dismisses with None. The arrow keys move between buttons (a
    box or a list that has the keyboard keeps its own arrows)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
        Binding("f1", "app.help", "Help", id="dialog.help", show=False),
        Binding("left,up", "app.focus_previous", "Previous", id="dialog.previous", show=False),
        Binding("right,down", "app.focus_next", "Next", id="dialog.next", show=False),
    ]

    # What F1 says of the dialog: what it asks, and what each answer does.
    HELP: ClassVar[str] = ""

    @classmethod
    def help_title(cls) -> str:
        """The dialog's name as F1 heads it ("Who is it", "Change review")."""
        words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", cls.__name__).split()
        return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else "Dialog"

    def action_cancel(self) -> None:
        self.dismiss(None)

    def withdraw(self, result: T | None = None) -> None:
        """Dismiss it from outside (its time ran out, its question was taken back), though
        F1's help may be open on top: what is on top goes first."""
        while self in self.app.screen_stack and self.app.screen is not self:
            self.app.pop_screen()
        self.dismiss(result)


class Answered(Dialog[str]):
    """A dialog answered by a key (`answer('accept')`) or a button (its id): dismisses with
    the answer."""

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)
