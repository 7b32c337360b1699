"""Schema 3: who decided is linked like who owes; meetings know who attended.

Frozen: literal DDL, exactly as memo aecfac1 ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "people linked to decisions and meetings"

DDL = """
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
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
