"""The People and Projects panes' rollups: rebuilt from the facts (store.reports), read here."""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class PeopleReport(SQLModel, table=True):
    __tablename__ = "people_report"
    person_id: int = Field(default=None, primary_key=True)
    name: str
    aliases_json: str = "[]"
    open_action_items: int = 0
    decisions: int = 0
    meetings: int = 0
    last_seen: str | None = None
    refreshed_at: str
    emails_json: str = "[]"
    messages_sent: int = 0
    messages_received: int = 0
    first_contact: str | None = None
    last_contact: str | None = None
    correspondents_json: str = "[]"


class ProjectsReport(SQLModel, table=True):
    __tablename__ = "projects_report"
    project_id: int = Field(default=None, primary_key=True)
    name: str
    client_name: str | None = None
    captures: int = 0
    decisions: int = 0
    open_action_items: int = 0
    last_activity: str | None = None
    refreshed_at: str
