"""A project's page: its living document, notes and meetings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from memo_tui.ui import messages
from memo_tui.ui.screens.page import Entry, Page, heading, lines_of
from memo_tui.ui.text import items, line, plural, styled
from store import (
    NoteRecord,
)

if TYPE_CHECKING:
    from memo_tui.core.services import Services


class ProjectPage(Page):
    HELP = (
        "A project: your notes about it (and its client), the meetings linked to it, and the "
        "facts about it, and its living document (r: the project_compile agent writes it; e "
        "or enter edits a section, and agents then leave it; u gives it back to them). n "
        "writes a note; e edits the selected note; x deletes it. R renames the project, C "
        "its client, and D deletes the project (its meetings stay). Enter on a meeting or "
        "fact opens it at its lines."
    )
    BINDINGS = [
        Binding("n", "new_note", "Note", id="project.note"),
        Binding("e", "edit", "Edit", id="project.edit"),
        Binding("x", "delete_note", "Delete", id="project.delete_note"),
        Binding("b", "collect", "Collect", id="project.collect"),
        Binding("R", "rename", "Rename", id="project.rename", show=False),
        Binding("C", "rename_client", "Rename client", id="project.rename_client", show=False),
        Binding("D", "delete", "Delete project", id="project.delete", show=False),
    ]

    def action_rename(self) -> None:
        self.post_message(messages.ProjectRenameRequested(self.project_id, self))

    def action_rename_client(self) -> None:
        self.post_message(messages.ProjectRenameRequested(self.project_id, self, "client"))

    def action_delete(self) -> None:
        self.post_message(messages.ProjectDeleteRequested(self.project_id, self))

    def action_collect(self) -> None:
        """b: the collector agent looks for meetings about the project that are not linked,
        and asks before it links any."""
        if self.entity_name:
            self.post_message(messages.AgentRunRequested("collector", self.entity_name, self))

    agent = "project_compile"
    entity_type = "project"

    def __init__(self, services: Services, project_id: int) -> None:
        super().__init__(services)
        self.project_id = self.entity_id = project_id

    def build(self) -> tuple[Text, list[Entry]]:
        from memo_tui.core.views.pages import project_view

        view = project_view(self.services, self.project_id)
        if view is None:
            return styled("This project is no longer in the store.", "bold"), []
        project = view.project
        s = project.summary
        head = line(s.name, style="bold")
        if s.client:
            head.append("  ")
            head.append(line(f"client: {s.client}"))
        head.append(
            f"\n{plural(s.meetings, 'meeting')}, {plural(s.facts, 'fact')}, "
            f"{plural(len(project.notes), 'note')}"  # (its own and its client's, as listed)
        )
        self.app.call_from_thread(setattr, self, "entity_name", s.name)
        entries: list[Entry] = [*self.document(view.sections), heading("Notes (n writes one)")]
        for note in project.notes:
            said = (
                line(f"about {note.owner}: ", style="italic") if note.kind == "client" else Text()
            )
            said.append(line(note.body))
            entries.append((items([(note.updated_at[:10], said)]), note))
        if project.captures:
            entries.append(heading("Meetings"))
            entries += [(items([(c.day, line(c.title))]), (c.id, None)) for c in project.captures]
        if view.facts:
            entries.append(heading("Decisions and action items"))
        for fact in view.facts:
            if fact.capture_id is None:  # a note: no meeting to open (none are listed)
                continue
            said = styled(f"{fact.fact_type.replace('_', ' ')}: ", "italic") + line(fact.text)
            where = (fact.capture_id, lines_of(fact.line_start, fact.line_end))
            entries.append((items([(fact.occurred_at or "", said)]), where))
        return head, entries

    def edit_note(self, note: NoteRecord) -> None:
        self.post_message(messages.NoteEditRequested(note, self))

    def action_new_note(self) -> None:
        self.post_message(messages.NoteWriteRequested(self.project_id, self))

    def action_delete_note(self) -> None:
        target = self.selected()
        if isinstance(target, NoteRecord):
            self.post_message(messages.NoteDeleteRequested(target, self))
        else:
            self.notify("Select a note to delete.")
