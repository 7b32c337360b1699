"""The rollups (people_report, projects_report)."""

from __future__ import annotations

from store import reports
from store.records import PersonReport, ProjectReport
from store.repository import Repository, utc_now


class Reports(Repository):
    """The rollups (people_report, projects_report)."""

    def rebuild(self) -> None:
        """people_report and projects_report from the current tables, in one transaction."""
        with self._write() as conn:
            reports.rebuild(conn, utc_now())

    def people(self) -> list[PersonReport]:
        with self._read() as conn:
            return reports.people_report(conn)

    def projects(self) -> list[ProjectReport]:
        with self._read() as conn:
            return reports.projects_report(conn)
