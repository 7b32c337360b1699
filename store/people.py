"""People and the names that stand for them: aliases, meeting attendance, pending mentions.

Deciding who a name means is core's business (memo_tui.core.entities); the store keeps the
answers and applies them atomically: a capture's new people, aliases and links land in the
capture's own transaction, and a confirmation back-fills every waiting fact in one.
Raw SQL only in PERSON_COUNTS (and `summaries`): the rollups' rebuild splices it in.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import (
    ColumnElement,
    Connection,
    bindparam,
    case,
    delete,
    func,
    literal,
    select,
    text,
    union_all,
    update,
)
from sqlmodel import col

from store.expressions import among, insert, new_id, postgres
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
from store.tables import (
    ActionItem,
    Capture,
    CapturePerson,
    CaptureProject,
    Client,
    Decision,
    EntityAlias,
    FactTable,
    Person,
    Project,
)

_NAMED = {
    table: select(col(table.id), col(table.name)).order_by(col(table.id))
    for table in (Person, Project, Client)
}
_ALIASES = select(
    col(EntityAlias.entity_type),
    col(EntityAlias.entity_id),
    col(EntityAlias.alias),
    col(EntityAlias.confidence),
    col(EntityAlias.auto_resolved),
    col(EntityAlias.confirmed_by),
).order_by(col(EntityAlias.id))


def directory(conn: Connection) -> Directory:
    def rows(table: type[Person] | type[Project] | type[Client]) -> list[PersonRow]:
        return [PersonRow(int(i), str(n)) for i, n in conn.execute(_NAMED[table])]

    aliases = conn.execute(_ALIASES).all()
    return Directory(
        people=rows(Person),
        projects=rows(Project),
        clients=rows(Client),
        aliases=[AliasRow(t, i, a, float(c), bool(auto), by) for t, i, a, c, auto, by in aliases],
    )


def person_by_name(conn: Connection, name: str) -> int | None:
    found = conn.execute(
        select(col(Person.id))
        .where(func.lower(col(Person.name)) == func.lower(name.strip()))
        .order_by(col(Person.id))
        .limit(1)
    ).scalar()
    return int(found) if found is not None else None


def add_person(conn: Connection, name: str, now: str) -> int:
    """The person with this exact name (any case), created if new."""
    found = person_by_name(conn, name)
    if found is not None:
        return found
    return new_id(conn.execute(insert(Person).values(name=name.strip(), created_at=now)))


def apply_names(conn: Connection, capture_id: int, new: NewCapture) -> dict[str, int]:
    """Create the capture's new people, record who attended, cache its aliases, link the
    projects it is about.

    Returns the id of every new person by name, for resolving the facts' PersonRefs.
    """
    now = new.provenance.captured_at
    created = {name: add_person(conn, name, now) for name in new.new_people}
    for person, name in new.renames:
        conn.execute(update(Person).where(col(Person.id) == person).values(name=name))
    conn.execute(delete(CapturePerson).where(col(CapturePerson.capture_id) == capture_id))
    attended = [
        {"capture_id": capture_id, "person_id": person_id(ref, created)} for ref in new.attendees
    ]
    if attended:
        conn.execute(insert(CapturePerson).on_conflict_do_nothing(), attended)
    if new.stale_aliases:
        a = EntityAlias
        guessed = (col(a.entity_type) == "person", col(a.auto_resolved) == 1)
        conn.execute(
            delete(a).where(*guessed, func.lower(col(a.alias)) == func.lower(bindparam("stale"))),
            [{"stale": stale} for stale in new.stale_aliases],
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
    cp = CaptureProject
    conn.execute(delete(cp).where(col(cp.capture_id) == capture_id, col(cp.linked_by) == "capture"))
    if new.project_ids:
        linked = {"capture_id": capture_id, "linked_by": "capture", "created_at": now}
        conn.execute(
            insert(cp).on_conflict_do_nothing(),
            [{**linked, "project_id": project} for project in new.project_ids],
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
    counts = []
    table: FactTable
    for table, said in ((ActionItem, ActionItem.assignee_raw), (Decision, Decision.decided_by)):
        named = among(func.trim(col(said)), [mention, *spellings], nocase=True)
        where = [col(table.pending) == 1, named]
        if capture_ids is not None:
            where.append(among(col(table.capture_id), capture_ids))
        counts.append(_settle(conn, table, entity_id, user, *where))
    return Backfill(action_items=counts[0], decisions=counts[1])


def settle(
    conn: Connection,
    entity_id: int | None,
    action_item_ids: Sequence[int],
    decision_ids: Sequence[int],
    user: str | None = None,
) -> Backfill:
    """The user's word on single facts: these waiting action items and decisions are
    `entity_id`'s (None: nobody memo knows). No alias is written: two Sams in a room can
    each be "Sam", item by item."""
    counts = []
    table: FactTable
    for table, ids in ((ActionItem, action_item_ids), (Decision, decision_ids)):
        where = (col(table.pending) == 1, among(col(table.id), ids))
        counts.append(_settle(conn, table, entity_id, user, *where))
    return Backfill(action_items=counts[0], decisions=counts[1])


def _settle(
    conn: Connection,
    table: FactTable,
    entity_id: int | None,
    user: str | None,
    *where: ColumnElement[bool],
) -> int:
    """Settle the facts `where` picks as `entity_id`'s, `user` saying so; how many."""
    settled = {"person_id": entity_id, "pending": 0, "settled_by": user}
    done = conn.execute(update(table).where(*where).values(**settled))
    return int(done.rowcount or 0)


# Each person with their aliases (a JSON array) and counts; the people rollup uses it too.
PERSON_COUNTS = """
SELECT p.id AS id, p.name AS name,
    (SELECT json_group_array(alias) FROM (SELECT alias FROM entity_aliases
     WHERE entity_type = 'person' AND entity_id = p.id ORDER BY alias)) AS aliases,
    (SELECT count(*) FROM action_items a WHERE a.person_id = p.id
     AND a.status = 'open' AND a.state != 'rejected') AS open_action_items,
    (SELECT count(*) FROM decisions d WHERE d.person_id = p.id
     AND d.state != 'rejected') AS decisions,
    (SELECT count(*) FROM capture_people cp WHERE cp.person_id = p.id) AS meetings
FROM people p"""


def summaries(conn: Connection) -> list[PersonSummary]:
    rows = conn.execute(text(f"{PERSON_COUNTS} ORDER BY lower(p.name), p.id")).all()
    return [
        PersonSummary(int(r[0]), r[1], json.loads(r[2]), int(r[3]), int(r[4]), int(r[5]))
        for r in rows
    ]


def pending_mentions(conn: Connection) -> list[PendingMention]:
    a, d = ActionItem, Decision
    waiting = union_all(
        select(
            func.trim(col(a.assignee_raw)).label("mention"),
            literal("a").label("kind"),
            col(a.capture_id),
        ).where(col(a.pending) == 1),
        select(func.trim(col(d.decided_by)), literal("d"), col(d.capture_id)).where(
            col(d.pending) == 1
        ),
    ).subquery()
    mention, kind, capture = waiting.c.mention, waiting.c.kind, waiting.c.capture_id
    rows = conn.execute(
        select(
            func.min(mention),  # (one spelling of those the group holds)
            func.sum(case((kind == "a", 1), else_=0)),
            func.sum(case((kind == "d", 1), else_=0)),
            func.json_group_array(capture.distinct()),
        )
        .group_by(func.lower(mention))
        .order_by(func.min(capture), func.min(mention))
    ).all()
    return [PendingMention(str(m), int(a), int(d), sorted(json.loads(c))) for m, a, d, c in rows]


def attendees(conn: Connection, capture_ids: Sequence[int]) -> list[int]:
    """Everyone who attended any of these captures."""
    cp = CapturePerson
    rows = conn.execute(
        select(col(cp.person_id))
        .distinct()
        .where(among(col(cp.capture_id), capture_ids))
        .order_by(col(cp.person_id))
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
    new = insert(EntityAlias).values(
        entity_type=entity_type,
        entity_id=entity_id,
        alias=alias.strip(),
        confidence=confidence,
        auto_resolved=int(auto_resolved),
        confirmed_by=confirmed_by,
        created_at=now,
    )
    # unique in any case: SQLite's NOCASE column, PostgreSQL's unique index on lower(alias)
    alias_key = col(EntityAlias.alias)
    known = ["entity_type", func.lower(alias_key) if postgres(conn) else alias_key]
    if auto_resolved:
        conn.execute(new.on_conflict_do_nothing(index_elements=known))
        return
    given = ("entity_id", "confidence", "confirmed_by", "created_at")
    user_said = {name: new.excluded[name] for name in given}
    conn.execute(
        new.on_conflict_do_update(index_elements=known, set_={**user_said, "auto_resolved": 0})
    )


def unlinked_captures(conn: Connection) -> list[int]:
    """Captures no one was linked to: stored before people existed (schema 3), or whose
    speakers are all roles."""
    c = Capture
    rows = conn.execute(
        select(col(c.id))
        .where(col(c.id).not_in(select(col(CapturePerson.capture_id))))
        .order_by(func.coalesce(col(c.occurred_at), col(c.captured_at)), col(c.id))
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
    links: list[tuple[FactTable, int, PersonRef | None, bool]] = [
        (Decision, i, d.person, d.pending) for i, d in zip(decision_ids, new.decisions, strict=True)
    ]
    links += [
        (ActionItem, i, a.person, a.pending)
        for i, a in zip(action_ids, new.action_items, strict=True)
    ]
    for table, row_id, ref, pending in links:
        if (table.__tablename__, row_id) not in changing:
            continue
        person = person_id(ref, created)
        conn.execute(
            update(table)
            .where(col(table.id) == row_id)
            .values(person_id=person, pending=int(person is None and pending))
        )
    return created
