"""Writing and looking up captures. Each function runs inside a caller's transaction."""

from __future__ import annotations

import itertools
import json
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update
from sqlmodel import col

from store import ledger, people, review
from store.capture_reads import action_items_for, decisions_for
from store.expressions import new_id
from store.records import (
    NewActionItem,
    NewCapture,
    NewDecision,
    Provenance,
    WrittenCapture,
)
from store.tables import ActionItem, Capture, Decision, Excerpt


def _provenance_columns(provenance: Provenance) -> dict[str, str | None]:
    provenance.check()
    return {
        "source_type": provenance.source_type,
        "source_id": provenance.source_id,
        "captured_at": provenance.captured_at,
        "triggered_by_user": provenance.triggered_by_user,
        "triggered_by_agent": provenance.triggered_by_agent,
    }


def link_side_channel(conn: Connection, chat_id: int, meeting_id: int) -> None:
    """A chat log becomes the side channel of a meeting, titled after it."""
    c = Capture
    title = select(col(c.title)).where(col(c.id) == meeting_id).scalar_subquery()
    chat = update(c).where(col(c.id) == chat_id)
    conn.execute(chat.values(channel_of=meeting_id, title=title + " (chat)"))


def delete_capture(conn: Connection, capture_id: int) -> bool:
    """Delete a capture and everything it owns; False when there was no such capture.

    Its facts, excerpts and people and project links go by ON DELETE CASCADE, and the index
    triggers of each of those rows drop their search entries and vectors. People, aliases and
    ledger rows stay: they outlive any one meeting.
    """
    from store.email import forget_thread

    forget_thread(conn, capture_id)  # an email thread's messages are not captured again
    conn.execute(  # its chat logs stay, as captures of their own
        update(Capture).where(col(Capture.channel_of) == capture_id).values(channel_of=None)
    )
    deleted = conn.execute(delete(Capture).where(col(Capture.id) == capture_id))
    return bool(deleted.rowcount)


def _capture_columns(new: NewCapture) -> dict[str, object]:
    return {
        "source_kind": new.source_kind,
        "source_path": new.source_path,
        "source_format": new.source_format,
        "content_hash": new.content_hash,
        "signature": new.signature,
        "title": new.title,
        "occurred_at": new.occurred_at,
        "raw_text": new.raw_text,
        "text": new.text,
        "line_count": new.line_count,
        "char_count": len(new.text),
        "summary": new.summary,
        "meta_json": json.dumps(new.meta, ensure_ascii=False, sort_keys=True),
        "extractor": new.extractor,
        "truncated": int(new.truncated),
        **_provenance_columns(new.provenance),
    }


def write_capture(conn: Connection, new: NewCapture, replace_id: int | None) -> WrittenCapture:
    """Insert a capture with its facts, or replace capture `replace_id` in place, and read
    back what was written.

    A replace keeps the capture's id (links to it survive) and swaps every fact.
    """
    capture_id = insert_capture(conn, new, replace_id)
    decisions, actions = decisions_for(conn, [capture_id]), action_items_for(conn, [capture_id])
    return WrittenCapture(capture_id, decisions, actions, len(new.excerpts))


def insert_capture(conn: Connection, new: NewCapture, replace_id: int | None) -> int:
    """The writes of `write_capture`; the capture's id."""
    provenance = _provenance_columns(new.provenance)
    reviewed: dict[str, list[dict[str, Any]]] = {}  # the user's word on the replaced version
    if replace_id is None:
        # Columns as parameters, not .values(): one compiled statement serves every capture.
        capture_id = new_id(conn.execute(insert(Capture), _capture_columns(new)))
    else:
        capture_id = replace_id
        reviewed = review.reviewed_of(conn, capture_id)
        for table in (Decision, ActionItem, Excerpt):
            conn.execute(delete(table).where(col(table.capture_id) == capture_id))
        conn.execute(
            update(Capture)
            .where(col(Capture.id) == capture_id)
            .values(**_capture_columns(new), replaced_at=new.provenance.captured_at)
        )
    if new.llm_call_ids:
        ledger.attach_calls(conn, new.llm_call_ids, capture_id)
    created = people.apply_names(conn, capture_id, new)
    _insert_decisions(conn, capture_id, new, provenance, created)
    _insert_action_items(conn, capture_id, new, provenance, created)
    review.carry_over(conn, capture_id, reviewed)
    if new.excerpts:
        conn.execute(
            insert(Excerpt),
            [{"capture_id": capture_id, **vars(excerpt), **provenance} for excerpt in new.excerpts],
        )
    return capture_id


def _fields(item: NewDecision | NewActionItem, created: dict[str, int]) -> dict[str, Any]:
    """A new fact's columns, its person reference turned into an id."""
    values = {k: v for k, v in vars(item).items() if k != "person"}
    values["person_id"] = people.person_id(item.person, created)
    values["pending"] = bool(item.pending) and values["person_id"] is None
    return values


def _insert_decisions(
    conn: Connection,
    capture_id: int,
    new: NewCapture,
    provenance: dict[str, str | None],
    created: dict[str, int],
) -> None:
    rows: list[dict[str, Any]] = []
    for item in new.decisions:
        values = _fields(item, created)
        values.pop("superseded_by")  # a number in this meeting: an id once all are written
        if values["status"] == "current":
            values.pop("status")  # the column's default (and a store before schema 14 has none)
        if not values["subject"]:
            values.pop("subject")  # likewise, before schema 15
        _judged(values)
        row = {**values, "verified": int(item.verified), "pending": int(values["pending"])}
        rows.append({**row, "capture_id": capture_id, **provenance})
    for _, run in itertools.groupby(rows, key=_columns):  # one statement per run of columns
        conn.execute(insert(Decision), list(run))
    # Every decision of the capture is new (a replace deleted the old ones); ids grow in the
    # order the rows were inserted.
    mine = select(col(Decision.id)).where(col(Decision.capture_id) == capture_id)
    ids = list(conn.execute(mine.order_by(col(Decision.id))).scalars())
    for decision_id, item in zip(ids, new.decisions, strict=True):
        if item.superseded_by is not None and 0 < item.superseded_by <= len(ids):
            conn.execute(
                update(Decision)
                .where(col(Decision.id) == decision_id)
                .values(superseded_by=ids[item.superseded_by - 1])
            )


def _insert_action_items(
    conn: Connection,
    capture_id: int,
    new: NewCapture,
    provenance: dict[str, str | None],
    created: dict[str, int],
) -> None:
    rows: list[dict[str, Any]] = []
    for item in new.action_items:
        values = _fields(item, created)
        if values["asked_by"] is None:
            values.pop("asked_by")  # the column's default (and a store before schema 16 has none)
        _judged(values)
        row = {**values, "verified": int(item.verified), "pending": int(values["pending"])}
        rows.append({**row, "capture_id": capture_id, **provenance})
    # One statement for each run of rows with the same columns (ids keep the items' order).
    for _, run in itertools.groupby(rows, key=_columns):
        conn.execute(insert(ActionItem), list(run))


def _judged(values: dict[str, Any]) -> None:
    """Leave out what the extractor did not judge: the columns' defaults (and a store before
    schema 19 has none)."""
    if values["state"] == "asserted":
        values.pop("state")
    for name in ("confidence", "model_version"):
        if values[name] is None:
            values.pop(name)


def _columns(row: dict[str, Any]) -> tuple[str, ...]:
    return tuple(row)
