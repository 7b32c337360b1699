"""Schema 17: stores made while steps 8 and 15 were still being written get what those steps
create now.

Steps 8 and 15 were edited after they had shipped (memo 3faf5a5 added
`person_addresses.settled` to step 8; memo 8286c19 made step 15's decision triggers index
the decision's subject), so a store that ran the first drafts (memo 63c23e7, 27285c2,
e9199c3) kept their schema: it lacked the column every address lookup reads, and its
decisions were indexed without their subjects. Each repair runs only where it is missing;
other stores are left as they are.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "stores from the first drafts of steps 8 and 15 brought in line"

# Rebuilt with step 8's table (the column in its place, as a fresh store has it).
ADDRESSES_SETTLED = """
ALTER TABLE person_addresses RENAME TO person_addresses_draft;
CREATE TABLE person_addresses (
    address TEXT PRIMARY KEY,
    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    proposed_person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    display_name TEXT NOT NULL DEFAULT '',
    settled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
INSERT INTO person_addresses (address, person_id, proposed_person_id, display_name, created_at)
    SELECT address, person_id, proposed_person_id, display_name, created_at
    FROM person_addresses_draft;
DROP TABLE person_addresses_draft;
CREATE INDEX person_addresses_person ON person_addresses(person_id);
"""

# Step 15's decision triggers, and the decisions with a subject indexed with it (their
# text and vectors are unchanged: only the keyword index gains the subject's words).
SUBJECT_INDEXED = """
DROP TRIGGER IF EXISTS decisions_decision_ai;
CREATE TRIGGER decisions_decision_ai AFTER INSERT ON decisions BEGIN
    INSERT INTO facts_fts (rowid, text)
    SELECT fact_key, text || ' ' || NEW.subject FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
DROP TRIGGER IF EXISTS decisions_decision_au;
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id, status, subject ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text)
    SELECT fact_key, text || ' ' || NEW.subject FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
DELETE FROM facts_fts WHERE rowid IN (SELECT (1 << 32) | id FROM decisions WHERE subject != '');
INSERT INTO facts_fts (rowid, text)
    SELECT f.fact_key, f.text || ' ' || d.subject
    FROM facts f JOIN decisions d ON d.id = f.fact_id
    WHERE f.fact_type = 'decision' AND d.subject != '';
"""


def upgrade(conn: Connection) -> None:
    columns = {row[1] for row in conn.exec_driver_sql("PRAGMA table_info(person_addresses)")}
    if "settled" not in columns:
        run_script(conn, ADDRESSES_SETTLED)
    indexing = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'decisions_decision_ai'"
    ).scalar_one()
    if "NEW.subject" not in indexing:
        run_script(conn, SUBJECT_INDEXED)
