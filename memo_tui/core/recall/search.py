"""Hybrid search: FTS5 BM25 and vector KNN fused by reciprocal rank.

Exact names and numbers are found by keywords; paraphrases ("database" for "Postgres") by
vectors. Without an embedding model the search is keyword-only, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.embed.embedder import EmbeddingUnavailable
from store import FactFilter, FactRecord, Store

RRF_K = 60  # the usual reciprocal-rank constant: later ranks still count, a little


class QueryEmbedder(Protocol):
    name: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class Hit:
    fact: FactRecord
    score: float
    keyword_rank: int | None
    vector_rank: int | None
    similarity: float | None


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    mode: Literal["hybrid", "keyword"]
    candidates: int
    note: str | None = None


def fuse(rankings: list[list[int]], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal-rank fusion: each list adds 1 / (k + rank) to the items it ranks."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return scores


def hybrid_search(
    store: Store,
    embedder: QueryEmbedder | None,
    query: str,
    flt: FactFilter | None = None,
    limit: int = 10,
    min_similarity: float = 0.65,
    pool: int = 50,
) -> SearchResult:
    """The best `limit` facts for `query` under `flt`; each list contributes `pool` candidates."""
    flt = flt or FactFilter()
    keyword = store.keyword_search(query, flt, pool, STOPWORDS)
    vector: list[tuple[int, float]] = []
    note = None
    model = store.embedding_model()
    if embedder is None or model is None:
        note = "keyword search only: no embedding model (set MEMO_EMBED_MODEL_PATH)"
    elif model != embedder.name:
        note = f"keyword search only: stored vectors come from {model}; run memo backfill"
    else:
        try:
            [query_vector] = embedder.embed([query])
            vector = store.vector_search(query_vector, flt, pool, min_similarity)
        except EmbeddingUnavailable as error:
            note = f"keyword search only: {error}"
    keyword_ranks = [key for key, _ in keyword]
    vector_ranks = [key for key, _ in vector]
    scores = fuse([keyword_ranks, vector_ranks])
    best = sorted(scores, key=lambda key: (-scores[key], key))[:limit]
    records = store.facts_by_keys(best)
    similarity = dict(vector)
    hits = [
        Hit(
            records[key],
            scores[key],
            keyword_ranks.index(key) + 1 if key in keyword_ranks else None,
            vector_ranks.index(key) + 1 if key in vector_ranks else None,
            similarity.get(key),
        )
        for key in best
        if key in records
    ]
    mode: Literal["hybrid", "keyword"] = "keyword" if note else "hybrid"
    return SearchResult(hits, mode, len(scores), note)
