"""Concepts: ideas the user names ("event sourcing", "pricing"), each with a living
document written from the facts about it. Each function runs inside a caller's
transaction."""

from __future__ import annotations

from sqlalchemy import Connection, text

from store.errors import NameTakenError, StoreError
from store.records import ConceptSummary


def add_concept(conn: Connection, name: str, now: str) -> int:
    """A new concept; names are unique in any case."""
    name = " ".join(name.split())
    if not name:
        raise StoreError("a concept needs a name")
    existing = conn.execute(
        text("SELECT id, name FROM concepts WHERE name = :n COLLATE NOCASE"), {"n": name}
    ).first()
    if existing is not None:
        raise NameTakenError(
            f"there is already a concept called {existing[1]!r}", existing_id=int(existing[0])
        )
    return int(
        conn.execute(
            text("INSERT INTO concepts (name, created_at) VALUES (:n, :now) RETURNING id"),
            {"n": name, "now": now},
        ).scalar_one()
    )


def concepts(conn: Connection) -> list[ConceptSummary]:
    """Every concept by name, with its living document's sections and when they changed."""
    rows = conn.execute(
        text(
            "SELECT c.id, c.name, c.created_at, "
            "(SELECT count(*) FROM sections s WHERE s.entity_type = 'concept' "
            "AND s.entity_id = c.id), "
            "(SELECT max(updated_at) FROM sections s WHERE s.entity_type = 'concept' "
            "AND s.entity_id = c.id) FROM concepts c ORDER BY c.name COLLATE NOCASE, c.id"
        )
    )
    return [ConceptSummary(int(i), str(n), str(at), int(k), last) for i, n, at, k, last in rows]
