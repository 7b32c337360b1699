"""Changes across meetings: a decision superseded by a later one, an action item closed by
later evidence. Applied changes set the old row's status (and keep what it was, for undo);
proposed ones wait for the user. Deleting the evidence takes an applied change back (a
trigger, see migration 15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, bindparam, func, select, update
from sqlalchemy.orm import aliased
from sqlmodel import col

from store.errors import ChangeStateError, NotFoundError
from store.expressions import capture_day, insert, new_id
from store.records import ChangeRecord, HistoryDecision, NewChange, OpenItem
from store.records.history import MEMO
from store.tables import ActionItem, Capture, CaptureProject, Change, Decision, Person


def _held_before(capture_id: int, day: str) -> ColumnElement[bool]:
    """Captures held before this one: an earlier day, or the same day and captured before it
    (a meeting's chat after its transcript)."""
    return (col(Capture.id) != capture_id) & (
        (capture_day() < day) | ((capture_day() == day) & (col(Capture.id) < capture_id))
    )


def _decisions() -> Select[Any]:
    projects = select(func.group_concat(col(CaptureProject.project_id))).where(
        col(CaptureProject.capture_id) == col(Capture.id)
    )
    d = Decision
    return (
        select(
            col(d.id),
            col(d.capture_id),
            capture_day(),
            col(Capture.captured_at),
            col(d.description),
            func.coalesce(col(d.evidence_quote), ""),
            col(d.subject),
            col(d.status),
            projects.scalar_subquery(),
        )
        .join(Capture, col(Capture.id) == col(d.capture_id))
        .where(col(d.state) != "rejected")
    )


def _history(row: Sequence[Any]) -> HistoryDecision:
    projects = tuple(int(p) for p in str(row[8]).split(",")) if row[8] else ()
    id_, capture_id, day, captured_at, description, quote, subject, status = row[:8]
    return HistoryDecision(
        id_, capture_id, day, captured_at, description, quote, subject, status, projects
    )


def capture_decisions(conn: Connection, capture_id: int) -> list[HistoryDecision]:
    query = _decisions().where(col(Decision.capture_id) == capture_id).order_by(col(Decision.id))
    return [_history(r) for r in conn.execute(query)]


def earlier_current_decisions(
    conn: Connection, capture_id: int, day: str, limit: int
) -> list[HistoryDecision]:
    """Current decisions of captures held before this one, latest first."""
    query = (
        _decisions()
        .where(col(Decision.status) == "current", _held_before(capture_id, day))
        .order_by(capture_day().desc(), col(Decision.id).desc())
        .limit(limit)
    )
    return [_history(r) for r in conn.execute(query)]


def decision_subjects(conn: Connection) -> list[str]:
    """Every decision's subject words (how rare a word is among decisions)."""
    return [str(s) for s in conn.execute(select(col(Decision.subject))).scalars()]


def set_subjects(conn: Connection, subjects: dict[int, str]) -> None:
    """What decisions are about (their search index follows)."""
    if not subjects:
        return
    d = Decision
    conn.execute(
        update(d).where(col(d.id) == bindparam("decision")).values(subject=bindparam("words")),
        [{"decision": i, "words": words} for i, words in subjects.items()],
    )


def add_change(conn: Connection, change: NewChange, now: str) -> int:
    """Record a change; an applied one takes effect in the same transaction. A change already
    recorded (the same old and new rows) is left as it is; its id is returned."""
    g = Change
    same = conn.execute(
        select(col(g.id)).where(
            col(g.kind) == change.kind,
            col(g.old_decision_id).is_not_distinct_from(change.old_decision_id),
            col(g.old_item_id).is_not_distinct_from(change.old_item_id),
            col(g.new_decision_id).is_not_distinct_from(change.new_decision_id),
            col(g.capture_id) == change.capture_id,
        )
    ).scalar()
    if same is not None:
        return int(same)
    previous = _status_of(conn, change.kind, change.old_decision_id, change.old_item_id)
    written = conn.execute(
        insert(Change).values(
            kind=change.kind,
            old_decision_id=change.old_decision_id,
            old_item_id=change.old_item_id,
            new_decision_id=change.new_decision_id,
            capture_id=change.capture_id,
            line_start=change.line_start,
            line_end=change.line_end,
            evidence=change.evidence,
            reason=change.reason,
            strength=change.strength,
            confidence=change.confidence,
            model_version=change.model_version,
            status="proposed",
            previous_status=previous,
            created_at=now,
        )
    )
    change_id = new_id(written)
    if change.strength == "strong":
        decide(conn, change_id, "applied", MEMO, now)
    return change_id


def _status_of(conn: Connection, kind: str, decision_id: int | None, item_id: int | None) -> str:
    table: type[Decision] | type[ActionItem]
    table, row_id, what = (
        (Decision, decision_id, "decision")
        if kind == "supersedes"
        else (ActionItem, item_id, "action item")
    )
    found = conn.execute(select(col(table.status)).where(col(table.id) == row_id)).first()
    if found is None:
        raise NotFoundError(f"no {what} {row_id}")
    return str(found[0])


def decide(conn: Connection, change_id: int, status: str, by: str, now: str) -> ChangeRecord:
    """Apply, reject or undo a change ("applied", "rejected", "undone"). Applying sets the old
    row's status; undoing puts back what it was. Applying one memo applied on its own keeps it
    and records who did."""
    change = change_by_id(conn, change_id)
    if change is None:
        raise NotFoundError(f"no change {change_id}")
    decided = {"decided_at": now, "decided_by": by}
    if not (status == "applied" and change.applied_by_memo):  # else kept as memo applied it
        allowed = {"applied": ("proposed",), "rejected": ("proposed",), "undone": ("applied",)}
        if change.status not in allowed[status]:
            raise ChangeStateError(
                f"change {change_id} is {change.status}: only a {allowed[status][0]} one can "
                f"be {'undone' if status == 'undone' else 'accepted or rejected'}"
            )
        _carry_out(conn, change, status)
        decided["status"] = status
    conn.execute(update(Change).where(col(Change.id) == change_id).values(**decided))
    found = change_by_id(conn, change_id)
    assert found is not None
    return found


def _carry_out(conn: Connection, change: ChangeRecord, status: str) -> None:
    """What applying or undoing a change does to the old row (rejecting does nothing)."""
    d, a = Decision, ActionItem
    if status == "applied" and change.kind == "supersedes":
        done = update(d).where(col(d.id) == change.old_id)
        conn.execute(done.values(status="superseded", superseded_by=change.new_decision_id))
    elif status == "applied":
        conn.execute(update(a).where(col(a.id) == change.old_id).values(status="done"))
    elif status == "undone" and change.kind == "supersedes":
        undone = update(d).where(
            col(d.id) == change.old_id,
            col(d.superseded_by).is_not_distinct_from(change.new_decision_id),
        )
        conn.execute(undone.values(status=change.previous_status, superseded_by=None))
    elif status == "undone":
        undone = update(a).where(col(a.id) == change.old_id, col(a.status) == "done")
        conn.execute(undone.values(status=change.previous_status))


def _changes() -> Select[Any]:
    """A change with both sides: the old decision or item and its meeting, the new decision,
    and the meeting the evidence is in."""
    g = Change
    od, oi, nd = aliased(Decision), aliased(ActionItem), aliased(Decision)
    oc, gc = aliased(Capture), aliased(Capture)
    return (
        select(
            *(col(getattr(g, n)) for n in ("id", "kind", "status", "strength", "reason")),
            *(col(getattr(g, n)) for n in ("evidence", "capture_id", "line_start", "line_end")),
            func.coalesce(col(g.old_decision_id), col(g.old_item_id)),
            *(col(getattr(g, n)) for n in ("new_decision_id", "previous_status", "created_at")),
            col(g.decided_at),
            col(g.decided_by),
            func.coalesce(col(od.description), col(oi.description)),
            func.coalesce(col(od.evidence_quote), col(oi.evidence_quote)),
            capture_day(oc),
            col(oc.title),
            col(nd.description),
            capture_day(gc),
            col(gc.title),
            col(g.confidence),
            col(g.model_version),
        )
        .select_from(g)
        .outerjoin(od, col(od.id) == col(g.old_decision_id))
        .outerjoin(oi, col(oi.id) == col(g.old_item_id))
        .outerjoin(oc, col(oc.id) == func.coalesce(col(od.capture_id), col(oi.capture_id)))
        .outerjoin(nd, col(nd.id) == col(g.new_decision_id))
        .join(gc, col(gc.id) == col(g.capture_id))
    )


def change_by_id(conn: Connection, change_id: int) -> ChangeRecord | None:
    row = conn.execute(_changes().where(col(Change.id) == change_id)).first()
    return ChangeRecord(*row) if row else None


def changes(conn: Connection, statuses: Sequence[str] = ()) -> list[ChangeRecord]:
    """Changes (of these statuses; all by default), newest evidence first."""
    query = _changes().order_by(col(Change.id).desc())
    if statuses:
        query = query.where(col(Change.status).in_(statuses))
    return [ChangeRecord(*r) for r in conn.execute(query)]


def open_items_before(conn: Connection, capture_id: int) -> list[OpenItem]:
    """Open action items of captures held before this one."""
    a = ActionItem
    owner = select(col(Person.name)).where(col(Person.id) == col(a.person_id)).scalar_subquery()
    day = conn.execute(select(capture_day()).where(col(Capture.id) == capture_id)).scalar()
    query = (
        select(
            col(a.id),
            col(a.capture_id),
            capture_day(),
            col(a.description),
            func.coalesce(owner, col(a.assignee_raw)),
        )
        .join(Capture, col(Capture.id) == col(a.capture_id))
        .where(
            col(a.status) == "open",
            col(a.state) != "rejected",
            _held_before(capture_id, str(day or "")),
        )
        .order_by(col(a.id))
    )
    return [OpenItem(*r) for r in conn.execute(query)]
