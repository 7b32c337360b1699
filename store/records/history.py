"""Decisions replaced and items closed across meetings."""

from __future__ import annotations

from dataclasses import dataclass

from store.records.captures import ActionItemRecord, DecisionRecord


@dataclass(frozen=True)
class HistoryDecision:
    """A decision as the search for what replaced it reads it."""

    id: int
    capture_id: int
    day: str  # its meeting's date (else the day it was captured)
    captured_at: str
    description: str
    quote: str
    subject: str  # space-separated key words
    status: str
    project_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class NewChange:
    """A change found across meetings: `strong` ones are applied at once (and can be undone),
    `weak` ones are proposed to the user."""

    kind: str  # "supersedes" or "closes"
    capture_id: int  # the meeting holding the evidence
    evidence: str  # its words
    reason: str  # why memo thinks so, for the review
    strength: str  # "strong" or "weak"
    old_decision_id: int | None = None
    old_item_id: int | None = None
    new_decision_id: int | None = None
    line_start: int | None = None
    line_end: int | None = None
    confidence: float | None = None  # a learned model's probability (None: the rules')
    model_version: str | None = None


MEMO = "memo"  # who applied a change on strong evidence, until the user keeps or undoes it


@dataclass(frozen=True)
class ChangeRecord:
    """A change with both sides, as the review shows it."""

    id: int
    kind: str
    status: str  # applied, proposed, rejected, undone
    strength: str
    reason: str
    evidence: str
    capture_id: int
    line_start: int | None
    line_end: int | None
    old_id: int  # the decision replaced or the action item closed
    new_decision_id: int | None
    previous_status: str
    created_at: str
    decided_at: str | None
    decided_by: str | None
    old_text: str
    old_quote: str | None
    old_day: str | None
    old_title: str | None
    new_text: str | None
    new_day: str | None
    new_title: str | None
    confidence: float | None = None  # a learned model's probability (None: the rules')
    model_version: str | None = None

    @property
    def applied_by_memo(self) -> bool:
        """Applied on strong evidence, and nobody has kept or undone it yet."""
        return self.status == "applied" and self.decided_by == MEMO


@dataclass(frozen=True)
class OpenItem:
    """An open action item as the search for its closing reads it."""

    id: int
    capture_id: int
    day: str
    description: str
    owner: str | None  # the person it was settled as, else the name as said


@dataclass(frozen=True)
class ReviewItem:
    """A decision or action item as the review shows it: the record and its meeting."""

    kind: str  # "decision" or "action_item"
    record: DecisionRecord | ActionItemRecord
    capture_title: str
    day: str  # the meeting's day, YYYY-MM-DD ("" when unknown)
    source_path: str | None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def who(self) -> str | None:
        """Who owns it (an action item) or who decided it (a decision), as memo shows them."""
        record = self.record
        return record.owner if isinstance(record, ActionItemRecord) else record.decider

    @property
    def due_date(self) -> str | None:
        return self.record.due_date if isinstance(self.record, ActionItemRecord) else None

    @property
    def handle(self) -> str:
        """How the review names it: d12 (decision 12) or a7 (action item 7)."""
        return f"{self.kind[0]}{self.record.id}"
