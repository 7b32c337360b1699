"""Notes about projects and clients, and digests."""

from __future__ import annotations

from store import notes
from store.records import NoteRecord, Provenance
from store.repository import Repository, utc_now


class Notes(Repository):
    """Notes about projects and clients, and digests."""

    def add_for_client(self, client: str, body: str, provenance: Provenance) -> int:
        """A note about a client (created if new); returns the note's id."""
        with self._write() as conn:
            client_id = notes.ensure_client(conn, client, utc_now())
            return notes.add_note(conn, body, provenance, client_id=client_id)

    def add_for_project(
        self, project: str, body: str, provenance: Provenance, client: str | None = None
    ) -> int:
        """A note about a project (created if new, under `client` when given)."""
        with self._reporting() as conn:
            now = utc_now()
            client_id = notes.ensure_client(conn, client, now) if client else None
            project_id = notes.ensure_project(conn, project, client_id, now)
            return notes.add_note(conn, body, provenance, project_id=project_id)

    def update(self, note_id: int, body: str) -> None:
        """A note's new text; search finds the new words at once, and its vector is dropped
        until the next embedding backfill. NotFoundError when the note is gone."""
        with self._write() as conn:
            notes.update_note(conn, note_id, body, utc_now())

    def delete(self, note_id: int) -> bool:
        with self._write() as conn:
            return notes.delete_note(conn, note_id)

    def get(self, note_id: int) -> NoteRecord | None:
        with self._read() as conn:
            return notes.note(conn, note_id)

    def all(self, client_id: int | None = None) -> list[NoteRecord]:
        """Every note (or one client's) by its owner's name, each owner's newest first."""
        with self._read() as conn:
            return notes.list_notes(conn, client_id)

    def add_digest(
        self, period_start: str, period_end: str, body: str, provenance: Provenance
    ) -> int:
        with self._write() as conn:
            return notes.add_digest(conn, period_start, period_end, body, provenance)
