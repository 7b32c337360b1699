"""A person's page: what they owe and decided, and where they were. Queries go through the
table classes."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, Subquery, func, select, union
from sqlmodel import col

from store.capture_reads import (
    ACTION_ITEM_FIELDS,
    DECISION_FIELDS,
    action_item_record,
    decision_record,
    fact_columns,
)
from store.expressions import among, capture_day
from store.records import (
    ActionItemRecord,
    CaptureLink,
    DecisionRecord,
    PersonAlias,
    PersonDetail,
)
from store.tables import (
    ActionItem,
    Capture,
    CapturePerson,
    Decision,
    EntityAlias,
    FactTable,
    Person,
)


def _by_meeting(fact: FactTable, names: str, *where: ColumnElement[bool]) -> Select[Any]:
    """The facts `where` picks, newest meeting first."""
    return (
        select(*fact_columns(fact, names))
        .select_from(fact)
        .join(Capture, col(Capture.id) == col(fact.capture_id))
        .where(*where)
        .order_by(capture_day().desc(), col(fact.capture_id).desc(), col(fact.id))
    )


def _names() -> Subquery:
    """Each person by every name they go by (an alias is one person's: the table says so)."""
    p, a = Person, EntityAlias
    return union(
        select(col(p.id).label("person_id"), col(p.name).label("said")),
        select(col(a.entity_id), col(a.alias)).where(
            col(a.entity_type) == "person", col(a.entity_id).is_not(None)
        ),
    ).subquery("n")


def _owed_to(person_id: int) -> tuple[ColumnElement[bool], ...]:
    """Open action items someone else owes the person who asked for them."""
    a, n = ActionItem, _names()
    their_names = select(func.lower(n.c.said)).where(n.c.person_id == person_id)
    return (
        col(a.status) == "open",
        _shown(a),
        col(a.asked_by).is_not(None),
        func.coalesce(col(a.person_id), -1) != person_id,
        func.lower(col(a.asked_by)).in_(their_names),
    )


def person_detail(conn: Connection, person_id: int) -> PersonDetail | None:
    """A person's page (see records.PersonDetail); None when there is no such person."""
    name = conn.execute(select(col(Person.name)).where(col(Person.id) == person_id)).scalar()
    if name is None:
        return None
    d, a, cp = Decision, ActionItem, CapturePerson

    def action_items(*where: ColumnElement[bool]) -> list[ActionItemRecord]:
        return [
            action_item_record(r) for r in conn.execute(_by_meeting(a, ACTION_ITEM_FIELDS, *where))
        ]

    owes = action_items(col(a.person_id) == person_id, col(a.status) == "open", _shown(a))
    owed = action_items(*_owed_to(person_id))
    decided: list[DecisionRecord] = [
        decision_record(r)
        for r in conn.execute(
            _by_meeting(d, DECISION_FIELDS, col(d.person_id) == person_id, _shown(d))
        )
    ]
    attended = select(col(cp.capture_id)).where(col(cp.person_id) == person_id)
    meetings = _links(conn, col(Capture.id).in_(attended))
    cited = {item.capture_id for item in [*owes, *owed]} | {d.capture_id for d in decided}
    cited -= {meeting.id for meeting in meetings}
    elsewhere = _links(conn, among(col(Capture.id), sorted(cited)))
    return PersonDetail(
        id=person_id,
        name=str(name),
        aliases=_aliases(conn, person_id),
        open_action_items=owes,
        owed=owed,
        decisions=decided,
        meetings=meetings,
        captures={link.id: link for link in [*meetings, *elsewhere]},
    )


def _shown(fact: type[Decision] | type[ActionItem]) -> ColumnElement[bool]:
    """Not rejected: a decision or action item the user turned down is never shown."""
    return col(fact.state) != "rejected"


def _links(conn: Connection, picked: ColumnElement[bool]) -> list[CaptureLink]:
    """The captures `picked` picks, newest meeting first, as detail views list them."""
    c, day = Capture, capture_day().label("day")
    rows = conn.execute(
        select(col(c.id), col(c.title), day).where(picked).order_by(day.desc(), col(c.id).desc())
    )
    return [CaptureLink(int(i), str(t), str(d)) for i, t, d in rows]


def owed_counts(conn: Connection) -> dict[int, int]:
    """How many open action items each person is owed (asked others for), by person id."""
    a, n = ActionItem, _names()
    rows = conn.execute(
        select(n.c.person_id, func.count(col(a.id).distinct()))
        .select_from(a)
        .join(n, func.lower(n.c.said) == func.lower(col(a.asked_by)))
        .where(
            col(a.status) == "open",
            _shown(a),
            func.coalesce(col(a.person_id), -1) != n.c.person_id,
        )
        .group_by(n.c.person_id)
    )
    return {int(p): int(c) for p, c in rows}


def _aliases(conn: Connection, person_id: int) -> list[PersonAlias]:
    e = EntityAlias
    rows = conn.execute(
        select(col(e.alias), col(e.confidence), col(e.auto_resolved))
        .where(col(e.entity_type) == "person", col(e.entity_id) == person_id)
        .order_by(col(e.alias))
    )
    return [PersonAlias(str(a), float(c), not auto) for a, c, auto in rows]
