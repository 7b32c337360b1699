"""Projects and what hangs off them."""

from __future__ import annotations

from collections.abc import Sequence

from store import projects
from store.projects import NamedKind
from store.records import Attached, ProjectDetail, ProjectSummary, Renamed
from store.repository import Repository, utc_now


class Projects(Repository):
    """Projects and what hangs off them."""

    def all(self) -> list[ProjectSummary]:
        with self._read() as conn:
            return projects.summaries(conn)

    def get(self, project_id: int) -> ProjectDetail | None:
        with self._read() as conn:
            return projects.detail(conn, project_id)

    def add(self, name: str, client: str | None = None) -> int:
        """A new project, under `client` (created if new) when given; its id. A name already
        taken, in any case, raises NameTakenError (which carries the existing id)."""
        with self._reporting() as conn:
            return projects.add_project(conn, name, client, utc_now())

    def link_captures(self, project_id: int, capture_ids: Sequence[int], linked_by: str) -> int:
        """Link meetings to a project (`linked_by`: 'user', 'agent', ...); how many were new."""
        with self._reporting() as conn:
            return projects.link_captures(conn, project_id, capture_ids, linked_by, utc_now())

    def unlinked_mentions(self, project_id: int, name: str) -> list[tuple[int, str, int]]:
        with self._read() as conn:
            return projects.unlinked_mentions(conn, project_id, name)

    def rename(self, project_id: int, name: str) -> Renamed:
        """A project's new name; NameTakenError when another project has it (any case)."""
        with self._reporting() as conn:
            return projects.rename(conn, "project", project_id, name)

    def attached(self, kind: NamedKind, entity_id: int) -> Attached:
        """What hangs off a project or client (what deleting it would remove or change)."""
        with self._read() as conn:
            return projects.attached(conn, kind, entity_id)

    def delete(self, project_id: int, force: bool = False) -> Attached:
        """Delete a project, in one transaction; what it had. InUseError, nothing deleted,
        when it has meetings, notes or a document and not `force` (see projects.delete)."""
        with self._reporting() as conn:
            return projects.delete(conn, "project", project_id, force)
