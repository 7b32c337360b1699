"""The Changes review: one proposal at a time, both sides with their quotes and dates.

A proposal is a later decision that may replace an earlier one, or a later line that may say
an action item is done. The dialog only asks; the caller applies the answer in a worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from memo_tui.ui.dialogs.base import Answered
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from store import ChangeRecord

ANSWERS = ("accept", "reject", "later")


class ChangeReview(Answered):
    """Dismisses with "accept", "reject", "later" (look at the next one), or None (escape:
    stop reviewing)."""

    HELP = (
        "A later decision seems to replace an earlier one: both quotes with their dates. Accept "
        "links them (the earlier one is kept as history), reject leaves both current, later "
        "moves on to the next proposal."
    )

    BINDINGS = [
        Binding("a", "answer('accept')", "Accept", id="changes.accept"),
        Binding("r", "answer('reject')", "Reject", id="changes.reject"),
        Binding("l", "answer('later')", "Later", id="changes.later"),
    ]

    def __init__(self, change: ChangeRecord, number: int, count: int) -> None:
        super().__init__()
        self.change = change
        self.number = number
        self.count = count

    QUESTIONS = ("Is this action item done?", "Does the later decision replace this one?")
    ANSWERED = ("Accept (a)", "Reject (r)")

    def compose(self) -> ComposeResult:
        change = self.change
        closes = change.kind == "closes"
        question = self.QUESTIONS[0] if closes else self.QUESTIONS[1]
        with Vertical():
            yield Label(line(f"{question}  ({self.number} of {self.count})"), classes="title")
            yield Static(
                self._side(
                    "Then", change.old_day, change.old_title, change.old_text, change.old_quote
                ),
                classes="side",
            )
            said = change.evidence if closes else change.new_text or change.evidence
            quote = None if closes else change.evidence
            yield Static(
                self._side("Later", change.new_day, change.new_title, said, quote), classes="side"
            )
            yield Static(line(f"Why memo asks: {change.reason}", style="dim"))
            with Horizontal(classes="buttons"):
                yield Button(self.ANSWERED[0], id="accept", variant="primary")
                yield Button(self.ANSWERED[1], id="reject")
                yield Button("Later (l)", id="later")

    @staticmethod
    def _side(label: str, day: str | None, title: str | None, said: str, quote: str | None) -> Text:
        shown = Text(f"{label}, {day or 'undated'}", style="bold")
        if title:
            shown.append(" · ", style="dim")
            shown.append(line(title, style="dim"))
        shown.append("\n")
        shown.append(line(said, 300))
        if quote and quote.strip() != said.strip():
            shown.append("\n")
            shown.append(line(f'"{quote}"', 300, style="italic"))
        return shown


class AppliedReview(ChangeReview):
    """A change memo applied on its own (strong evidence), shown once for the user to keep or
    undo: "accept" keeps it, "reject" undoes it."""

    HELP = (
        "memo linked these on strong evidence (the later call says it changes the earlier "
        "one). Keep leaves the earlier one as history; undo makes it current again."
    )

    BINDINGS = [
        Binding("a", "answer('accept')", "Keep", id="changes.keep"),
        Binding("r", "answer('reject')", "Undo", id="changes.undo"),
        Binding("l", "answer('later')", "Later", id="changes.later"),
    ]
    QUESTIONS = (
        "memo marked this action item done: keep it?",
        "memo found the later decision replaces this one: keep it replaced?",
    )
    ANSWERED = ("Keep (a)", "Undo (r)")
