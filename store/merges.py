"""Two people who are one, and back: a merge moves everything one person has to the other
in one transaction, and remembers what it moved, so a split puts it all back. Queries go
through the table classes."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Executable,
    Select,
    delete,
    func,
    literal,
    not_,
    select,
    true,
    update,
)
from sqlalchemy.orm import aliased
from sqlmodel import col

from store.errors import MergeError
from store.expressions import among, insert, new_id
from store.people import put_alias
from store.records import PersonMerge
from store.tables import (
    ActionItem,
    Capture,
    CapturePerson,
    Decision,
    EntityAlias,
    Merge,
    Person,
    PersonAddress,
    Section,
)

# What a merge keeps aside of the merged person's living document, for a split.
_ASIDE = ("key", "body", "cited_fact_keys", "edited_by", "updated_at")


def _theirs(
    table: type[Section] | type[EntityAlias], person: int
) -> tuple[ColumnElement[bool], ...]:
    """A person's rows of the sections or the aliases (`table` may be an alias of either)."""
    return (col(table.entity_type) == "person", col(table.entity_id) == person)


def _attended(person: int) -> Select[Any]:
    return select(col(CapturePerson.capture_id)).where(col(CapturePerson.person_id) == person)


def _section_keys(person: int) -> Select[Any]:
    s = aliased(Section)
    return select(col(s.key)).where(*_theirs(s, person))


def _owned(merged: int, kept: int) -> dict[str, Select[Any]]:
    """What a merge moves from person `merged` to person `kept`, each remembered by these
    keys."""
    d, a, cp, pa, s = Decision, ActionItem, CapturePerson, PersonAddress, Section
    return {
        "decisions": select(col(d.id)).where(col(d.person_id) == merged),
        "action_items": select(col(a.id)).where(col(a.person_id) == merged),
        "meetings": _attended(merged),
        "shared": _attended(merged).where(col(cp.capture_id).in_(_attended(kept))),
        "aliases": select(col(EntityAlias.id)).where(*_theirs(EntityAlias, merged)),
        "addresses": select(col(pa.address)).where(col(pa.person_id) == merged),
        "proposed": select(col(pa.address)).where(col(pa.proposed_person_id) == merged),
        "sections": select(col(s.id)).where(
            *_theirs(s, merged), col(s.key).not_in(_section_keys(kept))
        ),
    }


def _move(merged: int, kept: int) -> tuple[Executable, ...]:
    """Everything of person `merged` to person `kept`, and `merged` gone."""
    d, a, cp, pa, s = Decision, ActionItem, CapturePerson, PersonAddress, Section
    return (
        update(d).where(col(d.person_id) == merged).values(person_id=kept),
        update(a).where(col(a.person_id) == merged).values(person_id=kept),
        _attend(select(col(cp.capture_id), literal(kept)).where(col(cp.person_id) == merged)),
        update(EntityAlias).where(*_theirs(EntityAlias, merged)).values(entity_id=kept),
        update(pa).where(col(pa.person_id) == merged).values(person_id=kept),
        update(pa).where(col(pa.proposed_person_id) == merged).values(proposed_person_id=kept),
        # The kept person's own sections stay; the merged one's are kept aside for a split.
        delete(s).where(*_theirs(s, merged), col(s.key).in_(_section_keys(kept))),
        update(s).where(*_theirs(s, merged)).values(entity_id=kept),
        delete(Person).where(col(Person.id) == merged),
    )


def _move_back(kept: int, back: int, moved: dict[str, Any]) -> tuple[Executable, ...]:
    """What a split moves back from person `kept` to the restored person `back`, by what the
    merge remembered."""
    d, a, cp, pa, s = Decision, ActionItem, CapturePerson, PersonAddress, Section
    e = EntityAlias

    def listed(column: Any, key: str) -> ColumnElement[bool]:
        return among(column, moved[key])

    return (
        update(d)
        .where(col(d.person_id) == kept, listed(col(d.id), "decisions"))
        .values(person_id=back),
        update(a)
        .where(col(a.person_id) == kept, listed(col(a.id), "action_items"))
        .values(person_id=back),
        _attend(  # the meetings still held (one deleted since the merge is gone)
            select(col(Capture.id), literal(back)).where(listed(col(Capture.id), "meetings"))
        ),
        delete(cp).where(col(cp.person_id) == kept, listed(col(cp.capture_id), "only_theirs")),
        update(e).where(*_theirs(e, kept), listed(col(e.id), "aliases")).values(entity_id=back),
        delete(e).where(listed(col(e.id), "name_alias")),
        update(pa)
        .where(col(pa.person_id) == kept, listed(col(pa.address), "addresses"))
        .values(person_id=back),
        update(pa)
        .where(col(pa.proposed_person_id) == kept, listed(col(pa.address), "proposed"))
        .values(proposed_person_id=back),
        update(s).where(*_theirs(s, kept), listed(col(s.id), "sections")).values(entity_id=back),
    )


def _attend(meetings: Select[Any, Any]) -> Executable:
    """Rows (capture, person) into capture_people, those there already skipped (the
    `WHERE true`: SQLite would read ON CONFLICT after a bare SELECT as a join's ON)."""
    return (
        insert(CapturePerson)
        .from_select(["capture_id", "person_id"], meetings.where(true()))
        .on_conflict_do_nothing()
    )


def _names(conn: Connection, merged: int, kept: int) -> dict[int, tuple[str, str | None, str]]:
    p = Person
    rows = conn.execute(
        select(col(p.id), col(p.name), col(p.email), col(p.created_at)).where(
            col(p.id).in_([merged, kept])
        )
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
    moved: dict[str, Any] = {
        key: [row[0] for row in conn.execute(query)] for key, query in _owned(merged, kept).items()
    }
    s = Section
    aside = select(*(col(getattr(s, c)) for c in _ASIDE)).where(
        *_theirs(s, merged), not_(among(col(s.id), moved["sections"]))
    )
    moved["aside"] = [dict(zip(_ASIDE, row, strict=True)) for row in conn.execute(aside)]
    for statement in _move(merged, kept):
        conn.execute(statement)
    moved["name_alias"] = []
    e = EntityAlias
    taken = select(col(e.id)).where(
        col(e.entity_type) == "person", func.lower(col(e.alias)) == func.lower(name)
    )
    if conn.execute(taken).scalar() is None:
        put_alias(conn, "person", name, kept, 1.0, False, now, user)
        moved["name_alias"] = [conn.execute(taken).scalar()]
    merge_id = new_id(
        conn.execute(
            insert(Merge).values(
                kept_id=kept,
                merged_name=name,
                merged_email=email,
                merged_created_at=created,
                moved_json=json.dumps(moved),
                merged_at=now,
                merged_by=user,
            )
        )
    )
    return _record(merge_id, kept, name, moved, now)


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
    back = new_id(conn.execute(insert(Person).values(**person, created_at=row.merged_created_at)))
    for statement in _move_back(kept, back, moved):
        conn.execute(statement)
    for section in moved["aside"]:
        conn.execute(insert(Section).values(entity_type="person", entity_id=back, **section))
    conn.execute(update(Merge).where(*the).values(split_at=now))
    return back
