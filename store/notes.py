"""Clients, projects, their notes and digests: the non-meeting arms of the facts view."""

from __future__ import annotations

from sqlalchemy import Connection, insert, select
from sqlmodel import col

from store.records import Provenance
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
