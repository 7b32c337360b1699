"""The review of what memo is not sure of: decisions and action items the extractor proposed,
accepted (asserted, with who said so), edited or rejected (kept, never a fact), and carried
over when their meeting is captured again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, func, select, update
from sqlmodel import col

from store.capture_reads import (
    ACTION_ITEM_FIELDS,
    DECISION_FIELDS,
    action_item_record,
    decision_record,
    fact_columns,
)
from store.errors import NotFoundError
from store.expressions import among, capture_day
from store.records import ReviewItem
from store.tables import ActionItem, Capture, Decision

TABLES: dict[str, type[Decision] | type[ActionItem]] = {
    "decision": Decision,
    "action_item": ActionItem,
}

# What a review settles about an item, carried to its copy when the meeting is captured again.
_KEPT = {
    "decision": ("state", "reviewed_by", "description", "decided_by", "person_id", "pending"),
    "action_item": (
        "state",
        "reviewed_by",
        "description",
        "assignee_raw",
        "person_id",
        "pending",
        "due_date",
    ),
}


def _query(kind: str) -> Any:
    table = TABLES[kind]
    fields = DECISION_FIELDS if kind == "decision" else ACTION_ITEM_FIELDS
    return select(
        *fact_columns(table, fields), col(Capture.title), capture_day(), col(Capture.source_path)
    ).join(Capture, col(Capture.id) == col(table.capture_id))


def _item(kind: str, row: Sequence[Any]) -> ReviewItem:
    fields = len((DECISION_FIELDS if kind == "decision" else ACTION_ITEM_FIELDS).split())
    record = (
        decision_record(row[:fields]) if kind == "decision" else action_item_record(row[:fields])
    )
    title, day, path = row[fields:]
    return ReviewItem(kind, record, str(title), str(day or ""), path)


def items_in(conn: Connection, states: Sequence[str]) -> list[ReviewItem]:
    """Decisions and action items in these states, oldest meeting first, decisions before
    action items, in the order written."""
    found: list[ReviewItem] = []
    for kind, table in TABLES.items():
        query = _query(kind).where(among(col(table.state), list(states)))
        found += [_item(kind, r) for r in conn.execute(query)]
    return sorted(found, key=lambda i: (i.day, i.record.capture_id, i.kind != "decision", i.id))


def item(conn: Connection, kind: str, item_id: int) -> ReviewItem:
    table = TABLES[kind]
    row = conn.execute(_query(kind).where(col(table.id) == item_id)).first()
    if row is None:
        raise NotFoundError(f"no {kind.replace('_', ' ')} {item_id}")
    return _item(kind, row)


def waiting(conn: Connection) -> int:
    """How many decisions and action items wait for the user's word."""
    return sum(
        int(conn.execute(select(func.count()).where(col(t.state) == "proposed")).scalar_one())
        for t in TABLES.values()
    )


def settle(conn: Connection, kind: str, item_id: int, values: dict[str, Any]) -> ReviewItem:
    """Write a review's outcome (state, reviewed_by and any edited fields) and read it back."""
    table = TABLES[kind]
    item(conn, kind, item_id)  # NotFoundError before any write
    conn.execute(update(table).where(col(table.id) == item_id).values(**values))
    return item(conn, kind, item_id)


def reviewed_of(conn: Connection, capture_id: int) -> dict[str, list[dict[str, Any]]]:
    """The reviewed decisions and action items of a capture: what a review settled about
    each, with the words that find its copy (evidence quote and description)."""
    kept: dict[str, list[dict[str, Any]]] = {}
    for kind, table in TABLES.items():
        names = ("evidence_quote", *_KEPT[kind])
        rows = conn.execute(
            select(*(col(getattr(table, n)) for n in names)).where(
                col(table.capture_id) == capture_id, col(table.reviewed_by).is_not(None)
            )
        )
        kept[kind] = [dict(zip(names, r, strict=True)) for r in rows]
    return kept


def carry_over(conn: Connection, capture_id: int, kept: dict[str, list[dict[str, Any]]]) -> None:
    """Give a capture's new decisions and action items the reviews of their copies in the
    version it replaced (found by evidence quote, else by description): a rejected item is
    not proposed again, an accepted or edited one stays as the user left it."""
    for kind, reviews in kept.items():
        table = TABLES[kind]
        by_words: dict[str, dict[str, Any]] = {}
        for review in reviews:
            by_words.setdefault(_words(review["evidence_quote"] or review["description"]), review)
        rows = conn.execute(
            select(col(table.id), col(table.evidence_quote), col(table.description)).where(
                col(table.capture_id) == capture_id
            )
        ).all()
        for item_id, quote, description in rows:
            words = _words(quote or description)
            said = by_words.pop(words, None) if words else None
            if said is None:
                continue
            values = {name: said[name] for name in _KEPT[kind]}
            conn.execute(update(table).where(col(table.id) == item_id).values(**values))


def _words(text: str | None) -> str:
    return " ".join("".join(c for c in (text or "").lower() if c.isalnum() or c.isspace()).split())
