"""Captures and the facts taken from them: decisions, action items, excerpts, notes, digests,
and which people and projects a capture is about."""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class ProvenanceColumns(SQLModel):
    """The provenance columns every fact table has (see records.Provenance)."""

    source_type: str
    source_id: str
    captured_at: str
    triggered_by_user: str | None = None
    triggered_by_agent: str | None = None


class Capture(ProvenanceColumns, table=True):
    __tablename__ = "captures"
    id: int = Field(default=None, primary_key=True)
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
    id: int = Field(default=None, primary_key=True)
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
    settled_by: str | None = None  # who said who `decided_by` is (schema 18 on)
    confidence: float | None = None  # the extractor's probability that it is one (schema 19 on)
    state: str | None = None  # unset: the column's default, "asserted" (schema 19 on)
    model_version: str | None = None  # the judge that gave `confidence`
    reviewed_by: str | None = None  # who accepted, edited or rejected it


class ActionItem(ProvenanceColumns, table=True):
    __tablename__ = "action_items"
    id: int = Field(default=None, primary_key=True)
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
    settled_by: str | None = None  # who said who `assignee_raw` is (schema 18 on)
    confidence: float | None = None  # the extractor's probability that it is one (schema 19 on)
    state: str | None = None  # unset: the column's default, "asserted" (schema 19 on)
    model_version: str | None = None  # the judge that gave `confidence`
    reviewed_by: str | None = None  # who accepted, edited or rejected it


class Excerpt(ProvenanceColumns, table=True):
    __tablename__ = "excerpts"
    id: int = Field(default=None, primary_key=True)
    capture_id: int
    line_start: int
    line_end: int
    text: str


class ContextNote(ProvenanceColumns, table=True):
    __tablename__ = "context_notes"
    id: int = Field(default=None, primary_key=True)
    kind: str
    client_id: int | None = None
    project_id: int | None = None
    body: str
    updated_at: str


class Digest(ProvenanceColumns, table=True):
    __tablename__ = "digests"
    id: int = Field(default=None, primary_key=True)
    period_start: str
    period_end: str
    body: str


class CapturePerson(SQLModel, table=True):
    __tablename__ = "capture_people"
    capture_id: int = Field(primary_key=True)
    person_id: int = Field(primary_key=True)


class CaptureProject(SQLModel, table=True):
    __tablename__ = "capture_projects"
    capture_id: int = Field(primary_key=True)
    project_id: int = Field(primary_key=True)
    linked_by: str
    created_at: str


# The two tables whose rows wait on a name: a choice between them, not a table name.
FactTable = type[Decision] | type[ActionItem]
