"""`memo bench search`: keyword, vector and hybrid search latency on synthetic stores.

Each size gets a scratch store of N facts with seeded text (topic words, shared meeting words,
names, numbers) and 384-d unit vectors clustered by topic (`search_corpus` makes them). No
embedding model runs: query vectors are noisy copies of stored ones, so only retrieval is timed.
A NumPy exact top-10 over the same vectors held in memory is the floor.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from memo_tui.core.benchmarks.search_corpus import (
    DIM,
    MODEL,
    Corpus,
    Progress,
    Vectors,
    build_store,
    make_queries,
)
from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.search import hybrid_search
from store import FactFilter, Store

P = ParamSpec("P")
T = TypeVar("T")

LIMIT = 10
POOL = 50  # hybrid_search's candidates per ranking; keyword and vector are timed with it too
TARGET_MS = 50.0  # the goal for hybrid p50 at 100,000 facts
WARMUP = 10  # untimed queries first: the file's pages come into the OS cache


@dataclass
class Latency:
    """Wall-clock samples, and the calling thread's CPU time for the same calls (steadier when
    other work shares the machine; it leaves out BLAS worker threads)."""

    samples_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def add(self, wall_ms: float, cpu_ms: float) -> None:
        self.samples_ms.append(wall_ms)
        self.cpu_ms.append(cpu_ms)

    def percentile(self, q: float, cpu: bool = False) -> float:
        samples = self.cpu_ms if cpu else self.samples_ms
        return float(np.percentile(samples, q)) if samples else 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "p50": round(self.percentile(50), 3),
            "p95": round(self.percentile(95), 3),
            "cpu_p50": round(self.percentile(50, cpu=True), 3),
        }


@dataclass
class SizeResult:
    facts: int
    captures: int
    fact_types: dict[str, int]
    build_seconds: dict[str, float]
    store_bytes: int
    latency: dict[str, Latency]
    vec0_recall_at_10: float
    index_bytes: int = 0  # the in-memory index's keys and vectors
    index_kind: str = "exact"  # or partitioned (approximate), see recall.partition

    def as_dict(self) -> dict[str, object]:
        numpy_p50 = self.latency["numpy"].percentile(50)
        ratio = self.latency["hybrid_index"].percentile(50) / numpy_p50 if numpy_p50 else 0.0
        return {
            "facts": self.facts,
            "captures": self.captures,
            "fact_types": self.fact_types,
            "build_seconds": {k: round(v, 2) for k, v in self.build_seconds.items()},
            "store_bytes": self.store_bytes,
            "latency_ms": {name: self.latency[name].as_dict() for name in ROWS},
            "index_same_top10": round(float(np.mean(self.latency[AGREEMENT].samples_ms)), 4)
            if self.latency[AGREEMENT].samples_ms
            else None,
            "hybrid_over_numpy_p50": round(ratio, 2),
            "vec0_recall_at_10": round(self.vec0_recall_at_10, 4),
            "index_bytes": self.index_bytes,
            "index_kind": self.index_kind,
        }


@dataclass
class SearchBench:
    queries: int
    seed: int
    sizes: list[SizeResult] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "queries": self.queries,
            "seed": self.seed,
            "limit": LIMIT,
            "pool": POOL,
            "dim": DIM,
            "target_hybrid_p50_ms": TARGET_MS,
            "sizes": [size.as_dict() for size in self.sizes],
        }


@dataclass
class Precomputed:
    """A query embedder that hands back a vector made beforehand: the model is not timed."""

    name: str
    vector: list[float]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.vector for _ in texts]


def exact_top(vectors: Vectors, query: Vectors, k: int) -> npt.NDArray[np.intp]:
    """Row numbers of the k rows most cosine-similar to `query`, best first (all unit length).

    On a busy machine OpenBLAS's threads can slow this down; OPENBLAS_NUM_THREADS=1 avoids it.
    """
    scores = vectors @ query
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


def timed(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> tuple[T, tuple[float, float]]:
    """fn's value, and the wall and this thread's CPU milliseconds it took."""
    wall, cpu = time.perf_counter(), time.thread_time()
    value = fn(*args, **kwargs)
    return value, ((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000)


def _time_queries(
    store: Store, corpus: Corpus, count: int, seed: int
) -> tuple[dict[str, Latency], float, VectorIndex]:
    """Latency of each way of searching, vec0's recall@10 against the exact NumPy top-10, and
    the in-memory index searched.

    The store's ways run in turn on each query, so a load spike hits them all alike. NumPy
    runs in a pass of its own: idle BLAS threads spin for a while and would slow SQLite down.
    """
    warmup = min(WARMUP, count)
    texts, vectors = make_queries(corpus, count + warmup, seed)
    everything = FactFilter()
    latency = {name: Latency() for name in (*ROWS, AGREEMENT)}
    knn_keys: list[set[int]] = []
    index = VectorIndex(store, min_vectors=0)
    index.search([1.0] * DIM, everything, 1, 0.0)  # load the copy once, as a TUI would
    index.wait_partitioned()  # a large copy: searched once its background partition is done
    for n, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
        as_list = [float(x) for x in vector]
        embedder = Precomputed(MODEL, as_list)
        _, kw = timed(store.search.keyword, text, everything, POOL, STOPWORDS)
        knn, vec = timed(store.search.vector, as_list, everything, POOL, 0.0)
        result, hyb = timed(hybrid_search, store, embedder, text, everything, LIMIT, 0.0, pool=POOL)
        indexed, hyb_index = timed(
            hybrid_search, store, embedder, text, everything, LIMIT, 0.0, pool=POOL, index=index
        )
        _, hyb_filtered = timed(
            hybrid_search, store, embedder, text, FILTERED, LIMIT, 0.0, pool=POOL, index=index
        )
        _, fetch = timed(store.facts.by_keys, [hit.fact.fact_key for hit in result.hits])
        if n >= warmup:
            for name, ms in (
                ("keyword", kw),
                ("vector", vec),
                ("hybrid", hyb),
                ("hybrid_index", hyb_index),
                ("hybrid_filtered", hyb_filtered),
                ("fetch", fetch),
            ):
                latency[name].add(*ms)
            knn_keys.append({key for key, _ in knn[:LIMIT]})
            same = [h.fact.fact_key for h in indexed.hits] == [h.fact.fact_key for h in result.hits]
            latency["index_agrees"].add(float(same), float(same))
    found_exact = 0
    for n, vector in enumerate(vectors):
        exact, floor = timed(exact_top, corpus.vectors, vector, LIMIT)
        if n >= warmup:
            latency["numpy"].add(*floor)
            found_exact += len({corpus.keys[row] for row in exact} & knn_keys[n - warmup])
    return latency, found_exact / (count * min(LIMIT, len(corpus.keys))), index


def _file_bytes(path: Path) -> int:
    files = [path, path.with_name(path.name + "-wal")]
    return sum(f.stat().st_size for f in files if f.exists())


def run(
    sizes: list[int], queries: int = 200, seed: int = 0, progress: Progress | None = None
) -> SearchBench:
    """Build a scratch store per size, then time `queries` searches of each kind on it."""
    if not sizes or min(sizes) < 1 or queries < 1:
        raise ValueError("sizes and queries must be positive")
    say = progress or (lambda _: None)
    bench = SearchBench(queries, seed)
    for facts in sizes:
        with tempfile.TemporaryDirectory(prefix="memo-bench-search-") as scratch:
            path = Path(scratch) / "bench.db"
            with Store(path) as store:
                corpus = build_store(store, facts, seed, say)
            size = _file_bytes(path)  # closed, so the WAL is checkpointed into the file
            say(f"{facts:,} facts: timing {queries} queries")
            with Store(path) as store:  # reopened, as a new `memo ask` would
                latency, recall, index = _time_queries(store, corpus, queries, seed)
        bench.sizes.append(
            SizeResult(
                facts,
                corpus.captures,
                corpus.fact_types,
                corpus.seconds,
                size,
                latency,
                recall,
                index.nbytes,
                index.kind,
            )
        )
    return bench


ROWS = {
    "keyword": f"keyword (FTS5 BM25, top {POOL})",
    "vector": f"vector (vec0 KNN, top {POOL})",
    "hybrid": f"hybrid, vec0 (one-shot ask, top {LIMIT})",
    "hybrid_index": "hybrid, in-memory index (TUI)",
    "hybrid_filtered": "  same, decisions since 2025-06",
    "fetch": f"facts_by_keys ({LIMIT} keys)",
    "numpy": f"NumPy exact top-{LIMIT} (floor)",
}
# Not a latency: 1.0 per query whose hybrid top-10 is the same through the index and vec0.
AGREEMENT = "index_agrees"
FILTERED = FactFilter(fact_types=("decision",), since="2025-06-01")
