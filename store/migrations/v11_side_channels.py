"""Schema 11: a meeting's chat log, captured from the file saved beside its transcript,
points at the meeting it was the side channel of (deleting the meeting unlinks it).

Frozen: literal DDL, exactly as memo cbc16cc ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "a meeting's chat log is its side channel"

DDL = """
ALTER TABLE captures ADD COLUMN channel_of INTEGER;
CREATE INDEX captures_channel ON captures(channel_of);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
