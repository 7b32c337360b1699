"""Schema 9: concepts the user names; their living documents are sections like a
project's.

Frozen: literal DDL, exactly as memo 27285c2 ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "concepts"

DDL = """
CREATE TABLE concepts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
