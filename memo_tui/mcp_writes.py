"""`memo mcp --allow-writes`: the tools that add to the record, through the same services
as the CLI; what they write says it came through MCP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from memo_tui import render
from memo_tui.mcp_server import UNTRUSTED

if TYPE_CHECKING:
    from memo_tui.core.services import Services


class Writes:
    """The tools that add to the record (`memo mcp --allow-writes`): what they write says it
    came through MCP, and goes through the same services as the CLI."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def all(self) -> list[tuple[Any, bool]]:
        """Each tool, and whether it may change what is there (not only add)."""
        return [(self.capture_text, False), (self.confirm_name, True), (self.add_note, False)]

    def capture_text(
        self,
        text: Annotated[str, Field(min_length=1, description="a transcript or meeting notes")],
        title: Annotated[str, Field(min_length=1, max_length=200, description="its title")],
        replace: Annotated[
            bool, Field(description="replace the stored meeting this is a new version of")
        ] = False,
    ) -> dict[str, Any]:
        """Capture a meeting's transcript or notes: memo extracts its summary, decisions and
        action items. The same text again changes nothing (status "unchanged"); a new version
        of a stored meeting is refused unless `replace`."""
        from memo_tui.core.capture.decode import decode
        from memo_tui.core.capture.errors import CaptureRejected

        name = "".join(c if c.isalnum() or c in " -_" else " " for c in title).strip() or "mcp"
        try:  # read as `memo capture` reads a file's bytes: what it refuses, refused alike
            decoded = decode(text.encode(), f"{name}.txt")
        except CaptureRejected as problem:
            raise ToolError(problem.message) from problem
        result = self.services.capture.capture_text(
            decoded,
            f"{name}.txt",
            "txt",
            source_path=f"mcp:{name}",
            replace=replace,
            source_kind="mcp",
        )
        if result.status == "needs_replace" and result.capture_id is not None:
            raise ToolError(self._needs_replace(result.capture_id))
        if not result.ok:
            raise ToolError(result.error or f"not captured: {result.status}")
        return render.capture_json(result) | {"note": UNTRUSTED}

    def _needs_replace(self, capture_id: int) -> str:
        """Why a text that looks like a new version of meeting `capture_id` was not stored."""
        stored = self.services.store.captures.get(capture_id)
        title = f" ({stored.title!r})" if stored is not None else ""
        return (
            f"this looks like a new version of meeting {capture_id}{title}: nothing was stored. "
            "Call capture_text again with replace=true to replace that meeting with it"
        )

    def confirm_name(
        self,
        mention: Annotated[str, Field(min_length=1, description="a name as said (pending_names)")],
        person: Annotated[
            str | None, Field(description="who it is; leave out for: nobody memo knows")
        ] = None,
    ) -> dict[str, Any]:
        """Say who a name in meetings means, from now on: every action item and decision
        waiting on it is settled as that person's (or as nobody memo knows)."""
        from memo_tui.core.entities.service import EntityService, UnknownPerson

        services = self.services
        entities = EntityService(services.store, services.settings.user_name)
        try:
            who = entities.person(person) if person else None
            filled = entities.confirm(mention, who)
        except (UnknownPerson, ValueError) as error:
            raise ToolError(str(error)) from error
        return {
            "mention": mention,
            "person": who.name if who else None,
            "settled": {"action_items": filled.action_items, "decisions": filled.decisions},
        }

    def add_note(
        self,
        body: Annotated[str, Field(min_length=1, description="the note's text")],
        project: Annotated[str | None, Field(description="the project it is about")] = None,
        client: Annotated[str | None, Field(description="or the client it is about")] = None,
    ) -> dict[str, Any]:
        """A note about a project or a client (searched like any fact, with who wrote it)."""
        from memo_tui.core.notes import NoteRefused, NotesService

        if (project is None) == (client is None):
            raise ToolError("give either project or client")
        notes = NotesService(self.services.store, self.services.settings.user_name)
        try:
            owner = notes.project(project) if project else notes.client(client or "")
            note = notes.add(owner, body)
        except NoteRefused as error:
            raise ToolError(str(error)) from error
        return {"id": note.id, "about": note.owner, "kind": note.kind, "body": note.body}
