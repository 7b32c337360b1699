"""The Concepts pane: the subjects an agent keeps a document about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from memo_tui.ui import messages
from memo_tui.ui.text import line
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.table import Row, row

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists


class ConceptsPane(ListPane):
    HELP = (
        "Concepts you follow across meetings and mail (an idea, a technology, a theme), each "
        "with a living document the concept_compile agent writes from the facts about it: "
        "scope, distilled insights, and how the understanding evolved. Enter opens one; a "
        "adds a concept; r runs the agent on the selected one."
    )
    EMPTY = "No concepts yet: a adds one, an idea to follow across meetings and mail."
    COLUMNS = ("Concept", "Sections", "Updated")
    OPENS = "concept"
    BINDINGS = [
        Binding("a", "add", "Add", id="concepts.add"),
        Binding("r", "run", "Compile", id="concepts.run"),
    ]

    def fill(self, lists: Lists, width: int) -> list[Row]:
        return [
            row(
                c.id,
                line(c.name, 48),
                str(c.sections) if c.sections else "none yet (r)",
                (c.updated_at or "")[:16].replace("T", " "),
            )
            for c in lists.concepts
        ]

    def action_add(self) -> None:
        self.post_message(messages.ConceptAddRequested())

    def action_run(self) -> None:
        """r: the concept_compile agent on the selected concept."""
        self._run_on_selected("concept_compile")
