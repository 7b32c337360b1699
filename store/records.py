"""Plain records: what the store takes in and hands out. Never ORM objects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

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
class FactPeople:
    """Who a decision or an action item is about, for a script: the person once settled
    (with their id), else the name as said; and the item's state."""

    owner: str | None = None
    owner_person_id: int | None = None
    decided_by: str | None = None
    decided_by_person_id: int | None = None
    due_date: str | None = None
    status: str | None = None  # an item's open/done/dropped; a decision's current/superseded
    pending: bool = False
    superseded_by: int | None = None  # a superseded decision: the one that replaced it


@dataclass(frozen=True)
class FactCursor:
    """Where a page of the facts feed ended: the sort key of its last row.

    The feed runs newest meeting day first, then capture id, then fact key, all descending;
    facts with no capture (notes, digests) come after the meetings of their day.
    """

    day: str
    capture_id: int
    fact_key: int

    @classmethod
    def after(cls, fact: FactRecord) -> FactCursor:
        """The cursor that continues the feed after `fact`."""
        day = fact.occurred_at if fact.occurred_at is not None else fact.captured_at[:10]
        return cls(day, fact.capture_id or 0, fact.fact_key)


@dataclass(frozen=True)
class CaptureLink:
    """A meeting as a detail view lists it; `day` is its date, else the day it was captured."""

    id: int
    title: str
    day: str


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


@dataclass(frozen=True)
class PersonRow:
    id: int
    name: str


@dataclass(frozen=True)
class AliasRow:
    entity_type: str
    entity_id: int | None  # None: the user said this name is none of the people we know
    alias: str
    confidence: float
    auto_resolved: bool
    confirmed_by: str | None


@dataclass(frozen=True)
class Directory:
    """Everyone and everything a name can resolve to, with the aliases learned so far."""

    people: list[PersonRow]
    projects: list[PersonRow]
    clients: list[PersonRow]
    aliases: list[AliasRow]


@dataclass(frozen=True)
class PersonSummary:
    id: int
    name: str
    aliases: list[str]
    open_action_items: int
    decisions: int
    meetings: int


@dataclass(frozen=True)
class PendingMention:
    """A raw name on facts that wait for the user to say who it is."""

    mention: str
    action_items: int
    decisions: int
    capture_ids: list[int]


@dataclass(frozen=True)
class Backfill:
    action_items: int
    decisions: int


@dataclass(frozen=True)
class PersonMerge:
    """A merge of one person into another, as split can undo it."""

    id: int
    kept_id: int
    merged_name: str
    decisions: int
    action_items: int
    meetings: int
    merged_at: str


@dataclass(frozen=True)
class PersonAlias:
    """A name that stands for a person; `confirmed` when the user said so (not a guess)."""

    alias: str
    confidence: float
    confirmed: bool


@dataclass(frozen=True)
class PersonDetail:
    """A person's page: what they owe and decided, and the meetings they attended (newest
    first). (What may be theirs but waits on a name comes from the entity service.)

    `captures` holds every meeting the lists point at, by id, for titles and dates.
    """

    id: int
    name: str
    aliases: list[PersonAlias]
    open_action_items: list[ActionItemRecord]
    decisions: list[DecisionRecord]
    meetings: list[CaptureLink]
    captures: dict[int, CaptureLink]
    owed: list[ActionItemRecord] = field(default_factory=list)  # others owe them: they asked


# Agent runs. A run's status; the database refuses any other.
RunStatus = Literal["queued", "running", "waiting_for_user", "completed", "failed", "interrupted"]
# Who wrote a section of a living document, and what asking to write one did.
SectionAuthor = Literal["agent", "user"]
SectionWrite = Literal["written", "unchanged", "skipped_user_edit"]
# The human's answer to a run that asked before changing something.
Approval = Literal["accepted", "rejected", "skipped"]


@dataclass(frozen=True)
class RunRecord:
    """An agent run (an agent_sessions row) and how far it got.

    `entity_name` is the person's, project's or client's current name (None for other
    entities, or when it is gone); `repair_turns` counts its steps of kind 'repair'.
    """

    id: int
    agent_type: str
    entity_type: str | None
    entity_id: int | None
    entity_name: str | None
    status: str
    model: str | None
    spec_json: str
    error: str | None
    input_tokens: int
    output_tokens: int
    cost_microdollars: int
    started_at: str
    finished_at: str | None
    steps: int
    tool_calls: int
    repair_turns: int


@dataclass(frozen=True)
class StepRecord:
    """One model turn of a run; `message_json` is the assistant's turn (text and tool calls)
    once the step finished."""

    id: int
    run_id: int
    step_index: int
    kind: str
    status: str
    input_tokens: int
    output_tokens: int
    message_json: str | None
    started_at: str
    finished_at: str | None


@dataclass(frozen=True)
class ToolCallRecord:
    """A tool call a run made; `call_id` is the model's id for it, unique within the run."""

    id: int
    run_id: int
    step_id: int | None
    call_id: str
    tool_name: str
    arguments_json: str
    result_json: str | None
    mutating: bool
    status: str
    started_at: str
    finished_at: str | None


@dataclass(frozen=True)
class EventRecord:
    """One event of a run's stream; `seq` counts from 1, without gaps, per run."""

    seq: int
    kind: str
    payload_json: str
    created_at: str


@dataclass(frozen=True)
class RunDecisionRecord:
    """A human's answer to a run's request (an agent_decisions row)."""

    id: int
    run_id: int
    tool_call_id: int | None
    decision: str
    decided_by: str
    payload_json: str
    decided_at: str


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


# Email


@dataclass(frozen=True)
class NewEmailMessage:
    """A message to store: `recipients` as [{"name", "address", "kind": "to"|"cc"}];
    `bulk_reason` says why it is a newsletter or other bulk mail (None: from a person)."""

    message_id: str
    thread_key: str
    sent_at: str | None
    subject: str
    sender_name: str
    sender_address: str
    recipients: list[dict[str, str]]
    references: tuple[str, ...]
    body: str
    bulk_reason: str | None
    list_id: str = ""
    unsubscribe: str = ""
    source_path: str | None = None


@dataclass(frozen=True)
class EmailMessageRecord:
    id: int
    message_id: str
    thread_key: str
    capture_id: int | None
    sent_at: str | None
    subject: str
    sender_name: str
    sender_address: str
    recipients: list[dict[str, str]]
    references: tuple[str, ...]
    body: str
    bulk_reason: str | None
    list_id: str
    unsubscribe: str
    source_path: str | None


@dataclass(frozen=True)
class KnownMessage:
    """What threading needs of a stored message."""

    message_id: str
    references: tuple[str, ...]
    thread_key: str
    subject: str
    sent_at: str | None
    people: frozenset[str] = frozenset()  # its sender's and recipients' addresses


@dataclass(frozen=True)
class ConceptSummary:
    """A concept: its name, and its living document's sections (how many, last change)."""

    id: int
    name: str
    created_at: str
    sections: int
    updated_at: str | None


@dataclass(frozen=True)
class AddressRecord:
    """An address whose display name matches a person known at another domain: the same
    person, perhaps; the user says."""

    address: str
    display_name: str
    proposed_person_id: int
    proposed_name: str


@dataclass(frozen=True)
class NewsletterSummary:
    """A bulk sender: its name, how many messages, the latest, and its unsubscribe header
    (as text: memo never opens it)."""

    sender: str
    name: str
    messages: int
    last_seen: str | None
    unsubscribe: str
    reason: str


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


@dataclass(frozen=True)
class OpenItem:
    """An open action item as the search for its closing reads it."""

    id: int
    capture_id: int
    day: str
    description: str
    owner: str | None  # the person it was settled as, else the name as said
