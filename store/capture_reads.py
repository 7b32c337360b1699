"""Looking captures up: by content, as candidates for a new file, as the Captures pane
lists them, their text and source, and which captures facts belong to. Each function runs
inside a caller's transaction."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Select, bindparam, func, select, union
from sqlmodel import col

from store.expressions import among, among_bound, capture_day
from store.records import (
    ActionItemRecord,
    CaptureCandidate,
    CaptureRef,
    CaptureSummary,
    DecisionRecord,
)
from store.tables import ActionItem, Capture, Decision, EmailMessage, FactTable, Person

_BY_HASH = select(
    col(Capture.id),
    col(Capture.title),
    col(Capture.source_path),
    col(Capture.content_hash),
    col(Capture.occurred_at),
    col(Capture.captured_at),
).where(col(Capture.content_hash) == bindparam("hash"))


def capture_by_hash(conn: Connection, content_hash: str) -> CaptureRef | None:
    row = conn.execute(_BY_HASH, {"hash": content_hash}).first()
    return CaptureRef(*row) if row else None


def capture_candidates(conn: Connection) -> list[CaptureCandidate]:
    c = Capture
    rows = conn.execute(
        select(
            col(c.id),
            col(c.title),
            col(c.source_path),
            col(c.signature),
            col(c.occurred_at),
            col(c.source_format),
            col(c.channel_of),
        )
    ).all()
    return [CaptureCandidate(*row) for row in rows]


def _summaries() -> Select[Any]:
    """Captures with how many current decisions, action items and messages each holds."""
    c = Capture

    def count(table: Any, *where: Any) -> Any:
        return (
            select(func.count()).where(col(table.capture_id) == col(c.id), *where).scalar_subquery()
        )

    return select(
        col(c.id),
        col(c.title),
        col(c.occurred_at),
        col(c.captured_at),
        col(c.extractor),
        col(c.truncated),
        count(Decision, col(Decision.status) == "current", col(Decision.state) != "rejected"),
        count(ActionItem, col(ActionItem.state) != "rejected"),
        col(c.source_kind),
        count(EmailMessage),
        col(c.source_format),
        col(c.channel_of),
    )


def _summary(r: Sequence[Any]) -> CaptureSummary:
    return CaptureSummary(
        id=r[0],
        title=r[1],
        occurred_at=r[2],
        captured_at=r[3],
        extractor=r[4],
        truncated=bool(r[5]),
        decisions=r[6],
        action_items=r[7],
        source_kind=r[8],
        messages=r[9],
        source_format=r[10],
        channel_of=r[11],
    )


def list_captures(conn: Connection) -> list[CaptureSummary]:
    """Every capture, oldest meeting first, with its fact counts."""
    c = Capture
    query = _summaries().order_by(func.coalesce(col(c.occurred_at), col(c.captured_at)), col(c.id))
    return [_summary(r) for r in conn.execute(query)]


def capture_summary(conn: Connection, capture_id: int) -> CaptureSummary | None:
    row = conn.execute(_summaries().where(col(Capture.id) == capture_id)).first()
    return _summary(row) if row else None


def side_channels(conn: Connection, capture_id: int) -> list[CaptureSummary]:
    """The chat logs kept beside a meeting, in the order they were captured."""
    c = Capture
    query = _summaries().where(col(c.channel_of) == capture_id).order_by(col(c.id))
    return [_summary(r) for r in conn.execute(query)]


def capture_meta(conn: Connection, capture_id: int) -> dict[str, Any]:
    found = _column(conn, capture_id, col(Capture.meta_json))
    return dict(json.loads(found)) if found else {}


def capture_text(conn: Connection, capture_id: int) -> str:
    """A capture's text as memo stores it (what line numbers refer to)."""
    return str(_column(conn, capture_id, col(Capture.text)) or "")


def capture_raw(conn: Connection, capture_id: int) -> str:
    """The text of a capture as its file gave it (a direct message left out)."""
    return str(_column(conn, capture_id, col(Capture.raw_text)) or "")


def _column(conn: Connection, capture_id: int, column: Any) -> Any:
    return conn.execute(select(column).where(col(Capture.id) == capture_id)).scalar()


def capture_source(conn: Connection, capture_id: int) -> tuple[str, str, str, str | None]:
    """(title, stored text, source format, source path) of a capture."""
    c = Capture
    row = conn.execute(
        select(col(c.title), col(c.text), col(c.source_format), col(c.source_path)).where(
            col(c.id) == capture_id
        )
    ).one()
    return str(row[0]), str(row[1]), str(row[2]), row[3]


def ids_by_date(conn: Connection) -> list[int]:
    """Every capture, oldest meeting first (then in the order captured)."""
    c = Capture
    ids = conn.execute(select(col(c.id)).order_by(capture_day(), col(c.captured_at), col(c.id)))
    return [int(i) for i in ids.scalars()]


def of_facts(conn: Connection, decision_ids: Sequence[int], item_ids: Sequence[int]) -> list[int]:
    """The captures these decisions and action items belong to."""
    d, a = Decision, ActionItem
    found = conn.execute(
        union(
            select(col(d.capture_id)).where(among(col(d.id), decision_ids)),
            select(col(a.capture_id)).where(among(col(a.id), item_ids)),
        )
    ).scalars()
    return sorted(int(i) for i in found)


# A decision's and an action item's columns, in their records' field order ("person_name":
# the name of the person the fact was settled as).
DECISION_FIELDS = (
    "id capture_id description reasoning decided_by line_start line_end evidence_quote "
    "verified person_id pending person_name status superseded_by subject "
    "confidence state model_version reviewed_by"
)
ACTION_ITEM_FIELDS = (
    "id capture_id description assignee_raw due_date line_start line_end evidence_quote "
    "status verified person_id pending person_name asked_by "
    "confidence state model_version reviewed_by"
)


def fact_columns(fact: FactTable, names: str) -> list[Any]:
    """A fact table's columns by name, in a record's field order."""
    settled_as = select(col(Person.name)).where(col(Person.id) == col(fact.person_id))
    return [
        settled_as.scalar_subquery() if name == "person_name" else col(getattr(fact, name))
        for name in names.split()
    ]


def decision_record(r: Sequence[Any]) -> DecisionRecord:
    """A row of DECISION_FIELDS as a record."""
    return DecisionRecord(**_fields(DECISION_FIELDS, r))


def action_item_record(r: Sequence[Any]) -> ActionItemRecord:
    """A row of ACTION_ITEM_FIELDS as a record."""
    return ActionItemRecord(**_fields(ACTION_ITEM_FIELDS, r))


def _fields(names: str, r: Sequence[Any]) -> dict[str, Any]:
    values = dict(zip(names.split(), r, strict=True))
    return {**values, "verified": bool(values["verified"]), "pending": bool(values["pending"])}


def _of_captures(fact: FactTable, names: str) -> Select[Any]:
    """A fact table's rows of the captures in parameter `ids`, in the order written."""
    of = among_bound(col(fact.capture_id), "ids")
    shown = col(fact.state) != "rejected"  # the user said no: kept, never shown
    return select(*fact_columns(fact, names)).where(of, shown).order_by(col(fact.id))


_DECISIONS_OF = _of_captures(Decision, DECISION_FIELDS)
_ACTION_ITEMS_OF = _of_captures(ActionItem, ACTION_ITEM_FIELDS)


def decisions_for(conn: Connection, capture_ids: Sequence[int]) -> list[DecisionRecord]:
    rows = conn.execute(_DECISIONS_OF, {"ids": list(capture_ids)})
    return [decision_record(r) for r in rows]


def action_items_for(conn: Connection, capture_ids: Sequence[int]) -> list[ActionItemRecord]:
    rows = conn.execute(_ACTION_ITEMS_OF, {"ids": list(capture_ids)})
    return [action_item_record(r) for r in rows]
