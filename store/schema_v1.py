"""Schema version 1: the tables of DESIGN.md, the facts view and its search indexes.

Kept as literal DDL: a migration must create the same schema forever, whatever the
table classes in `tables.py` look like later.
"""

from __future__ import annotations

# Every fact row says where it came from and who or what produced it.
PROVENANCE = """
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    triggered_by_user TEXT,
    triggered_by_agent TEXT,
    CHECK (triggered_by_user IS NOT NULL OR triggered_by_agent IS NOT NULL)"""

# A fact's key in the search indexes: its arm's code in the high bits, its row id below.
FACT_CODES = {
    "decision": 1,
    "action_item": 2,
    "summary": 3,
    "excerpt": 4,
    "client_note": 5,
    "project_note": 6,
    "digest": 7,
}

TABLES = f"""
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
    meta_json TEXT NOT NULL DEFAULT '{{}}',
    extractor TEXT NOT NULL,
    truncated INTEGER NOT NULL DEFAULT 0,
    replaced_at TEXT,{PROVENANCE}
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
    verified INTEGER NOT NULL DEFAULT 1,{PROVENANCE}
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
    verified INTEGER NOT NULL DEFAULT 1,{PROVENANCE}
);
CREATE INDEX action_items_capture ON action_items(capture_id);
CREATE INDEX action_items_person ON action_items(person_id);
CREATE TABLE excerpts (
    id INTEGER PRIMARY KEY,
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL,
    text TEXT NOT NULL,{PROVENANCE}
);
CREATE INDEX excerpts_capture ON excerpts(capture_id);
CREATE TABLE context_notes (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('client', 'project')),
    client_id INTEGER REFERENCES clients(id) ON DELETE CASCADE,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    updated_at TEXT NOT NULL,{PROVENANCE},
    CHECK ((kind = 'client') = (client_id IS NOT NULL)),
    CHECK ((kind = 'project') = (project_id IS NOT NULL))
);
CREATE TABLE digests (
    id INTEGER PRIMARY KEY,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    body TEXT NOT NULL,{PROVENANCE}
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
    payload_json TEXT NOT NULL DEFAULT '{{}}',
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

ACTION_TEXT_V1 = """a.description
       || CASE WHEN coalesce(a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || a.assignee_raw || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END"""

# Schema 10 on: a ticked-off item says so, so search and answers never pass it off as owed.
ACTION_TEXT = (
    ACTION_TEXT_V1
    + """
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END"""
)

_FACTS_VIEW = """
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
       {action_text},
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

FACTS_VIEW = _FACTS_VIEW.format(action_text=ACTION_TEXT_V1)
FACTS_VIEW_V10 = _FACTS_VIEW.format(action_text=ACTION_TEXT)

SEARCH_INDEXES = """
CREATE VIRTUAL TABLE facts_fts USING fts5(
    text, content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE fact_vectors USING vec0(embedding float[384] distance_metric=cosine);
INSERT INTO embedding_space (id, model, dim, updated_at) VALUES (1, NULL, 384, datetime('now'));
"""


def _index_triggers(
    table: str, fact_type: str, columns: str, when: str = "", compact_vectors: bool = False
) -> str:
    """Keep facts_fts (and drop stale vectors) in the transaction that changes a fact row.

    The indexed text is read back from the facts view, so index and view never disagree.
    `columns` are the ones the fact's text is made of: other updates leave the index alone.
    """
    code = FACT_CODES[fact_type]
    key_old = f"(({code} << 32) | OLD.id)"
    index_new = (
        f"INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts "
        f"WHERE fact_type = '{fact_type}' AND fact_id = NEW.id;"
    )
    vector_rowid = (
        f"(SELECT id FROM fact_embeddings WHERE fact_key = {key_old})"
        if compact_vectors
        else key_old
    )
    forget_old = (
        f"DELETE FROM facts_fts WHERE rowid = {key_old};"
        f" DELETE FROM fact_vectors WHERE rowid = {vector_rowid};"
        f" DELETE FROM fact_embeddings WHERE fact_key = {key_old};"
    )
    when_new = f"WHEN {when}" if when else ""
    name = f"{table}_{fact_type}"
    return f"""
CREATE TRIGGER {name}_ai AFTER INSERT ON {table} {when_new} BEGIN {index_new} END;
CREATE TRIGGER {name}_au AFTER UPDATE OF {columns} ON {table} BEGIN
    {forget_old}
    {index_new}
END;
CREATE TRIGGER {name}_ad AFTER DELETE ON {table} BEGIN {forget_old} END;
"""


ACTION_COLUMNS = "description, assignee_raw, due_date, status"


def action_item_triggers() -> str:
    """The action-item arm's triggers (schema 10 on: a change of status re-indexes)."""
    return _index_triggers("action_items", "action_item", ACTION_COLUMNS, "", compact_vectors=True)


def index_triggers(compact_vectors: bool = False) -> str:
    """Triggers for every arm of the facts view (`compact_vectors`: schema 4 on, where a
    vector's vec0 rowid is its fact_embeddings id, not its fact key)."""
    arms = [
        ("decisions", "decision", "description, reasoning, decided_by", ""),
        ("action_items", "action_item", "description, assignee_raw, due_date", ""),
        ("captures", "summary", "summary", "coalesce(NEW.summary, '') != ''"),
        ("excerpts", "excerpt", "text", ""),
        ("context_notes", "client_note", "body, kind", "NEW.kind = 'client'"),
        ("context_notes", "project_note", "body, kind", "NEW.kind = 'project'"),
        ("digests", "digest", "body", ""),
    ]
    return "".join(
        _index_triggers(table, fact_type, columns, when, compact_vectors)
        for table, fact_type, columns, when in arms
    )
