"""Schema 13: merging two people remembers what it moved, so a split can put it back.

Frozen: literal DDL, exactly as memo 77e7e2e ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "merges of people, kept so a split can undo them"

DDL = """
CREATE TABLE person_merges (
    id INTEGER PRIMARY KEY,
    kept_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    merged_name TEXT NOT NULL,
    merged_email TEXT,
    merged_created_at TEXT NOT NULL,
    moved_json TEXT NOT NULL,
    merged_at TEXT NOT NULL,
    merged_by TEXT NOT NULL,
    split_at TEXT
);
CREATE INDEX person_merges_kept ON person_merges(kept_id);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
