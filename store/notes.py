"""Clients, projects, their notes and digests: the non-meeting arms of the facts view."""

from __future__ import annotations

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


def notes_about(conn: Connection, project_id: int) -> list[NoteRecord]:
    """A project's notes, then its client's, each newest first (an edit moves nothing)."""
    rows = conn.execute(
        text(
            "SELECT n.id, n.kind, coalesce(p.name, cl.name), n.body, n.updated_at "
            "FROM context_notes n LEFT JOIN projects p ON p.id = n.project_id "
            "LEFT JOIN clients cl ON cl.id = n.client_id "
            "WHERE n.project_id = :p "
            "OR n.client_id = (SELECT client_id FROM projects WHERE id = :p) "
            "ORDER BY n.kind = 'client', n.id DESC"
        ),
        {"p": project_id},
    ).all()
    return [NoteRecord(int(i), str(k), str(o), str(b), str(u)) for i, k, o, b, u in rows]
