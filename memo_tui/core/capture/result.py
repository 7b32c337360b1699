"""What capturing one input did: its status, its capture and what was found in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from store import ActionItemRecord, ChangeRecord, DecisionRecord

Status = Literal["captured", "unchanged", "replaced", "needs_replace", "rejected"]


@dataclass
class CaptureResult:
    """What happened to one input path."""

    path: str
    status: Status
    capture_id: int | None = None
    title: str | None = None
    error: str | None = None
    truncated: bool = False
    extractor: str | None = None
    chunks: int = 0
    llm_calls: int = 0
    decisions: list[DecisionRecord] = field(default_factory=list)
    action_items: list[ActionItemRecord] = field(default_factory=list)
    format: str | None = None  # the format the file was read as ("teams_vtt", ...)
    skipped: dict[str, int] = field(default_factory=dict)  # what was left out, by reason
    channel_of: int | None = None  # a chat log: the meeting capture it belongs to
    changes: list[ChangeRecord] = field(default_factory=list)  # earlier items it changed
    judge: dict[str, str | None] | None = None  # the judge that rated its items, and its note

    @property
    def ok(self) -> bool:
        return self.status in ("captured", "unchanged", "replaced")

    @property
    def pending_names(self) -> list[str]:
        """Owners and deciders that could be several people: the user is to say who."""
        raw = [d.decided_by for d in self.decisions if d.pending]
        raw += [a.assignee_raw for a in self.action_items if a.pending]
        return list(dict.fromkeys(name for name in raw if name))
