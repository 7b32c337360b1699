"""Schema versioning: ordered migrations, each a plain function, applied in one transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import sqlean
from sqlalchemy import Connection, Engine

from store import schema_v1
from store.errors import SchemaTooNewError


def split_sql(script: str) -> Iterator[str]:
    """Split a script into complete statements (trigger bodies contain semicolons)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if buffer.rstrip().endswith(";") and sqlean.complete_statement(buffer):
            statement = buffer.strip()
            buffer = ""
            if statement:
                yield statement
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement: {buffer.strip()[:80]}")


def _run(conn: Connection, script: str) -> None:
    for statement in split_sql(script):
        conn.exec_driver_sql(statement)


def _v1_initial(conn: Connection) -> None:
    _run(conn, schema_v1.TABLES)
    _run(conn, schema_v1.FACTS_VIEW)
    _run(conn, schema_v1.SEARCH_INDEXES)
    _run(conn, schema_v1.index_triggers())


def _v2_embedding_cache(conn: Connection) -> None:
    _run(
        conn,
        """
CREATE TABLE embedding_cache (
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedding BLOB NOT NULL,
    PRIMARY KEY (content_hash, model)
);
""",
    )


def _v3_people_links(conn: Connection) -> None:
    """Who decided is linked like who owes; meetings know who attended."""
    _run(
        conn,
        """
ALTER TABLE decisions ADD COLUMN person_id INTEGER REFERENCES people(id) ON DELETE SET NULL;
ALTER TABLE decisions ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX decisions_person ON decisions(person_id);
CREATE INDEX decisions_pending ON decisions(decided_by) WHERE pending = 1;
CREATE INDEX action_items_pending ON action_items(assignee_raw) WHERE pending = 1;
CREATE INDEX people_name ON people(name COLLATE NOCASE);
CREATE TABLE capture_people (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    PRIMARY KEY (capture_id, person_id)
);
CREATE INDEX capture_people_person ON capture_people(person_id);
""",
    )


MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("initial schema", _v1_initial),
    ("embedding cache by content hash", _v2_embedding_cache),
    ("people linked to decisions and meetings", _v3_people_links),
]

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: Connection) -> int:
    """The schema version recorded in the database file."""
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def migrate(engine: Engine) -> int:
    """Bring the database up to SCHEMA_VERSION; all pending steps commit together or not at all."""
    with engine.begin() as conn:
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"this database has schema version {version}, but this memo knows only up to "
                f"{SCHEMA_VERSION}: upgrade memo (pip install -U memo-tui) to open it"
            )
        if version == 0:
            conn.exec_driver_sql(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            name, step = MIGRATIONS[number - 1]
            step(conn)
            conn.exec_driver_sql(
                "INSERT INTO schema_migrations (version, name, applied_at) "
                "VALUES (?, ?, datetime('now'))",
                (number, name),
            )
            conn.exec_driver_sql(f"PRAGMA user_version = {number}")
        return SCHEMA_VERSION
