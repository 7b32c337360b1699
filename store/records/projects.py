"""Projects, clients, notes and concepts."""

from __future__ import annotations

from dataclasses import dataclass

from store.records.captures import CaptureLink, Provenance, fact_key


@dataclass(frozen=True)
class NoteRecord:
    """A note about a client or a project; `owner` is that client's or project's name, and
    `provenance` who wrote it first, when and from where (an edit changes `updated_at` only)."""

    id: int
    kind: str  # 'client' | 'project'
    owner: str
    body: str
    updated_at: str
    provenance: Provenance | None = None

    @property
    def fact_key(self) -> int:
        """The note's key in the facts view and the search indexes."""
        return fact_key(f"{self.kind}_note", self.id)


@dataclass(frozen=True)
class ProjectSummary:
    """One project as a list shows it. `facts` counts what FactFilter(project_ids=...) allows."""

    id: int
    name: str
    client: str | None
    meetings: int
    facts: int
    notes: int
    last_meeting: str | None


@dataclass(frozen=True)
class ProjectDetail:
    """A project with its notes (its client's too, kind 'client') and its meetings, newest
    first."""

    summary: ProjectSummary
    notes: list[NoteRecord]
    captures: list[CaptureLink]


@dataclass(frozen=True)
class ClientSummary:
    id: int
    name: str
    projects: int
    notes: int


@dataclass(frozen=True)
class Renamed:
    """A project or client renamed; `changed` is False when the name was already it.
    `notes_reindexed`: its notes, whose fact text starts with the name (their vectors are
    dropped until the next embedding backfill); `aliases_dropped`: aliases spelled like the
    new name, removed so they cannot shadow it."""

    kind: str  # 'project' | 'client'
    id: int
    old_name: str
    name: str
    changed: bool
    notes_reindexed: int
    aliases_dropped: int


@dataclass(frozen=True)
class Attached:
    """What hangs off a project or client, counted: what deleting it removes (meeting links,
    notes, sections, aliases) or changes (a client's projects lose it; runs are kept)."""

    kind: str  # 'project' | 'client'
    id: int
    name: str
    meetings: int  # meetings linked to the project (the links go; the meetings stay)
    notes: int
    sections: int  # its living document
    projects: tuple[str, ...]  # a client's projects, by name
    aliases: int
    runs: int  # agent runs about it

    @property
    def in_use(self) -> bool:
        """Whether deleting it would lose something the user may want: it needs `force`."""
        return bool(self.meetings or self.notes or self.sections or self.projects)


@dataclass(frozen=True)
class ConceptSummary:
    """A concept: its name, and its living document's sections (how many, last change)."""

    id: int
    name: str
    created_at: str
    sections: int
    updated_at: str | None
