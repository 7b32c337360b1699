"""Schema 8: email addresses belong to people (or are proposed for one); the people rollup
counts each person's mail.

The new rollup columns are filled by the runner's rebuild after the last step (this step
marks the rollups stale: a step must never call live code).

Frozen: literal DDL, as memo 3faf5a5 ran it. Memo 63c23e7 and 27285c2 ran it without
`person_addresses.settled`; step 17 brings their stores in line. Never edit it.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "email addresses of people; mail in the people rollup"

DDL = """
CREATE TABLE person_addresses (
    address TEXT PRIMARY KEY,
    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    proposed_person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    display_name TEXT NOT NULL DEFAULT '',
    settled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX person_addresses_person ON person_addresses(person_id);
ALTER TABLE people_report ADD COLUMN emails_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE people_report ADD COLUMN messages_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE people_report ADD COLUMN messages_received INTEGER NOT NULL DEFAULT 0;
ALTER TABLE people_report ADD COLUMN first_contact TEXT;
ALTER TABLE people_report ADD COLUMN last_contact TEXT;
ALTER TABLE people_report ADD COLUMN correspondents_json TEXT NOT NULL DEFAULT '[]';
"""

# The mark the runner looks for (store.migrations.ROLLUPS_STALE).
MARK_ROLLUPS_STALE = """
CREATE TABLE IF NOT EXISTS rollups_stale (marked_by INTEGER PRIMARY KEY);
INSERT OR IGNORE INTO rollups_stale (marked_by) VALUES (8);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
    run_script(conn, MARK_ROLLUPS_STALE)
