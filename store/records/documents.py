"""Living documents' sections and the rollups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# Who wrote a section of a living document, and what asking to write one did.
SectionAuthor = Literal["agent", "user"]
SectionWrite = Literal["written", "unchanged", "skipped_user_edit"]


@dataclass(frozen=True)
class SectionRecord:
    """A section of a living document and the fact keys it cites."""

    key: str
    body: str
    cited_fact_keys: list[int]
    edited_by: str
    updated_at: str


@dataclass(frozen=True)
class PersonReport:
    """A person's row of the people rollup; `last_seen` is the day of their latest meeting."""

    person_id: int
    name: str
    aliases: list[str]
    open_action_items: int
    decisions: int
    meetings: int
    last_seen: str | None
    refreshed_at: str
    emails: list[str] = field(default_factory=list)
    messages_sent: int = 0
    messages_received: int = 0
    first_contact: str | None = None  # the first and last message to or from them
    last_contact: str | None = None
    correspondents: list[str] = field(default_factory=list)  # who they write with most


@dataclass(frozen=True)
class ProjectReport:
    """A project's row of the projects rollup: counts over the meetings linked to it;
    `last_activity` is the day of the latest of them."""

    project_id: int
    name: str
    client: str | None
    captures: int
    decisions: int
    open_action_items: int
    last_activity: str | None
    refreshed_at: str
