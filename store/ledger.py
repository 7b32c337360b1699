"""The cost ledger: one `llm_calls` row per model call, and summaries of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from sqlalchemy import Connection, Label, case, func, select, update
from sqlmodel import col

from store.expressions import columns, insert, new_id
from store.tables import LlmCall


@dataclass(frozen=True)
class LLMCallRow:
    provider: str
    model: str
    trigger: str
    status: str
    input_tokens: int
    output_tokens: int
    cost_microdollars: int
    latency_ms: int
    error: str | None
    capture_id: int | None
    run_id: int | None
    created_at: str


@dataclass(frozen=True)
class CostLine:
    """One group of a summary (a day, a trigger or a model)."""

    key: str
    calls: int
    failed: int
    input_tokens: int
    output_tokens: int
    cost_microdollars: int


def record_call(conn: Connection, row: LLMCallRow) -> int:
    return new_id(conn.execute(insert(LlmCall).values(**vars(row))))


def calls(conn: Connection) -> list[LLMCallRow]:
    """Every call, oldest first."""
    names = " ".join(f.name for f in fields(LLMCallRow))
    rows = conn.execute(select(*columns(LlmCall, names)).order_by(col(LlmCall.id)))
    return [LLMCallRow(*row) for row in rows]


def attach_calls(conn: Connection, call_ids: Sequence[int], capture_id: int) -> None:
    conn.execute(
        update(LlmCall).where(col(LlmCall.id).in_(list(call_ids))).values(capture_id=capture_id)
    )


def _key(by: str) -> Label[str]:
    """What a summary groups by: the day, the trigger or provider:model."""
    if by == "day":
        return func.substr(col(LlmCall.created_at), 1, 10).label("key")
    if by == "trigger":
        return col(LlmCall.trigger).label("key")
    return col(LlmCall.provider).concat(":").concat(col(LlmCall.model)).label("key")


def summarize(conn: Connection, by: str, since: str | None = None) -> list[CostLine]:
    """Calls, tokens and cost grouped by day, trigger or model (newest day first)."""
    c = LlmCall
    key = _key(by)
    calls = func.count().label("calls")
    cost = func.sum(col(c.cost_microdollars)).label("cost")
    failed = func.sum(case((col(c.status) != "ok", 1), else_=0))
    query = select(
        key, calls, failed, func.sum(col(c.input_tokens)), func.sum(col(c.output_tokens)), cost
    ).group_by(key)
    if since is not None:
        query = query.where(col(c.created_at) >= since)
    order = (key.desc(),) if by == "day" else (cost.desc(), calls.desc())
    rows = conn.execute(query.order_by(*order)).all()
    return [
        CostLine(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows
    ]
