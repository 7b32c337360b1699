"""Facts as one feed, and the store as a whole."""

from __future__ import annotations

from dataclasses import dataclass


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
    valid_from: str | None = None  # a decision: the day it was made
    valid_to: str | None = None  # a superseded decision: the day the one replacing it was made
    confidence: float | None = None  # the extractor's probability that it is one (None: no judge)
    state: str | None = None  # "asserted", or "proposed": memo is not sure (the text says so)


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
