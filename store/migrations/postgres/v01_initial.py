"""PostgreSQL schema 1: the SQLite store's schema as of its step 17, in PostgreSQL's terms.

PostgreSQL stores number their own steps: this first one creates at once what SQLite's
seventeen built up. What differs: keyword search is a tsvector column with a GIN index
(`facts_fts`), vectors are pgvector's with an HNSW index (`fact_vectors`), the triggers that
keep both in step with the facts are PL/pgSQL, and a name unique in any case (NOCASE in
SQLite) is unique on its lower case. Dates stay ISO text, flags stay 0/1 integers: the same
records come out of either store.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations.postgres.v01_tables import TABLES

NAME = "initial schema (SQLite's step 17)"

EXTENSIONS = """
CREATE EXTENSION IF NOT EXISTS vector;
"""

# SQLite's datetime('now'): the store's timestamps are text in this one shape. And three
# functions SQLite has built in that the store's queries use, as SQLite defines them:
# json_group_array (a JSON array as text; '[]' over no rows), group_concat (comma-joined,
# NULLs skipped) and instr (1-based, 0 when absent).
NOW = """
CREATE FUNCTION memo_now() RETURNS text LANGUAGE sql STABLE
    RETURN to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS');
CREATE FUNCTION memo_json_list(items anycompatiblearray) RETURNS text LANGUAGE sql IMMUTABLE
    AS $$ SELECT array_to_json(items)::text $$;
CREATE AGGREGATE json_group_array(anycompatible) (
    SFUNC = array_append, STYPE = anycompatiblearray, FINALFUNC = memo_json_list, INITCOND = '{}'
);
CREATE FUNCTION memo_concat_step(joined text, item anyelement) RETURNS text
    LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN item IS NULL THEN joined WHEN joined IS NULL THEN item::text
                ELSE joined || ',' || item::text END $$;
CREATE AGGREGATE group_concat(anyelement) (SFUNC = memo_concat_step, STYPE = text);
CREATE FUNCTION instr(haystack text, needle text) RETURNS integer LANGUAGE sql IMMUTABLE
    RETURN strpos(haystack, needle);
"""


# Every fact as one row: a key that says its kind (the code in the high 32 bits), its text
# as search reads it, and where it came from.
FACTS = """
CREATE VIEW facts AS
SELECT (1::bigint << 32) | d.id AS fact_key, 'decision'::text AS fact_type, d.id AS fact_id,
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
SELECT (2::bigint << 32) | a.id, 'action_item', a.id,
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
SELECT (3::bigint << 32) | c.id, 'summary', c.id, c.summary,
       c.id, c.title, c.occurred_at, c.captured_at,
       c.source_type, c.source_id, 1, c.line_count,
       c.triggered_by_user, c.triggered_by_agent
FROM captures c WHERE c.summary IS NOT NULL AND c.summary != ''
UNION ALL
SELECT (4::bigint << 32) | e.id, 'excerpt', e.id, e.text,
       e.capture_id, c.title, c.occurred_at, e.captured_at,
       e.source_type, e.source_id, e.line_start, e.line_end,
       e.triggered_by_user, e.triggered_by_agent
FROM excerpts e JOIN captures c ON c.id = e.capture_id
UNION ALL
SELECT (5::bigint << 32) | n.id, 'client_note', n.id, cl.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN clients cl ON cl.id = n.client_id WHERE n.kind = 'client'
UNION ALL
SELECT (6::bigint << 32) | n.id, 'project_note', n.id, p.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN projects p ON p.id = n.project_id WHERE n.kind = 'project'
UNION ALL
SELECT (7::bigint << 32) | g.id, 'digest', g.id, g.body,
       NULL, NULL, NULL, g.captured_at,
       g.source_type, g.source_id, NULL, NULL,
       g.triggered_by_user, g.triggered_by_agent
FROM digests g;
"""

# Keyword search: each fact's text (a decision's with its subject) and its tsvector, read by
# the 'memo' configuration: English stems and no stop words (as SQLite's porter tokenizer);
# vectors: one per fact_embeddings row, gone with it.
SEARCH = """
CREATE TEXT SEARCH DICTIONARY memo_stem (TEMPLATE = snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION memo (COPY = english);
ALTER TEXT SEARCH CONFIGURATION memo ALTER MAPPING
    FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH memo_stem;
CREATE TABLE facts_fts (
    fact_key BIGINT PRIMARY KEY,
    text TEXT NOT NULL,
    tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('memo', text)) STORED
);
CREATE INDEX facts_fts_tsv ON facts_fts USING gin (tsv);
CREATE TABLE fact_vectors (
    id BIGINT PRIMARY KEY REFERENCES fact_embeddings(id) ON DELETE CASCADE,
    embedding vector(384) NOT NULL
);
CREATE INDEX fact_vectors_hnsw ON fact_vectors USING hnsw (embedding vector_cosine_ops);
INSERT INTO embedding_space (id, model, dim, updated_at) VALUES (1, NULL, 384, memo_now());
"""

# The triggers that keep facts_fts and the vectors in step: a fact written is indexed, a fact
# changed or removed loses its entry and its vector (embedded again later). Each table's
# trigger names its kind's code and fact type; context notes have two (client and project).
TRIGGERS = """
CREATE FUNCTION memo_unindex(p_key BIGINT) RETURNS void LANGUAGE sql AS $$
    DELETE FROM facts_fts WHERE fact_key = p_key;
    DELETE FROM fact_embeddings WHERE fact_key = p_key;
$$;
CREATE FUNCTION memo_index(p_type TEXT, p_id BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO facts_fts (fact_key, text)
    SELECT f.fact_key, CASE WHEN p_type = 'decision'
        THEN f.text || ' ' || (SELECT subject FROM decisions WHERE decisions.id = p_id)
        ELSE f.text END
    FROM facts f WHERE f.fact_type = p_type AND f.fact_id = p_id;
$$;
CREATE FUNCTION memo_fact_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM memo_unindex((TG_ARGV[0]::bigint << 32) | OLD.id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM memo_index(TG_ARGV[1], NEW.id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER decisions_index
    AFTER INSERT OR DELETE OR UPDATE OF description, reasoning, decided_by, person_id, status,
    subject ON decisions FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('1', 'decision');
CREATE TRIGGER action_items_index
    AFTER INSERT OR DELETE OR UPDATE OF description, assignee_raw, due_date, status, person_id
    ON action_items FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('2', 'action_item');
CREATE TRIGGER captures_index AFTER INSERT OR DELETE OR UPDATE OF summary ON captures
    FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('3', 'summary');
CREATE TRIGGER excerpts_index AFTER INSERT OR DELETE OR UPDATE OF text ON excerpts
    FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('4', 'excerpt');
CREATE TRIGGER context_notes_client_index
    AFTER INSERT OR DELETE OR UPDATE OF body, kind ON context_notes
    FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('5', 'client_note');
CREATE TRIGGER context_notes_project_index
    AFTER INSERT OR DELETE OR UPDATE OF body, kind ON context_notes
    FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('6', 'project_note');
CREATE TRIGGER digests_index AFTER INSERT OR DELETE OR UPDATE OF body ON digests
    FOR EACH ROW EXECUTE FUNCTION memo_fact_changed('7', 'digest');

CREATE FUNCTION memo_vector_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE embedding_space SET epoch = epoch + 1 WHERE id = 1;
    RETURN NULL;
END $$;
CREATE TRIGGER fact_embeddings_epoch AFTER INSERT OR DELETE ON fact_embeddings
    FOR EACH ROW EXECUTE FUNCTION memo_vector_epoch();

CREATE FUNCTION memo_change_taken_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE decisions SET status = OLD.previous_status, superseded_by = NULL
    WHERE OLD.kind = 'supersedes' AND id = OLD.old_decision_id AND status = 'superseded'
      AND (superseded_by IS NULL OR superseded_by = OLD.new_decision_id);
    UPDATE action_items SET status = OLD.previous_status
    WHERE OLD.kind = 'closes' AND id = OLD.old_item_id AND status = 'done';
    RETURN OLD;
END $$;
CREATE TRIGGER changes_taken_back BEFORE DELETE ON changes
    FOR EACH ROW WHEN (OLD.status = 'applied') EXECUTE FUNCTION memo_change_taken_back();

CREATE FUNCTION memo_person_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE decisions SET person_id = person_id WHERE person_id = NEW.id;
    UPDATE action_items SET person_id = person_id WHERE person_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER people_name_au AFTER UPDATE OF name ON people
    FOR EACH ROW EXECUTE FUNCTION memo_person_renamed();
"""


def upgrade(conn: Connection) -> None:
    for script in (EXTENSIONS, NOW, TABLES, FACTS, SEARCH, TRIGGERS):
        conn.exec_driver_sql(script)
