"""Concepts: ideas the user names ("event sourcing", "pricing"), each with a living
document written from the facts about it. Each function runs inside a caller's
transaction."""

from __future__ import annotations

from sqlalchemy import Connection, func, insert, select
from sqlmodel import col

from store.errors import NameTakenError, StoreError
from store.records import ConceptSummary
from store.tables import Concept, Section


def add_concept(conn: Connection, name: str, now: str) -> int:
    """A new concept; names are unique in any case."""
    name = " ".join(name.split())
    if not name:
        raise StoreError("a concept needs a name")
    existing = conn.execute(
        select(col(Concept.id), col(Concept.name)).where(
            func.lower(col(Concept.name)) == func.lower(name)
        )
    ).first()
    if existing is not None:
        raise NameTakenError(
            f"there is already a concept called {existing.name!r}", existing_id=int(existing.id)
        )
    added = conn.execute(
        insert(Concept).values(name=name, created_at=now).returning(col(Concept.id))
    )
    return added.scalar_one()


def concepts(conn: Connection) -> list[ConceptSummary]:
    """Every concept by name, with its living document's sections and when they changed."""
    own = (col(Section.entity_type) == "concept", col(Section.entity_id) == col(Concept.id))
    sections = select(func.count()).where(*own).scalar_subquery()
    changed = select(func.max(col(Section.updated_at))).where(*own).scalar_subquery()
    rows = conn.execute(
        select(
            col(Concept.id), col(Concept.name), col(Concept.created_at), sections, changed
        ).order_by(func.lower(col(Concept.name)), col(Concept.id))
    )
    return [ConceptSummary(int(i), str(n), str(at), int(k), last) for i, n, at, k, last in rows]
