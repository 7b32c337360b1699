"""Projects renamed and deleted from their page, and a living document's section given back
to its agent: the same core services `memo project` and `memo project section` use."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from memo_tui.ui import dialogs
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from memo_tui.core.projects import Kind, ProjectService
    from memo_tui.ui.screens.page import Page
    from store import SectionRecord


class ProjectsController(Controller):
    def _service(self) -> ProjectService:
        from memo_tui.core.projects import ProjectService

        return ProjectService(self.services.store)

    async def _name(self, project_id: int, kind: Kind = "project") -> str | None:
        """The project's name, or its client's ("client"); None when it has none."""
        found = await asyncio.to_thread(self.services.store.projects.get, project_id)
        if found is None:
            return None
        return found.summary.name if kind == "project" else found.summary.client

    def rename(self, project_id: int, page: Page, kind: Kind = "project") -> None:
        self.run(self._rename(project_id, page, kind), group="edit")

    async def _rename(self, project_id: int, page: Page, kind: Kind) -> None:
        """A new name for the project or its client; what is linked to it stays linked."""
        from memo_tui.core.projects import ProjectRefused

        old = await self._name(project_id, kind)
        if old is None:
            self.say("This project has no client to rename")
            return
        new = await self.app.push_screen_wait(dialogs.Rename(kind, old))
        if new is None:
            return
        try:
            done = await self.commit(self._service().rename, kind, old, new)
        except ProjectRefused as error:
            self.app.push_screen(dialogs.ErrorDialog(f"{kind.title()} not renamed", str(error)))
            return
        self.say(f"Renamed the {kind} {done.old_name} to {done.name}")
        if done.notes_reindexed and not self.services.embed.unavailable:
            self.app.controllers.jobs.start_backfill(quiet=True)  # its notes' new text
        page.reload()
        self.app.refresh_lists()

    def delete(self, project_id: int, page: Page) -> None:
        self.run(self._delete(project_id, page), group="edit")

    async def _delete(self, project_id: int, page: Page) -> None:
        """Asks first, saying what goes with it (its meetings stay), then deletes it."""
        from memo_tui.core.projects import ProjectRefused, describe

        name = await self._name(project_id)
        if name is None:
            return
        service, asked = self._service(), None
        try:
            while (had := await asyncio.to_thread(service.attached, "project", name)) != asked:
                # (asked again when more was attached while the question was up)
                said = describe(had)
                body = line(name)
                body.append(f"\nIt has {said}: " if said else "\nIt has nothing attached. ")
                body.append("its meetings stay, the rest goes with it. This cannot be undone.")
                question = dialogs.Confirm("Delete this project?", body, "Delete", danger=True)
                if not await self.app.push_screen_wait(question):
                    return
                asked = had
            await self.commit(service.delete, "project", name, True)
        except ProjectRefused as error:  # renamed or deleted meanwhile
            self.app.push_screen(dialogs.ErrorDialog("Project not deleted", str(error)))
            return
        self.say(f"Deleted the project {name}")
        if self.app.screen is page:
            self.app.pop_screen()
        self.app.refresh_lists()

    def reset_section(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page
    ) -> None:
        self.run(self._reset_section(entity_type, entity_id, section, page), group="edit")

    async def _reset_section(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page
    ) -> None:
        """The user's edit given back to the agent: its text stays until the next run."""
        from memo_tui.core.sections import SectionRefused, SectionService
        from memo_tui.ui.screens.page import section_title

        sections = SectionService(self.services.store)
        try:
            await self.commit(sections.reset, entity_type, entity_id, section.key)
        except SectionRefused as error:
            self.app.push_screen(dialogs.ErrorDialog("Section not reset", str(error)))
            return
        self.say(f"{section_title(section.key)} is the agent's again: r rewrites it")
        page.reload()
