"""Keyword and vector search on a PostgreSQL store: the tsvector column of facts_fts (GIN)
and pgvector's HNSW index, standing in for SQLite's FTS5 and vec0 (store.search and
store.vectors call in here when the connection is to PostgreSQL).

Words are read by the 'memo' text search configuration (English stemming, no stop words:
FTS5's porter tokenizer drops none either; memo leaves out its own). Scores keep SQLite's
sense: keyword scores are lower-is-better (FTS5's bm25() is negative; here the negated
ts_rank_cd), vector distances are cosine distances.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text


def tsquery(words: Sequence[str]) -> str | None:
    """A websearch_to_tsquery text matching any of the words ("a or b": websearch syntax,
    which never fails to parse; the word "or" itself would be the operator, so it goes)."""
    return " or ".join(w for w in words if w != "or") or None


def ranked(
    conn: Connection, query: str, allowed: str | None, params: dict[str, Any], limit: int
) -> list[tuple[int, float]]:
    """(fact_key, score) of the facts matching `query` (websearch syntax), best first."""
    where = f" AND fact_key IN ({allowed})" if allowed else ""
    rows = conn.execute(
        text(
            "SELECT fact_key, -ts_rank_cd(tsv, q) AS score "
            "FROM facts_fts, websearch_to_tsquery('memo', :q) AS q "
            f"WHERE tsv @@ q{where} ORDER BY score, fact_key LIMIT :limit"
        ),
        {"q": query, "limit": limit, **params},
    ).all()
    return [(int(key), float(score)) for key, score in rows]


def holding(conn: Connection, word: str, cap: int | None = None) -> int:
    """How many facts hold `word` (counting no further than `cap`)."""
    bound = "" if cap is None else " LIMIT :n"
    return int(
        conn.execute(
            text(
                "SELECT count(*) FROM (SELECT 1 FROM facts_fts "
                f"WHERE tsv @@ websearch_to_tsquery('memo', :q){bound}) AS hits"
            ),
            {"q": word, "n": cap},
        ).scalar()
        or 0
    )


def holders(conn: Connection, word: str, among: str) -> list[int]:
    """Those of the facts `among` (a list of keys, as SQL) that hold `word`."""
    rows = conn.execute(
        text(
            "SELECT fact_key FROM facts_fts WHERE tsv @@ websearch_to_tsquery('memo', :q) "
            f"AND fact_key IN ({among})"
        ),
        {"q": word},
    )
    return [int(r[0]) for r in rows]


def vector_text(packed: bytes) -> str:
    """A packed float32 vector as pgvector reads it ('[0.1,0.2,...]')."""
    values = struct.unpack(f"{len(packed) // 4}f", packed)
    return "[" + ",".join(format(v, ".9g") for v in values) + "]"


def packed(vector: Sequence[float]) -> bytes:
    return struct.pack(f"{len(vector)}f", *vector)


def nearest(
    conn: Connection, packed_query: bytes, k: int, allowed: str | None, params: dict[str, Any]
) -> list[tuple[int, float]]:
    """(fact_key, cosine distance) of the k nearest vectors among the allowed facts.

    Unfiltered, the HNSW index finds them (approximately); filtered, every allowed vector is
    compared (exactly): the index would filter after its search and could return too few."""
    where = f"WHERE e.fact_key IN ({allowed}) " if allowed else ""
    distance = "v.embedding <=> CAST(:v AS vector)"
    order = f"({distance}) + 0" if allowed else "distance"  # (+ 0: no order the index gives)
    rows = conn.execute(
        text(
            f"SELECT e.fact_key, {distance} AS distance "
            "FROM fact_vectors v JOIN fact_embeddings e ON e.id = v.id "
            f"{where}ORDER BY {order} LIMIT :k"
        ),
        {"v": vector_text(packed_query), "k": int(k), **params},
    ).all()
    return [(int(key), float(distance)) for key, distance in rows]


def put_vectors(conn: Connection, rows: Sequence[tuple[int, bytes]]) -> None:
    """(fact_embeddings id, packed vector) into fact_vectors."""
    conn.execute(
        text("INSERT INTO fact_vectors (id, embedding) VALUES (:id, CAST(:v AS vector))"),
        [{"id": vector_id, "v": vector_text(blob)} for vector_id, blob in rows],
    )


def reset_vectors(conn: Connection, dim: int | None) -> None:
    """Every vector gone; with `dim`, the table made anew for vectors of that size."""
    if dim is None:
        conn.execute(text("DELETE FROM fact_vectors"))
        return
    conn.execute(text("DROP TABLE fact_vectors"))
    conn.execute(
        text(
            "CREATE TABLE fact_vectors (id BIGINT PRIMARY KEY REFERENCES fact_embeddings(id) "
            f"ON DELETE CASCADE, embedding vector({int(dim)}) NOT NULL)"
        )
    )
    hnsw = "USING hnsw (embedding vector_cosine_ops)"
    conn.execute(text(f"CREATE INDEX fact_vectors_hnsw ON fact_vectors {hnsw}"))


def stored_vector(conn: Connection, fact_key: int) -> bytes | None:
    """One fact's vector, packed, read from the index table."""
    found = conn.execute(
        text(
            "SELECT v.embedding::real[] FROM fact_vectors v JOIN fact_embeddings e "
            "ON e.id = v.id WHERE e.fact_key = :k"
        ),
        {"k": fact_key},
    ).scalar()
    return None if found is None else packed(found)
