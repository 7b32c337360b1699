"""Clients, projects, their notes and digests: the non-meeting arms of the facts view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, insert, select, text, update
from sqlmodel import col

from store.errors import NotFoundError, StoreError
from store.records import NoteRecord, Provenance
from store.tables import Client, ContextNote, Digest, Project


def ensure_client(conn: Connection, name: str, now: str) -> int:
    found = conn.execute(select(col(Client.id)).where(col(Client.name) == name)).scalar()
    if found is not None:
        return int(found)
    return int(conn.execute(insert(Client).values(name=name, created_at=now)).lastrowid)


def ensure_project(conn: Connection, name: str, client_id: int | None, now: str) -> int:
    found = conn.execute(select(col(Project.id)).where(col(Project.name) == name)).scalar()
    if found is not None:
        return int(found)
    values = {"name": name, "client_id": client_id, "created_at": now}
    return int(conn.execute(insert(Project).values(**values)).lastrowid)


def add_note(
    conn: Connection,
    body: str,
    provenance: Provenance,
    client_id: int | None = None,
    project_id: int | None = None,
) -> int:
    """A note about exactly one client or one project."""
    provenance.check()
    if (client_id is None) == (project_id is None):
        raise ValueError("a note belongs to exactly one client or one project")
    kind = "client" if client_id is not None else "project"
    row = conn.execute(
        insert(ContextNote).values(
            kind=kind,
            client_id=client_id,
            project_id=project_id,
            body=body,
            updated_at=provenance.captured_at,
            **vars(provenance),
        )
    )
    return int(row.lastrowid)


def add_digest(
    conn: Connection, period_start: str, period_end: str, body: str, provenance: Provenance
) -> int:
    provenance.check()
    row = conn.execute(
        insert(Digest).values(
            period_start=period_start, period_end=period_end, body=body, **vars(provenance)
        )
    )
    return int(row.lastrowid)


def update_note(conn: Connection, note_id: int, body: str, now: str) -> None:
    """A note's new text. The index triggers re-index it and drop its vector (backfill
    embeds it again); its provenance still says who wrote it first."""
    if not body.strip():
        raise StoreError("a note cannot be empty: delete it instead")
    changed = conn.execute(
        update(ContextNote).where(col(ContextNote.id) == note_id).values(body=body, updated_at=now)
    )
    if not changed.rowcount:
        raise NotFoundError(f"note {note_id} no longer exists")


def delete_note(conn: Connection, note_id: int) -> bool:
    """False when there was no such note; its index entries go with it (triggers)."""
    deleted = conn.execute(delete(ContextNote).where(col(ContextNote.id) == note_id))
    return bool(deleted.rowcount)


_NOTE_SELECT = (
    "SELECT n.id, n.kind, coalesce(p.name, cl.name), n.body, n.updated_at, n.source_type, "
    "n.source_id, n.captured_at, n.triggered_by_user, n.triggered_by_agent "
    "FROM context_notes n LEFT JOIN projects p ON p.id = n.project_id "
    "LEFT JOIN clients cl ON cl.id = n.client_id "
)


def _note(row: Sequence[Any]) -> NoteRecord:
    note_id, kind, owner, body, updated_at, *provenance = row
    return NoteRecord(
        int(note_id), str(kind), str(owner), str(body), str(updated_at), Provenance(*provenance)
    )


def notes_about(conn: Connection, project_id: int) -> list[NoteRecord]:
    """A project's notes, then its client's, each newest first (an edit moves nothing)."""
    rows = conn.execute(
        text(
            f"{_NOTE_SELECT}WHERE n.project_id = :p "
            "OR n.client_id = (SELECT client_id FROM projects WHERE id = :p) "
            "ORDER BY n.kind = 'client', n.id DESC"
        ),
        {"p": project_id},
    ).all()
    return [_note(row) for row in rows]


def note(conn: Connection, note_id: int) -> NoteRecord | None:
    row = conn.execute(text(f"{_NOTE_SELECT}WHERE n.id = :n"), {"n": note_id}).first()
    return _note(row) if row is not None else None


def list_notes(conn: Connection, client_id: int | None = None) -> list[NoteRecord]:
    """Every note (or only client `client_id`'s) by its owner's name, each owner's newest
    first."""
    where = "WHERE n.client_id = :c " if client_id is not None else ""
    order = "ORDER BY coalesce(p.name, cl.name) COLLATE NOCASE, n.kind, n.id DESC"
    rows = conn.execute(text(f"{_NOTE_SELECT}{where}{order}"), {"c": client_id}).all()
    return [_note(row) for row in rows]
