"""Projects and clients as the Projects pane lists them; adding a project by hand; renaming
and deleting a project or a client.

PROJECT_SELECT stays SQL: the projects rollup's rebuild (store.reports) is built on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import Connection, func, literal, select, text, update
from sqlalchemy import delete as sql_delete
from sqlmodel import SQLModel, col

from store import notes
from store.errors import InUseError, NameTakenError, NotFoundError, StoreError
from store.expressions import capture_day, insert
from store.records import (
    Attached,
    CaptureLink,
    ClientSummary,
    ProjectDetail,
    ProjectSummary,
    Renamed,
)
from store.search import project_keys_sql
from store.tables import (
    AgentSession,
    Capture,
    CaptureProject,
    Client,
    ContextNote,
    EntityAlias,
    Project,
    Section,
)

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
    rows = conn.execute(text(f"{PROJECT_SELECT} ORDER BY lower(p.name), p.id")).all()
    return [_summary(conn, r) for r in rows]


def detail(conn: Connection, project_id: int) -> ProjectDetail | None:
    """A project's page: its summary, notes and meetings; None when there is no such project."""
    row = conn.execute(text(f"{PROJECT_SELECT} WHERE p.id = :p"), {"p": project_id}).first()
    if row is None:
        return None
    c = Capture
    day = capture_day()
    captures = conn.execute(
        select(col(c.id), col(c.title), day)
        .join(CaptureProject, col(CaptureProject.capture_id) == col(c.id))
        .where(col(CaptureProject.project_id) == project_id)
        .order_by(day.desc(), col(c.id).desc())
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
        select(col(Project.id), col(Project.name)).where(
            func.lower(col(Project.name)) == func.lower(name)
        )
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
    cl = Client
    projects = select(func.count()).where(col(Project.client_id) == col(cl.id))
    noted = select(func.count()).where(col(ContextNote.client_id) == col(cl.id))
    rows = conn.execute(
        select(
            col(cl.id), col(cl.name), projects.scalar_subquery(), noted.scalar_subquery()
        ).order_by(func.lower(col(cl.name)), col(cl.id))
    ).all()
    return [ClientSummary(int(i), str(n), int(p), int(c)) for i, n, p, c in rows]


def link_captures(
    conn: Connection, project_id: int, capture_ids: Sequence[int], linked_by: str, now: str
) -> int:
    """Link meetings to a project (those linked already stay as they are); how many new."""
    added = 0
    for capture_id in capture_ids:
        existing = select(col(Capture.id), literal(project_id), literal(linked_by), literal(now))
        row = conn.execute(
            insert(CaptureProject)
            .from_select(
                ["capture_id", "project_id", "linked_by", "created_at"],
                existing.where(col(Capture.id) == capture_id),
            )
            .on_conflict_do_nothing()
            .execution_options(preserve_rowcount=True)  # (an INSERT's count, kept when asked)
        )
        added += row.rowcount
    return added


def unlinked_mentions(conn: Connection, project_id: int, name: str) -> list[tuple[int, str, int]]:
    """Meetings that name the project in their text but are not linked to it:
    (capture id, title, how many times the name occurs)."""
    c, name = Capture, name.lower()
    said = func.lower(col(c.text))
    gone = func.length(said) - func.length(func.replace(said, name, ""))
    times = gone.self_group().op("/")(len(name)).label("times")  # SQLite's integer division
    linked = select(col(CaptureProject.capture_id)).where(
        col(CaptureProject.project_id) == project_id
    )
    rows = conn.execute(
        select(col(c.id), col(c.title), times)
        .where(func.instr(said, name) > 0, col(c.id).not_in(linked))
        .order_by(times.desc(), col(c.id))
    ).all()
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


# A project or a client: its table, and the column its notes point at it with. Sections,
# aliases and agent runs name it by (kind, id).
NamedKind = Literal["project", "client"]
_TABLES: dict[str, tuple[type[Project] | type[Client], str]] = {
    "project": (Project, "project_id"),
    "client": (Client, "client_id"),
}


def _name(conn: Connection, kind: NamedKind, entity_id: int) -> str:
    table, _ = _TABLES[kind]
    name = conn.execute(select(col(table.name)).where(col(table.id) == entity_id)).scalar()
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
        select(col(table.id), col(table.name)).where(
            func.lower(col(table.name)) == func.lower(name), col(table.id) != entity_id
        )
    ).first()
    if taken is not None:
        raise NameTakenError(
            f"there is already a {kind} called {taken[1]!r}", existing_id=int(taken[0])
        )
    if name == old:
        return Renamed(kind, entity_id, old, name, False, notes_reindexed=0, aliases_dropped=0)
    conn.execute(update(table).where(col(table.id) == entity_id).values(name=name))
    # The update trigger re-indexes each note from the facts view and drops its vector.
    n = ContextNote
    notes = conn.execute(
        update(n).where(getattr(n, column) == entity_id).values(body=col(n.body))
    ).rowcount
    a = EntityAlias
    dropped = conn.execute(
        sql_delete(a).where(
            col(a.entity_type) == kind, func.lower(col(a.alias)) == func.lower(name)
        )
    ).rowcount
    return Renamed(kind, entity_id, old, name, True, int(notes), int(dropped))


def attached(conn: Connection, kind: NamedKind, entity_id: int) -> Attached:
    """What hangs off a project or client: what deleting it would remove or change."""
    name = _name(conn, kind, entity_id)
    _, column = _TABLES[kind]

    def count(table: type[SQLModel], *where: Any) -> int:
        return int(conn.execute(select(func.count()).select_from(table).where(*where)).scalar_one())

    def about(table: Any) -> tuple[Any, ...]:
        return (col(table.entity_type) == kind, col(table.entity_id) == entity_id)

    projects: Sequence[str] = (
        conn.execute(
            select(col(Project.name))
            .where(col(Project.client_id) == entity_id)
            .order_by(func.lower(col(Project.name)))
        )
        .scalars()
        .all()
        if kind == "client"
        else ()
    )
    meetings = col(CaptureProject.project_id) == entity_id
    return Attached(
        kind=kind,
        id=entity_id,
        name=name,
        meetings=count(CaptureProject, meetings) if kind == "project" else 0,
        notes=count(ContextNote, getattr(ContextNote, column) == entity_id),
        sections=count(Section, *about(Section)),
        projects=tuple(str(p) for p in projects),
        aliases=count(EntityAlias, *about(EntityAlias)),
        runs=count(AgentSession, *about(AgentSession)),
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
    for named in (Section, EntityAlias):
        conn.execute(
            sql_delete(named).where(
                col(named.entity_type) == kind, col(named.entity_id) == entity_id
            )
        )
    s = AgentSession
    conn.execute(
        update(s)
        .where(col(s.entity_type) == kind, col(s.entity_id) == entity_id)
        .values(entity_id=None)
    )
    # Meeting links, notes (and their index entries) and the rollup row go by ON DELETE.
    conn.execute(sql_delete(table).where(col(table.id) == entity_id))
    return had
