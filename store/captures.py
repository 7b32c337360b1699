"""Writing and looking up captures. Each function runs inside a caller's transaction."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, delete, insert, select, update

from store.records import (
    ActionItemRecord,
    CaptureCandidate,
    CaptureRef,
    DecisionRecord,
    NewCapture,
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


def capture_by_hash(conn: Connection, content_hash: str) -> CaptureRef | None:
    row = conn.execute(
        select(
            Capture.id,
            Capture.title,
            Capture.source_path,
            Capture.content_hash,
            Capture.occurred_at,
            Capture.captured_at,
        ).where(Capture.content_hash == content_hash)
    ).first()
    return CaptureRef(*row) if row else None


def capture_candidates(conn: Connection) -> list[CaptureCandidate]:
    rows = conn.execute(
        select(
            Capture.id,
            Capture.title,
            Capture.source_path,
            Capture.signature,
            Capture.occurred_at,
        )
    ).all()
    return [CaptureCandidate(*row) for row in rows]


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
    """Insert a capture with its facts, or replace capture `replace_id` in place.

    A replace keeps the capture's id (links to it survive) and swaps every fact.
    """
    provenance = _provenance_columns(new.provenance)
    if replace_id is None:
        capture_id = int(conn.execute(insert(Capture).values(**_capture_columns(new))).lastrowid)
    else:
        capture_id = replace_id
        for table in (Decision, ActionItem, Excerpt):
            conn.execute(delete(table).where(table.capture_id == capture_id))  # type: ignore[arg-type]
        conn.execute(
            update(Capture)
            .where(Capture.id == capture_id)  # type: ignore[arg-type]
            .values(**_capture_columns(new), replaced_at=new.provenance.captured_at)
        )
    decisions = _insert_decisions(conn, capture_id, new, provenance)
    actions = _insert_action_items(conn, capture_id, new, provenance)
    if new.excerpts:
        conn.execute(
            insert(Excerpt),
            [
                {"capture_id": capture_id, **vars(excerpt), **provenance}
                for excerpt in new.excerpts
            ],
        )
    return WrittenCapture(capture_id, decisions, actions, len(new.excerpts))


def _insert_decisions(
    conn: Connection, capture_id: int, new: NewCapture, provenance: dict[str, str | None]
) -> list[DecisionRecord]:
    written = []
    for item in new.decisions:
        values = {**vars(item), "verified": int(item.verified)}
        row_id = conn.execute(
            insert(Decision).values(capture_id=capture_id, **values, **provenance)
        ).lastrowid
        written.append(DecisionRecord(id=int(row_id), capture_id=capture_id, **vars(item)))
    return written


def _insert_action_items(
    conn: Connection, capture_id: int, new: NewCapture, provenance: dict[str, str | None]
) -> list[ActionItemRecord]:
    written = []
    for item in new.action_items:
        values = {**vars(item), "verified": int(item.verified)}
        row_id = conn.execute(
            insert(ActionItem).values(capture_id=capture_id, **values, **provenance)
        ).lastrowid
        written.append(
            ActionItemRecord(id=int(row_id), capture_id=capture_id, **vars(item))
        )
    return written


def decisions_for(conn: Connection, capture_ids: Sequence[int]) -> list[DecisionRecord]:
    rows = conn.execute(
        select(
            Decision.id,
            Decision.capture_id,
            Decision.description,
            Decision.reasoning,
            Decision.decided_by,
            Decision.line_start,
            Decision.line_end,
            Decision.evidence_quote,
            Decision.verified,
        )
        .where(Decision.capture_id.in_(capture_ids))  # type: ignore[union-attr]
        .order_by(Decision.id)  # type: ignore[arg-type]
    ).all()
    return [DecisionRecord(*row[:-1], verified=bool(row[-1])) for row in rows]


def action_items_for(conn: Connection, capture_ids: Sequence[int]) -> list[ActionItemRecord]:
    rows = conn.execute(
        select(
            ActionItem.id,
            ActionItem.capture_id,
            ActionItem.description,
            ActionItem.assignee_raw,
            ActionItem.due_date,
            ActionItem.status,
            ActionItem.line_start,
            ActionItem.line_end,
            ActionItem.evidence_quote,
            ActionItem.verified,
        )
        .where(ActionItem.capture_id.in_(capture_ids))  # type: ignore[union-attr]
        .order_by(ActionItem.id)  # type: ignore[arg-type]
    ).all()
    return [ActionItemRecord(*row[:-1], verified=bool(row[-1])) for row in rows]
