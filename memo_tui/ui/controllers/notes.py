"""What the user writes: projects and concepts added, notes about a project or its client,
and their edits to a living document's sections (agents leave an edited section alone)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from memo_tui.ui import dialogs
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from memo_tui.core.notes import NotesService
    from memo_tui.ui.screens.page import Page
    from store import NoteRecord, SectionRecord


class NotesController(Controller):
    def add_project(self) -> None:
        self.run(self._add_project(), group="edit")

    async def _add_project(self) -> None:
        directory = await asyncio.to_thread(self.services.store.people.directory)
        clients = [client.name for client in directory.clients]
        answer = await self.app.push_screen_wait(dialogs.NewProject(clients))
        if answer is None:
            return
        name, client = answer
        from memo_tui.core.projects import ProjectRefused, ProjectService

        try:
            await self.commit(ProjectService(self.services.store).add, name, client)
        except ProjectRefused as error:  # the name is taken, or empty: say so
            self.app.push_screen(dialogs.ErrorDialog("Project not added", str(error)))
            return
        self.say(f"Added project {name}")
        self.app.refresh_lists()

    def add_concept(self) -> None:
        self.run(self._add_concept(), group="edit")

    async def _add_concept(self) -> None:
        name = await self.app.push_screen_wait(dialogs.NewConcept())
        if name is None:
            return
        from memo_tui.core.projects import ProjectRefused, ProjectService

        try:
            await self.commit(ProjectService(self.services.store).add_concept, name)
        except ProjectRefused as error:  # the name is taken, or empty: say so
            self.app.push_screen(dialogs.ErrorDialog("Concept not added", str(error)))
            return
        self.say(f"Added concept {name}: r writes its document")
        self.app.refresh_lists()

    def _notes(self) -> NotesService:
        from memo_tui.core.notes import NotesService

        # (no `refreshed`: _noted embeds in the background, in the job bar)
        return NotesService(self.services.store, self.services.settings.user_name)

    def write(self, project_id: int, page: Page | None = None) -> None:
        self.run(self._write(project_id, page), group="edit")

    async def _write(self, project_id: int, page: Page | None) -> None:
        """A note about a project, or about its client."""
        from memo_tui.core.notes import UnknownOwner

        notes = self._notes()
        try:
            owners = await asyncio.to_thread(notes.owners_of, project_id)
        except UnknownOwner:
            return
        said = {"project": "the project", "client": "its client"}
        written = await self.app.push_screen_wait(
            dialogs.NoteEditor(
                f"A note about {owners[0].name}",
                owners=tuple(f"{o.name} ({said[o.kind]})" for o in owners),
            )
        )
        if written is None:
            return
        await self.commit(notes.add, owners[written.about], written.body)
        self._noted(page)

    def edit(self, note: NoteRecord, page: Page | None = None) -> None:
        self.run(self._edit(note, page), group="edit")

    async def _edit(self, note: NoteRecord, page: Page | None) -> None:
        about = f"Your note about {note.owner}" + (" (the client)" if note.kind == "client" else "")
        written = await self.app.push_screen_wait(dialogs.NoteEditor(about, note.body))
        if written is None:
            return
        edited = await self.commit(self._notes().edit, note.id, written.body)
        if edited.changed:
            self._noted(page)

    def delete(self, note: NoteRecord, page: Page | None = None) -> None:
        self.run(self._delete(note, page), group="edit")

    async def _delete(self, note: NoteRecord, page: Page | None) -> None:
        from memo_tui.core.notes import UnknownNote

        dialog = dialogs.Confirm("Delete this note?", line(note.body, 200), "Delete", danger=True)
        if not await self.app.push_screen_wait(dialog):
            return
        with contextlib.suppress(UnknownNote):  # gone meanwhile: gone all the same
            await self.commit(self._notes().delete, note.id)
        self._noted(page)

    def _noted(self, page: Page | None) -> None:
        """A note changed: embed it (best effort), refresh what shows it."""
        if not self.services.embed.unavailable:
            # (a backfill under way picks the note up itself)
            self.app.controllers.jobs.start_backfill(quiet=True)
        if page is not None:
            page.reload()
        self.app.refresh_lists()

    def edit_section(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page | None
    ) -> None:
        self.run(self._edit_section(entity_type, entity_id, section, page), group="edit")

    async def _edit_section(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page | None
    ) -> None:
        """The user's edit of a living document's section: final (agents leave it)."""
        from memo_tui.core.sections import SectionService
        from memo_tui.ui.screens.page import section_title

        title = f"{section_title(section.key)} (agents will leave your edit)"
        written = await self.app.push_screen_wait(dialogs.NoteEditor(title, section.body))
        if written is None or written.body == section.body:
            return
        sections = SectionService(self.services.store)
        await self.commit(
            sections.edit,
            entity_type,
            entity_id,
            section.key,
            written.body,
            section.cited_fact_keys,
        )
        if page is not None:
            page.reload()
