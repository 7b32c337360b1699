"""PostgreSQL schema 5: how sure memo is of a change across meetings (SQLite's step 20):
`confidence` and `model_version` on changes, from the learned closer or linker.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

NAME = "how sure memo is of a change across meetings (SQLite's step 20)"

COLUMNS = """
ALTER TABLE changes ADD COLUMN confidence DOUBLE PRECISION;
ALTER TABLE changes ADD COLUMN model_version TEXT;
"""


def upgrade(conn: Connection) -> None:
    conn.exec_driver_sql(COLUMNS)
