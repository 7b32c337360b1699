"""Store helpers: a capture to write, an older store to migrate, every row to compare."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from store import NewActionItem, NewCapture, NewDecision, NewExcerpt, Provenance, Store

if TYPE_CHECKING:
    from sqlalchemy import Connection

PROV = Provenance("meeting", "file:/x.txt", "2026-09-08T10:00:00+00:00", "ana", "offline extractor")


def new_capture(content_hash: str = "h1", **changes: object) -> NewCapture:
    values: dict[str, object] = dict(
        source_kind="file",
        source_path="/x.txt",
        source_format="txt",
        content_hash=content_hash,
        signature=None,
        title="Atlas kickoff",
        occurred_at="2026-09-08",
        raw_text="a\nb\nc",
        text="a\nb\nc",
        line_count=3,
        summary="We picked Postgres.",
        meta={"topics": ["db"]},
        extractor="offline extractor",
        truncated=False,
        provenance=PROV,
        decisions=[NewDecision("Use Postgres", "JSONB and PostGIS", "Priya", 1, 2, "a")],
        action_items=[NewActionItem("Set up staging", "Tom", "2026-09-15", 3, 3, "c")],
        excerpts=[NewExcerpt(1, 3, "a b c")],
    )
    values.update(changes)
    return NewCapture(**values)  # type: ignore[arg-type]


@contextmanager
def old_schema(path: Path, version: int) -> Iterator[Connection]:
    """A store file migrated only up to `version` by the frozen steps, as an older memo left
    it (test_migrations checks they make the schema each version had): write to it through
    the connection (one transaction), then open it with Store to migrate it."""
    from store.engine import writer_engine
    from store.migrations import upgrade

    engine = writer_engine(path, 5_000)
    try:
        with engine.begin() as conn:
            upgrade(conn, version)
            yield conn
    finally:
        engine.dispose()


def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table and index: for "the store is exactly as it was"."""
    from sqlalchemy import text

    tables = [
        "captures",
        "decisions",
        "action_items",
        "excerpts",
        "context_notes",
        "digests",
        "clients",
        "projects",
        "people",
        "entity_aliases",
        "capture_people",
        "fact_embeddings",
        "embedding_space",
    ]
    with store.reader.connect() as conn:
        content = {t: conn.execute(text(f"SELECT * FROM {t} ORDER BY 1")).all() for t in tables}
        # (the index tables' keys: rowids in SQLite, columns of their own in PostgreSQL)
        fts, vectors = ("fact_key", "id") if store.on_postgres else ("rowid", "rowid")
        content["facts_fts"] = conn.execute(text(f"SELECT {fts} FROM facts_fts ORDER BY 1")).all()
        content["fact_vectors"] = conn.execute(
            text(f"SELECT {vectors} FROM fact_vectors ORDER BY 1")
        ).all()
    return content


def steering_decision(store: Store) -> int:
    """The key of a decision of the demo's Beacon steering meeting (Beacon, Halvorsen
    Freight, Ingrid Halvorsen, Sam Cheng): the fact the agents' scripted models cite."""
    [steering] = [c for c in store.captures.all() if c.title.startswith("Beacon steering")]
    return store.facts.all("decision", capture_id=steering.id)[0].fact_key
