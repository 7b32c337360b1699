"""The review of a decision or action item memo is not sure of: the item as memo took it,
how sure it is, and the transcript lines it was taken from (its own marked). The dialog only
asks; the caller writes the answer in a worker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from memo_tui.ui.dialogs.base import Answered, Dialog
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from memo_tui.core.history.review import Edit  # noqa: F401 - named in quotes below
    from store import ReviewItem


class ItemReview(Answered):
    """Dismisses with "accept", "reject", "edit", "later" (the next one), or None (escape:
    stop reviewing)."""

    HELP = (
        "memo is not sure this was decided (or asked for): it shows it as unconfirmed. Accept "
        "makes it a fact with your name on it; reject keeps it out of every list, search and "
        "export (and out of a new version of the meeting); edit changes its words, owner or "
        "due date; later moves on to the next one."
    )

    BINDINGS = [
        Binding("a", "answer('accept')", "Accept", id="review.accept"),
        Binding("r", "answer('reject')", "Reject", id="review.reject"),
        Binding("e", "answer('edit')", "Edit", id="review.edit"),
        Binding("l", "answer('later')", "Later", id="review.later"),
    ]

    def __init__(
        self, item: ReviewItem, said: list[tuple[int, str]], number: int, count: int
    ) -> None:
        super().__init__()
        self.item, self.said = item, said
        self.number, self.count = number, count

    def compose(self) -> ComposeResult:
        item = self.item
        kind = "Was this decided?" if item.kind == "decision" else "Is this an action item?"
        with Vertical():
            yield Label(line(f"{kind}  ({self.number} of {self.count})"), classes="title")
            yield Static(self._item(), classes="side")
            yield Static(self._lines(), classes="side")
            with Horizontal(classes="buttons"):
                yield Button("Accept (a)", id="accept", variant="primary")
                yield Button("Reject (r)", id="reject")
                yield Button("Edit (e)", id="edit")
                yield Button("Later (l)", id="later")

    def _item(self) -> Text:
        item, record = self.item, self.item.record
        shown = Text(f"{item.day or 'undated'} · ", style="bold")
        shown.append(line(item.capture_title, style="dim"))
        shown.append("\n")
        shown.append(line(record.description, 300))
        shown.append(" ")
        shown.append(line(_about(item), style="dim"))
        shown.append("\n")
        if record.confidence is None:
            shown.append("memo's extractor gave no confidence", style="dim")
        else:
            judge = record.model_version or "the rules"
            shown.append(f"memo is {record.confidence:.0%} sure · judged by {judge}", style="dim")
        return shown

    def _lines(self) -> Text:
        record = self.item.record
        if record.line_start is None:
            return line("Its words are not in the transcript as said (unverified).", style="dim")
        start, end = record.line_start, record.line_end or record.line_start
        shown = Text()
        for number, said in self.said:
            own = start <= number <= end
            shown.append(f"{'>' if own else ' '} {number:>4}  ", style="bold" if own else "dim")
            shown.append(line(said, 160, style="" if own else "dim"))
            shown.append("\n")
        shown.rstrip()
        return shown


def _about(item: ReviewItem) -> str:
    """Who decided it, or who owns it and by when."""
    if item.kind == "decision":
        return f"(decided by {item.who})" if item.who else ""
    due = f", due {item.due_date}" if item.due_date else ""
    return f"→ {item.who or 'no owner'}{due}"


class ItemEdit(Dialog["Edit"]):
    """The item's words, owner and due date, to change; dismisses with an Edit of what
    changed (saved unchanged: an empty one, a yes to the item as it is), None when escaped."""

    HELP = (
        "Change what memo took: the words, who owns it (who decided, for a decision) and, for "
        "an action item, the due date (YYYY-MM-DD, empty for none). Saved, it is a fact with "
        "your name on it."
    )

    def __init__(self, item: ReviewItem) -> None:
        super().__init__()
        self.item = item

    def _was(self) -> tuple[str, str, str]:
        item = self.item
        return item.record.description, item.who or "", item.due_date or ""

    def compose(self) -> ComposeResult:
        text, owner, due = self._was()
        action = self.item.kind == "action_item"
        with Vertical():
            yield Label(line(f"Edit {self.item.handle}"), classes="title")
            yield Input(value=text, id="text", placeholder="the words")
            yield Input(value=owner, id="owner", placeholder="owner" if action else "decided by")
            if action:
                yield Input(value=due, id="due", placeholder="due YYYY-MM-DD")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#text", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def save(self) -> None:
        from memo_tui.core.history.review import Edit

        was = self._was()
        now = [self.query_one(f"#{name}", Input).value for name in ("text", "owner")]
        now.append(self.query_one("#due", Input).value if self.item.kind == "action_item" else "")
        changed = [
            n.strip() if n.strip() != w.strip() else None for n, w in zip(now, was, strict=True)
        ]
        self.dismiss(Edit(*changed))

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)
