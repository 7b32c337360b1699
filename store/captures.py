"""Writing and looking up captures. Each function runs inside a caller's transaction."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, insert, select, text, update
from sqlmodel import col

from store import ledger, people
from store.records import (
    ActionItemRecord,
    CaptureLink,
    DecisionRecord,
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


def capture_links(conn: Connection, where: str, params: dict[str, Any]) -> list[CaptureLink]:
    """The captures `where` picks, newest meeting first, as detail views list them."""
    rows = conn.execute(
        text(
            "SELECT id, title, coalesce(occurred_at, substr(captured_at, 1, 10)) AS day "
            f"FROM captures WHERE {where} ORDER BY day DESC, id DESC"
        ),
        params,
    ).all()
    return [CaptureLink(int(i), str(t), str(d)) for i, t, d in rows]


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
    if replace_id is None:
        # Columns as parameters, not .values(): one compiled statement serves every capture.
        capture_id = int(conn.execute(insert(Capture), _capture_columns(new)).lastrowid)
    else:
        capture_id = replace_id
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
        row = {**values, "verified": int(item.verified), "pending": int(values["pending"])}
        rows.append({**row, "capture_id": capture_id, **provenance})
    # One statement for each run of rows with the same columns (ids keep the items' order).
    for _, run in itertools.groupby(rows, key=_columns):
        conn.execute(insert(ActionItem), list(run))


def _columns(row: dict[str, Any]) -> tuple[str, ...]:
    return tuple(row)


_IN_CAPTURES = "capture_id IN (SELECT value FROM json_each(:ids)) ORDER BY id"

_PERSON_NAME = "(SELECT name FROM people WHERE people.id = person_id)"
DECISION_COLUMNS = (
    "id, capture_id, description, reasoning, decided_by, line_start, line_end, "
    f"evidence_quote, verified, person_id, pending, {_PERSON_NAME}, status, superseded_by, "
    "subject"
)
ACTION_ITEM_COLUMNS = (
    "id, capture_id, description, assignee_raw, due_date, line_start, line_end, "
    f"evidence_quote, status, verified, person_id, pending, {_PERSON_NAME}, asked_by"
)


def decision_record(r: Sequence[Any]) -> DecisionRecord:
    """A row of DECISION_COLUMNS as a record."""
    return DecisionRecord(
        id=r[0],
        capture_id=r[1],
        description=r[2],
        reasoning=r[3],
        decided_by=r[4],
        line_start=r[5],
        line_end=r[6],
        evidence_quote=r[7],
        verified=bool(r[8]),
        person_id=r[9],
        pending=bool(r[10]),
        person_name=r[11],
        status=r[12],
        superseded_by=r[13],
        subject=r[14],
    )


def action_item_record(r: Sequence[Any]) -> ActionItemRecord:
    """A row of ACTION_ITEM_COLUMNS as a record."""
    return ActionItemRecord(
        id=r[0],
        capture_id=r[1],
        description=r[2],
        assignee_raw=r[3],
        due_date=r[4],
        line_start=r[5],
        line_end=r[6],
        evidence_quote=r[7],
        status=r[8],
        verified=bool(r[9]),
        person_id=r[10],
        pending=bool(r[11]),
        person_name=r[12],
        asked_by=r[13],
    )


def decisions_for(conn: Connection, capture_ids: Sequence[int]) -> list[DecisionRecord]:
    rows = conn.execute(
        text(f"SELECT {DECISION_COLUMNS} FROM decisions WHERE {_IN_CAPTURES}"),
        {"ids": json.dumps(list(capture_ids))},
    ).all()
    return [decision_record(r) for r in rows]


def action_items_for(conn: Connection, capture_ids: Sequence[int]) -> list[ActionItemRecord]:
    rows = conn.execute(
        text(f"SELECT {ACTION_ITEM_COLUMNS} FROM action_items WHERE {_IN_CAPTURES}"),
        {"ids": json.dumps(list(capture_ids))},
    ).all()
    return [action_item_record(r) for r in rows]
