"""Schema 6: the rollups (people_report, projects_report) are rebuilt with every write that
changes them; before, only after agent runs. A store from before gets them filled once.

The filling is not done here: this step marks the rollups stale, and the runner rebuilds
them once, with today's queries, after the last step (a step must never call live code).

Frozen: never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "rollups kept with every write"

# The mark the runner looks for (store.migrations.ROLLUPS_STALE).
MARK_ROLLUPS_STALE = """
CREATE TABLE IF NOT EXISTS rollups_stale (marked_by INTEGER PRIMARY KEY);
INSERT OR IGNORE INTO rollups_stale (marked_by) VALUES (6);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, MARK_ROLLUPS_STALE)
