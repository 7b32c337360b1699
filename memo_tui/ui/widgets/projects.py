"""The Projects pane (4): projects and their clients, meetings and living documents."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from memo_tui.ui import messages
from memo_tui.ui.text import line
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.table import Row, row

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists


class ProjectsPane(ListPane):
    HELP = (
        "Projects with their client, linked meetings, the decisions and open action items "
        "from them, and the day of the latest (read from the projects rollup, rebuilt with "
        "every write). Enter opens a project (its living document, notes and facts); r runs "
        "the project_compile agent on the selected one; a adds a project; n writes a note "
        "about it."
    )
    EMPTY = "No projects yet: a adds one (meetings that name it are linked as they come)."
    COLUMNS = ("Project", "Client", "Meetings", "Decisions", "Open actions", "Last meeting")
    OPENS = "project"
    BINDINGS = [
        Binding("a", "add", "Add", id="projects.add"),
        Binding("n", "note", "Note", id="projects.note"),
        Binding("r", "run", "Compile", id="projects.run"),
    ]

    def fill(self, lists: Lists, width: int) -> list[Row]:
        return [
            row(
                p.project_id,
                line(p.name, 32),
                line(p.client or "", 24),
                str(p.captures),
                str(p.decisions),
                str(p.open_action_items),
                p.last_activity or "",
            )
            for p in lists.projects
        ]

    def action_add(self) -> None:
        self.post_message(messages.ProjectAddRequested())

    def action_run(self) -> None:
        """r: the project_compile agent on the selected project."""
        self._run_on_selected("project_compile")

    def action_note(self) -> None:
        key = self.selected_key()
        if key is None:
            self.notify("No project selected: a adds one.")
            return
        self.post_message(messages.NoteWriteRequested(int(key)))
