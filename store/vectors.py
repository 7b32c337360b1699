"""Fact embeddings in the vec0 table, one vector per fact key."""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text

from store.errors import VectorError


def embedding_space(conn: Connection) -> tuple[str | None, int]:
    """The model that made the stored vectors (None before the first) and their dimension."""
    model, dim = conn.execute(text("SELECT model, dim FROM embedding_space WHERE id = 1")).one()
    return model, int(dim)


def pack_vector(vector: Sequence[float], dim: int) -> bytes:
    if len(vector) != dim:
        raise VectorError(f"embedding has {len(vector)} dimensions, the store expects {dim}")
    if not all(math.isfinite(value) for value in vector):
        raise VectorError("embedding contains NaN or infinity; refusing to store it")
    return struct.pack(f"{dim}f", *vector)


def put_embedding(
    conn: Connection, fact_key: int, vector: Sequence[float], model: str, content_hash: str
) -> None:
    """Store one fact's vector."""
    put_many(conn, [(fact_key, vector, content_hash)], model)


def put_many(
    conn: Connection, items: Sequence[tuple[int, Sequence[float] | bytes, str]], model: str
) -> None:
    """Store vectors (fact_key, vector or packed vector, content hash), each statement run
    once for all of them. A fact's old vector is deleted first (vec0 0.1.9 rejects INSERT OR
    REPLACE)."""
    if not items:
        return
    stored_model, dim = embedding_space(conn)
    if stored_model is not None and stored_model != model:
        raise VectorError(
            f"the store holds vectors from {stored_model}; refusing to mix in {model}"
        )
    rows: list[dict[str, Any]] = [
        {
            "k": key,
            "h": content_hash,
            "m": model,
            "v": _packed(vector, dim),
        }
        for key, vector, content_hash in items
    ]
    rows = list({row["k"]: row for row in rows}.values())  # a key given twice: the last wins
    if stored_model is None:
        conn.execute(
            text("UPDATE embedding_space SET model = :m, updated_at = datetime('now')"),
            {"m": model},
        )
    _drop(conn, rows)
    conn.execute(
        text(
            "INSERT INTO fact_embeddings (fact_key, content_hash, model, embedded_at) "
            "VALUES (:k, :h, :m, datetime('now'))"
        ),
        rows,
    )
    found = conn.execute(
        text(
            "SELECT fact_key, id FROM fact_embeddings "
            "WHERE fact_key IN (SELECT value FROM json_each(:keys))"
        ),
        {"keys": json.dumps([row["k"] for row in rows])},
    )
    ids = {int(key): int(vector_id) for key, vector_id in found}
    # The vec0 rowid is the small id: vec0's KNN filter compares only 32 bits of a rowid.
    conn.execute(
        text("INSERT INTO fact_vectors (rowid, embedding) VALUES (:id, :v)"),
        [{"id": ids[row["k"]], "v": row["v"]} for row in rows],
    )
    conn.execute(
        text(
            "INSERT INTO embedding_cache (content_hash, model, embedding) VALUES (:h, :m, :v) "
            "ON CONFLICT (content_hash, model) DO NOTHING"
        ),
        rows,
    )


def _drop(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """The facts' old vectors, if any (key `k` of each row)."""
    conn.execute(
        text(
            "DELETE FROM fact_vectors WHERE rowid = "
            "(SELECT id FROM fact_embeddings WHERE fact_key = :k)"
        ),
        rows,
    )
    conn.execute(text("DELETE FROM fact_embeddings WHERE fact_key = :k"), rows)


def _packed(vector: Sequence[float] | bytes, dim: int) -> bytes:
    """A vector as vec0 stores it; one packed already (from the cache) is checked, not redone."""
    if isinstance(vector, bytes):
        if len(vector) != 4 * dim:
            raise VectorError(
                f"embedding has {len(vector) // 4} dimensions, the store expects {dim}"
            )
        return vector
    return pack_vector(vector, dim)


def set_embedding_space(conn: Connection, model: str, dim: int) -> bool:
    """Make `model` the store's embedding model; a different model or dimension drops every
    vector (they would not be comparable) and recreates the index. True when reset."""
    stored_model, stored_dim = embedding_space(conn)
    if stored_model == model and stored_dim == dim:
        return False
    if stored_dim != dim:
        conn.execute(text("DROP TABLE fact_vectors"))
        conn.execute(
            text(
                f"CREATE VIRTUAL TABLE fact_vectors USING vec0("
                f"embedding float[{int(dim)}] distance_metric=cosine)"
            )
        )
    else:
        conn.execute(text("DELETE FROM fact_vectors"))
    conn.execute(text("DELETE FROM fact_embeddings"))
    conn.execute(
        text("UPDATE embedding_space SET model = :m, dim = :d, updated_at = datetime('now')"),
        {"m": model, "d": dim},
    )
    return True


def facts_without_vectors(
    conn: Connection, limit: int, capture_id: int | None = None
) -> list[tuple[int, str]]:
    """(fact_key, text) of facts that have no vector yet, oldest first."""
    rows = conn.execute(
        text(
            "SELECT f.fact_key, f.text FROM facts f "
            "LEFT JOIN fact_embeddings e ON e.fact_key = f.fact_key "
            "WHERE e.fact_key IS NULL AND (:capture IS NULL OR f.capture_id = :capture) "
            "ORDER BY f.fact_key LIMIT :limit"
        ),
        {"capture": capture_id, "limit": limit},
    ).all()
    return [(int(key), str(body)) for key, body in rows]


def count_without_vectors(conn: Connection) -> int:
    return int(
        conn.execute(
            text(
                "SELECT count(*) FROM facts f LEFT JOIN fact_embeddings e "
                "ON e.fact_key = f.fact_key WHERE e.fact_key IS NULL"
            )
        ).scalar_one()
    )


def cached_vectors(conn: Connection, hashes: list[str], model: str) -> dict[str, bytes]:
    """Vectors already computed for these texts with this model (unchanged text is reused)."""
    rows = conn.execute(
        text(
            "SELECT content_hash, embedding FROM embedding_cache WHERE model = :m "
            "AND content_hash IN (SELECT value FROM json_each(:h))"
        ),
        {"m": model, "h": json.dumps(hashes)},
    ).all()
    return {str(h): bytes(blob) for h, blob in rows}


def unpack(blob: bytes) -> list[float]:
    return list(struct.unpack(f"{len(blob) // 4}f", blob))


def nearest(conn: Connection, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
    """(fact_key, cosine similarity) of the k nearest stored vectors, best first."""
    _, dim = embedding_space(conn)
    rows = conn.execute(
        text(
            "WITH knn AS (SELECT rowid, distance FROM fact_vectors "
            "WHERE embedding MATCH :v AND k = :k) "
            "SELECT e.fact_key, knn.distance FROM knn JOIN fact_embeddings e ON e.id = knn.rowid "
            "ORDER BY knn.distance"
        ),
        {"v": pack_vector(vector, dim), "k": int(k)},
    ).all()
    return [(int(key), 1.0 - float(distance)) for key, distance in rows]


def vector_epoch(conn: Connection) -> tuple[str | None, int]:
    """(model, epoch): the epoch moves whenever a vector is stored or dropped."""
    model, epoch = conn.execute(text("SELECT model, epoch FROM embedding_space WHERE id = 1")).one()
    return model, int(epoch)


def all_vectors(conn: Connection) -> tuple[int, list[int], list[bytes]]:
    """The epoch, then every fact's key and packed vector: read from the content-hash cache
    (a plain table, fast to scan) and, for vectors stored before the cache existed, vec0.
    The epoch is read first, so a write in between can only make the copy look older."""
    _, epoch = vector_epoch(conn)
    rows = conn.execute(
        text(
            "SELECT fe.fact_key, ec.embedding FROM fact_embeddings fe "
            "LEFT JOIN embedding_cache ec "
            "ON ec.content_hash = fe.content_hash AND ec.model = fe.model ORDER BY fe.fact_key"
        )
    ).all()
    keys, blobs = [], []
    for key, blob in rows:
        if blob is None:
            blob = conn.execute(
                text(
                    "SELECT embedding FROM fact_vectors WHERE rowid = "
                    "(SELECT id FROM fact_embeddings WHERE fact_key = :k)"
                ),
                {"k": key},
            ).scalar()
        if blob is not None:
            keys.append(int(key))
            blobs.append(bytes(blob))
    return epoch, keys, blobs
