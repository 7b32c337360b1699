"""`memo bench search` times each way of searching on a synthetic store it builds itself."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from memo_tui.core.benchmarks.search import run
from memo_tui.core.benchmarks.search_corpus import MODEL, build_store
from memo_tui.core.benchmarks.search_report import format_report
from memo_tui.core.recall.search import hybrid_search
from store import FactFilter, Store

pytestmark = pytest.mark.slow


@dataclass
class FixedEmbedder:
    name: str
    vector: list[float]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.vector for _ in texts]


def test_bench_search_reports_latency_and_exact_recall() -> None:
    progress: list[str] = []
    figures = run([500], queries=20, seed=1, progress=progress.append).as_dict()
    assert figures["queries"] == 20 and figures["limit"] == 10
    [size] = figures["sizes"]
    assert size["facts"] == 500 and sum(size["fact_types"].values()) == 500
    assert size["store_bytes"] > 0 and all(s > 0 for s in size["build_seconds"].values())
    assert set(size["latency_ms"]) == {
        "keyword",
        "vector",
        "hybrid",
        "hybrid_index",
        "hybrid_filtered",
        "fetch",
        "numpy",
    }
    assert size["index_same_top10"] == 1.0  # the in-memory index answers as vec0 does
    for latency in size["latency_ms"].values():
        assert 0 < latency["p50"] <= latency["p95"] and latency["cpu_p50"] >= 0
    assert size["vec0_recall_at_10"] == 1.0  # both scans are exact over the same vectors
    assert size["hybrid_over_numpy_p50"] > 0
    assert size["index_bytes"] == 500 * (384 * 4 + 8)  # the float32 vectors and int64 keys
    assert any("timing 20 queries" in line for line in progress)


def test_the_report_is_a_table_with_a_column_per_size() -> None:
    report = format_report(run([120, 240], queries=5))
    assert "120 facts" in report and "240 facts" in report
    assert "hybrid, in-memory index (TUI)" in report and "vec0 recall@10 vs NumPy" in report
    assert "in-memory index (keys, vectors)" in report
    # The targets need bigger sizes; each says so rather than pass or fail.
    assert "keyword p95 at most 20 ms at 100,000 facts: not measured" in report
    assert "p95 at most 250 ms at 1,000,000 facts: not measured (--facts 1000000)" in report


def test_hybrid_search_on_the_synthetic_store_finds_rare_words(tmp_path: Path) -> None:
    with Store(tmp_path / "bench.db") as store:
        corpus = build_store(store, 500, seed=2)
        counts = Counter(word.lower() for words in corpus.tokens for word in set(words))
        rare = next(w for w, n in sorted(counts.items()) if n == 3 and not w.isdigit())
        holders = [i for i, words in enumerate(corpus.tokens) if rare in words]
        expected = {corpus.keys[i] for i in holders}
        assert all(rare in corpus.texts[i] for i in holders)
        # the query vector is far enough from everything that only the keyword ranking counts
        far = FixedEmbedder(MODEL, [1.0] + [0.0] * 383)
        by_word = hybrid_search(store, far, rare, FactFilter(), 10, min_similarity=0.5)
        assert by_word.mode == "hybrid" and {h.fact.fact_key for h in by_word.hits} == expected
        # a word of one fact, with that fact's own vector: first in both rankings
        unique = next(w for w, n in sorted(counts.items()) if n == 1)
        [only] = [i for i, words in enumerate(corpus.tokens) if unique in words]
        own = FixedEmbedder(MODEL, [float(x) for x in corpus.vectors[only]])
        top = hybrid_search(store, own, unique, FactFilter(), 10, min_similarity=0.0).hits[0]
        assert top.fact.fact_key == corpus.keys[only] and top.fact.text == corpus.texts[only]
        assert (top.keyword_rank, top.vector_rank) == (1, 1)
        assert top.similarity is not None and top.similarity > 0.999
