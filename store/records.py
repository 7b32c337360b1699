"""Plain records: what the store takes in and hands out. Never ORM objects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from store.errors import ProvenanceError


@dataclass(frozen=True)
class Provenance:
    """Where a fact came from and who or what produced it (one of the triggers is required)."""

    source_type: str
    source_id: str
    captured_at: str
    triggered_by_user: str | None = None
    triggered_by_agent: str | None = None

    def check(self) -> None:
        """Refuse a fact that nobody produced."""
        if not (self.triggered_by_user or self.triggered_by_agent):
            raise ProvenanceError(
                f"refusing to store a fact from {self.source_type}:{self.source_id} with no "
                "provenance: set triggered_by_user or triggered_by_agent"
            )
        if not self.source_type or not self.source_id or not self.captured_at:
            raise ProvenanceError("a fact needs source_type, source_id and captured_at")


@dataclass(frozen=True)
class NewDecision:
    description: str
    reasoning: str | None
    decided_by: str | None
    line_start: int | None
    line_end: int | None
    evidence_quote: str | None
    verified: bool = True


@dataclass(frozen=True)
class NewActionItem:
    description: str
    assignee_raw: str | None
    due_date: str | None
    line_start: int | None
    line_end: int | None
    evidence_quote: str | None
    verified: bool = True
    status: str = "open"


@dataclass(frozen=True)
class NewExcerpt:
    line_start: int
    line_end: int
    text: str


@dataclass(frozen=True)
class NewCapture:
    """A capture and all its facts, written in one transaction."""

    source_kind: str
    source_path: str | None
    source_format: str
    content_hash: str
    signature: bytes | None
    title: str
    occurred_at: str | None
    raw_text: str
    text: str
    line_count: int
    summary: str | None
    meta: dict[str, Any]
    extractor: str
    truncated: bool
    provenance: Provenance
    decisions: list[NewDecision] = field(default_factory=list)
    action_items: list[NewActionItem] = field(default_factory=list)
    excerpts: list[NewExcerpt] = field(default_factory=list)
    llm_call_ids: tuple[int, ...] = ()  # ledger rows of the extraction, pointed at the capture


@dataclass(frozen=True)
class CaptureRef:
    id: int
    title: str
    source_path: str | None
    content_hash: str
    occurred_at: str | None
    captured_at: str


@dataclass(frozen=True)
class CaptureSummary:
    """One capture as a list shows it."""

    id: int
    title: str
    occurred_at: str | None
    captured_at: str
    extractor: str
    truncated: bool
    decisions: int
    action_items: int


@dataclass(frozen=True)
class CaptureCandidate:
    """What near-duplicate detection needs to know about a stored capture."""

    id: int
    title: str
    source_path: str | None
    signature: bytes | None
    occurred_at: str | None


@dataclass(frozen=True)
class DecisionRecord:
    id: int
    capture_id: int
    description: str
    reasoning: str | None
    decided_by: str | None
    line_start: int | None
    line_end: int | None
    evidence_quote: str | None
    verified: bool


@dataclass(frozen=True)
class ActionItemRecord:
    id: int
    capture_id: int
    description: str
    assignee_raw: str | None
    due_date: str | None
    status: str
    line_start: int | None
    line_end: int | None
    evidence_quote: str | None
    verified: bool


@dataclass(frozen=True)
class WrittenCapture:
    capture_id: int
    decisions: list[DecisionRecord]
    action_items: list[ActionItemRecord]
    excerpt_count: int


@dataclass(frozen=True)
class FactRecord:
    """One row of the facts view."""

    fact_key: int
    fact_type: str
    fact_id: int
    text: str
    capture_id: int | None
    capture_title: str | None
    occurred_at: str | None
    captured_at: str
    source_type: str
    source_id: str
    line_start: int | None
    line_end: int | None


@dataclass(frozen=True)
class StoreStats:
    """Counts and versions for `memo doctor`."""

    path: str
    schema_version: int
    sqlite_version: str
    vec_version: str
    captures: int
    facts_by_type: dict[str, int]
    fts_rows: int
    vectors: int
    embedding_model: str | None
    embedding_dim: int
