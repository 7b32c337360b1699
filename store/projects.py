"""Projects and clients as the Projects pane lists them, and adding a project by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text

from store import notes
from store.errors import NameTakenError, StoreError
from store.records import CaptureLink, ClientSummary, ProjectDetail, ProjectSummary
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
