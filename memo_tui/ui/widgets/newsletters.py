"""The Newsletters pane: mail that is read, not acted on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memo_tui.ui.text import line
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.table import Row, row

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists


class NewslettersPane(ListPane):
    HELP = (
        "Newsletters and other bulk mail from imported email, by sender: how many messages, "
        "the latest, why memo counts it as bulk (List-Unsubscribe, List-Id, Precedence, a "
        "no-reply sender, or a sender of many messages nobody ever wrote to), and its "
        "unsubscribe address, shown as text: memo never opens it. Bulk mail is kept out of "
        "people and of decisions and action items."
    )
    EMPTY = "No newsletters: they come from imported mail (c takes .mbox, Maildir, .eml)."
    COLUMNS = ("Sender", "Name", "Messages", "Last issue", "Why", "Unsubscribe")

    def fill(self, lists: Lists, width: int) -> list[Row]:
        room = max(16, width - 100)  # the link gets what the rest leave
        return [
            row(
                n.sender,
                line(n.sender, 32),
                line(n.name if n.name != n.sender else "", 20),
                str(n.messages),
                (n.last_seen or "")[:10],
                line(n.reason, 16),
                line(n.unsubscribe, room),
            )
            for n in lists.newsletters
        ]
