"""Durable agent runs: sessions, their steps, tool calls, events and the human's decisions.

Each row is written as it happens, so a late viewer can replay a run from an event's seq and
a run cut off by a crash can resume from its last finished step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Select, case, func, select, update
from sqlmodel import col

from store.errors import NotFoundError
from store.expressions import insert, new_id
from store.records import (
    RunRecord,
    RunStatus,
)
from store.tables import (
    AgentSession,
    AgentStep,
    AgentToolCall,
    Client,
    Person,
    Project,
)

# A run in one of these states is over: it has a finished_at.
FINISHED: tuple[RunStatus, ...] = ("completed", "failed", "interrupted")


def _run_select() -> Select[Any]:
    """A run with its entity's current name and how many steps, tool calls and repair
    turns it took."""
    s = AgentSession
    steps_of = select(func.count()).where(col(AgentStep.session_id) == col(s.id))
    calls_of = select(func.count()).where(col(AgentToolCall.session_id) == col(s.id))
    name_of = {
        kind: select(col(table.name)).where(col(table.id) == col(s.entity_id)).scalar_subquery()
        for kind, table in (("person", Person), ("project", Project), ("client", Client))
    }
    return select(
        col(s.id),
        col(s.agent_type),
        col(s.entity_type),
        col(s.entity_id),
        case(*((col(s.entity_type) == k, n) for k, n in name_of.items())),
        col(s.status),
        col(s.model),
        col(s.spec_json),
        col(s.error),
        col(s.input_tokens),
        col(s.output_tokens),
        col(s.cost_microdollars),
        col(s.started_at),
        col(s.finished_at),
        steps_of.scalar_subquery(),
        calls_of.scalar_subquery(),
        steps_of.where(col(AgentStep.kind) == "repair").scalar_subquery(),
    )


def _run_record(r: Sequence[Any]) -> RunRecord:
    return RunRecord(
        id=int(r[0]),
        agent_type=str(r[1]),
        entity_type=r[2],
        entity_id=r[3],
        entity_name=r[4],
        status=str(r[5]),
        model=r[6],
        spec_json=str(r[7]),
        error=r[8],
        input_tokens=int(r[9]),
        output_tokens=int(r[10]),
        cost_microdollars=int(r[11]),
        started_at=str(r[12]),
        finished_at=r[13],
        steps=int(r[14]),
        tool_calls=int(r[15]),
        repair_turns=int(r[16]),
    )


def must_change(rowcount: int | None, what: str) -> None:
    if not rowcount:
        raise NotFoundError(f"{what} no longer exists")


# Runs


def start_run(
    conn: Connection,
    agent_type: str,
    entity_type: str | None,
    entity_id: int | None,
    model: str | None,
    spec_json: str,
    now: str,
) -> int:
    row = conn.execute(
        insert(AgentSession).values(
            agent_type=agent_type,
            entity_type=entity_type,
            entity_id=entity_id,
            status="running",
            model=model,
            spec_json=spec_json,
            started_at=now,
        )
    )
    return new_id(row)


def set_run_status(
    conn: Connection, run_id: int, status: RunStatus, error: str | None, now: str
) -> None:
    """A run's new status and error (None clears it). A finished run gets its finished_at;
    a run going on again (resumed) loses it."""
    finished_at = now if status in FINISHED else None
    _set_run(conn, run_id, status=status, error=error, finished_at=finished_at)


def claim_run(conn: Connection, run_id: int, spec_json: str) -> bool:
    """An interrupted or failed run is this process's to go on with (status running, its
    spec recording the process): False when another process claimed it first."""
    s = AgentSession
    changed = conn.execute(
        update(s)
        .where(col(s.id) == run_id, col(s.status).in_(("interrupted", "failed")))
        .values(status="running", error=None, finished_at=None, spec_json=spec_json)
    )
    return bool(changed.rowcount)


def interrupt_run(conn: Connection, run_id: int, error: str, now: str) -> bool:
    """A live run (running, or waiting for the user) whose process is gone becomes
    interrupted, its unfinished steps and tool calls too; False when it was not live
    (it finished meanwhile, or another process marked it first)."""
    s = AgentSession
    changed = conn.execute(
        update(s)
        .where(col(s.id) == run_id, col(s.status).in_(("running", "waiting_for_user")))
        .values(status="interrupted", error=error, finished_at=now)
    )
    if not changed.rowcount:
        return False
    for table in (AgentStep, AgentToolCall):
        conn.execute(
            update(table)
            .where(col(table.status) == "running", col(table.session_id) == run_id)
            .values(status="interrupted")
        )
    return True


def set_run_spec(conn: Connection, run_id: int, spec_json: str) -> None:
    """A run's spec again (a resumed run records the process that now runs it)."""
    _set_run(conn, run_id, spec_json=spec_json)


def add_run_usage(
    conn: Connection, run_id: int, input_tokens: int, output_tokens: int, cost_microdollars: int
) -> None:
    s = AgentSession
    _set_run(
        conn,
        run_id,
        input_tokens=col(s.input_tokens) + input_tokens,
        output_tokens=col(s.output_tokens) + output_tokens,
        cost_microdollars=col(s.cost_microdollars) + cost_microdollars,
    )


def _set_run(conn: Connection, run_id: int, **values: Any) -> None:
    changed = conn.execute(
        update(AgentSession).where(col(AgentSession.id) == run_id).values(**values)
    )
    must_change(changed.rowcount, f"run {run_id}")


def run(conn: Connection, run_id: int) -> RunRecord | None:
    row = conn.execute(_run_select().where(col(AgentSession.id) == run_id)).first()
    return None if row is None else _run_record(row)


def runs(conn: Connection, limit: int) -> list[RunRecord]:
    """The latest runs, newest first."""
    rows = conn.execute(_run_select().order_by(col(AgentSession.id).desc()).limit(limit))
    return [_run_record(r) for r in rows]


def mark_interrupted(conn: Connection, now: str) -> list[int]:
    """Every live run becomes interrupted, its unfinished steps and tool calls too (they keep
    no finished_at: they never finished). Returns the runs' ids."""
    ids = conn.execute(
        update(AgentSession)
        .where(col(AgentSession.status).in_(("running", "waiting_for_user")))
        .values(status="interrupted", finished_at=now)
        .returning(col(AgentSession.id))
    ).scalars()
    interrupted = sorted(ids)
    for table in (AgentStep, AgentToolCall):
        conn.execute(
            update(table)
            .where(col(table.status) == "running", col(table.session_id).in_(interrupted))
            .values(status="interrupted")
        )
    return interrupted
