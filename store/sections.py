"""Living documents: an entity's sections, written by agents and edited by the user.

The user's word is final: once the user has edited a section, no agent write changes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import ColumnElement, Connection, select, update
from sqlmodel import col

from store.errors import NotFoundError
from store.expressions import insert
from store.records import SectionAuthor, SectionRecord, SectionWrite
from store.tables import Section


def write_section(
    conn: Connection,
    entity_type: str,
    entity_id: int,
    key: str,
    body: str,
    cited_fact_keys: Sequence[int],
    by: SectionAuthor,
    now: str,
) -> SectionWrite:
    """Write a section, unless an agent would overwrite the user's edit ('skipped_user_edit')
    or nothing would change ('unchanged'). A user write marks the section edited_by='user'."""
    current = conn.execute(
        select(col(Section.body), col(Section.cited_fact_keys), col(Section.edited_by)).where(
            *_the(entity_type, entity_id, key)
        )
    ).first()
    cited = [int(k) for k in cited_fact_keys]
    if current is not None:
        if by == "agent" and current.edited_by == "user":
            return "skipped_user_edit"
        if (current.body, json.loads(current.cited_fact_keys), current.edited_by) == (
            body,
            cited,
            by,
        ):
            return "unchanged"
    written = {"body": body, "cited_fact_keys": json.dumps(cited), "edited_by": by}
    conn.execute(
        insert(Section)
        .values(entity_type=entity_type, entity_id=entity_id, key=key, updated_at=now, **written)
        .on_conflict_do_update(
            index_elements=["entity_type", "entity_id", "key"],
            set_={**written, "updated_at": now},
        )
    )
    return "written"


def sections(conn: Connection, entity_type: str, entity_id: int) -> list[SectionRecord]:
    """An entity's sections in the order they were first written."""
    rows = conn.execute(
        select(Section)
        .where(col(Section.entity_type) == entity_type, col(Section.entity_id) == entity_id)
        .order_by(col(Section.id))
    )
    return [
        SectionRecord(r.key, r.body, json.loads(r.cited_fact_keys), r.edited_by, r.updated_at)
        for r in rows
    ]


def reset_section(conn: Connection, entity_type: str, entity_id: int, key: str, now: str) -> bool:
    """Give a section the user edited back to the agents: its text stays until an agent
    rewrites it. False when it was the agents' already; NotFoundError when there is none."""
    the = _the(entity_type, entity_id, key)
    edited_by = conn.execute(select(col(Section.edited_by)).where(*the)).scalar()
    if edited_by is None:
        raise NotFoundError(f"no section {key!r}")
    if edited_by != "user":
        return False
    conn.execute(update(Section).where(*the).values(edited_by="agent", updated_at=now))
    return True


def _the(entity_type: str, entity_id: int, key: str) -> tuple[ColumnElement[bool], ...]:
    """The conditions that pick one section."""
    return (
        col(Section.entity_type) == entity_type,
        col(Section.entity_id) == entity_id,
        col(Section.key) == key,
    )
