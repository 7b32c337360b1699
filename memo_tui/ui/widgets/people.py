"""The People pane (3): who memo knows, what they owe, and the names waiting on them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from memo_tui.ui import messages
from memo_tui.ui.text import line
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.table import Cell, Row, row

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists
    from store import PendingMention


class PeoplePane(ListPane):
    HELP = (
        "Everyone memo has met in a meeting: the names they go by, their open action items, "
        "the open items others owe them (Owed: ones they asked for), the decisions they "
        "made, the meetings they attended and when they were last seen "
        "(read from the people rollup, rebuilt with every write), and how many items wait "
        "on a name that may be theirs (To settle: w asks who it is). Enter opens a person; "
        "r runs the person_enrich agent on the selected one; m merges them into who they "
        "really are (one person listed twice), u undoes the latest merge into them."
    )
    EMPTY = "Nobody yet: people come from the speakers and attendees of captured meetings."
    COLUMNS = ("Name", "Also", "Owes", "Owed", "Decided", "Meetings", "Last seen", "To settle")
    OPENS = "person"
    BINDINGS = [
        Binding("r", "run", "Enrich", id="people.run"),
        Binding("m", "merge", "Merge", id="people.merge"),
        Binding("u", "split", "Unmerge", id="people.split"),
    ]

    def fill(self, lists: Lists, width: int) -> list[Row]:
        people, owed, waiting = lists.people, lists.owed, lists.to_settle
        room = max(24, width - 62)  # the names get what the counts leave
        name = min(32, room - 6, max((len(p.name) for p in people), default=0))
        return [
            row(
                p.person_id,
                line(p.name, name),
                line(", ".join(p.aliases), min(30, room - name)),
                str(p.open_action_items),
                str(owed.get(p.person_id, 0)),
                str(p.decisions),
                str(p.meetings),
                p.last_seen or "",
                _to_settle(waiting.get(p.person_id, [])),
            )
            for p in people
        ]

    def action_run(self) -> None:
        """r: the person_enrich agent on the selected person (their page shows it)."""
        self._run_on_selected("person_enrich")

    def action_merge(self) -> None:
        """m: the selected person is someone else memo lists (asks who, then asks first)."""
        key = self.selected_key()
        if key is not None:
            self.post_message(messages.PersonMergeRequested(int(key)))

    def action_split(self) -> None:
        """u: undo the latest merge into the selected person (asks first)."""
        key = self.selected_key()
        if key is not None:
            self.post_message(messages.PersonSplitRequested(int(key)))


def _to_settle(mentions: list[PendingMention]) -> Cell:
    """A person's pending assignments: the items waiting on names that may be theirs."""
    count = sum(m.action_items + m.decisions for m in mentions)
    return Text(f"{count} (w)", style="bold") if count else ""
