"""A PostgreSQL store's schema versions: its own ordered, frozen steps (see
`store.migrations` for SQLite's), applied in one transaction under an advisory lock, so two
memo processes opening a new server at once create the schema once."""

from __future__ import annotations

from sqlalchemy import Connection, Engine

from store.errors import SchemaTooNewError
from store.migrations.postgres import (
    v01_initial,
    v02_notify,
    v03_settled_by,
    v04_confidence,
    v05_change_confidence,
)

MIGRATIONS = [
    (v01_initial.NAME, v01_initial.upgrade),
    (v02_notify.NAME, v02_notify.upgrade),
    (v03_settled_by.NAME, v03_settled_by.upgrade),
    (v04_confidence.NAME, v04_confidence.upgrade),
    (v05_change_confidence.NAME, v05_change_confidence.upgrade),
]

SCHEMA_VERSION = len(MIGRATIONS)

# pg_advisory_xact_lock's key for migrating (any number memo uses for nothing else).
_MIGRATING = 0x6D656D6F0001


def current_version(conn: Connection) -> int:
    """The last step recorded in schema_migrations (0 on an empty database)."""
    if conn.exec_driver_sql("SELECT to_regclass('schema_migrations')").scalar() is None:
        return 0
    return int(conn.exec_driver_sql("SELECT max(version) FROM schema_migrations").scalar() or 0)


def migrate(engine: Engine) -> int:
    """Bring the database up to SCHEMA_VERSION; all pending steps commit together or not at all."""
    with engine.begin() as conn:
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATING})")
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"this database has PostgreSQL schema version {version}, but this memo knows "
                f"only up to {SCHEMA_VERSION}: upgrade memo (pip install -U memo-tui) to open it"
            )
        if version == 0:
            conn.exec_driver_sql(
                "CREATE TABLE schema_migrations ("
                "version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            name, step = MIGRATIONS[number - 1]
            step(conn)
            conn.exec_driver_sql(
                "INSERT INTO schema_migrations (version, name, applied_at) "
                "VALUES (%(v)s, %(n)s, memo_now())",
                {"v": number, "n": name},
            )
    return SCHEMA_VERSION
