"""Living documents: an entity's sections, written by agents and edited by the user.

The user's word is final: once the user has edited a section, no agent write changes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, text

from store.errors import NotFoundError
from store.records import SectionAuthor, SectionRecord, SectionWrite


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
    where = {"t": entity_type, "e": entity_id, "k": key}
    current = conn.execute(
        text(
            "SELECT body, cited_fact_keys, edited_by FROM sections "
            "WHERE entity_type = :t AND entity_id = :e AND key = :k"
        ),
        where,
    ).first()
    cited = [int(k) for k in cited_fact_keys]
    if current is not None:
        if by == "agent" and current[2] == "user":
            return "skipped_user_edit"
        if (current[0], json.loads(current[1]), current[2]) == (body, cited, by):
            return "unchanged"
    conn.execute(
        text(
            "INSERT INTO sections (entity_type, entity_id, key, body, cited_fact_keys, "
            "edited_by, updated_at) VALUES (:t, :e, :k, :body, :cited, :by, :now) "
            "ON CONFLICT (entity_type, entity_id, key) DO UPDATE SET body = excluded.body, "
            "cited_fact_keys = excluded.cited_fact_keys, edited_by = excluded.edited_by, "
            "updated_at = excluded.updated_at"
        ),
        where | {"body": body, "cited": json.dumps(cited), "by": by, "now": now},
    )
    return "written"


def sections(conn: Connection, entity_type: str, entity_id: int) -> list[SectionRecord]:
    """An entity's sections in the order they were first written."""
    rows = conn.execute(
        text(
            "SELECT key, body, cited_fact_keys, edited_by, updated_at FROM sections "
            "WHERE entity_type = :t AND entity_id = :e ORDER BY id"
        ),
        {"t": entity_type, "e": entity_id},
    )
    return [
        SectionRecord(str(k), str(b), json.loads(c), str(by), str(u)) for k, b, c, by, u in rows
    ]


def reset_section(conn: Connection, entity_type: str, entity_id: int, key: str, now: str) -> bool:
    """Give a section the user edited back to the agents: its text stays until an agent
    rewrites it. False when it was the agents' already; NotFoundError when there is none."""
    where = {"t": entity_type, "e": entity_id, "k": key}
    edited_by = conn.execute(
        text(
            "SELECT edited_by FROM sections WHERE entity_type = :t AND entity_id = :e AND key = :k"
        ),
        where,
    ).scalar()
    if edited_by is None:
        raise NotFoundError(f"no section {key!r}")
    if edited_by != "user":
        return False
    conn.execute(
        text(
            "UPDATE sections SET edited_by = 'agent', updated_at = :now "
            "WHERE entity_type = :t AND entity_id = :e AND key = :k"
        ),
        where | {"now": now},
    )
    return True
