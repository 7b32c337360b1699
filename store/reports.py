"""Rollups: people_report and projects_report, rebuilt whole from the current tables.

They hold the counts the People and Projects panes list, computed by the same queries as
`people.summaries` and `projects.summaries`, so a pane can read one table instead.
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, text

from store.addresses import EMAIL_REPORT
from store.people import PERSON_COUNTS
from store.projects import PROJECT_SELECT
from store.records import PersonReport, ProjectReport
from store.search import FACT_DAY

_REBUILD_PEOPLE = f"""
INSERT INTO people_report (person_id, name, aliases_json, open_action_items, decisions,
    meetings, last_seen, refreshed_at)
SELECT s.id, s.name, s.aliases, s.open_action_items, s.decisions, s.meetings,
    (SELECT max({FACT_DAY}) FROM captures
     WHERE id IN (SELECT capture_id FROM capture_people WHERE person_id = s.id)),
    :now
FROM ({PERSON_COUNTS}) AS s"""

_LINKED = "capture_id IN (SELECT capture_id FROM capture_projects WHERE project_id = s.id)"

_REBUILD_PROJECTS = f"""
INSERT INTO projects_report (project_id, name, client_name, captures, decisions,
    open_action_items, last_activity, refreshed_at)
SELECT s.id, s.name, s.client, s.meetings,
    (SELECT count(*) FROM decisions WHERE {_LINKED}),
    (SELECT count(*) FROM action_items WHERE status = 'open' AND {_LINKED}),
    s.last_meeting, :now
FROM ({PROJECT_SELECT}) AS s"""


def rebuild(conn: Connection, now: str, mail: bool = True) -> None:
    """Both rollups from scratch (call it inside one write transaction). `mail=False`
    leaves out the people's email columns (for a migration that predates them)."""
    conn.execute(text("DELETE FROM people_report"))
    conn.execute(text(_REBUILD_PEOPLE), {"now": now})
    if mail:
        conn.execute(text(EMAIL_REPORT))
    conn.execute(text("DELETE FROM projects_report"))
    conn.execute(text(_REBUILD_PROJECTS), {"now": now})


def people_report(conn: Connection) -> list[PersonReport]:
    """The people rollup by name, as the People pane lists it."""
    rows = conn.execute(
        text(
            "SELECT person_id, name, aliases_json, open_action_items, decisions, meetings, "
            "last_seen, refreshed_at, emails_json, messages_sent, messages_received, "
            "first_contact, last_contact, correspondents_json FROM people_report "
            "ORDER BY name COLLATE NOCASE, person_id"
        )
    )
    return [
        PersonReport(
            int(r[0]),
            str(r[1]),
            json.loads(r[2]),
            int(r[3]),
            int(r[4]),
            int(r[5]),
            r[6],
            str(r[7]),
            json.loads(r[8]),
            int(r[9]),
            int(r[10]),
            r[11],
            r[12],
            json.loads(r[13]),
        )
        for r in rows
    ]


def projects_report(conn: Connection) -> list[ProjectReport]:
    """The projects rollup by name, as the Projects pane lists it."""
    rows = conn.execute(
        text(
            "SELECT project_id, name, client_name, captures, decisions, open_action_items, "
            "last_activity, refreshed_at FROM projects_report "
            "ORDER BY name COLLATE NOCASE, project_id"
        )
    )
    return [
        ProjectReport(int(i), str(n), client, int(c), int(d), int(o), last, str(at))
        for i, n, client, c, d, o, last, at in rows
    ]
