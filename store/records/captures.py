"""What a capture writes and what reading one gives back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from store.errors import ProvenanceError
from store.schema_v1 import FACT_CODES


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


# A person a new capture links to: an existing id, or the name of a person the same
# transaction creates (listed in NewCapture.new_people).
PersonRef = int | str


@dataclass(frozen=True)
class NewDecision:
    description: str
    reasoning: str | None
    decided_by: str | None
    line_start: int | None
    line_end: int | None
    evidence_quote: str | None
    verified: bool = True
    person: PersonRef | None = None  # who decided, once resolved
    pending: bool = False  # decided_by is ambiguous: waiting for the user to say who
    status: str = "current"  # or "superseded": a later decision of the meeting replaced it
    superseded_by: int | None = None  # which one: its number among the capture's decisions
    subject: str = ""  # what it is about: key words of it and of what led to it
    confidence: float | None = None  # the extractor's probability that it is one
    state: str = "asserted"  # "proposed": waits for the user's word; "rejected": they said no
    model_version: str | None = None  # the judge that gave `confidence`


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
    person: PersonRef | None = None  # the owner, once resolved
    pending: bool = False  # assignee_raw is ambiguous: waiting for the user to say who
    asked_by: str | None = None  # who asked for it, as said, when not its owner
    confidence: float | None = None  # the extractor's probability that it is one
    state: str = "asserted"  # "proposed": waits for the user's word; "rejected": they said no
    model_version: str | None = None  # the judge that gave `confidence`


@dataclass(frozen=True)
class NewExcerpt:
    line_start: int
    line_end: int
    text: str


@dataclass(frozen=True)
class NewAlias:
    """A name that stands for a person (or, with no person, a name the user said is nobody
    we know)."""

    alias: str
    person: PersonRef | None
    confidence: float
    auto_resolved: bool
    confirmed_by: str | None = None


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
    # Names, resolved by core before the write and applied in the same transaction.
    new_people: tuple[str, ...] = ()
    attendees: tuple[PersonRef, ...] = ()
    aliases: tuple[NewAlias, ...] = ()
    stale_aliases: tuple[str, ...] = ()  # cached guesses a new person makes doubtful
    renames: tuple[tuple[int, str], ...] = ()  # people whose fuller name the meeting gave
    project_ids: tuple[int, ...] = ()  # known projects the meeting is about


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
    source_kind: str = "file"  # "email": a thread of `messages` emails
    messages: int = 0
    source_format: str = ""
    channel_of: int | None = None  # a chat log: the meeting it was the side channel of


@dataclass(frozen=True)
class CaptureCandidate:
    """What near-duplicate detection needs to know about a stored capture."""

    id: int
    title: str
    source_path: str | None
    signature: bytes | None
    occurred_at: str | None
    source_format: str = ""
    channel_of: int | None = None


def fact_key(fact_type: str, fact_id: int) -> int:
    """A fact's key in the facts view and the search indexes: its arm's code, then its id."""
    return (FACT_CODES[fact_type] << 32) | fact_id


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
    person_id: int | None = None
    pending: bool = False
    person_name: str | None = None  # the person `decided_by` was settled as
    status: str = "current"  # "superseded" (kept as history) or "retracted"
    superseded_by: int | None = None  # the decision that replaced it
    subject: str = ""  # key words of what it is about
    confidence: float | None = None  # the extractor's probability that it is one
    state: str = "asserted"  # "proposed": waits for the user's word; "rejected": they said no
    model_version: str | None = None
    reviewed_by: str | None = None  # who accepted, edited or rejected it

    @property
    def fact_key(self) -> int:
        return fact_key("decision", self.id)

    @property
    def current(self) -> bool:
        return self.status == "current"

    @property
    def decider(self) -> str | None:
        """Who decided, as surfaces show it: the person once settled, else as said."""
        return self.person_name or self.decided_by


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
    person_id: int | None = None
    pending: bool = False
    person_name: str | None = None  # the person `assignee_raw` was settled as
    asked_by: str | None = None  # who asked for it, as said, when not its owner
    confidence: float | None = None  # the extractor's probability that it is one
    state: str = "asserted"  # "proposed": waits for the user's word; "rejected": they said no
    model_version: str | None = None
    reviewed_by: str | None = None  # who accepted, edited or rejected it

    @property
    def fact_key(self) -> int:
        return fact_key("action_item", self.id)

    @property
    def owner(self) -> str | None:
        """Who owes it, as surfaces show it: the person once settled, else as said."""
        return self.person_name or self.assignee_raw


@dataclass(frozen=True)
class WrittenCapture:
    capture_id: int
    decisions: list[DecisionRecord]
    action_items: list[ActionItemRecord]
    excerpt_count: int


@dataclass(frozen=True)
class CaptureLink:
    """A meeting as a detail view lists it; `day` is its date, else the day it was captured."""

    id: int
    title: str
    day: str
