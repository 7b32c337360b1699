"""The Captures pane (1): every meeting, note and mail thread captured."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from memo_tui.ui import messages
from memo_tui.ui.text import day, line
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.table import Row, row

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists


class CapturesPane(ListPane):
    HELP = (
        "Every captured meeting and email thread (✉, with its message count), newest first: "
        "title, date (dimmed: the day it was captured, when the meeting gave none), how many "
        "decisions and action items, which extractor read it, and whether it was read whole "
        "or truncated. Enter "
        "opens one with its transcript; c captures a file; d deletes the selected one."
    )
    EMPTY = (
        "No captures yet: c captures a transcript, a folder of them or a mail archive "
        "(memo --demo opens a store of sample meetings)."
    )
    COLUMNS = ("Title", "Date", "Decisions", "Actions", "By", "Read")
    OPENS = "capture"
    BINDINGS = [Binding("d", "delete", "Delete", id="captures.delete")]

    def fill(self, lists: Lists, width: int) -> list[Row]:
        room = max(24, width - 56)  # the title gets what the counts leave
        return [
            row(
                c.id,
                line(f"✉ {c.title} ({c.messages})" if c.source_kind == "email" else c.title, room),
                day(c.occurred_at, c.captured_at),
                str(c.decisions),
                str(c.action_items),
                c.extractor.split()[0],  # "offline", "llm"
                Text("TRUNCATED", style="bold") if c.truncated else "whole",
            )
            for c in reversed(lists.captures)
        ]

    def action_delete(self) -> None:
        key = self.selected_key()
        if key is not None:
            self.post_message(messages.CaptureDeleteRequested(int(key)))
