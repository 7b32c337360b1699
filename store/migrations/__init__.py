"""Schema versioning: ordered, frozen steps, one module each, applied in one transaction.

A step holds its DDL as literals and imports nothing of the live store (only `_sql`, which
splits a script), so editing the live modules never changes what an old step does. A step
that changes what the rollups count does not rebuild them: it marks them stale (a row in
`rollups_stale`), and the runner rebuilds them once, with today's queries, after the last
step, then drops the mark. A fresh store has nothing to count, so it only drops the mark.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy import Connection, Engine

from store.errors import SchemaTooNewError
from store.migrations import (
    v01_initial,
    v02_embedding_cache,
    v03_people_links,
    v04_compact_vector_ids,
    v05_resumable_runs,
    v06_rollups_kept,
    v07_email,
    v08_addresses,
    v09_concepts,
    v10_done_items_say_so,
    v11_side_channels,
    v12_settled_names,
    v13_person_merges,
    v14_decision_status,
    v15_changes,
    v16_asked_by,
    v17_drafts_brought_in_line,
    v18_settled_by,
    v19_confidence,
    v20_change_confidence,
)

Step = Callable[[Connection], None]

MIGRATIONS: list[tuple[str, Step]] = [
    (v01_initial.NAME, v01_initial.upgrade),
    (v02_embedding_cache.NAME, v02_embedding_cache.upgrade),
    (v03_people_links.NAME, v03_people_links.upgrade),
    (v04_compact_vector_ids.NAME, v04_compact_vector_ids.upgrade),
    (v05_resumable_runs.NAME, v05_resumable_runs.upgrade),
    (v06_rollups_kept.NAME, v06_rollups_kept.upgrade),
    (v07_email.NAME, v07_email.upgrade),
    (v08_addresses.NAME, v08_addresses.upgrade),
    (v09_concepts.NAME, v09_concepts.upgrade),
    (v10_done_items_say_so.NAME, v10_done_items_say_so.upgrade),
    (v11_side_channels.NAME, v11_side_channels.upgrade),
    (v12_settled_names.NAME, v12_settled_names.upgrade),
    (v13_person_merges.NAME, v13_person_merges.upgrade),
    (v14_decision_status.NAME, v14_decision_status.upgrade),
    (v15_changes.NAME, v15_changes.upgrade),
    (v16_asked_by.NAME, v16_asked_by.upgrade),
    (v17_drafts_brought_in_line.NAME, v17_drafts_brought_in_line.upgrade),
    (v18_settled_by.NAME, v18_settled_by.upgrade),
    (v19_confidence.NAME, v19_confidence.upgrade),
    (v20_change_confidence.NAME, v20_change_confidence.upgrade),
]

SCHEMA_VERSION = len(MIGRATIONS)

# The table steps create to mark the rollups stale (steps 6 and 8 name it literally: keep it).
ROLLUPS_STALE = "rollups_stale"


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
        upgrade(conn)
        return SCHEMA_VERSION


def upgrade(conn: Connection, target: int = SCHEMA_VERSION) -> None:
    """Apply the steps after the recorded version up to `target` in the caller's transaction,
    record each, and settle the rollups (rebuilt only on reaching SCHEMA_VERSION: today's
    queries need today's schema; below it the mark stays for the upgrade that gets there)."""
    start = current_version(conn)
    if start == 0:
        conn.exec_driver_sql(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
    for number in range(start + 1, target + 1):
        name, step = MIGRATIONS[number - 1]
        step(conn)
        conn.exec_driver_sql(
            "INSERT INTO schema_migrations (version, name, applied_at) "
            "VALUES (?, ?, datetime('now'))",
            (number, name),
        )
        conn.exec_driver_sql(f"PRAGMA user_version = {number}")
    if _rollups_marked_stale(conn) and (start == 0 or target == SCHEMA_VERSION):
        if start > 0:
            _rebuild_rollups(conn)
        conn.exec_driver_sql(f"DROP TABLE {ROLLUPS_STALE}")


def _rollups_marked_stale(conn: Connection) -> bool:
    return (
        conn.exec_driver_sql(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (ROLLUPS_STALE,)
        ).first()
        is not None
    )


def _rebuild_rollups(conn: Connection) -> None:
    """The one call into live code: the rollups as today's queries count them."""
    from store import reports  # (imported late: reports reads most of the store)

    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    reports.rebuild(conn, now)
