"""Schema 15: what a decision is about, and changes found across meetings.

A decision's subject words find the later decision that replaces it, and are searched with
it ("Let's bring it back to forty." is found by "robots" when the turn before it said
robots; the words are indexed, not shown). A change is a decision superseded by a later
one, or an action item closed by later evidence. A strong change is applied with a note and
can be undone; a weak one waits, proposed, for the user. Deleting the evidence (its meeting
or its decision) takes an applied change back.

Frozen: literal DDL, as memo 8286c19 ran it. Memo e9199c3 ran it without the decision
triggers that index the subject; step 17 brings its stores in line. Never edit it.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "decision subjects; changes across meetings, applied or proposed"

DDL = """
ALTER TABLE decisions ADD COLUMN subject TEXT NOT NULL DEFAULT '';
CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('supersedes', 'closes')),
    old_decision_id INTEGER REFERENCES decisions(id) ON DELETE CASCADE,
    old_item_id INTEGER REFERENCES action_items(id) ON DELETE CASCADE,
    new_decision_id INTEGER REFERENCES decisions(id) ON DELETE CASCADE,
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    line_start INTEGER,
    line_end INTEGER,
    evidence TEXT NOT NULL,
    reason TEXT NOT NULL,
    strength TEXT NOT NULL CHECK (strength IN ('strong', 'weak')),
    status TEXT NOT NULL CHECK (status IN ('applied', 'proposed', 'rejected', 'undone')),
    previous_status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    decided_at TEXT,
    decided_by TEXT,
    CHECK ((kind = 'supersedes' AND old_decision_id IS NOT NULL AND new_decision_id IS NOT NULL)
        OR (kind = 'closes' AND old_item_id IS NOT NULL))
);
CREATE INDEX changes_status ON changes(status);
CREATE INDEX changes_old_decision ON changes(old_decision_id);
CREATE INDEX changes_old_item ON changes(old_item_id);
CREATE INDEX changes_new_decision ON changes(new_decision_id);
CREATE INDEX changes_capture ON changes(capture_id);
CREATE TRIGGER changes_taken_back BEFORE DELETE ON changes WHEN OLD.status = 'applied' BEGIN
    UPDATE decisions SET status = OLD.previous_status, superseded_by = NULL
    WHERE OLD.kind = 'supersedes' AND id = OLD.old_decision_id AND status = 'superseded'
      AND (superseded_by IS NULL OR superseded_by = OLD.new_decision_id);
    UPDATE action_items SET status = OLD.previous_status
    WHERE OLD.kind = 'closes' AND id = OLD.old_item_id AND status = 'done';
END;
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
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
