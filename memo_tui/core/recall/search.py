"""Hybrid search: FTS5 BM25 and vector KNN fused by reciprocal rank.

Exact names and numbers are found by keywords; paraphrases ("database" for "Postgres") by
vectors. Without an embedding model the search is keyword-only, and says so.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.embed.embedder import EmbeddingUnavailable
from memo_tui.core.recall.index import VectorIndex
from store import FactFilter, FactRecord, Store

RRF_K = 60  # the usual reciprocal-rank constant: later ranks still count, a little
# Cosine similarity below which a vector match is not retrieved. Calibrated for
# all-MiniLM-L6-v2 by `memo bench recall`: relevant facts sit at 0.4-0.65 and off-topic
# questions reach 0.16-0.30, so the 0.65 of larger models would silence the vector side.
MIN_SIMILARITY = 0.35

SearchMode = Literal["hybrid", "keyword", "vector"]


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
    mode: SearchMode
    candidates: int
    note: str | None = None


def fuse(rankings: list[list[int]], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal-rank fusion: each list adds 1 / (k + rank) to the items it ranks."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return scores


def _query_vector(
    store: Store, embedder: QueryEmbedder | None, query: str
) -> tuple[list[float] | None, str | None]:
    """The query's vector, or None and why vectors cannot be used."""
    model = store.vectors.model()
    if embedder is None or model is None:
        return None, "no embedding model (set MEMO_EMBED_MODEL_PATH)"
    if model != embedder.name:
        return None, f"stored vectors come from {model}; run memo backfill"
    try:
        [vector] = embedder.embed([query])
    except EmbeddingUnavailable as error:
        return None, str(error)
    return vector, None


_KEYWORD_THREADS: ThreadPoolExecutor | None = None
_KEYWORD_LOCK = threading.Lock()


def _beside() -> ThreadPoolExecutor:
    """The threads keyword searches run in while this thread searches vectors."""
    global _KEYWORD_THREADS
    with _KEYWORD_LOCK:
        if _KEYWORD_THREADS is None:
            _KEYWORD_THREADS = ThreadPoolExecutor(2, thread_name_prefix="memo-keyword")
        return _KEYWORD_THREADS


def _vector_side(
    store: Store,
    index: VectorIndex | None,
    vector: list[float] | None,
    filters: list[FactFilter],
    pool: int,
    min_similarity: float,
) -> tuple[list[list[int]], dict[int, float]]:
    """A vector ranking per filter (none without a vector), and each fact's similarity."""
    rankings: list[list[int]] = []
    similarity: dict[int, float] = {}
    if vector is None:
        return rankings, similarity
    for only in filters:
        found = index.search(vector, only, pool, min_similarity) if index else None
        if found is None:
            found = store.search.vector(vector, only, pool, min_similarity)
        similarity.update(found)
        rankings.append([key for key, _ in found])
    return rankings, similarity


def hybrid_search(
    store: Store,
    embedder: QueryEmbedder | None,
    query: str,
    flt: FactFilter | None = None,
    limit: int = 10,
    min_similarity: float = MIN_SIMILARITY,
    pool: int = 50,
    mode: SearchMode = "hybrid",
    vector_query: str | None = None,
    prefer: tuple[str, ...] = (),
    index: VectorIndex | None = None,
) -> SearchResult:
    """The best `limit` facts for `query` under `flt`; each list contributes `pool` candidates.

    `mode` keeps one ranking alone ("keyword", "vector"), for comparing them. `vector_query`
    is embedded instead of `query` (a whole question embeds better than its keywords).
    `prefer` fact types add rankings of their own: a guessed type lifts those facts without
    hiding the rest, as a hard filter would. `index`, an in-process copy of the vectors,
    answers the vector side when it is loaded and worth it (see recall.index).
    """
    flt = flt or FactFilter()
    filters = [flt]
    if prefer and not flt.fact_types:
        filters.append(replace(flt, fact_types=prefer))
    # The keyword side runs beside the query's embedding and the vector side (SQLite, ONNX
    # and NumPy let go of the GIL): on two cores a search takes the longer, not the sum.
    keyword = (
        [_beside().submit(store.search.keyword, query, only, pool, STOPWORDS) for only in filters]
        if mode != "vector"
        else []
    )
    vector: list[float] | None = None
    note = None
    if mode != "keyword":
        vector, why = _query_vector(store, embedder, vector_query or query)
        if why is not None:
            note = f"{'keyword search only' if mode == 'hybrid' else 'no vector search'}: {why}"
    vector_rankings, similarity = _vector_side(store, index, vector, filters, pool, min_similarity)
    keyword_rankings = [[key for key, _ in done.result()] for done in keyword]
    keyword_ranks = keyword_rankings[0] if keyword_rankings else []
    vector_ranks = vector_rankings[0] if vector_rankings else []
    rankings: list[list[int]] = []
    for number in range(len(filters)):  # in the order they were always fused
        rankings += keyword_rankings[number : number + 1] + vector_rankings[number : number + 1]
    scores = fuse(rankings)
    best = sorted(scores, key=lambda key: (-scores[key], key))[:limit]
    hits = _hits(store, best, scores, (keyword_ranks, vector_ranks), similarity)
    used: SearchMode = "keyword" if mode == "hybrid" and note else mode
    return SearchResult(hits, used, len(scores), note)


def _hits(
    store: Store,
    best: list[int],
    scores: dict[int, float],
    ranks: tuple[list[int], list[int]],
    similarity: dict[int, float],
) -> list[Hit]:
    """The best facts as hits, each with its fused score, its rank on each side (keyword,
    vector) and its similarity."""
    records = store.facts.by_keys(best)
    keyword, vector = ranks
    return [
        Hit(
            records[key],
            scores[key],
            keyword.index(key) + 1 if key in keyword else None,
            vector.index(key) + 1 if key in vector else None,
            similarity.get(key),
        )
        for key in best
        if key in records
    ]
