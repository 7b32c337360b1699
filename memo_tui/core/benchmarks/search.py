"""`memo bench search`: keyword, vector and hybrid search latency on synthetic stores.

Each size gets a scratch store of N facts with seeded text (topic words, shared meeting words,
names, numbers) and 384-d unit vectors clustered by topic. No embedding model runs: query
vectors are noisy copies of stored ones, so only retrieval is timed. A NumPy exact top-10
over the same vectors held in memory is the floor.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.search import hybrid_search
from store import (
    FACT_TYPES,
    FactFilter,
    NewActionItem,
    NewCapture,
    NewDecision,
    NewExcerpt,
    Provenance,
    Store,
    utc_now,
)

P = ParamSpec("P")
T = TypeVar("T")
Progress = Callable[[str], None]
Vectors = npt.NDArray[np.float32]

MODEL = "bench/synthetic-384"
DIM = 384
LIMIT = 10
POOL = 50  # hybrid_search's candidates per ranking; keyword and vector are timed with it too
TARGET_MS = 50.0  # the goal for hybrid p50 at 100,000 facts
FACTS_PER_CAPTURE = 100  # a summary, 4 decisions, 4 action items, the rest excerpts
TOPICS = 48
TOPIC_WORDS = 60
VECTOR_BATCH = 5_000
WARMUP = 10  # untimed queries first: the file's pages come into the OS cache
FACT_NOISE = 1.0  # a fact's cosine with its topic centre is about 1 / sqrt(1 + noise^2)
QUERY_NOISE = 0.35
MEETING_WORDS = """budget release deploy schema migration invoice client contract review
    staging pilot vendor roadmap sprint launch pricing audit backlog incident outage hiring
    onboarding security licence database cluster latency dashboard report forecast renewal
    integration workshop training rollout warehouse scanner driver route payment refund
    supplier quote proposal timeline milestone deadline handover retro metrics survey design
    prototype feedback testing support ticket escalation compliance policy backup storage""".split()
NAMES = """Priya Sam Tom Ana Lars Mei Jonas Fatima Diego Ingrid Kwame Sofia Omar Hana Luca
    Nadia Ben Chloe Ravi Elena Yusuf Greta Mateo Aiko Noah Leila Pavel Zara Ivan Maya""".split()
_CONSONANTS = list("bdfghklmnprstvz")
_VOWELS = list("aeiou")


@dataclass(frozen=True)
class Corpus:
    """The facts of a synthetic store: row i of `vectors` is the vector of `keys[i]`."""

    keys: list[int]
    texts: list[str]  # as the facts view shows them
    vectors: Vectors
    tokens: list[list[str]]  # the words each fact was made of, for query text
    fact_types: dict[str, int]
    captures: int
    seconds: dict[str, float]


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
class _Precomputed:
    """A query embedder that hands back a vector made beforehand: the model is not timed."""

    name: str
    vector: list[float]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.vector for _ in texts]


def _vocabulary(rng: np.random.Generator) -> list[str]:
    """TOPICS x TOPIC_WORDS made-up words (topic t owns one slice), then the shared words."""
    made: dict[str, None] = {}
    while len(made) < TOPICS * TOPIC_WORDS:
        syllables = rng.integers(2, 4)
        word = "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(syllables))
        if word not in STOPWORDS and word not in MEETING_WORDS:
            made[word] = None
    return [*made, *MEETING_WORDS]


def _zipf(size: int) -> npt.NDArray[np.float64]:
    weights = 1.0 / np.arange(1, size + 1) ** 1.1
    return np.asarray(weights / weights.sum(), dtype=np.float64)


def _fact_tokens(rng: np.random.Generator, topics: npt.NDArray[np.int64]) -> list[list[str]]:
    """6 to 18 words per fact: its topic's words (Zipf), meeting words, names, numbers."""
    vocab = np.array(_vocabulary(rng), dtype=object)
    count, width = len(topics), 18
    kinds = rng.choice(4, size=(count, width), p=[0.55, 0.25, 0.1, 0.1])
    topic_word = topics[:, None] * TOPIC_WORDS + rng.choice(
        TOPIC_WORDS, size=(count, width), p=_zipf(TOPIC_WORDS)
    )
    meeting_word = TOPICS * TOPIC_WORDS + rng.choice(
        len(MEETING_WORDS), size=(count, width), p=_zipf(len(MEETING_WORDS))
    )
    names = np.array(NAMES, dtype=object)[rng.integers(0, len(NAMES), (count, width))]
    numbers = rng.integers(100, 100_000, size=(count, width)).astype(str).astype(object)
    words = np.choose(kinds, [vocab[topic_word], vocab[meeting_word], names, numbers])
    lengths = rng.integers(6, width + 1, size=count)
    return [list(row[:n]) for row, n in zip(words, lengths, strict=True)]


def _fact_type(index: int) -> str:
    position = index % FACTS_PER_CAPTURE
    if position == 0:
        return "summary"
    return "decision" if position <= 4 else "action_item" if position <= 8 else "excerpt"


def _capture(number: int, texts: list[str], first: int, seed: int) -> NewCapture:
    """One synthetic meeting holding facts `first` .. `first + len(texts) - 1`."""
    by_kind: dict[str, list[str]] = {}
    lines = []  # an excerpt's line in the capture's text
    for i, body in enumerate(texts):
        kind = _fact_type(first + i)
        by_kind.setdefault(kind, []).append(body)
        if kind == "excerpt":
            lines.append(i + 1)
    owner = NAMES[number % len(NAMES)]
    return NewCapture(
        source_kind="bench",
        source_path=None,
        source_format="txt",
        content_hash=f"bench-search-{seed}-{number}",
        signature=None,
        title=f"Synthetic meeting {number}",
        occurred_at=f"{2024 + number % 3}-{1 + number % 12:02d}-{1 + number % 28:02d}",
        raw_text="\n".join(texts),
        text="\n".join(texts),
        line_count=len(texts),
        summary=by_kind["summary"][0] if "summary" in by_kind else None,
        meta={},
        extractor="bench",
        truncated=False,
        provenance=Provenance(
            "bench", f"synthetic-{number}", utc_now(), triggered_by_agent="memo bench"
        ),
        decisions=[
            NewDecision(t, None, owner, None, None, None) for t in by_kind.get("decision", [])
        ],
        action_items=[
            NewActionItem(t, owner, None, None, None, None) for t in by_kind.get("action_item", [])
        ],
        excerpts=[
            NewExcerpt(line, line, t)
            for line, t in zip(lines, by_kind.get("excerpt", []), strict=True)
        ],
    )


def _unit(rows: npt.NDArray[np.float64]) -> Vectors:
    return np.asarray(rows / np.linalg.norm(rows, axis=1, keepdims=True), dtype=np.float32)


def _write_facts(
    store: Store, tokens: list[list[str]], seed: int, say: Progress
) -> list[tuple[int, str]]:
    """Write the captures; (fact key, stored text) of each generated fact, in generation order."""
    texts = [" ".join(words) for words in tokens]
    for n, first in enumerate(range(0, len(texts), FACTS_PER_CAPTURE)):
        store.captures.write(_capture(n, texts[first : first + FACTS_PER_CAPTURE], first, seed))
        if (n + 1) % 200 == 0:
            say(f"{len(texts):,} facts: {first + FACTS_PER_CAPTURE:,} written")
    # Within a type, keys grow in insertion order, and vectors.missing sorts by key.
    stored: dict[str, list[tuple[int, str]]] = {}
    for key, body in store.vectors.missing(len(texts)):
        stored.setdefault(FACT_TYPES[(key >> 32) - 1], []).append((key, body))
    made: dict[str, list[int]] = {}
    for index in range(len(texts)):
        made.setdefault(_fact_type(index), []).append(index)
    facts: list[tuple[int, str]] = [(0, "")] * len(texts)
    for kind, indexes in made.items():
        for index, fact in zip(indexes, stored.get(kind, []), strict=True):
            facts[index] = fact
    return facts


def build_store(
    store: Store, facts: int, seed: int = 0, progress: Progress | None = None
) -> Corpus:
    """Fill an empty store with `facts` synthetic facts and their vectors."""
    say = progress or (lambda _: None)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    topics = rng.integers(0, TOPICS, size=facts)
    tokens = _fact_tokens(rng, topics)
    say(f"{facts:,} facts: writing captures")
    written = _write_facts(store, tokens, seed, say)
    keys = [key for key, _ in written]
    wrote = time.perf_counter()
    centres = _unit(rng.standard_normal((TOPICS, DIM)))
    noise = rng.standard_normal((facts, DIM)) * FACT_NOISE / np.sqrt(DIM)
    unit = _unit(centres[topics] + noise)
    store.vectors.set_space(MODEL, DIM)
    for first in range(0, facts, VECTOR_BATCH):
        batch = range(first, min(first + VECTOR_BATCH, facts))
        store.vectors.put_many([(keys[i], unit[i].tobytes(), f"bench-{i}") for i in batch], MODEL)
        say(f"{facts:,} facts: {batch.stop:,} vectors written")
    return Corpus(
        keys=keys,
        texts=[body for _, body in written],
        vectors=unit,
        tokens=tokens,
        fact_types=dict(Counter(_fact_type(i) for i in range(facts))),
        captures=len(range(0, facts, FACTS_PER_CAPTURE)),
        seconds={"captures": wrote - started, "vectors": time.perf_counter() - wrote},
    )


def exact_top(vectors: Vectors, query: Vectors, k: int) -> npt.NDArray[np.intp]:
    """Row numbers of the k rows most cosine-similar to `query`, best first (all unit length).

    On a busy machine OpenBLAS's threads can slow this down; OPENBLAS_NUM_THREADS=1 avoids it.
    """
    scores = vectors @ query
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


def make_queries(corpus: Corpus, count: int, seed: int) -> tuple[list[str], Vectors]:
    """Noisy copies of stored vectors, each with two to four words of the same fact as text."""
    rng = np.random.default_rng([seed, 1])
    picks = rng.integers(0, len(corpus.keys), size=count)
    noise = rng.standard_normal((count, DIM)) * QUERY_NOISE / np.sqrt(DIM)
    texts = []
    for pick in picks:
        words = corpus.tokens[pick]
        chosen = rng.choice(
            len(words), size=min(len(words), int(rng.integers(2, 5))), replace=False
        )
        texts.append(" ".join(words[i] for i in sorted(chosen)))
    return texts, _unit(corpus.vectors[picks] + noise)


def _timed(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> tuple[T, tuple[float, float]]:
    """fn's value, and the wall and this thread's CPU milliseconds it took."""
    wall, cpu = time.perf_counter(), time.thread_time()
    value = fn(*args, **kwargs)
    return value, ((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000)


def _time_queries(
    store: Store, corpus: Corpus, count: int, seed: int
) -> tuple[dict[str, Latency], float, int]:
    """Latency of each way of searching, vec0's recall@10 against the exact NumPy top-10, and
    the in-memory index's size.

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
    for n, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
        as_list = [float(x) for x in vector]
        embedder = _Precomputed(MODEL, as_list)
        _, kw = _timed(store.search.keyword, text, everything, POOL, STOPWORDS)
        knn, vec = _timed(store.search.vector, as_list, everything, POOL, 0.0)
        result, hyb = _timed(
            hybrid_search, store, embedder, text, everything, LIMIT, 0.0, pool=POOL
        )
        indexed, hyb_index = _timed(
            hybrid_search, store, embedder, text, everything, LIMIT, 0.0, pool=POOL, index=index
        )
        _, hyb_filtered = _timed(
            hybrid_search, store, embedder, text, FILTERED, LIMIT, 0.0, pool=POOL, index=index
        )
        _, fetch = _timed(store.facts.by_keys, [hit.fact.fact_key for hit in result.hits])
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
        exact, floor = _timed(exact_top, corpus.vectors, vector, LIMIT)
        if n >= warmup:
            latency["numpy"].add(*floor)
            found_exact += len({corpus.keys[row] for row in exact} & knn_keys[n - warmup])
    return latency, found_exact / (count * min(LIMIT, len(corpus.keys))), index.nbytes


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
                latency, recall, index_bytes = _time_queries(store, corpus, queries, seed)
        bench.sizes.append(
            SizeResult(
                facts,
                corpus.captures,
                corpus.fact_types,
                corpus.seconds,
                size,
                latency,
                recall,
                index_bytes,
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
