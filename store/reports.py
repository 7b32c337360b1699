"""Rollups: people_report and projects_report, rebuilt whole from the current tables (in
SQL: the same counts as the panes' queries), read through their table classes.

They hold the counts the People and Projects panes list, computed by the same queries as
`people.summaries` and `projects.summaries`, so a pane can read one table instead.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, func, select, text
from sqlmodel import col

from store.addresses import email_report
from store.people import PERSON_COUNTS
from store.projects import PROJECT_SELECT
from store.records import PersonReport, ProjectReport
from store.search import FACT_DAY
from store.tables import PeopleReport, ProjectsReport

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
    (SELECT count(*) FROM decisions WHERE state != 'rejected' AND {_LINKED}),
    (SELECT count(*) FROM action_items WHERE status = 'open' AND state != 'rejected'
     AND {_LINKED}),
    s.last_meeting, :now
FROM ({PROJECT_SELECT}) AS s"""


def rebuild(conn: Connection, now: str, mail: bool = True) -> None:
    """Both rollups from scratch (call it inside one write transaction). `mail=False`
    leaves out the people's email columns (for a migration that predates them)."""
    conn.execute(text("DELETE FROM people_report"))
    conn.execute(text(_REBUILD_PEOPLE), {"now": now})
    if mail:
        conn.execute(text(email_report(conn)))
    conn.execute(text("DELETE FROM projects_report"))
    conn.execute(text(_REBUILD_PROJECTS), {"now": now})


def people_report(conn: Connection) -> list[PersonReport]:
    """The people rollup by name, as the People pane lists it."""
    p = PeopleReport
    rows = conn.execute(select(p).order_by(_by_name(col(p.name)), col(p.person_id)))
    return [
        PersonReport(
            r.person_id,
            r.name,
            json.loads(r.aliases_json),
            r.open_action_items,
            r.decisions,
            r.meetings,
            r.last_seen,
            r.refreshed_at,
            json.loads(r.emails_json),
            r.messages_sent,
            r.messages_received,
            r.first_contact,
            r.last_contact,
            json.loads(r.correspondents_json),
        )
        for r in rows
    ]


def projects_report(conn: Connection) -> list[ProjectReport]:
    """The projects rollup by name, as the Projects pane lists it."""
    p = ProjectsReport
    rows = conn.execute(select(p).order_by(_by_name(col(p.name)), col(p.project_id)))
    return [
        ProjectReport(
            r.project_id,
            r.name,
            r.client_name,
            r.captures,
            r.decisions,
            r.open_action_items,
            r.last_activity,
            r.refreshed_at,
        )
        for r in rows
    ]


def _by_name(name: Any) -> Any:
    """Names in any case, as the panes sort them."""
    return func.lower(name)
