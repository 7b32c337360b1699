"""Changes across meetings: a decision superseded by a later one, an item closed by later
evidence (kind 'supersedes' or 'closes')."""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class Change(SQLModel, table=True):
    __tablename__ = "changes"
    id: int = Field(default=None, primary_key=True)
    kind: str
    old_decision_id: int | None = None
    old_item_id: int | None = None
    new_decision_id: int | None = None
    capture_id: int  # where the evidence is
    line_start: int | None = None
    line_end: int | None = None
    evidence: str
    reason: str
    strength: str  # 'strong' (applied on its own) or 'weak' (proposed)
    status: str  # applied, proposed, rejected or undone
    previous_status: str  # the old row's status before, for undo
    created_at: str
    decided_at: str | None = None
    decided_by: str | None = None
    confidence: float | None = None  # the learned closer's or linker's probability
    model_version: str | None = None
