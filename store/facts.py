"""Reading the facts view and the store's vital signs."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, text

from store.expressions import among_sql, listed
from store.records import FactCursor, FactPeople, FactRecord
from store.schema_v1 import FACT_CODES
from store.search import FACT_DAY, FactFilter, filter_clauses, project_keys_sql

FACT_TYPES = tuple(FACT_CODES)

_FACT_COLUMNS = (
    "fact_key, fact_type, fact_id, text, capture_id, capture_title, occurred_at, captured_at, "
    "source_type, source_id, line_start, line_end"
)


def list_facts(
    conn: Connection,
    fact_type: str | None = None,
    since: str | None = None,
    capture_id: int | None = None,
    limit: int | None = None,
    offset: int = 0,
    current: bool = False,
) -> list[FactRecord]:
    """Facts newest meeting first; `since` compares with the meeting date (else capture time).
    `limit` and `offset` page through them; `current` leaves out replaced decisions."""
    flt = FactFilter(
        fact_types=() if fact_type is None else (fact_type,),
        since=since,
        capture_ids=() if capture_id is None else (capture_id,),
        current=current,
    )
    return filtered_facts(conn, flt, limit, offset)


def filtered_facts(
    conn: Connection, flt: FactFilter, limit: int | None = None, offset: int = 0
) -> list[FactRecord]:
    """The facts a filter allows (as search and the feed filter), newest meeting first and
    each meeting's in the order they were stored; `limit` and `offset` page through them."""
    clauses, params = filter_clauses(flt)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    limit_sql = f"LIMIT {int(limit)} OFFSET {int(offset)}" if limit is not None else ""
    rows = conn.execute(
        text(
            f"SELECT {_FACT_COLUMNS} FROM facts {where} "
            "ORDER BY coalesce(occurred_at, captured_at) DESC, capture_id, fact_key "
            f"{limit_sql}"
        ),
        params,
    ).all()
    return [FactRecord(*row) for row in rows]


def fact_keys(conn: Connection, flt: FactFilter) -> list[int]:
    """The keys of the facts a filter allows."""
    clauses, params = filter_clauses(flt)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    return [row[0] for row in conn.execute(text(f"SELECT fact_key FROM facts {where}"), params)]


# The feed's order, total: a fact key is unique. Notes and digests (no capture) come after
# the meetings of their day. FactCursor.after computes the same key from a record.
_FEED_KEY = f"({FACT_DAY}, coalesce(capture_id, 0), fact_key)"
_FEED_ORDER = f"{FACT_DAY} DESC, coalesce(capture_id, 0) DESC, fact_key DESC"


def facts_page(
    conn: Connection, flt: FactFilter, limit: int, after: FactCursor | None = None
) -> list[FactRecord]:
    """Up to `limit` facts a filter allows, newest meeting first, after the cursor.

    A keyset page (the rows after the last one shown), not an OFFSET: a deep page costs what
    the first does, and rows stored meanwhile neither repeat nor vanish from the pages.
    The filter's conditions go straight onto the view, as search's do.
    """
    clauses, params = filter_clauses(flt)
    if after is not None:
        clauses.append(f"{_FEED_KEY} < (:after_day, :after_capture, :after_key)")
        params.update(after_day=after.day, after_capture=after.capture_id, after_key=after.fact_key)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    rows = conn.execute(
        text(f"SELECT {_FACT_COLUMNS} FROM facts {where} ORDER BY {_FEED_ORDER} LIMIT :limit"),
        {**params, "limit": max(int(limit), 0)},
    ).all()
    return [FactRecord(*row) for row in rows]


def count_facts_by_type(conn: Connection) -> dict[str, int]:
    counts = dict.fromkeys(FACT_TYPES, 0)
    for fact_type, count in conn.execute(
        text("SELECT fact_type, count(*) FROM facts GROUP BY fact_type")
    ).all():
        counts[fact_type] = int(count)
    return counts


def scalar(conn: Connection, sql: str) -> int:
    return int(conn.execute(text(sql)).scalar_one())


def project_facts_among(conn: Connection, project_id: int, keys: Sequence[int]) -> set[int]:
    """Those of `keys` that are the project's facts: its meetings' and its notes."""
    if not keys:
        return set()
    project, params = project_keys_sql((project_id,))
    wanted = ", ".join(f":k{i}" for i in range(len(keys)))
    params.update({f"k{i}": key for i, key in enumerate(keys)})
    sql = f"SELECT fact_key FROM ({project}) WHERE fact_key IN ({wanted})"
    return {row[0] for row in conn.execute(text(sql), params)}


def facts_by_keys(conn: Connection, keys: list[int]) -> dict[int, FactRecord]:
    """The facts with these keys (each arm looked up by its own primary key)."""
    found: dict[int, FactRecord] = {}
    for key in keys:
        fact_type = FACT_TYPES[(key >> 32) - 1] if 0 < key >> 32 <= len(FACT_TYPES) else None
        if fact_type is None:
            continue
        row = conn.execute(
            text(f"SELECT {_FACT_COLUMNS} FROM facts WHERE fact_type = :t AND fact_id = :i"),
            {"t": fact_type, "i": key & 0xFFFFFFFF},
        ).first()
        if row is not None:
            found[key] = FactRecord(*row)
    return found


# The day a decision was made: its meeting's date, else the day it was captured.
_DAY = (
    "(SELECT coalesce(occurred_at, substr({d}.captured_at, 1, 10)) FROM captures "
    "WHERE captures.id = {d}.capture_id)"
)


def fact_people(conn: Connection, found: Sequence[FactRecord]) -> dict[int, FactPeople]:
    """For each decision and action item among `found` (by fact key): who it is about."""
    ids = {kind: [f.fact_id for f in found if f.fact_type == kind] for kind in FACT_CODES}
    people: dict[int, FactPeople] = {}
    name = "(SELECT name FROM people WHERE people.id = person_id)"
    for row in conn.execute(
        text(
            f"SELECT id, coalesce({name}, decided_by), person_id, pending, status, superseded_by, "
            f"{_DAY.format(d='decisions')}, "
            f"(SELECT {_DAY.format(d='later')} FROM decisions AS later WHERE later.id = "
            "decisions.superseded_by AND decisions.status = 'superseded'), confidence, state "
            f"FROM decisions WHERE {among_sql(conn, 'id', 'ids')}"
        ),
        {"ids": listed(conn, ids["decision"])},
    ):
        key = (FACT_CODES["decision"] << 32) | row[0]
        people[key] = FactPeople(
            decided_by=row[1],
            decided_by_person_id=row[2],
            pending=bool(row[3]),
            status=row[4],
            superseded_by=row[5],
            valid_from=row[6],
            valid_to=row[7],
            confidence=_rounded(row[8]),
            state=row[9],
        )
    for row in conn.execute(
        text(
            f"SELECT id, coalesce({name}, assignee_raw), person_id, pending, due_date, status, "
            "confidence, state "
            f"FROM action_items WHERE {among_sql(conn, 'id', 'ids')}"
        ),
        {"ids": listed(conn, ids["action_item"])},
    ):
        key = (FACT_CODES["action_item"] << 32) | row[0]
        people[key] = FactPeople(
            owner=row[1],
            owner_person_id=row[2],
            pending=bool(row[3]),
            due_date=row[4],
            status=row[5],
            confidence=_rounded(row[6]),
            state=row[7],
        )
    return people


def _rounded(confidence: float | None) -> float | None:
    return None if confidence is None else round(float(confidence), 3)
