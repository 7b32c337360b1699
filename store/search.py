"""Search over the facts view: keyword (FTS5 BM25) and vector (vec0 cosine) rankings.

Filters apply inside each query, before the limit, so a filtered search still returns its
full quota. Fusing the two rankings is the caller's (core.recall) business.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, text

from store import pg_search
from store.expressions import postgres
from store.vectors import embedding_space, pack_vector

_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class FactFilter:
    """What a search may return: fact types, a meeting-date range, given captures, facts
    about people, projects or clients, decisions and action items in a given status."""

    fact_types: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    capture_ids: tuple[int, ...] = field(default_factory=tuple)
    person_ids: tuple[int, ...] = ()
    project_ids: tuple[int, ...] = ()
    client_ids: tuple[int, ...] = ()
    current: bool = False  # leave out decisions later ones replaced
    # The people as where it happened, not who did it: any fact of a meeting they attended
    # ("Who ran the soak while Marta was away?" asks about someone else).
    people_present: bool = False
    # Decisions' ("current", "superseded", "retracted") and action items' ("open", "done",
    # "dropped"): any status given keeps only the decisions and action items in one of them.
    statuses: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (
            self.current
            or self.fact_types
            or self.since
            or self.until
            or self.capture_ids
            or self.person_ids
            or self.project_ids
            or self.client_ids
            or self.statuses
        )


# A fact's key is its kind's code times 2**32, OR its id (see the facts view), written with
# a 64-bit literal: PostgreSQL would shift a plain 1 as a 32-bit integer.
# The facts about a person: what they owe, what they decided, and what was decided, said and
# summarized in the meetings they attended.
_PERSON_KEYS = """
SELECT (2 * 4294967296) | id FROM action_items WHERE person_id IN ({ids})
UNION ALL SELECT (1 * 4294967296) | id FROM decisions WHERE person_id IN ({ids})
    OR capture_id IN (SELECT capture_id FROM capture_people WHERE person_id IN ({ids}))
UNION ALL SELECT (3 * 4294967296) | capture_id FROM capture_people WHERE person_id IN ({ids})
UNION ALL SELECT (4 * 4294967296) | id FROM excerpts
    WHERE capture_id IN (SELECT capture_id FROM capture_people WHERE person_id IN ({ids}))
"""
# Everything of the meetings a person attended, and what they owe from elsewhere.
_PRESENT_KEYS = """
SELECT (2 * 4294967296) | id FROM action_items WHERE person_id IN ({ids})
UNION ALL SELECT fact_key FROM facts
    WHERE capture_id IN (SELECT capture_id FROM capture_people WHERE person_id IN ({ids}))
"""
# The facts about a project: its meetings' facts and its notes.
_PROJECT_KEYS = """
SELECT fact_key FROM facts
    WHERE capture_id IN (SELECT capture_id FROM capture_projects WHERE project_id IN ({ids}))
UNION ALL SELECT (6 * 4294967296) | id FROM context_notes WHERE project_id IN ({ids})
"""
# A client's: its own notes, and everything about its projects.
_CLIENT_KEYS = """
SELECT (5 * 4294967296) | id FROM context_notes WHERE client_id IN ({ids})
UNION ALL SELECT (6 * 4294967296) | id FROM context_notes
    WHERE project_id IN (SELECT id FROM projects WHERE client_id IN ({ids}))
UNION ALL SELECT fact_key FROM facts WHERE capture_id IN (
    SELECT capture_id FROM capture_projects
    WHERE project_id IN (SELECT id FROM projects WHERE client_id IN ({ids})))
"""


def entity_keys_sql(template: str, name: str, ids: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """One of the entity key queries above for these ids (each bound, never formatted in)."""
    names = ", ".join(f":{name}{i}" for i in range(len(ids)))
    return template.format(ids=names), {f"{name}{i}": v for i, v in enumerate(ids)}


def project_keys_sql(project_ids: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """The fact keys FactFilter(project_ids=...) allows, as a query of its own: every key it
    yields is a fact's, once, so counting it counts the filter's facts without a full scan."""
    return entity_keys_sql(_PROJECT_KEYS, "pr", project_ids)


def _entity_keys(flt: FactFilter, clauses: list[str], params: dict[str, Any]) -> None:
    """`fact_key IN (...)` clauses for the entity filters."""
    for name, ids, template in (
        ("pe", flt.person_ids, _PRESENT_KEYS if flt.people_present else _PERSON_KEYS),
        ("pr", flt.project_ids, _PROJECT_KEYS),
        ("cl", flt.client_ids, _CLIENT_KEYS),
    ):
        if ids:
            keys, bound = entity_keys_sql(template, name, ids)
            params.update(bound)
            clauses.append(f"fact_key IN ({keys})")


# A fact's day: its meeting's date, else the day it was captured (notes, digests).
FACT_DAY = "coalesce(occurred_at, substr(captured_at, 1, 10))"


def filter_clauses(flt: FactFilter) -> tuple[list[str], dict[str, Any]]:
    """The conditions on the facts view that a filter sets, ANDed by the caller (none when it
    filters nothing). Search and the facts feed share them, so both mean the same thing."""
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if flt.fact_types:
        names = ", ".join(f":t{i}" for i in range(len(flt.fact_types)))
        clauses.append(f"fact_type IN ({names})")
        params.update({f"t{i}": t for i, t in enumerate(flt.fact_types)})
    if flt.since:
        clauses.append(f"{FACT_DAY} >= :since")
        params["since"] = flt.since
    if flt.until:
        clauses.append(f"{FACT_DAY} <= :until")
        params["until"] = flt.until
    if flt.capture_ids:
        names = ", ".join(f":c{i}" for i in range(len(flt.capture_ids)))
        clauses.append(f"capture_id IN ({names})")
        params.update({f"c{i}": c for i, c in enumerate(flt.capture_ids)})
    if flt.current:
        clauses.append(CURRENT_ONLY)
    if flt.statuses:
        names = ", ".join(f":s{i}" for i in range(len(flt.statuses)))
        clauses.append(f"fact_key IN ({_STATUS_KEYS.format(statuses=names)})")
        params.update({f"s{i}": s for i, s in enumerate(flt.statuses)})
    _entity_keys(flt, clauses, params)
    return clauses, params


# The decisions and action items in one of some statuses (the two tables share no status).
_STATUS_KEYS = """
SELECT (1 * 4294967296) | id FROM decisions WHERE status IN ({statuses})
UNION ALL SELECT (2 * 4294967296) | id FROM action_items WHERE status IN ({statuses})
"""


# A decision that another replaced (in its meeting or a later one) is history, not what holds.
CURRENT_ONLY = (
    "NOT (fact_type = 'decision' "
    "AND fact_id IN (SELECT id FROM decisions WHERE status != 'current'))"
)


def allowed_keys_sql(flt: FactFilter) -> tuple[str | None, dict[str, Any]]:
    """`SELECT fact_key ...` of the facts a filter allows (None when it filters nothing).
    One query, so each search can put it in the single `IN` that vec0 allows."""
    if flt.empty:
        return None, {}
    clauses, params = filter_clauses(flt)
    return f"SELECT fact_key FROM facts WHERE {' AND '.join(clauses)}", params


def query_words(query: str, stopwords: frozenset[str] = frozenset()) -> list[str]:
    """The words of a query a keyword search looks for, each once, in order."""
    words = [w for w in _TOKEN.findall(query.lower()) if w not in stopwords]
    return list(dict.fromkeys(words))[:32]


def match_expression(query: str, stopwords: frozenset[str] = frozenset()) -> str | None:
    """An FTS5 query that matches any of the words (each quoted, so no syntax gets through)."""
    return _any_of(query_words(query, stopwords))


def _any_of(words: Sequence[str]) -> str | None:
    return " OR ".join(f'"{w}"' for w in words) or None


# A word in more than this share of the facts ranks almost nothing (BM25 gives it next to no
# weight) yet makes FTS5 score every fact holding it: 300 ms instead of 3 at a million facts.
COMMON_SHARE = 0.10
COMMON_FROM = 2_000  # in a smaller store every word is cheap: none is dropped


def uncommon(conn: Connection, words: Sequence[str]) -> list[str]:
    """`words` without those in more than COMMON_SHARE of the facts, when some word the
    store holds is rarer (a misspelt word, found nowhere, keeps them all)."""
    if len(words) < 2:
        return list(words)
    # FTS5 keeps a row per fact in its docsize table: counting it is quick (4 ms at 1M)
    counted = "facts_fts" if postgres(conn) else "facts_fts_docsize"
    total = int(conn.execute(text(f"SELECT count(*) FROM {counted}")).scalar() or 0)
    if total < COMMON_FROM:
        return list(words)
    cap = int(total * COMMON_SHARE)
    if postgres(conn):
        held = {w: pg_search.holding(conn, w, cap + 1) for w in words}
        return [w for w in words if 0 < held[w] <= cap] or list(words)
    bounded = text(  # counts no further than the cap: a common word costs cap rows, not all
        "SELECT count(*) FROM (SELECT rowid FROM facts_fts WHERE facts_fts MATCH :q LIMIT :n)"
    )
    held = {
        w: int(conn.execute(bounded, {"q": f'"{w}"', "n": cap + 1}).scalar() or 0) for w in words
    }
    rarer = [w for w in words if 0 < held[w] <= cap]
    return rarer or list(words)


def keyword(
    conn: Connection, query: str, flt: FactFilter, limit: int, stopwords: frozenset[str]
) -> list[tuple[int, float]]:
    """(fact_key, BM25 score; lower is better) best first. Words in over 10% of the facts
    are left out when rarer ones are asked too (see COMMON_SHARE); if the rarer ones find
    nothing the filter allows, every word is searched."""
    words = query_words(query, stopwords)
    rarer = uncommon(conn, words)
    ranked = _pg_ranked if postgres(conn) else _ranked
    found = ranked(conn, rarer, flt, limit)
    if not found and len(rarer) < len(words):
        found = ranked(conn, words, flt, limit)
    return found


def _pg_ranked(
    conn: Connection, words: Sequence[str], flt: FactFilter, limit: int
) -> list[tuple[int, float]]:
    query = pg_search.tsquery(words)
    if query is None:
        return []
    keys, params = allowed_keys_sql(flt)
    return pg_search.ranked(conn, query, keys, params, limit)


def _ranked(
    conn: Connection, words: Sequence[str], flt: FactFilter, limit: int
) -> list[tuple[int, float]]:
    expression = _any_of(words)
    if expression is None:
        return []
    keys, params = allowed_keys_sql(flt)
    # "+rowid": filter the matches, rather than letting FTS5 run the MATCH once per allowed
    # rowid (seconds on a large store). vec0, below, needs the plain form to filter in-scan.
    allowed = f" AND +rowid IN ({keys})" if keys else ""
    rows = conn.execute(
        text(
            "SELECT rowid, bm25(facts_fts) AS score FROM facts_fts "
            f"WHERE facts_fts MATCH :q{allowed} ORDER BY score LIMIT :limit"
        ),
        {"q": expression, "limit": limit, **params},
    ).all()
    return [(int(key), float(score)) for key, score in rows]


def semantic(
    conn: Connection, vector: list[float], flt: FactFilter, limit: int, min_similarity: float
) -> list[tuple[int, float]]:
    """(fact_key, cosine similarity) at or above `min_similarity`, best first."""
    _, dim = embedding_space(conn)
    keys, params = allowed_keys_sql(flt)
    if postgres(conn):
        found = pg_search.nearest(conn, pack_vector(vector, dim), limit, keys, params)
        return [(k, 1.0 - d) for k, d in found if 1.0 - d >= min_similarity]
    allowed = (  # vec0 rowids are fact_embeddings ids (see migration 4)
        f" AND rowid IN (SELECT id FROM fact_embeddings WHERE fact_key IN ({keys}))" if keys else ""
    )
    rows = conn.execute(
        text(
            "WITH knn AS (SELECT rowid, distance FROM fact_vectors "
            f"WHERE embedding MATCH :v AND k = :k{allowed}) "
            "SELECT e.fact_key, knn.distance FROM knn JOIN fact_embeddings e ON e.id = knn.rowid "
            "ORDER BY knn.distance"
        ),
        {"v": pack_vector(vector, dim), "k": limit, **params},
    ).all()
    return [(int(k), 1.0 - float(d)) for k, d in rows if 1.0 - float(d) >= min_similarity]


def allowed_keys(conn: Connection, flt: FactFilter) -> list[int]:
    """Every fact key a filter allows (for searching outside SQLite)."""
    keys, params = allowed_keys_sql(flt)
    return [int(r[0]) for r in conn.execute(text(keys or "SELECT fact_key FROM facts"), params)]


@dataclass(frozen=True)
class TermCoverage:
    """How common each word is in the store, and which of some facts hold it (FTS5 reads
    both, so "batteries" finds "battery" as search does)."""

    total: int  # facts in the store
    counts: dict[str, int]  # word -> facts holding it
    holders: dict[str, frozenset[int]]  # word -> those of the given facts holding it


def term_coverage(conn: Connection, words: Sequence[str], keys: Sequence[int]) -> TermCoverage:
    total = int(conn.execute(text("SELECT count(*) FROM facts_fts")).scalar() or 0)
    counts: dict[str, int] = {}
    holders: dict[str, frozenset[int]] = {}
    among = ", ".join(str(int(k)) for k in keys)
    for word in dict.fromkeys(w.lower() for w in words if _TOKEN.fullmatch(w)):
        if postgres(conn):
            counts[word] = pg_search.holding(conn, word)
            found = pg_search.holders(conn, word, among) if among and counts[word] else []
            holders[word] = frozenset(found)
            continue
        quoted = {"q": f'"{word}"'}
        counts[word] = int(
            conn.execute(
                text("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH :q"), quoted
            ).scalar()
            or 0
        )
        held = (
            conn.execute(
                text(
                    f"SELECT rowid FROM facts_fts WHERE facts_fts MATCH :q AND rowid IN ({among})"
                ),
                quoted,
            ).all()
            if among and counts[word]
            else []
        )
        holders[word] = frozenset(int(r[0]) for r in held)
    return TermCoverage(total, counts, holders)
