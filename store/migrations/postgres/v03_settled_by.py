"""PostgreSQL schema 3: who said who a name is (SQLite's step 18): `settled_by` on
decisions and action items.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

NAME = "who settled a decision's or action item's name (SQLite's step 18)"

COLUMNS = """
ALTER TABLE decisions ADD COLUMN settled_by TEXT;
ALTER TABLE action_items ADD COLUMN settled_by TEXT;
"""


def upgrade(conn: Connection) -> None:
    conn.exec_driver_sql(COLUMNS)
