"""Two people who are one, and back: a merge moves everything one person has to the other
in one transaction, and remembers what it moved, so a split puts it all back."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, insert, select, text, update
from sqlmodel import col

from store.errors import MergeError
from store.people import put_alias
from store.records import PersonMerge
from store.tables import Merge, Person, Section

_SECTIONS = "SELECT {what} FROM sections WHERE entity_type = 'person' AND entity_id = :m"
# What a merge moves from person :m to person :k, each remembered by these keys.
_OWNED = {
    "decisions": "SELECT id FROM decisions WHERE person_id = :m",
    "action_items": "SELECT id FROM action_items WHERE person_id = :m",
    "meetings": "SELECT capture_id FROM capture_people WHERE person_id = :m",
    "shared": "SELECT capture_id FROM capture_people WHERE person_id = :m AND capture_id IN "
    "(SELECT capture_id FROM capture_people WHERE person_id = :k)",
    "aliases": "SELECT id FROM entity_aliases WHERE entity_type = 'person' AND entity_id = :m",
    "addresses": "SELECT address FROM person_addresses WHERE person_id = :m",
    "proposed": "SELECT address FROM person_addresses WHERE proposed_person_id = :m",
    "sections": _SECTIONS.format(what="id")
    + " AND key NOT IN (SELECT key FROM sections WHERE entity_type = 'person' AND entity_id = :k)",
}
_MOVE = (
    "UPDATE decisions SET person_id = :k WHERE person_id = :m",
    "UPDATE action_items SET person_id = :k WHERE person_id = :m",
    "INSERT OR IGNORE INTO capture_people (capture_id, person_id) "
    "SELECT capture_id, :k FROM capture_people WHERE person_id = :m",
    "UPDATE entity_aliases SET entity_id = :k WHERE entity_type = 'person' AND entity_id = :m",
    "UPDATE person_addresses SET person_id = :k WHERE person_id = :m",
    "UPDATE person_addresses SET proposed_person_id = :k WHERE proposed_person_id = :m",
    # The kept person's own sections stay; the merged one's are kept aside for a split.
    "DELETE FROM sections WHERE entity_type = 'person' AND entity_id = :m AND key IN "
    "(SELECT key FROM sections WHERE entity_type = 'person' AND entity_id = :k)",
    "UPDATE sections SET entity_id = :k WHERE entity_type = 'person' AND entity_id = :m",
    "DELETE FROM people WHERE id = :m",
)
_IN = "IN (SELECT value FROM json_each(:ids))"
# What a split moves back from :k to the restored person :b, by what the merge remembered.
_BACK = (
    (f"UPDATE decisions SET person_id = :b WHERE person_id = :k AND id {_IN}", "decisions"),
    (f"UPDATE action_items SET person_id = :b WHERE person_id = :k AND id {_IN}", "action_items"),
    (
        "INSERT OR IGNORE INTO capture_people (capture_id, person_id) "
        "SELECT value, :b FROM json_each(:ids)",
        "meetings",
    ),
    (f"DELETE FROM capture_people WHERE person_id = :k AND capture_id {_IN}", "only_theirs"),
    (
        "UPDATE entity_aliases SET entity_id = :b "
        f"WHERE entity_type = 'person' AND entity_id = :k AND id {_IN}",
        "aliases",
    ),
    (f"DELETE FROM entity_aliases WHERE id {_IN}", "name_alias"),
    (
        f"UPDATE person_addresses SET person_id = :b WHERE person_id = :k AND address {_IN}",
        "addresses",
    ),
    (
        "UPDATE person_addresses SET proposed_person_id = :b "
        f"WHERE proposed_person_id = :k AND address {_IN}",
        "proposed",
    ),
    (
        "UPDATE sections SET entity_id = :b "
        f"WHERE entity_type = 'person' AND entity_id = :k AND id {_IN}",
        "sections",
    ),
)


def _names(conn: Connection, merged: int, kept: int) -> dict[int, tuple[str, str | None, str]]:
    rows = conn.execute(
        text("SELECT id, name, email, created_at FROM people WHERE id IN (:m, :k)"),
        {"m": merged, "k": kept},
    )
    return {int(i): (str(n), e, str(c)) for i, n, e, c in rows}


def merge(conn: Connection, merged: int, kept: int, user: str, now: str) -> PersonMerge:
    """Person `merged` is person `kept`: their facts, meetings, aliases, addresses and
    living document move over, their name becomes the user's alias for `kept`, and the
    merged row is gone (the merge remembers it)."""
    if merged == kept:
        raise MergeError("a person cannot be merged into themselves")
    people = _names(conn, merged, kept)
    if merged not in people or kept not in people:
        raise MergeError(f"no person {merged if merged not in people else kept}")
    name, email, created = people[merged]
    values = {"m": merged, "k": kept}
    moved: dict[str, Any] = {
        key: [row[0] for row in conn.execute(text(sql), values)] for key, sql in _OWNED.items()
    }
    columns = "key, body, cited_fact_keys, edited_by, updated_at"
    moved["aside"] = [
        dict(zip(columns.split(", "), row, strict=True))
        for row in conn.execute(
            text(
                _SECTIONS.format(what=columns) + " AND id NOT IN (SELECT value FROM "
                "json_each(:ids))"
            ),
            {**values, "ids": json.dumps(moved["sections"])},
        )
    ]
    for sql in _MOVE:
        conn.execute(text(sql), values)
    moved["name_alias"] = []
    taken = "SELECT id FROM entity_aliases WHERE entity_type = 'person' AND alias = :a"
    if conn.execute(text(taken), {"a": name}).scalar() is None:
        put_alias(conn, "person", name, kept, 1.0, False, now, user)
        moved["name_alias"] = [conn.execute(text(taken), {"a": name}).scalar()]
    merge_id = conn.execute(
        insert(Merge).values(
            kept_id=kept,
            merged_name=name,
            merged_email=email,
            merged_created_at=created,
            moved_json=json.dumps(moved),
            merged_at=now,
            merged_by=user,
        )
    ).lastrowid
    return _record(int(merge_id), kept, name, moved, now)


def _record(merge_id: int, kept: int, name: str, moved: dict[str, Any], at: str) -> PersonMerge:
    return PersonMerge(
        merge_id,
        kept,
        name,
        len(moved["decisions"]),
        len(moved["action_items"]),
        len(moved["meetings"]),
        at,
    )


def merges_into(conn: Connection, kept: int) -> list[PersonMerge]:
    """The merges into a person that no split has undone, newest first."""
    rows = conn.execute(
        select(Merge)
        .where(col(Merge.kept_id) == kept, col(Merge.split_at).is_(None))
        .order_by(col(Merge.id).desc())
    )
    return [
        _record(r.id, r.kept_id, r.merged_name, json.loads(r.moved_json), r.merged_at) for r in rows
    ]


def split(conn: Connection, merge_id: int, now: str) -> int:
    """Undo a merge: the merged person back (a new id), with what the merge moved; what
    has changed hands since stays where it is. Returns their id."""
    the = (col(Merge.id) == merge_id, col(Merge.split_at).is_(None))
    row = conn.execute(select(Merge).where(*the)).first()
    if row is None:
        raise MergeError(f"no merge {merge_id} to split")
    kept = row.kept_id
    moved: dict[str, Any] = json.loads(row.moved_json)
    moved["only_theirs"] = [c for c in moved["meetings"] if c not in moved["shared"]]
    person = {"name": row.merged_name, "email": row.merged_email}
    back = int(
        conn.execute(insert(Person).values(**person, created_at=row.merged_created_at)).lastrowid
    )
    for sql, key in _BACK:
        conn.execute(text(sql), {"k": kept, "b": back, "ids": json.dumps(moved[key])})
    for section in moved["aside"]:
        conn.execute(insert(Section).values(entity_type="person", entity_id=back, **section))
    conn.execute(update(Merge).where(*the).values(split_at=now))
    return back
