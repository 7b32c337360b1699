"""Schema 19: how sure memo is of a decision or action item, and what that makes it.

`confidence` is the probability the extractor gave it (null: rules or a model that gave
none), `model_version` the judge that gave it. `state` is `asserted` (a fact), `proposed`
(waits for the user's yes or no: a fact whose text says "(unconfirmed)", before its status)
or `rejected` (the user said no: kept, never a fact, so neither searched nor embedded);
`reviewed_by` is the MEMO_USER who accepted, edited or rejected it. Facts stored before this
step were shown as facts, so they stay asserted. A change of state re-indexes the fact.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "how sure memo is of a decision or action item, and its review"

COLUMNS = """
ALTER TABLE decisions ADD COLUMN confidence REAL;
ALTER TABLE decisions ADD COLUMN state TEXT NOT NULL DEFAULT 'asserted'
    CHECK (state IN ('asserted', 'proposed', 'rejected'));
ALTER TABLE decisions ADD COLUMN model_version TEXT;
ALTER TABLE decisions ADD COLUMN reviewed_by TEXT;
ALTER TABLE action_items ADD COLUMN confidence REAL;
ALTER TABLE action_items ADD COLUMN state TEXT NOT NULL DEFAULT 'asserted'
    CHECK (state IN ('asserted', 'proposed', 'rejected'));
ALTER TABLE action_items ADD COLUMN model_version TEXT;
ALTER TABLE action_items ADD COLUMN reviewed_by TEXT;
CREATE INDEX decisions_state ON decisions(state) WHERE state != 'asserted';
CREATE INDEX action_items_state ON action_items(state) WHERE state != 'asserted';
"""

# Step 14's view, with a proposed fact labelled and a rejected one left out.
FACTS_VIEW = """CREATE VIEW facts AS
SELECT (1 << 32) | d.id AS fact_key, 'decision' AS fact_type, d.id AS fact_id,
       d.description || CASE WHEN coalesce(d.reasoning, '') = '' THEN ''
                             ELSE ' Reasoning: ' || d.reasoning END
       || CASE WHEN coalesce(pd.name, d.decided_by, '') = '' THEN ''
               ELSE ' (decided by ' || coalesce(pd.name, d.decided_by) || ')' END
       || CASE WHEN d.state = 'proposed' THEN ' (unconfirmed)' ELSE '' END
       || CASE d.status WHEN 'superseded' THEN ' (superseded)'
                        WHEN 'retracted' THEN ' (retracted)' ELSE '' END AS text,
       d.capture_id, c.title AS capture_title, c.occurred_at, d.captured_at,
       d.source_type, d.source_id, d.line_start, d.line_end,
       d.triggered_by_user, d.triggered_by_agent
FROM decisions d JOIN captures c ON c.id = d.capture_id
LEFT JOIN people pd ON pd.id = d.person_id
WHERE d.state != 'rejected'
UNION ALL
SELECT (2 << 32) | a.id, 'action_item', a.id,
       a.description
       || CASE WHEN coalesce(pa.name, a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || coalesce(pa.name, a.assignee_raw) || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END
       || CASE WHEN a.state = 'proposed' THEN ' (unconfirmed)' ELSE '' END
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END,
       a.capture_id, c.title, c.occurred_at, a.captured_at,
       a.source_type, a.source_id, a.line_start, a.line_end,
       a.triggered_by_user, a.triggered_by_agent
FROM action_items a JOIN captures c ON c.id = a.capture_id
LEFT JOIN people pa ON pa.id = a.person_id
WHERE a.state != 'rejected'
UNION ALL
SELECT (3 << 32) | c.id, 'summary', c.id, c.summary,
       c.id, c.title, c.occurred_at, c.captured_at,
       c.source_type, c.source_id, 1, c.line_count,
       c.triggered_by_user, c.triggered_by_agent
FROM captures c WHERE c.summary IS NOT NULL AND c.summary != ''
UNION ALL
SELECT (4 << 32) | e.id, 'excerpt', e.id, e.text,
       e.capture_id, c.title, c.occurred_at, e.captured_at,
       e.source_type, e.source_id, e.line_start, e.line_end,
       e.triggered_by_user, e.triggered_by_agent
FROM excerpts e JOIN captures c ON c.id = e.capture_id
UNION ALL
SELECT (5 << 32) | n.id, 'client_note', n.id, cl.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN clients cl ON cl.id = n.client_id WHERE n.kind = 'client'
UNION ALL
SELECT (6 << 32) | n.id, 'project_note', n.id, p.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN projects p ON p.id = n.project_id WHERE n.kind = 'project'
UNION ALL
SELECT (7 << 32) | g.id, 'digest', g.id, g.body,
       NULL, NULL, NULL, g.captured_at,
       g.source_type, g.source_id, NULL, NULL,
       g.triggered_by_user, g.triggered_by_agent
FROM digests g;
"""

TRIGGERS = """
DROP TRIGGER decisions_decision_au;
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id, status, subject, state
ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text)
    SELECT fact_key, text || ' ' || NEW.subject FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
DROP TRIGGER action_items_action_item_au;
CREATE TRIGGER action_items_action_item_au
AFTER UPDATE OF description, assignee_raw, due_date, status, person_id, state
ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, COLUMNS)
    conn.exec_driver_sql("DROP VIEW facts")
    run_script(conn, FACTS_VIEW)
    run_script(conn, TRIGGERS)
