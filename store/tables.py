"""SQLModel table classes for the rows the store reads and writes.

The typed query layer for the plain tables: a query selects, inserts and updates through
these classes (`select(col(Section.body))`), not through SQL text. The schema itself is
created by the migrations; a test checks every class here against it (columns, primary
key, NOT NULL). Raw SQL stays for FTS5, vec0, the facts view and triggers, and for the
tables not declared here yet. Nothing outside `store` sees these objects: query functions
return `records`.
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class ProvenanceColumns(SQLModel):
    """The provenance columns every fact table has (see records.Provenance)."""

    source_type: str
    source_id: str
    captured_at: str
    triggered_by_user: str | None = None
    triggered_by_agent: str | None = None


class Client(SQLModel, table=True):
    __tablename__ = "clients"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    created_at: str


class Project(SQLModel, table=True):
    __tablename__ = "projects"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    client_id: int | None = None
    created_at: str


class Person(SQLModel, table=True):
    __tablename__ = "people"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    email: str | None = None
    created_at: str


class Capture(ProvenanceColumns, table=True):
    __tablename__ = "captures"
    id: int | None = Field(default=None, primary_key=True)
    source_kind: str
    source_path: str | None = None
    source_format: str
    content_hash: str
    signature: bytes | None = None
    title: str
    occurred_at: str | None = None
    raw_text: str
    text: str
    line_count: int
    char_count: int
    summary: str | None = None
    meta_json: str = "{}"
    extractor: str
    truncated: int = 0
    replaced_at: str | None = None
    channel_of: int | None = None


class Decision(ProvenanceColumns, table=True):
    __tablename__ = "decisions"
    id: int | None = Field(default=None, primary_key=True)
    capture_id: int
    description: str
    reasoning: str | None = None
    decided_by: str | None = None
    person_id: int | None = None
    pending: int = 0
    line_start: int | None = None
    line_end: int | None = None
    evidence_quote: str | None = None
    verified: int = 1
    status: str | None = None  # unset: the column's default, "current" (schema 14 on)
    superseded_by: int | None = None
    subject: str | None = None  # unset: the column's default, "" (schema 15 on)


class ActionItem(ProvenanceColumns, table=True):
    __tablename__ = "action_items"
    id: int | None = Field(default=None, primary_key=True)
    capture_id: int
    description: str
    assignee_raw: str | None = None
    person_id: int | None = None
    pending: int = 0
    due_date: str | None = None
    status: str = "open"
    decision_id: int | None = None
    line_start: int | None = None
    line_end: int | None = None
    evidence_quote: str | None = None
    verified: int = 1
    asked_by: str | None = None


class CapturePerson(SQLModel, table=True):
    __tablename__ = "capture_people"
    capture_id: int = Field(primary_key=True)
    person_id: int = Field(primary_key=True)


class EntityAlias(SQLModel, table=True):
    __tablename__ = "entity_aliases"
    id: int | None = Field(default=None, primary_key=True)
    entity_type: str
    entity_id: int | None = None
    alias: str
    confidence: float
    auto_resolved: int = 0
    confirmed_by: str | None = None
    created_at: str


class Excerpt(ProvenanceColumns, table=True):
    __tablename__ = "excerpts"
    id: int | None = Field(default=None, primary_key=True)
    capture_id: int
    line_start: int
    line_end: int
    text: str


class ContextNote(ProvenanceColumns, table=True):
    __tablename__ = "context_notes"
    id: int | None = Field(default=None, primary_key=True)
    kind: str
    client_id: int | None = None
    project_id: int | None = None
    body: str
    updated_at: str


class Digest(ProvenanceColumns, table=True):
    __tablename__ = "digests"
    id: int | None = Field(default=None, primary_key=True)
    period_start: str
    period_end: str
    body: str


class Section(SQLModel, table=True):
    """A living document's section (entity_type: person, project, client or concept)."""

    __tablename__ = "sections"
    id: int | None = Field(default=None, primary_key=True)
    entity_type: str
    entity_id: int
    key: str
    body: str
    cited_fact_keys: str = "[]"  # a JSON list of fact keys
    edited_by: str  # 'agent' | 'user'
    updated_at: str


class Concept(SQLModel, table=True):
    __tablename__ = "concepts"
    id: int | None = Field(default=None, primary_key=True)
    name: str  # unique in any case (COLLATE NOCASE)
    created_at: str


class CaptureProject(SQLModel, table=True):
    __tablename__ = "capture_projects"
    capture_id: int = Field(primary_key=True)
    project_id: int = Field(primary_key=True)
    linked_by: str
    created_at: str


class PersonAddress(SQLModel, table=True):
    __tablename__ = "person_addresses"
    address: str = Field(primary_key=True)
    person_id: int | None = None
    proposed_person_id: int | None = None
    display_name: str = ""
    settled: int = 0
    created_at: str


class Merge(SQLModel, table=True):
    """Two people made one; what moved, so a split can put it back (records.PersonMerge)."""

    __tablename__ = "person_merges"
    id: int | None = Field(default=None, primary_key=True)
    kept_id: int
    merged_name: str
    merged_email: str | None = None
    merged_created_at: str
    moved_json: str
    merged_at: str
    merged_by: str
    split_at: str | None = None
