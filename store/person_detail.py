"""A person's page: what they owe and decided, and where they were."""

from __future__ import annotations

import json

from sqlalchemy import Connection, text

from store.captures import (
    ACTION_ITEM_COLUMNS,
    DECISION_COLUMNS,
    action_item_record,
    capture_links,
    decision_record,
)
from store.records import (
    ActionItemRecord,
    DecisionRecord,
    PersonAlias,
    PersonDetail,
)

# Facts from `{table}` that `{where}` picks, newest meeting first.
_BY_MEETING = """
SELECT {columns} FROM {table}
JOIN (SELECT id AS meeting, coalesce(occurred_at, substr(captured_at, 1, 10)) AS day
      FROM captures) m ON m.meeting = capture_id
WHERE {where} ORDER BY m.day DESC, capture_id DESC, id
"""
_MEETINGS = "SELECT capture_id FROM capture_people WHERE person_id = :p"

# Each person by every name they go by (an alias is one person's: the table says so).
NAMES = """
SELECT id AS person_id, name AS said FROM people
UNION SELECT entity_id, alias FROM entity_aliases
WHERE entity_type = 'person' AND entity_id IS NOT NULL
"""
# Open action items someone else owes the person who asked for them.
OWED = f"""
status = 'open' AND asked_by IS NOT NULL AND coalesce(person_id, -1) != :p
AND lower(asked_by) IN (SELECT lower(said) FROM ({NAMES}) WHERE person_id = :p)
"""


def person_detail(conn: Connection, person_id: int) -> PersonDetail | None:
    """A person's page (see records.PersonDetail); None when there is no such person."""
    name = conn.execute(text("SELECT name FROM people WHERE id = :p"), {"p": person_id}).scalar()
    if name is None:
        return None
    person = {"p": person_id}

    def decisions(where: str) -> list[DecisionRecord]:
        sql = _BY_MEETING.format(columns=DECISION_COLUMNS, table="decisions", where=where)
        return [decision_record(r) for r in conn.execute(text(sql), person)]

    def action_items(where: str) -> list[ActionItemRecord]:
        sql = _BY_MEETING.format(columns=ACTION_ITEM_COLUMNS, table="action_items", where=where)
        return [action_item_record(r) for r in conn.execute(text(sql), person)]

    owes = action_items("person_id = :p AND status = 'open'")
    owed = action_items(OWED)
    decided = decisions("person_id = :p")
    meetings = capture_links(conn, f"id IN ({_MEETINGS})", person)
    cited = {item.capture_id for item in [*owes, *owed]} | {d.capture_id for d in decided}
    cited -= {meeting.id for meeting in meetings}
    elsewhere = capture_links(
        conn, "id IN (SELECT value FROM json_each(:ids))", {"ids": json.dumps(sorted(cited))}
    )
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


def owed_counts(conn: Connection) -> dict[int, int]:
    """How many open action items each person is owed (asked others for), by person id."""
    sql = f"""
    SELECT n.person_id, count(DISTINCT a.id) FROM action_items a
    JOIN ({NAMES}) n ON lower(n.said) = lower(a.asked_by)
    WHERE a.status = 'open' AND coalesce(a.person_id, -1) != n.person_id
    GROUP BY n.person_id
    """
    return {int(p): int(n) for p, n in conn.execute(text(sql))}


def _aliases(conn: Connection, person_id: int) -> list[PersonAlias]:
    rows = conn.execute(
        text(
            "SELECT alias, confidence, auto_resolved FROM entity_aliases "
            "WHERE entity_type = 'person' AND entity_id = :p ORDER BY alias"
        ),
        {"p": person_id},
    ).all()
    return [PersonAlias(str(a), float(c), not auto) for a, c, auto in rows]
