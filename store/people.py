"""People and the names that stand for them: aliases, meeting attendance, pending mentions.

Deciding who a name means is core's business (memo_tui.core.entities); the store keeps the
answers and applies them atomically: a capture's new people, aliases and links land in the
capture's own transaction, and a confirmation back-fills every waiting fact in one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, text

from store.records import (
    AliasRow,
    Backfill,
    Directory,
    NewCapture,
    PendingMention,
    PersonRef,
    PersonRow,
    PersonSummary,
)


def directory(conn: Connection) -> Directory:
    def rows(table: str) -> list[PersonRow]:
        found = conn.execute(text(f"SELECT id, name FROM {table} ORDER BY id")).all()
        return [PersonRow(int(i), str(n)) for i, n in found]

    aliases = conn.execute(
        text(
            "SELECT entity_type, entity_id, alias, confidence, auto_resolved, confirmed_by "
            "FROM entity_aliases ORDER BY id"
        )
    ).all()
    return Directory(
        people=rows("people"),
        projects=rows("projects"),
        clients=rows("clients"),
        aliases=[AliasRow(t, i, a, float(c), bool(auto), by) for t, i, a, c, auto, by in aliases],
    )


def person_by_name(conn: Connection, name: str) -> int | None:
    found = conn.execute(
        text("SELECT id FROM people WHERE name = :n COLLATE NOCASE ORDER BY id LIMIT 1"),
        {"n": name.strip()},
    ).scalar()
    return int(found) if found is not None else None


def add_person(conn: Connection, name: str, now: str) -> int:
    """The person with this exact name (any case), created if new."""
    found = person_by_name(conn, name)
    if found is not None:
        return found
    return int(
        conn.execute(
            text("INSERT INTO people (name, created_at) VALUES (:n, :now)"),
            {"n": name.strip(), "now": now},
        ).lastrowid
    )


def apply_names(conn: Connection, capture_id: int, new: NewCapture) -> dict[str, int]:
    """Create the capture's new people, record who attended, cache its aliases, link the
    projects it is about.

    Returns the id of every new person by name, for resolving the facts' PersonRefs.
    """
    now = new.provenance.captured_at
    created = {name: add_person(conn, name, now) for name in new.new_people}
    for person, name in new.renames:
        conn.execute(text("UPDATE people SET name = :n WHERE id = :p"), {"n": name, "p": person})
    conn.execute(text("DELETE FROM capture_people WHERE capture_id = :c"), {"c": capture_id})
    attended = [{"c": capture_id, "p": person_id(ref, created)} for ref in new.attendees]
    if attended:
        conn.execute(
            text("INSERT OR IGNORE INTO capture_people (capture_id, person_id) VALUES (:c, :p)"),
            attended,
        )
    if new.stale_aliases:
        conn.execute(
            text(
                "DELETE FROM entity_aliases WHERE entity_type = 'person' AND auto_resolved = 1 "
                "AND alias = :a"
            ),
            [{"a": stale} for stale in new.stale_aliases],
        )
    for alias in new.aliases:
        entity = None if alias.person is None else person_id(alias.person, created)
        put_alias(
            conn,
            "person",
            alias.alias,
            entity,
            alias.confidence,
            alias.auto_resolved,
            now,
            alias.confirmed_by,
        )
    conn.execute(
        text("DELETE FROM capture_projects WHERE capture_id = :c AND linked_by = 'capture'"),
        {"c": capture_id},
    )
    if new.project_ids:
        conn.execute(
            text(
                "INSERT OR IGNORE INTO capture_projects (capture_id, project_id, linked_by, "
                "created_at) VALUES (:c, :p, 'capture', :now)"
            ),
            [{"c": capture_id, "p": project, "now": now} for project in new.project_ids],
        )
    return created


def person_id(ref: PersonRef | None, created: dict[str, int]) -> int | None:
    if ref is None or isinstance(ref, int):
        return ref
    return created[ref]


def confirm(
    conn: Connection,
    entity_type: str,
    mention: str,
    entity_id: int | None,
    user: str,
    now: str,
    capture_ids: Sequence[int] | None = None,
    spellings: Sequence[str] = (),
    remember: bool | None = None,
) -> Backfill:
    """The user's word: `mention` is entity `entity_id` (None: none of the candidates).
    `spellings`: other raw forms of the same name ("José" for "Jose") to settle too.

    Store-wide, it becomes a confidence-1.0 alias and settles every fact waiting on that raw
    name. Given `capture_ids`, it settles only those meetings' facts and makes no alias (two
    Sams in a room can each be "Sam"), unless `remember` says to write it all the same.
    """
    mention = mention.strip()
    if remember if remember is not None else capture_ids is None:
        put_alias(conn, entity_type, mention, entity_id, 1.0, False, now, user)
    if entity_type != "person":
        return Backfill(0, 0)
    scope = "" if capture_ids is None else " AND capture_id IN (SELECT value FROM json_each(:ids))"
    counts = []
    for table, column in (("action_items", "assignee_raw"), ("decisions", "decided_by")):
        result = conn.execute(
            text(
                f"UPDATE {table} SET person_id = :p, pending = 0 WHERE pending = 1 "
                f"AND trim({column}) COLLATE NOCASE IN (SELECT value FROM json_each(:m)){scope}"
            ),
            {
                "p": entity_id,
                "m": json.dumps([mention, *spellings]),
                "ids": json.dumps(list(capture_ids or [])),
            },
        )
        counts.append(int(result.rowcount or 0))
    return Backfill(action_items=counts[0], decisions=counts[1])


def settle(
    conn: Connection,
    entity_id: int | None,
    action_item_ids: Sequence[int],
    decision_ids: Sequence[int],
) -> Backfill:
    """The user's word on single facts: these waiting action items and decisions are
    `entity_id`'s (None: nobody memo knows). No alias is written: two Sams in a room can
    each be "Sam", item by item."""
    counts = []
    for table, ids in (("action_items", action_item_ids), ("decisions", decision_ids)):
        result = conn.execute(
            text(
                f"UPDATE {table} SET person_id = :p, pending = 0 "
                "WHERE pending = 1 AND id IN (SELECT value FROM json_each(:ids))"
            ),
            {"p": entity_id, "ids": json.dumps(list(ids))},
        )
        counts.append(int(result.rowcount or 0))
    return Backfill(action_items=counts[0], decisions=counts[1])


# Each person with their aliases (a JSON array) and counts; the people rollup uses it too.
PERSON_COUNTS = """
SELECT p.id AS id, p.name AS name,
    (SELECT json_group_array(alias) FROM (SELECT alias FROM entity_aliases
     WHERE entity_type = 'person' AND entity_id = p.id ORDER BY alias)) AS aliases,
    (SELECT count(*) FROM action_items a WHERE a.person_id = p.id
     AND a.status = 'open') AS open_action_items,
    (SELECT count(*) FROM decisions d WHERE d.person_id = p.id) AS decisions,
    (SELECT count(*) FROM capture_people cp WHERE cp.person_id = p.id) AS meetings
FROM people p"""


def summaries(conn: Connection) -> list[PersonSummary]:
    rows = conn.execute(text(f"{PERSON_COUNTS} ORDER BY p.name COLLATE NOCASE, p.id")).all()
    return [
        PersonSummary(int(r[0]), r[1], json.loads(r[2]), int(r[3]), int(r[4]), int(r[5]))
        for r in rows
    ]


def pending_mentions(conn: Connection) -> list[PendingMention]:
    rows = conn.execute(
        text(
            "SELECT mention, sum(kind = 'a'), sum(kind = 'd'), "
            "json_group_array(DISTINCT capture_id) FROM ("
            " SELECT trim(assignee_raw) AS mention, 'a' AS kind, capture_id FROM action_items"
            " WHERE pending = 1 UNION ALL"
            " SELECT trim(decided_by), 'd', capture_id FROM decisions WHERE pending = 1"
            ") GROUP BY mention COLLATE NOCASE ORDER BY min(capture_id), mention"
        )
    ).all()
    return [PendingMention(str(m), int(a), int(d), sorted(json.loads(c))) for m, a, d, c in rows]


def attendees(conn: Connection, capture_ids: Sequence[int]) -> list[int]:
    """Everyone who attended any of these captures."""
    rows = conn.execute(
        text(
            "SELECT DISTINCT person_id FROM capture_people "
            "WHERE capture_id IN (SELECT value FROM json_each(:ids)) ORDER BY person_id"
        ),
        {"ids": json.dumps(list(capture_ids))},
    ).all()
    return [int(r[0]) for r in rows]


def put_alias(
    conn: Connection,
    entity_type: str,
    alias: str,
    entity_id: int | None,
    confidence: float,
    auto_resolved: bool,
    now: str,
    confirmed_by: str | None = None,
) -> None:
    """Remember what a name stands for. A guess never overwrites an alias already known;
    the user's word always does."""
    values = (
        "(entity_type, entity_id, alias, confidence, auto_resolved, confirmed_by, created_at) "
        "VALUES (:t, :e, :a, :c, :auto, :by, :now)"
    )
    conflict = (
        "ON CONFLICT (entity_type, alias) DO NOTHING"
        if auto_resolved
        else "ON CONFLICT (entity_type, alias) DO UPDATE SET entity_id = excluded.entity_id, "
        "confidence = excluded.confidence, auto_resolved = 0, "
        "confirmed_by = excluded.confirmed_by, created_at = excluded.created_at"
    )
    conn.execute(
        text(f"INSERT INTO entity_aliases {values} {conflict}"),
        {
            "t": entity_type,
            "e": entity_id,
            "a": alias.strip(),
            "c": confidence,
            "auto": int(auto_resolved),
            "by": confirmed_by,
            "now": now,
        },
    )


def unlinked_captures(conn: Connection) -> list[int]:
    """Captures no one was linked to: stored before people existed (schema 3), or whose
    speakers are all roles."""
    rows = conn.execute(
        text(
            "SELECT id FROM captures WHERE id NOT IN (SELECT capture_id FROM capture_people) "
            "ORDER BY coalesce(occurred_at, captured_at), id"
        )
    ).all()
    return [int(r[0]) for r in rows]


def relink(
    conn: Connection,
    capture_id: int,
    new: NewCapture,
    decision_ids: Sequence[int],
    action_ids: Sequence[int],
    changing: Sequence[tuple[str, int]],
) -> dict[str, int]:
    """Apply names worked out afresh to a stored capture: its roster, new people and
    aliases, and the links of the facts in `changing` ((table, id)). Returns the id each
    new person got, by name."""
    created = apply_names(conn, capture_id, new)
    links = [
        ("decisions", i, d.person, d.pending)
        for i, d in zip(decision_ids, new.decisions, strict=True)
    ]
    links += [
        ("action_items", i, a.person, a.pending)
        for i, a in zip(action_ids, new.action_items, strict=True)
    ]
    for table, row_id, ref, pending in links:
        if (table, row_id) not in changing:
            continue
        person = person_id(ref, created)
        conn.execute(
            text(f"UPDATE {table} SET person_id = :p, pending = :w WHERE id = :id"),
            {"p": person, "w": int(person is None and pending), "id": row_id},
        )
    return created
