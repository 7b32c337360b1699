"""Projects and clients as the Projects pane lists them; adding a project by hand; renaming
and deleting a project or a client."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import Connection, text

from store import notes
from store.errors import InUseError, NameTakenError, NotFoundError, StoreError
from store.records import (
    Attached,
    CaptureLink,
    ClientSummary,
    ProjectDetail,
    ProjectSummary,
    Renamed,
)
from store.search import project_keys_sql

_DAY = "coalesce(c.occurred_at, substr(c.captured_at, 1, 10))"

# Each project with its client, meeting and note counts; the projects rollup uses it too.
PROJECT_SELECT = f"""
SELECT p.id AS id, p.name AS name, cl.name AS client,
    (SELECT count(*) FROM capture_projects cp WHERE cp.project_id = p.id) AS meetings,
    (SELECT count(*) FROM context_notes n WHERE n.project_id = p.id) AS notes,
    (SELECT max({_DAY}) FROM capture_projects cp JOIN captures c ON c.id = cp.capture_id
     WHERE cp.project_id = p.id) AS last_meeting
FROM projects p LEFT JOIN clients cl ON cl.id = p.client_id"""


def _fact_count(conn: Connection, project_id: int) -> int:
    """How many facts a search filtered to this project may return."""
    keys, params = project_keys_sql((project_id,))
    return int(conn.execute(text(f"SELECT count(*) FROM ({keys})"), params).scalar_one())


def _summary(conn: Connection, r: Sequence[Any]) -> ProjectSummary:
    project_id, name, client, meetings, note_count, last = r
    facts = _fact_count(conn, project_id)
    return ProjectSummary(project_id, name, client, meetings, facts, note_count, last)


def summaries(conn: Connection) -> list[ProjectSummary]:
    """Every project by name (its fact count is a query of its own: an index walk each)."""
    rows = conn.execute(text(f"{PROJECT_SELECT} ORDER BY p.name COLLATE NOCASE, p.id")).all()
    return [_summary(conn, r) for r in rows]


def detail(conn: Connection, project_id: int) -> ProjectDetail | None:
    """A project's page: its summary, notes and meetings; None when there is no such project."""
    row = conn.execute(text(f"{PROJECT_SELECT} WHERE p.id = :p"), {"p": project_id}).first()
    if row is None:
        return None
    captures = conn.execute(
        text(
            f"SELECT c.id, c.title, {_DAY} AS day FROM capture_projects cp "
            "JOIN captures c ON c.id = cp.capture_id WHERE cp.project_id = :p "
            "ORDER BY day DESC, c.id DESC"
        ),
        {"p": project_id},
    ).all()
    return ProjectDetail(
        summary=_summary(conn, row),
        notes=notes.notes_about(conn, project_id),
        captures=[CaptureLink(int(i), str(t), str(d)) for i, t, d in captures],
    )


def add_project(conn: Connection, name: str, client: str | None, now: str) -> int:
    """A new project (under `client`, created if new). Names are unique in any case."""
    name = name.strip()
    if not name:
        raise StoreError("a project needs a name")
    existing = conn.execute(
        text("SELECT id, name FROM projects WHERE name = :n"), {"n": name}
    ).first()
    if existing is not None:
        raise NameTakenError(
            f"there is already a project called {existing[1]!r}", existing_id=int(existing[0])
        )
    client = (client or "").strip()
    client_id = notes.ensure_client(conn, client, now) if client else None
    return notes.ensure_project(conn, name, client_id, now)


def clients(conn: Connection) -> list[ClientSummary]:
    """Every client by name, with how many projects and notes it has."""
    rows = conn.execute(
        text(
            "SELECT cl.id, cl.name, "
            "(SELECT count(*) FROM projects p WHERE p.client_id = cl.id), "
            "(SELECT count(*) FROM context_notes n WHERE n.client_id = cl.id) "
            "FROM clients cl ORDER BY cl.name COLLATE NOCASE, cl.id"
        )
    ).all()
    return [ClientSummary(int(i), str(n), int(p), int(c)) for i, n, p, c in rows]


def link_captures(
    conn: Connection, project_id: int, capture_ids: Sequence[int], linked_by: str, now: str
) -> int:
    """Link meetings to a project (those linked already stay as they are); how many new."""
    added = 0
    for capture_id in capture_ids:
        row = conn.execute(
            text(
                "INSERT OR IGNORE INTO capture_projects (capture_id, project_id, linked_by, "
                "created_at) SELECT id, :p, :by, :now FROM captures WHERE id = :c"
            ),
            {"c": capture_id, "p": project_id, "by": linked_by, "now": now},
        )
        added += row.rowcount
    return added


def unlinked_mentions(conn: Connection, project_id: int, name: str) -> list[tuple[int, str, int]]:
    """Meetings that name the project in their text but are not linked to it:
    (capture id, title, how many times the name occurs)."""
    rows = conn.execute(
        text(
            "SELECT c.id, c.title, (length(lower(c.text)) - length(replace(lower(c.text), "
            ":name, ''))) / length(:name) AS times FROM captures c "
            "WHERE instr(lower(c.text), :name) > 0 AND c.id NOT IN "
            "(SELECT capture_id FROM capture_projects WHERE project_id = :p) "
            "ORDER BY times DESC, c.id"
        ),
        {"name": name.lower(), "p": project_id},
    ).all()
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


# A project or a client: its table, and the column its notes point at it with. Sections,
# aliases and agent runs name it by (kind, id).
NamedKind = Literal["project", "client"]
_TABLES: dict[str, tuple[str, str]] = {
    "project": ("projects", "project_id"),
    "client": ("clients", "client_id"),
}


def _name(conn: Connection, kind: NamedKind, entity_id: int) -> str:
    table, _ = _TABLES[kind]
    found = conn.execute(text(f"SELECT name FROM {table} WHERE id = :i"), {"i": entity_id})
    name = found.scalar()
    if name is None:
        raise NotFoundError(f"{kind} {entity_id} no longer exists")
    return str(name)


def rename(conn: Connection, kind: NamedKind, entity_id: int, new_name: str) -> Renamed:
    """Give a project or client a new name. Everything points at it by id, so meetings,
    notes, its document and runs stay with it; the old name is not kept as an alias. Its
    notes are re-indexed (their fact text starts with the name), and an alias spelled like
    the new name is dropped: it would shadow the name (aliases are looked up first)."""
    name = new_name.strip()
    if not name:
        raise StoreError(f"a {kind} needs a name")
    table, column = _TABLES[kind]
    old = _name(conn, kind, entity_id)
    taken = conn.execute(
        text(f"SELECT id, name FROM {table} WHERE name = :n AND id != :i"),
        {"n": name, "i": entity_id},
    ).first()
    if taken is not None:
        raise NameTakenError(
            f"there is already a {kind} called {taken[1]!r}", existing_id=int(taken[0])
        )
    if name == old:
        return Renamed(kind, entity_id, old, name, False, notes_reindexed=0, aliases_dropped=0)
    where = {"i": entity_id, "n": name, "k": kind}
    conn.execute(text(f"UPDATE {table} SET name = :n WHERE id = :i"), where)
    # The update trigger re-indexes each note from the facts view and drops its vector.
    notes = conn.execute(
        text(f"UPDATE context_notes SET body = body WHERE {column} = :i"), where
    ).rowcount
    dropped = conn.execute(
        text("DELETE FROM entity_aliases WHERE entity_type = :k AND alias = :n"), where
    ).rowcount
    return Renamed(kind, entity_id, old, name, True, int(notes), int(dropped))


def attached(conn: Connection, kind: NamedKind, entity_id: int) -> Attached:
    """What hangs off a project or client: what deleting it would remove or change."""
    name = _name(conn, kind, entity_id)
    _, column = _TABLES[kind]
    where = {"i": entity_id, "k": kind}

    def count(sql: str) -> int:
        return int(conn.execute(text(f"SELECT count(*) FROM {sql}"), where).scalar_one())

    projects = (
        conn.execute(
            text("SELECT name FROM projects WHERE client_id = :i ORDER BY name COLLATE NOCASE"),
            where,
        ).all()
        if kind == "client"
        else []
    )
    return Attached(
        kind=kind,
        id=entity_id,
        name=name,
        meetings=count("capture_projects WHERE project_id = :i") if kind == "project" else 0,
        notes=count(f"context_notes WHERE {column} = :i"),
        sections=count("sections WHERE entity_type = :k AND entity_id = :i"),
        projects=tuple(str(r[0]) for r in projects),
        aliases=count("entity_aliases WHERE entity_type = :k AND entity_id = :i"),
        runs=count("agent_sessions WHERE entity_type = :k AND entity_id = :i"),
    )


def delete(conn: Connection, kind: NamedKind, entity_id: int, force: bool) -> Attached:
    """Delete a project or client; what it had. Unless `force`, InUseError (nothing deleted)
    when it has meetings linked, notes, a living document or (a client) projects. Its meeting
    links, notes, sections and aliases go; meetings never do; a client's projects stay
    without a client; agent runs stay as history, no longer pointing at it (a new row may
    reuse its id)."""
    had = attached(conn, kind, entity_id)
    if had.in_use and not force:
        raise InUseError(f"{kind} {had.name!r} is in use", had)
    table, _ = _TABLES[kind]
    where = {"i": entity_id, "k": kind}
    conn.execute(text("DELETE FROM sections WHERE entity_type = :k AND entity_id = :i"), where)
    conn.execute(
        text("DELETE FROM entity_aliases WHERE entity_type = :k AND entity_id = :i"), where
    )
    conn.execute(
        text(
            "UPDATE agent_sessions SET entity_id = NULL WHERE entity_type = :k AND entity_id = :i"
        ),
        where,
    )
    # Meeting links, notes (and their index entries) and the rollup row go by ON DELETE.
    conn.execute(text(f"DELETE FROM {table} WHERE id = :i"), where)
    return had
