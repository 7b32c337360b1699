"""People, their names and aliases, merges."""

from __future__ import annotations

from dataclasses import dataclass, field

from store.records.captures import ActionItemRecord, CaptureLink, DecisionRecord


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
