"""Pick a person from a list (who a merged person really is)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line


class PickPerson(Dialog[int]):
    """Who a person really is: the other people, likeliest first. Dismisses with the id
    picked, or None when escaped."""

    HELP = (
        "Who this person really is: pick the same person under another name and memo merges the "
        "two (split undoes it)."
    )

    def __init__(self, name: str, people: Sequence[tuple[int, str]], note: str = "") -> None:
        super().__init__()
        self.person_name = name
        self.people = people
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            title = Text("Who is ")
            title.append(line(self.person_name))
            title.append(", really?")
            yield Label(title, classes="title")
            yield OptionList(*(Option(line(name), id=str(i)) for i, name in self.people))
            if self.note:
                yield Static(line(self.note, style="italic"))

    @on(OptionList.OptionSelected)
    def pick(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))
