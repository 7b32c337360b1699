"""Fact embeddings in the vec0 table, one vector per fact key.

The one module with SQL for vec0 (and its rowids); the plain tables beside it (the space,
each fact's vector row, the cache by content) go through their table classes."""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, select, text, update
from sqlmodel import col

from store import pg_search
from store.errors import VectorError
from store.expressions import among, insert, now, postgres
from store.tables import EmbeddingCache, EmbeddingSpace, FactEmbedding

_NOW = now()


def embedding_space(conn: Connection) -> tuple[str | None, int]:
    """The model that made the stored vectors (None before the first) and their dimension."""
    space = conn.execute(select(EmbeddingSpace).where(col(EmbeddingSpace.id) == 1)).one()
    return space.model, int(space.dim)


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
        conn.execute(update(EmbeddingSpace).values(model=model, updated_at=_NOW))
    _drop(conn, rows)
    conn.execute(
        insert(FactEmbedding).values(embedded_at=_NOW),
        [{"fact_key": r["k"], "content_hash": r["h"], "model": model} for r in rows],
    )
    e = FactEmbedding
    found = conn.execute(
        select(col(e.fact_key), col(e.id)).where(among(col(e.fact_key), (r["k"] for r in rows)))
    )
    ids = {int(key): vector_id for key, vector_id in found}
    if postgres(conn):
        pg_search.put_vectors(conn, [(ids[row["k"]], row["v"]) for row in rows])
    else:
        _put_vec0(conn, ids, rows)
    conn.execute(
        insert(EmbeddingCache).on_conflict_do_nothing(index_elements=["content_hash", "model"]),
        [{"content_hash": r["h"], "model": model, "embedding": r["v"]} for r in rows],
    )


def _put_vec0(conn: Connection, ids: dict[int, int], rows: list[dict[str, Any]]) -> None:
    # The vec0 rowid is the small id: vec0's KNN filter compares only 32 bits of a rowid.
    conn.execute(
        text("INSERT INTO fact_vectors (rowid, embedding) VALUES (:id, :v)"),
        [{"id": ids[row["k"]], "v": row["v"]} for row in rows],
    )


def _drop(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """The facts' old vectors, if any (key `k` of each row). On PostgreSQL a vector goes
    with its fact_embeddings row."""
    if not postgres(conn):
        conn.execute(
            text(
                "DELETE FROM fact_vectors WHERE rowid = "
                "(SELECT id FROM fact_embeddings WHERE fact_key = :k)"
            ),
            rows,
        )
    conn.execute(
        delete(FactEmbedding).where(among(col(FactEmbedding.fact_key), (r["k"] for r in rows)))
    )


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
    if postgres(conn):
        pg_search.reset_vectors(conn, dim if stored_dim != dim else None)
    elif stored_dim != dim:
        conn.execute(text("DROP TABLE fact_vectors"))
        conn.execute(
            text(
                f"CREATE VIRTUAL TABLE fact_vectors USING vec0("
                f"embedding float[{int(dim)}] distance_metric=cosine)"
            )
        )
    else:
        conn.execute(text("DELETE FROM fact_vectors"))
    conn.execute(delete(FactEmbedding))
    conn.execute(update(EmbeddingSpace).values(model=model, dim=dim, updated_at=_NOW))
    return True


def facts_without_vectors(
    conn: Connection, limit: int, capture_id: int | None = None
) -> list[tuple[int, str]]:
    """(fact_key, text) of facts that have no vector yet, oldest first."""
    of_capture = "" if capture_id is None else " AND f.capture_id = :capture"
    rows = conn.execute(
        text(
            "SELECT f.fact_key, f.text FROM facts f "
            "LEFT JOIN fact_embeddings e ON e.fact_key = f.fact_key "
            f"WHERE e.fact_key IS NULL{of_capture} ORDER BY f.fact_key LIMIT :limit"
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
    c = EmbeddingCache
    rows = conn.execute(
        select(col(c.content_hash), col(c.embedding)).where(
            col(c.model) == model, among(col(c.content_hash), hashes)
        )
    ).all()
    return {str(h): bytes(blob) for h, blob in rows}


def unpack(blob: bytes) -> list[float]:
    return list(struct.unpack(f"{len(blob) // 4}f", blob))


def nearest(conn: Connection, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
    """(fact_key, cosine similarity) of the k nearest stored vectors, best first."""
    _, dim = embedding_space(conn)
    if postgres(conn):
        found = pg_search.nearest(conn, pack_vector(vector, dim), k, None, {})
        return [(key, 1.0 - distance) for key, distance in found]
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


def content_hashes(conn: Connection) -> dict[int, str]:
    """The content hash each embedded fact's vector was made from, by fact key."""
    e = FactEmbedding
    return {int(k): str(h) for k, h in conn.execute(select(col(e.fact_key), col(e.content_hash)))}


def vector_epoch(conn: Connection) -> tuple[str | None, int]:
    """(model, epoch): the epoch moves whenever a vector is stored or dropped."""
    space = conn.execute(select(EmbeddingSpace).where(col(EmbeddingSpace.id) == 1)).one()
    return space.model, int(space.epoch)


def all_vectors(conn: Connection) -> tuple[int, list[int], list[bytes]]:
    """The epoch, then every fact's key and packed vector: read from the content-hash cache
    (a plain table, fast to scan) and, for vectors stored before the cache existed, vec0.
    The epoch is read first, so a write in between can only make the copy look older."""
    _, epoch = vector_epoch(conn)
    fe, ec = FactEmbedding, EmbeddingCache
    rows = conn.execute(
        select(col(fe.fact_key), col(ec.embedding))
        .outerjoin(
            ec, (col(ec.content_hash) == col(fe.content_hash)) & (col(ec.model) == col(fe.model))
        )
        .order_by(col(fe.fact_key))
    ).all()
    keys, blobs = [], []
    for key, blob in rows:
        if blob is None and postgres(conn):
            blob = pg_search.stored_vector(conn, int(key))
        elif blob is None:
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
