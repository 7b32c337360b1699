"""Clients, projects, their notes and digests: the non-meeting arms of the facts view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Select, delete, func, insert, select, update
from sqlmodel import col

from store.errors import NotFoundError, StoreError
from store.expressions import new_id
from store.records import NoteRecord, Provenance
from store.tables import Client, ContextNote, Digest, Project


def ensure_client(conn: Connection, name: str, now: str) -> int:
    found = conn.execute(
        select(col(Client.id)).where(func.lower(col(Client.name)) == func.lower(name))
    ).scalar()
    if found is not None:
        return int(found)
    return new_id(conn.execute(insert(Client).values(name=name, created_at=now)))


def ensure_project(conn: Connection, name: str, client_id: int | None, now: str) -> int:
    found = conn.execute(
        select(col(Project.id)).where(func.lower(col(Project.name)) == func.lower(name))
    ).scalar()
    if found is not None:
        return int(found)
    values = {"name": name, "client_id": client_id, "created_at": now}
    return new_id(conn.execute(insert(Project).values(**values)))


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
    return new_id(row)


def add_digest(
    conn: Connection, period_start: str, period_end: str, body: str, provenance: Provenance
) -> int:
    provenance.check()
    row = conn.execute(
        insert(Digest).values(
            period_start=period_start, period_end=period_end, body=body, **vars(provenance)
        )
    )
    return new_id(row)


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


_OWNER = func.coalesce(col(Project.name), col(Client.name))


def _notes() -> Select[*tuple[Any, ...]]:
    """Notes with their owner's name (the project's or the client's) and provenance."""
    n = ContextNote
    return (
        select(
            col(n.id),
            col(n.kind),
            _OWNER,
            col(n.body),
            col(n.updated_at),
            col(n.source_type),
            col(n.source_id),
            col(n.captured_at),
            col(n.triggered_by_user),
            col(n.triggered_by_agent),
        )
        .outerjoin(Project, col(Project.id) == col(n.project_id))
        .outerjoin(Client, col(Client.id) == col(n.client_id))
    )


def _note(row: Sequence[Any]) -> NoteRecord:
    note_id, kind, owner, body, updated_at, *provenance = row
    return NoteRecord(
        int(note_id), str(kind), str(owner), str(body), str(updated_at), Provenance(*provenance)
    )


def notes_about(conn: Connection, project_id: int) -> list[NoteRecord]:
    """A project's notes, then its client's, each newest first (an edit moves nothing)."""
    n = ContextNote
    its_client = select(col(Project.client_id)).where(col(Project.id) == project_id)
    rows = conn.execute(
        _notes()
        .where(
            (col(n.project_id) == project_id) | (col(n.client_id) == its_client.scalar_subquery())
        )
        .order_by(col(n.kind) == "client", col(n.id).desc())
    ).all()
    return [_note(row) for row in rows]


def note(conn: Connection, note_id: int) -> NoteRecord | None:
    row = conn.execute(_notes().where(col(ContextNote.id) == note_id)).first()
    return _note(row) if row is not None else None


def list_notes(conn: Connection, client_id: int | None = None) -> list[NoteRecord]:
    """Every note (or only client `client_id`'s) by its owner's name, each owner's newest
    first."""
    n = ContextNote
    query = _notes().order_by(func.lower(_OWNER), col(n.kind), col(n.id).desc())
    if client_id is not None:
        query = query.where(col(n.client_id) == client_id)
    return [_note(row) for row in conn.execute(query)]
