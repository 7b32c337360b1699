"""Schema 1: the tables of DESIGN.md, the facts view, its search indexes and their triggers.

Frozen: literal DDL, exactly as memo 8225524 ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "initial schema"

# Every fact row says where it came from and who or what produced it (source_type through
# triggered_by_agent).
TABLES = """
CREATE TABLE clients (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);
CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    client_id INTEGER REFERENCES clients(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE entity_aliases (
    id INTEGER PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('person', 'project', 'client')),
    entity_id INTEGER,
    alias TEXT NOT NULL COLLATE NOCASE,
    confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    auto_resolved INTEGER NOT NULL DEFAULT 0,
    confirmed_by TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (entity_type, alias)
);
CREATE TABLE captures (
    id INTEGER PRIMARY KEY,
    source_kind TEXT NOT NULL,
    source_path TEXT,
    source_format TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    signature BLOB,
    title TEXT NOT NULL,
    occurred_at TEXT,
    raw_text TEXT NOT NULL,
    text TEXT NOT NULL,
    line_count INTEGER NOT NULL,
    char_count INTEGER NOT NULL,
    summary TEXT,
    meta_json TEXT NOT NULL DEFAULT '{}',
    extractor TEXT NOT NULL,
    truncated INTEGER NOT NULL DEFAULT 0,
    replaced_at TEXT,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
CREATE INDEX captures_source_path ON captures(source_path);
CREATE INDEX captures_occurred_at ON captures(occurred_at);
CREATE TABLE capture_projects (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    linked_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (capture_id, project_id)
);
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY,
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    description TEXT NOT NULL,
    reasoning TEXT,
    decided_by TEXT,
    line_start INTEGER,
    line_end INTEGER,
    evidence_quote TEXT,
    verified INTEGER NOT NULL DEFAULT 1,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
CREATE INDEX decisions_capture ON decisions(capture_id);
CREATE TABLE action_items (
    id INTEGER PRIMARY KEY,
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    description TEXT NOT NULL,
    assignee_raw TEXT,
    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    pending INTEGER NOT NULL DEFAULT 0,
    due_date TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'dropped')),
    decision_id INTEGER REFERENCES decisions(id) ON DELETE SET NULL,
    line_start INTEGER,
    line_end INTEGER,
    evidence_quote TEXT,
    verified INTEGER NOT NULL DEFAULT 1,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
CREATE INDEX action_items_capture ON action_items(capture_id);
CREATE INDEX action_items_person ON action_items(person_id);
CREATE TABLE excerpts (
    id INTEGER PRIMARY KEY,
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
CREATE INDEX excerpts_capture ON excerpts(capture_id);
CREATE TABLE context_notes (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('client', 'project')),
    client_id INTEGER REFERENCES clients(id) ON DELETE CASCADE,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL),
    CHECK ((kind = 'client') = (client_id IS NOT NULL)),
    CHECK ((kind = 'project') = (project_id IS NOT NULL))
);
CREATE TABLE digests (
    id INTEGER PRIMARY KEY,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    body TEXT NOT NULL,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
CREATE TABLE sections (
    id INTEGER PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('person', 'project', 'client', 'concept')),
    entity_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    body TEXT NOT NULL,
    cited_fact_keys TEXT NOT NULL DEFAULT '[]',
    edited_by TEXT NOT NULL CHECK (edited_by IN ('agent', 'user')),
    updated_at TEXT NOT NULL,
    UNIQUE (entity_type, entity_id, key)
);
CREATE TABLE people_report (
    person_id INTEGER PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    aliases_json TEXT NOT NULL DEFAULT '[]',
    open_action_items INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL DEFAULT 0,
    meetings INTEGER NOT NULL DEFAULT 0,
    last_seen TEXT,
    refreshed_at TEXT NOT NULL
);
CREATE TABLE projects_report (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    client_name TEXT,
    captures INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL DEFAULT 0,
    open_action_items INTEGER NOT NULL DEFAULT 0,
    last_activity TEXT,
    refreshed_at TEXT NOT NULL
);
CREATE TABLE agent_sessions (
    id INTEGER PRIMARY KEY,
    agent_type TEXT NOT NULL,
    entity_type TEXT,
    entity_id INTEGER,
    status TEXT NOT NULL CHECK (status IN
        ('queued', 'running', 'waiting_for_user', 'completed', 'failed', 'interrupted')),
    model TEXT,
    error TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_microdollars INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE TABLE agent_steps (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    step_index INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    UNIQUE (session_id, step_index)
);
CREATE TABLE agent_tool_calls (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    step_id INTEGER REFERENCES agent_steps(id) ON DELETE CASCADE,
    call_id TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    arguments_json TEXT NOT NULL,
    result_json TEXT,
    mutating INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    UNIQUE (session_id, call_id)
);
CREATE TABLE agent_events (
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE agent_decisions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    tool_call_id INTEGER REFERENCES agent_tool_calls(id) ON DELETE CASCADE,
    decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected', 'skipped')),
    decided_by TEXT NOT NULL,
    payload_json TEXT NOT NULL DEFAULT '{}',
    decided_at TEXT NOT NULL
);
CREATE TABLE llm_calls (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    trigger TEXT NOT NULL,
    capture_id INTEGER,
    run_id INTEGER,
    status TEXT NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_microdollars INTEGER NOT NULL DEFAULT 0,
    latency_ms INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE embedding_space (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    model TEXT,
    dim INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE fact_embeddings (
    fact_key INTEGER PRIMARY KEY,
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedded_at TEXT NOT NULL
);
"""

# Every fact as one row. Its key in the search indexes is its arm's code in the high bits
# and its row id below (store.schema_v1.FACT_CODES holds the codes).
FACTS_VIEW = """
CREATE VIEW facts AS
SELECT (1 << 32) | d.id AS fact_key, 'decision' AS fact_type, d.id AS fact_id,
       d.description || CASE WHEN coalesce(d.reasoning, '') = '' THEN ''
                             ELSE ' Reasoning: ' || d.reasoning END
       || CASE WHEN coalesce(d.decided_by, '') = '' THEN ''
               ELSE ' (decided by ' || d.decided_by || ')' END AS text,
       d.capture_id, c.title AS capture_title, c.occurred_at, d.captured_at,
       d.source_type, d.source_id, d.line_start, d.line_end,
       d.triggered_by_user, d.triggered_by_agent
FROM decisions d JOIN captures c ON c.id = d.capture_id
UNION ALL
SELECT (2 << 32) | a.id, 'action_item', a.id,
       a.description
       || CASE WHEN coalesce(a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || a.assignee_raw || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END,
       a.capture_id, c.title, c.occurred_at, a.captured_at,
       a.source_type, a.source_id, a.line_start, a.line_end,
       a.triggered_by_user, a.triggered_by_agent
FROM action_items a JOIN captures c ON c.id = a.capture_id
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

SEARCH_INDEXES = """
CREATE VIRTUAL TABLE facts_fts USING fts5(
    text, content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE fact_vectors USING vec0(embedding float[384] distance_metric=cosine);
INSERT INTO embedding_space (id, model, dim, updated_at) VALUES (1, NULL, 384, datetime('now'));
"""

# Keep facts_fts (and drop stale vectors) in the transaction that changes a fact row; the
# indexed text is read back from the facts view, so index and view never disagree.
INDEX_TRIGGERS = """
CREATE TRIGGER decisions_decision_ai AFTER INSERT ON decisions  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id; END;
CREATE TRIGGER decisions_decision_au AFTER UPDATE OF description, reasoning, decided_by ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
CREATE TRIGGER decisions_decision_ad AFTER DELETE ON decisions BEGIN DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id); END;

CREATE TRIGGER action_items_action_item_ai AFTER INSERT ON action_items  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id; END;
CREATE TRIGGER action_items_action_item_au AFTER UPDATE OF description, assignee_raw, due_date ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
CREATE TRIGGER action_items_action_item_ad AFTER DELETE ON action_items BEGIN DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id); END;

CREATE TRIGGER captures_summary_ai AFTER INSERT ON captures WHEN coalesce(NEW.summary, '') != '' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id; END;
CREATE TRIGGER captures_summary_au AFTER UPDATE OF summary ON captures BEGIN
    DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id;
END;
CREATE TRIGGER captures_summary_ad AFTER DELETE ON captures BEGIN DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id); END;

CREATE TRIGGER excerpts_excerpt_ai AFTER INSERT ON excerpts  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id; END;
CREATE TRIGGER excerpts_excerpt_au AFTER UPDATE OF text ON excerpts BEGIN
    DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id;
END;
CREATE TRIGGER excerpts_excerpt_ad AFTER DELETE ON excerpts BEGIN DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id); END;

CREATE TRIGGER context_notes_client_note_ai AFTER INSERT ON context_notes WHEN NEW.kind = 'client' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id; END;
CREATE TRIGGER context_notes_client_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id;
END;
CREATE TRIGGER context_notes_client_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id); END;

CREATE TRIGGER context_notes_project_note_ai AFTER INSERT ON context_notes WHEN NEW.kind = 'project' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id; END;
CREATE TRIGGER context_notes_project_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id;
END;
CREATE TRIGGER context_notes_project_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id); END;

CREATE TRIGGER digests_digest_ai AFTER INSERT ON digests  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id; END;
CREATE TRIGGER digests_digest_au AFTER UPDATE OF body ON digests BEGIN
    DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id;
END;
CREATE TRIGGER digests_digest_ad AFTER DELETE ON digests BEGIN DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id); END;
"""  # noqa: E501


def upgrade(conn: Connection) -> None:
    run_script(conn, TABLES)
    run_script(conn, FACTS_VIEW)
    run_script(conn, SEARCH_INDEXES)
    run_script(conn, INDEX_TRIGGERS)
