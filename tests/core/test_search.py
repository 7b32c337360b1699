"""Hybrid search: BM25 and vector rankings fused by reciprocal rank, filters before the limit."""

from __future__ import annotations

import pytest

from memo_tui.core.embed import FastEmbedder
from memo_tui.core.recall.search import fuse, hybrid_search
from store import FactFilter, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


def test_reciprocal_rank_fusion_rewards_agreement() -> None:
    scores = fuse([[1, 2, 3], [3, 1, 4]])
    assert max(scores, key=lambda k: scores[k]) == 1
    assert scores[3] > scores[2] and 4 in scores


def test_exact_names_and_numbers_are_found_by_keywords(demo: Store) -> None:
    result = hybrid_search(demo, None, "SSPL licence", limit=3)
    assert result.mode == "keyword" and "no embedding model" in (result.note or "")
    assert any("SSPL" in hit.fact.text for hit in result.hits)
    zebra = hybrid_search(demo, None, "Zebra scanner", limit=5)
    assert zebra.hits and all(h.keyword_rank is not None for h in zebra.hits)


def test_paraphrases_are_found_by_vectors(demo: Store, embedder: FastEmbedder) -> None:
    query = "who handles the payment provider login setup?"
    result = hybrid_search(demo, embedder, query, limit=3, min_similarity=0.3)
    assert result.mode == "hybrid"
    stripe = next(h for h in result.hits if "Stripe account" in h.fact.text)
    # no word of the question is in the fact: only the vector ranking found it
    assert stripe.keyword_rank is None and stripe.vector_rank == 1
    assert hybrid_search(demo, None, query, limit=3).hits[0].fact.text != stripe.fact.text


def test_filters_apply_before_the_limit(demo: Store, embedder: FastEmbedder) -> None:
    only = FactFilter(fact_types=("decision",))
    result = hybrid_search(
        demo, embedder, "Postgres Stripe Bergen pilot", only, limit=5, min_similarity=0.0
    )
    assert len(result.hits) == 5 and {h.fact.fact_type for h in result.hits} == {"decision"}
    november = FactFilter(since="2026-11-01", until="2026-11-30")
    late = hybrid_search(demo, embedder, "pilot drivers", november, limit=10, min_similarity=0.0)
    assert late.hits and all(
        "2026-11-01" <= (h.fact.occurred_at or "") <= "2026-11-30" for h in late.hits
    )


@pytest.mark.parametrize("query", ['"', "NEAR(a b)", "a* OR", "(((", "-x", "AND", "'; DROP"])
def test_search_syntax_in_a_query_is_just_text(demo: Store, query: str) -> None:
    hybrid_search(demo, None, query)  # no FTS5 syntax error escapes


def test_the_similarity_threshold_drops_weak_vector_matches(
    demo: Store, embedder: FastEmbedder
) -> None:
    strict = hybrid_search(demo, embedder, "the weather in Bergen", limit=10, min_similarity=0.99)
    assert all(h.vector_rank is None for h in strict.hits)
