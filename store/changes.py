"""Changes across meetings: a decision superseded by a later one, an action item closed by
later evidence. Applied changes set the old row's status (and keep what it was, for undo);
proposed ones wait for the user. Deleting the evidence takes an applied change back (a
trigger, see migration 15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text

from store.errors import ChangeStateError, NotFoundError
from store.records import ChangeRecord, HistoryDecision, NewChange, OpenItem
from store.records.history import MEMO

_DECISION = """
SELECT d.id, d.capture_id, coalesce(c.occurred_at, substr(c.captured_at, 1, 10)), c.captured_at,
       d.description, coalesce(d.evidence_quote, ''), d.subject, d.status,
       (SELECT group_concat(project_id) FROM capture_projects p WHERE p.capture_id = c.id)
FROM decisions d JOIN captures c ON c.id = d.capture_id
"""


def _history(row: Sequence[Any]) -> HistoryDecision:
    projects = tuple(int(p) for p in str(row[8]).split(",")) if row[8] else ()
    return HistoryDecision(
        id=row[0],
        capture_id=row[1],
        day=row[2],
        captured_at=row[3],
        description=row[4],
        quote=row[5],
        subject=row[6],
        status=row[7],
        project_ids=projects,
    )


def capture_decisions(conn: Connection, capture_id: int) -> list[HistoryDecision]:
    rows = conn.execute(
        text(f"{_DECISION} WHERE d.capture_id = :c ORDER BY d.id"), {"c": capture_id}
    ).all()
    return [_history(r) for r in rows]


def earlier_current_decisions(
    conn: Connection, capture_id: int, day: str, limit: int
) -> list[HistoryDecision]:
    """Current decisions of other captures held before this one: an earlier day, or the same
    day and captured before it (a meeting's chat after its transcript). Latest first."""
    rows = conn.execute(
        text(
            f"{_DECISION} WHERE d.status = 'current' AND d.capture_id != :c "
            "AND (coalesce(c.occurred_at, substr(c.captured_at, 1, 10)) < :day "
            "OR (coalesce(c.occurred_at, substr(c.captured_at, 1, 10)) = :day AND c.id < :c)) "
            "ORDER BY coalesce(c.occurred_at, substr(c.captured_at, 1, 10)) DESC, d.id DESC "
            "LIMIT :limit"
        ),
        {"c": capture_id, "day": day, "limit": limit},
    ).all()
    return [_history(r) for r in rows]


def decision_subjects(conn: Connection) -> list[str]:
    """Every decision's subject words (how rare a word is among decisions)."""
    return [r[0] for r in conn.execute(text("SELECT subject FROM decisions"))]


def add_change(conn: Connection, change: NewChange, now: str) -> int:
    """Record a change; an applied one takes effect in the same transaction. A change already
    recorded (the same old and new rows) is left as it is; its id is returned."""
    same = conn.execute(
        text(
            "SELECT id FROM changes WHERE kind = :kind AND old_decision_id IS :od "
            "AND old_item_id IS :oi AND new_decision_id IS :nd AND capture_id = :c"
        ),
        {
            "kind": change.kind,
            "od": change.old_decision_id,
            "oi": change.old_item_id,
            "nd": change.new_decision_id,
            "c": change.capture_id,
        },
    ).first()
    if same is not None:
        return int(same[0])
    previous = _status_of(conn, change.kind, change.old_decision_id, change.old_item_id)
    written = conn.execute(
        text(
            "INSERT INTO changes (kind, old_decision_id, old_item_id, new_decision_id, "
            "capture_id, line_start, line_end, evidence, reason, strength, status, "
            "previous_status, created_at, decided_at, decided_by) VALUES (:kind, :od, :oi, :nd, "
            ":c, :ls, :le, :evidence, :reason, :strength, 'proposed', :previous, :now, NULL, NULL)"
        ),
        {
            "kind": change.kind,
            "od": change.old_decision_id,
            "oi": change.old_item_id,
            "nd": change.new_decision_id,
            "c": change.capture_id,
            "ls": change.line_start,
            "le": change.line_end,
            "evidence": change.evidence,
            "reason": change.reason,
            "strength": change.strength,
            "previous": previous,
            "now": now,
        },
    )
    change_id = int(written.lastrowid)
    if change.strength == "strong":
        decide(conn, change_id, "applied", MEMO, now)
    return change_id


def _status_of(conn: Connection, kind: str, decision_id: int | None, item_id: int | None) -> str:
    table, row_id = (
        ("decisions", decision_id) if kind == "supersedes" else ("action_items", item_id)
    )
    found = conn.execute(text(f"SELECT status FROM {table} WHERE id = :i"), {"i": row_id}).first()
    if found is None:
        raise NotFoundError(f"no {table[:-1].replace('_', ' ')} {row_id}")
    return str(found[0])


def _confirmed(conn: Connection, change_id: int, by: str, now: str) -> ChangeRecord:
    conn.execute(
        text("UPDATE changes SET decided_at = :now, decided_by = :by WHERE id = :i"),
        {"now": now, "by": by, "i": change_id},
    )
    found = change_by_id(conn, change_id)
    assert found is not None
    return found


def decide(conn: Connection, change_id: int, status: str, by: str, now: str) -> ChangeRecord:
    """Apply, reject or undo a change ("applied", "rejected", "undone"). Applying sets the old
    row's status; undoing puts back what it was. Applying one memo applied on its own keeps it
    and records who did."""
    change = change_by_id(conn, change_id)
    if change is None:
        raise NotFoundError(f"no change {change_id}")
    if status == "applied" and change.applied_by_memo:
        return _confirmed(conn, change_id, by, now)  # kept as memo applied it
    allowed = {"applied": ("proposed",), "rejected": ("proposed",), "undone": ("applied",)}
    if change.status not in allowed[status]:
        raise ChangeStateError(
            f"change {change_id} is {change.status}: only a {allowed[status][0]} one can be "
            f"{'undone' if status == 'undone' else 'accepted or rejected'}"
        )
    if status == "applied" and change.kind == "supersedes":
        conn.execute(
            text("UPDATE decisions SET status = 'superseded', superseded_by = :n WHERE id = :o"),
            {"n": change.new_decision_id, "o": change.old_id},
        )
    elif status == "applied":
        conn.execute(
            text("UPDATE action_items SET status = 'done' WHERE id = :o"), {"o": change.old_id}
        )
    elif status == "undone" and change.kind == "supersedes":
        conn.execute(
            text(
                "UPDATE decisions SET status = :was, superseded_by = NULL "
                "WHERE id = :o AND superseded_by IS :n"
            ),
            {"was": change.previous_status, "o": change.old_id, "n": change.new_decision_id},
        )
    elif status == "undone":
        conn.execute(
            text("UPDATE action_items SET status = :was WHERE id = :o AND status = 'done'"),
            {"was": change.previous_status, "o": change.old_id},
        )
    conn.execute(
        text("UPDATE changes SET status = :s, decided_at = :now, decided_by = :by WHERE id = :i"),
        {"s": status, "now": now, "by": by, "i": change_id},
    )
    found = change_by_id(conn, change_id)
    assert found is not None
    return found


_CHANGE = """
SELECT g.id, g.kind, g.status, g.strength, g.reason, g.evidence, g.capture_id, g.line_start,
       g.line_end, coalesce(g.old_decision_id, g.old_item_id), g.new_decision_id,
       g.previous_status, g.created_at, g.decided_at, g.decided_by,
       coalesce(od.description, oi.description), coalesce(od.evidence_quote, oi.evidence_quote),
       coalesce(oc.occurred_at, substr(oc.captured_at, 1, 10)), oc.title,
       nd.description, coalesce(gc.occurred_at, substr(gc.captured_at, 1, 10)), gc.title
FROM changes g
LEFT JOIN decisions od ON od.id = g.old_decision_id
LEFT JOIN action_items oi ON oi.id = g.old_item_id
LEFT JOIN captures oc ON oc.id = coalesce(od.capture_id, oi.capture_id)
LEFT JOIN decisions nd ON nd.id = g.new_decision_id
JOIN captures gc ON gc.id = g.capture_id
"""


def _record(r: Sequence[Any]) -> ChangeRecord:
    return ChangeRecord(*r)


def change_by_id(conn: Connection, change_id: int) -> ChangeRecord | None:
    row = conn.execute(text(f"{_CHANGE} WHERE g.id = :i"), {"i": change_id}).first()
    return _record(row) if row else None


def changes(conn: Connection, statuses: Sequence[str] = ()) -> list[ChangeRecord]:
    """Changes (of these statuses; all by default), newest evidence first."""
    where = ""
    params: dict[str, Any] = {}
    if statuses:
        where = " WHERE g.status IN (" + ", ".join(f":s{i}" for i in range(len(statuses))) + ")"
        params = {f"s{i}": s for i, s in enumerate(statuses)}
    rows = conn.execute(text(f"{_CHANGE}{where} ORDER BY g.id DESC"), params).all()
    return [_record(r) for r in rows]


def open_items_before(conn: Connection, capture_id: int) -> list[OpenItem]:
    """Open action items of captures held before this one (an earlier day, or the same day
    and captured before it)."""
    rows = conn.execute(
        text(
            "SELECT a.id, a.capture_id, coalesce(c.occurred_at, substr(c.captured_at, 1, 10)), "
            "a.description, coalesce((SELECT name FROM people p WHERE p.id = a.person_id), "
            "a.assignee_raw) "
            "FROM action_items a JOIN captures c ON c.id = a.capture_id "
            "WHERE a.status = 'open' AND a.capture_id != :c AND "
            "(coalesce(c.occurred_at, substr(c.captured_at, 1, 10)) < :day OR "
            "(coalesce(c.occurred_at, substr(c.captured_at, 1, 10)) = :day AND c.id < :c)) "
            "ORDER BY a.id"
        ),
        {"c": capture_id, "day": _day(conn, capture_id)},
    ).all()
    return [OpenItem(*r) for r in rows]


def _day(conn: Connection, capture_id: int) -> str:
    found = conn.execute(
        text(
            "SELECT coalesce(occurred_at, substr(captured_at, 1, 10)) FROM captures WHERE id = :c"
        ),
        {"c": capture_id},
    ).scalar()
    return str(found or "")
