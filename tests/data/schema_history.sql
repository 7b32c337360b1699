-- The schema a fresh memo store had after each commit that changed it, oldest first,
-- each written as its changes from the one before. Written by make_schema_history.py:
-- do not edit. Shadow tables of virtual tables and SQLite's own entries are left out.

-- schema 1 at 8225524 (2026-11-29): Foundation: package, store (sqlean + sqlite-vec, facts vi...
-- add table schema_migrations
CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
-- add table clients
CREATE TABLE clients (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);
-- add table projects
CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    client_id INTEGER REFERENCES clients(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
-- add table people
CREATE TABLE people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT,
    created_at TEXT NOT NULL
);
-- add table entity_aliases
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
-- add table captures
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
-- add index captures_source_path
CREATE INDEX captures_source_path ON captures(source_path);
-- add index captures_occurred_at
CREATE INDEX captures_occurred_at ON captures(occurred_at);
-- add table capture_projects
CREATE TABLE capture_projects (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    linked_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (capture_id, project_id)
);
-- add table decisions
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
-- add index decisions_capture
CREATE INDEX decisions_capture ON decisions(capture_id);
-- add table action_items
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
-- add index action_items_capture
CREATE INDEX action_items_capture ON action_items(capture_id);
-- add index action_items_person
CREATE INDEX action_items_person ON action_items(person_id);
-- add table excerpts
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
-- add index excerpts_capture
CREATE INDEX excerpts_capture ON excerpts(capture_id);
-- add table context_notes
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
-- add table digests
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
-- add table sections
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
-- add table people_report
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
-- add table projects_report
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
-- add table agent_sessions
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
-- add table agent_steps
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
-- add table agent_tool_calls
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
-- add table agent_events
CREATE TABLE agent_events (
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
-- add table agent_decisions
CREATE TABLE agent_decisions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    tool_call_id INTEGER REFERENCES agent_tool_calls(id) ON DELETE CASCADE,
    decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected', 'skipped')),
    decided_by TEXT NOT NULL,
    payload_json TEXT NOT NULL DEFAULT '{}',
    decided_at TEXT NOT NULL
);
-- add table llm_calls
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
-- add table embedding_space
CREATE TABLE embedding_space (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    model TEXT,
    dim INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
-- add table fact_embeddings
CREATE TABLE fact_embeddings (
    fact_key INTEGER PRIMARY KEY,
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedded_at TEXT NOT NULL
);
-- add view facts
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
-- add table facts_fts
CREATE VIRTUAL TABLE facts_fts USING fts5(
    text, content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
-- add table fact_vectors
CREATE VIRTUAL TABLE fact_vectors USING vec0(embedding float[384] distance_metric=cosine);
-- add trigger decisions_decision_ai
CREATE TRIGGER decisions_decision_ai AFTER INSERT ON decisions  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id; END;
-- add trigger decisions_decision_au
CREATE TRIGGER decisions_decision_au AFTER UPDATE OF description, reasoning, decided_by ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
-- add trigger decisions_decision_ad
CREATE TRIGGER decisions_decision_ad AFTER DELETE ON decisions BEGIN DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id); END;
-- add trigger action_items_action_item_ai
CREATE TRIGGER action_items_action_item_ai AFTER INSERT ON action_items  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id; END;
-- add trigger action_items_action_item_au
CREATE TRIGGER action_items_action_item_au AFTER UPDATE OF description, assignee_raw, due_date ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
-- add trigger action_items_action_item_ad
CREATE TRIGGER action_items_action_item_ad AFTER DELETE ON action_items BEGIN DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id); END;
-- add trigger captures_summary_ai
CREATE TRIGGER captures_summary_ai AFTER INSERT ON captures WHEN coalesce(NEW.summary, '') != '' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id; END;
-- add trigger captures_summary_au
CREATE TRIGGER captures_summary_au AFTER UPDATE OF summary ON captures BEGIN
    DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id;
END;
-- add trigger captures_summary_ad
CREATE TRIGGER captures_summary_ad AFTER DELETE ON captures BEGIN DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id); END;
-- add trigger excerpts_excerpt_ai
CREATE TRIGGER excerpts_excerpt_ai AFTER INSERT ON excerpts  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id; END;
-- add trigger excerpts_excerpt_au
CREATE TRIGGER excerpts_excerpt_au AFTER UPDATE OF text ON excerpts BEGIN
    DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id;
END;
-- add trigger excerpts_excerpt_ad
CREATE TRIGGER excerpts_excerpt_ad AFTER DELETE ON excerpts BEGIN DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id); END;
-- add trigger context_notes_client_note_ai
CREATE TRIGGER context_notes_client_note_ai AFTER INSERT ON context_notes WHEN NEW.kind = 'client' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id; END;
-- add trigger context_notes_client_note_au
CREATE TRIGGER context_notes_client_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id;
END;
-- add trigger context_notes_client_note_ad
CREATE TRIGGER context_notes_client_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id); END;
-- add trigger context_notes_project_note_ai
CREATE TRIGGER context_notes_project_note_ai AFTER INSERT ON context_notes WHEN NEW.kind = 'project' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id; END;
-- add trigger context_notes_project_note_au
CREATE TRIGGER context_notes_project_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id;
END;
-- add trigger context_notes_project_note_ad
CREATE TRIGGER context_notes_project_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id); END;
-- add trigger digests_digest_ai
CREATE TRIGGER digests_digest_ai AFTER INSERT ON digests  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id; END;
-- add trigger digests_digest_au
CREATE TRIGGER digests_digest_au AFTER UPDATE OF body ON digests BEGIN
    DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id;
END;
-- add trigger digests_digest_ad
CREATE TRIGGER digests_digest_ad AFTER DELETE ON digests BEGIN DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id); END;

-- schema 2 at f2fe765 (2026-11-29): Embeddings (issue 4, first part): fastembed lazily from a...
-- add table embedding_cache
CREATE TABLE embedding_cache (
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedding BLOB NOT NULL,
    PRIMARY KEY (content_hash, model)
);

-- schema 3 at aecfac1 (2026-11-29): Entity resolution (issue 4): part-by-part name similarity...
-- change table decisions
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
    triggered_by_agent TEXT, person_id INTEGER REFERENCES people(id) ON DELETE SET NULL, pending INTEGER NOT NULL DEFAULT 0,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- add index decisions_person
CREATE INDEX decisions_person ON decisions(person_id);
-- add index decisions_pending
CREATE INDEX decisions_pending ON decisions(decided_by) WHERE pending = 1;
-- add index action_items_pending
CREATE INDEX action_items_pending ON action_items(assignee_raw) WHERE pending = 1;
-- add index people_name
CREATE INDEX people_name ON people(name COLLATE NOCASE);
-- add table capture_people
CREATE TABLE capture_people (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    PRIMARY KEY (capture_id, person_id)
);
-- add index capture_people_person
CREATE INDEX capture_people_person ON capture_people(person_id);

-- schema 4 at d99b4c4 (2026-11-29): Vectors get small vec0 rowids (sqlite-vec 0.1.9 compares ...
-- change table embedding_space
CREATE TABLE embedding_space (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    model TEXT,
    dim INTEGER NOT NULL,
    updated_at TEXT NOT NULL
, epoch INTEGER NOT NULL DEFAULT 0);
-- change table fact_embeddings
CREATE TABLE "fact_embeddings" (
    id INTEGER PRIMARY KEY,
    fact_key INTEGER NOT NULL UNIQUE,
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedded_at TEXT NOT NULL
);
-- add trigger fact_embeddings_epoch_ai
CREATE TRIGGER fact_embeddings_epoch_ai AFTER INSERT ON fact_embeddings BEGIN
    UPDATE embedding_space SET epoch = epoch + 1 WHERE id = 1;
END;
-- add trigger fact_embeddings_epoch_ad
CREATE TRIGGER fact_embeddings_epoch_ad AFTER DELETE ON fact_embeddings BEGIN
    UPDATE embedding_space SET epoch = epoch + 1 WHERE id = 1;
END;
-- change trigger decisions_decision_au
CREATE TRIGGER decisions_decision_au AFTER UPDATE OF description, reasoning, decided_by ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
-- change trigger decisions_decision_ad
CREATE TRIGGER decisions_decision_ad AFTER DELETE ON decisions BEGIN DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id); END;
-- change trigger action_items_action_item_au
CREATE TRIGGER action_items_action_item_au AFTER UPDATE OF description, assignee_raw, due_date ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
-- change trigger action_items_action_item_ad
CREATE TRIGGER action_items_action_item_ad AFTER DELETE ON action_items BEGIN DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id); END;
-- change trigger captures_summary_au
CREATE TRIGGER captures_summary_au AFTER UPDATE OF summary ON captures BEGIN
    DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id;
END;
-- change trigger captures_summary_ad
CREATE TRIGGER captures_summary_ad AFTER DELETE ON captures BEGIN DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id); END;
-- change trigger excerpts_excerpt_au
CREATE TRIGGER excerpts_excerpt_au AFTER UPDATE OF text ON excerpts BEGIN
    DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id;
END;
-- change trigger excerpts_excerpt_ad
CREATE TRIGGER excerpts_excerpt_ad AFTER DELETE ON excerpts BEGIN DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id); END;
-- change trigger context_notes_client_note_au
CREATE TRIGGER context_notes_client_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id;
END;
-- change trigger context_notes_client_note_ad
CREATE TRIGGER context_notes_client_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id); END;
-- change trigger context_notes_project_note_au
CREATE TRIGGER context_notes_project_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id;
END;
-- change trigger context_notes_project_note_ad
CREATE TRIGGER context_notes_project_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id); END;
-- change trigger digests_digest_au
CREATE TRIGGER digests_digest_au AFTER UPDATE OF body ON digests BEGIN
    DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id;
END;
-- change trigger digests_digest_ad
CREATE TRIGGER digests_digest_ad AFTER DELETE ON digests BEGIN DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id); END;

-- schema 5 at a1ca962 (2026-11-30): Agents, first increment (issue 6): durable runs in the st...
-- change table agent_sessions
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
, spec_json TEXT NOT NULL DEFAULT '{}');
-- change table agent_steps
CREATE TABLE agent_steps (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    step_index INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    finished_at TEXT, message_json TEXT,
    UNIQUE (session_id, step_index)
);
-- add index agent_tool_calls_step
CREATE INDEX agent_tool_calls_step ON agent_tool_calls(step_id);
-- add index agent_decisions_session
CREATE INDEX agent_decisions_session ON agent_decisions(session_id);

-- schema 6 at 890ca33 (2026-11-30): Rollups: people_report and projects_report are rebuilt in...

-- schema 7 at ac1f2eb (2026-11-30): Email, first increment: memo capture reads mbox files, Ma...
-- add table email_messages
CREATE TABLE email_messages (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    thread_key TEXT NOT NULL,
    capture_id INTEGER REFERENCES captures(id) ON DELETE SET NULL,
    sent_at TEXT,
    subject TEXT NOT NULL,
    sender_name TEXT NOT NULL,
    sender_address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    refs_json TEXT NOT NULL,
    body TEXT NOT NULL,
    bulk_reason TEXT,
    list_id TEXT NOT NULL DEFAULT '',
    unsubscribe TEXT NOT NULL DEFAULT '',
    source_path TEXT,
    imported_at TEXT NOT NULL
);
-- add index email_messages_thread
CREATE INDEX email_messages_thread ON email_messages(thread_key);
-- add index email_messages_capture
CREATE INDEX email_messages_capture ON email_messages(capture_id);
-- add index email_messages_sender
CREATE INDEX email_messages_sender ON email_messages(sender_address);

-- schema 8 at 63c23e7 (2026-11-30): People from email: every participant's address kept, link...
-- change table people_report
CREATE TABLE people_report (
    person_id INTEGER PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    aliases_json TEXT NOT NULL DEFAULT '[]',
    open_action_items INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL DEFAULT 0,
    meetings INTEGER NOT NULL DEFAULT 0,
    last_seen TEXT,
    refreshed_at TEXT NOT NULL
, emails_json TEXT NOT NULL DEFAULT '[]', messages_sent INTEGER NOT NULL DEFAULT 0, messages_received INTEGER NOT NULL DEFAULT 0, first_contact TEXT, last_contact TEXT, correspondents_json TEXT NOT NULL DEFAULT '[]');
-- add table person_addresses
CREATE TABLE person_addresses (
    address TEXT PRIMARY KEY,
    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    proposed_person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    display_name TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
-- add index person_addresses_person
CREATE INDEX person_addresses_person ON person_addresses(person_id);

-- schema 9 at 27285c2 (2026-11-30): Concepts: memo concept add NAME, memo concepts [--json], ...
-- add table concepts
CREATE TABLE concepts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);

-- schema 9 at 3faf5a5 (2026-11-30): Email, after review: a message the parser chokes on (a da...
-- change table person_addresses
CREATE TABLE person_addresses (
    address TEXT PRIMARY KEY,
    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    proposed_person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    display_name TEXT NOT NULL DEFAULT '',
    settled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);

-- schema 10 at 067fdff (2026-12-01): Schema 10: a ticked-off action item's fact text ends '(do...
-- change view facts
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
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END,
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
-- change trigger action_items_action_item_au
CREATE TRIGGER action_items_action_item_au AFTER UPDATE OF description, assignee_raw, due_date, status ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;

-- schema 11 at cbc16cc (2026-12-01): Transcripts read by content, as real tools export them (i...
-- change table captures
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
    triggered_by_agent TEXT, channel_of INTEGER,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- add index captures_channel
CREATE INDEX captures_channel ON captures(channel_of);

-- schema 12 at 61e078f (2026-12-01): Settled names everywhere (issue 15): a decider or owner r...
-- change view facts
CREATE VIEW facts AS
SELECT (1 << 32) | d.id AS fact_key, 'decision' AS fact_type, d.id AS fact_id,
       d.description || CASE WHEN coalesce(d.reasoning, '') = '' THEN ''
                             ELSE ' Reasoning: ' || d.reasoning END
       || CASE WHEN coalesce(pd.name, d.decided_by, '') = '' THEN ''
               ELSE ' (decided by ' || coalesce(pd.name, d.decided_by) || ')' END AS text,
       d.capture_id, c.title AS capture_title, c.occurred_at, d.captured_at,
       d.source_type, d.source_id, d.line_start, d.line_end,
       d.triggered_by_user, d.triggered_by_agent
FROM decisions d JOIN captures c ON c.id = d.capture_id
LEFT JOIN people pd ON pd.id = d.person_id
UNION ALL
SELECT (2 << 32) | a.id, 'action_item', a.id,
       a.description
       || CASE WHEN coalesce(pa.name, a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || coalesce(pa.name, a.assignee_raw) || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END,
       a.capture_id, c.title, c.occurred_at, a.captured_at,
       a.source_type, a.source_id, a.line_start, a.line_end,
       a.triggered_by_user, a.triggered_by_agent
FROM action_items a JOIN captures c ON c.id = a.capture_id
LEFT JOIN people pa ON pa.id = a.person_id
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
-- change trigger decisions_decision_au
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
-- change trigger action_items_action_item_au
CREATE TRIGGER action_items_action_item_au
AFTER UPDATE OF description, assignee_raw, due_date, status, person_id ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
-- add trigger people_name_au
CREATE TRIGGER people_name_au AFTER UPDATE OF name ON people BEGIN
    UPDATE decisions SET person_id = person_id WHERE person_id = NEW.id;
    UPDATE action_items SET person_id = person_id WHERE person_id = NEW.id;
END;

-- schema 13 at 77e7e2e (2026-12-01): People merge and split (issue 15): memo people merge PERS...
-- add table person_merges
CREATE TABLE person_merges (
    id INTEGER PRIMARY KEY,
    kept_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    merged_name TEXT NOT NULL,
    merged_email TEXT,
    merged_created_at TEXT NOT NULL,
    moved_json TEXT NOT NULL,
    merged_at TEXT NOT NULL,
    merged_by TEXT NOT NULL,
    split_at TEXT
);
-- add index person_merges_kept
CREATE INDEX person_merges_kept ON person_merges(kept_id);

-- schema 14 at e10ab2d (2026-12-01): Extraction measured on meetings nobody tuned on (issue 16...
-- change table decisions
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
    triggered_by_agent TEXT, person_id INTEGER REFERENCES people(id) ON DELETE SET NULL, pending INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'current'
    CHECK (status IN ('current', 'superseded', 'retracted')), superseded_by INTEGER REFERENCES decisions(id) ON DELETE SET NULL,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- add index decisions_superseded_by
CREATE INDEX decisions_superseded_by ON decisions(superseded_by);
-- change view facts
CREATE VIEW facts AS
SELECT (1 << 32) | d.id AS fact_key, 'decision' AS fact_type, d.id AS fact_id,
       d.description || CASE WHEN coalesce(d.reasoning, '') = '' THEN ''
                             ELSE ' Reasoning: ' || d.reasoning END
       || CASE WHEN coalesce(pd.name, d.decided_by, '') = '' THEN ''
               ELSE ' (decided by ' || coalesce(pd.name, d.decided_by) || ')' END
       || CASE d.status WHEN 'superseded' THEN ' (superseded)'
                        WHEN 'retracted' THEN ' (retracted)' ELSE '' END AS text,
       d.capture_id, c.title AS capture_title, c.occurred_at, d.captured_at,
       d.source_type, d.source_id, d.line_start, d.line_end,
       d.triggered_by_user, d.triggered_by_agent
FROM decisions d JOIN captures c ON c.id = d.capture_id
LEFT JOIN people pd ON pd.id = d.person_id
UNION ALL
SELECT (2 << 32) | a.id, 'action_item', a.id,
       a.description
       || CASE WHEN coalesce(pa.name, a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || coalesce(pa.name, a.assignee_raw) || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END,
       a.capture_id, c.title, c.occurred_at, a.captured_at,
       a.source_type, a.source_id, a.line_start, a.line_end,
       a.triggered_by_user, a.triggered_by_agent
FROM action_items a JOIN captures c ON c.id = a.capture_id
LEFT JOIN people pa ON pa.id = a.person_id
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
-- change trigger decisions_decision_au
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id, status ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;

-- schema 15 at e9199c3 (2026-12-01): Decision threads across meetings: a later decision that m...
-- change table decisions
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
    triggered_by_agent TEXT, person_id INTEGER REFERENCES people(id) ON DELETE SET NULL, pending INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'current'
    CHECK (status IN ('current', 'superseded', 'retracted')), superseded_by INTEGER REFERENCES decisions(id) ON DELETE SET NULL, subject TEXT NOT NULL DEFAULT '',
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- add table changes
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
-- add index changes_status
CREATE INDEX changes_status ON changes(status);
-- add index changes_old_decision
CREATE INDEX changes_old_decision ON changes(old_decision_id);
-- add index changes_old_item
CREATE INDEX changes_old_item ON changes(old_item_id);
-- add index changes_new_decision
CREATE INDEX changes_new_decision ON changes(new_decision_id);
-- add index changes_capture
CREATE INDEX changes_capture ON changes(capture_id);
-- add trigger changes_taken_back
CREATE TRIGGER changes_taken_back BEFORE DELETE ON changes WHEN OLD.status = 'applied' BEGIN
    UPDATE decisions SET status = OLD.previous_status, superseded_by = NULL
    WHERE OLD.kind = 'supersedes' AND id = OLD.old_decision_id AND status = 'superseded'
      AND (superseded_by IS NULL OR superseded_by = OLD.new_decision_id);
    UPDATE action_items SET status = OLD.previous_status
    WHERE OLD.kind = 'closes' AND id = OLD.old_item_id AND status = 'done';
END;

-- schema 15 at 8286c19 (2026-12-01): A decision is searched by its subject too (the words of t...
-- change trigger decisions_decision_ai
CREATE TRIGGER decisions_decision_ai AFTER INSERT ON decisions BEGIN
    INSERT INTO facts_fts (rowid, text)
    SELECT fact_key, text || ' ' || NEW.subject FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
-- change trigger decisions_decision_au
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

-- schema 16 at e7aeb16 (2026-12-01): A person is owed what they asked others for: who asked fo...
-- change table action_items
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
    triggered_by_agent TEXT, asked_by TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);

-- schema 17 at e9b4009 (2026-12-02): Frozen migrations: one module per step with literal DDL, ...

-- schema 18 at fcb9082 (2026-12-03): Team store, the rest of many writers: an agent's lock key...
-- change table decisions
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
    triggered_by_agent TEXT, person_id INTEGER REFERENCES people(id) ON DELETE SET NULL, pending INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'current'
    CHECK (status IN ('current', 'superseded', 'retracted')), superseded_by INTEGER REFERENCES decisions(id) ON DELETE SET NULL, subject TEXT NOT NULL DEFAULT '', settled_by TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- change table action_items
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
    triggered_by_agent TEXT, asked_by TEXT, settled_by TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);

-- schema 19 at 6793aa1 (2026-12-05): Learned confidence for the offline record (issue 44, firs...
-- change table decisions
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
    triggered_by_agent TEXT, person_id INTEGER REFERENCES people(id) ON DELETE SET NULL, pending INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'current'
    CHECK (status IN ('current', 'superseded', 'retracted')), superseded_by INTEGER REFERENCES decisions(id) ON DELETE SET NULL, subject TEXT NOT NULL DEFAULT '', settled_by TEXT, confidence REAL, state TEXT NOT NULL DEFAULT 'asserted'
    CHECK (state IN ('asserted', 'proposed', 'rejected')), model_version TEXT, reviewed_by TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- change table action_items
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
    triggered_by_agent TEXT, asked_by TEXT, settled_by TEXT, confidence REAL, state TEXT NOT NULL DEFAULT 'asserted'
    CHECK (state IN ('asserted', 'proposed', 'rejected')), model_version TEXT, reviewed_by TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)
);
-- add index decisions_state
CREATE INDEX decisions_state ON decisions(state) WHERE state != 'asserted';
-- add index action_items_state
CREATE INDEX action_items_state ON action_items(state) WHERE state != 'asserted';
-- change view facts
CREATE VIEW facts AS
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
-- change trigger decisions_decision_au
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
-- change trigger action_items_action_item_au
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

-- schema 20 at ee1de9d (2026-12-06): Issue 44: a change across meetings stores how sure memo i...
-- change table changes
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
    decided_by TEXT, confidence REAL, model_version TEXT,
    CHECK ((kind = 'supersedes' AND old_decision_id IS NOT NULL AND new_decision_id IS NOT NULL)
        OR (kind = 'closes' AND old_item_id IS NOT NULL))
);
