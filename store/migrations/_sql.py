"""Running a migration's script: the one helper the frozen steps share.

It only splits a script into statements and runs them; it must never learn anything about
the schema, so that no edit here can change what an old step creates.
"""

from __future__ import annotations

from collections.abc import Iterator

import sqlean
from sqlalchemy import Connection


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


def run_script(conn: Connection, script: str) -> None:
    """Run each statement of `script` in the caller's transaction."""
    for statement in split_sql(script):
        conn.exec_driver_sql(statement)
