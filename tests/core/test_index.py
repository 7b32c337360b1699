"""The in-process vector index answers exactly as vec0 does, and notices when it is stale."""

from __future__ import annotations

import pytest

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.embed import EmbedService, FastEmbedder
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.search import hybrid_search
from store import FactFilter, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

QUESTIONS = ["which database did we choose", "test devices for the drivers", "Stripe invoices"]


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize(
    "flt",
    [FactFilter(), FactFilter(fact_types=("decision",)), FactFilter(since="2026-10-01")],
    ids=["all", "decisions", "since"],
)
def test_the_index_returns_what_vec0_returns(
    demo: Store, embedder: FastEmbedder, question: str, flt: FactFilter
) -> None:
    [vector] = embedder.embed([question])
    exact = demo.search.vector(vector, flt, 20, 0.0)
    copied = VectorIndex(demo, min_vectors=0).search(vector, flt, 20, 0.0)
    assert copied is not None
    assert [key for key, _ in copied] == [key for key, _ in exact]
    assert [round(s, 4) for _, s in copied] == [round(s, 4) for _, s in exact]
    hybrid = hybrid_search(demo, embedder, question, flt)
    indexed = hybrid_search(demo, embedder, question, flt, index=VectorIndex(demo, 0))
    assert [h.fact.fact_key for h in indexed.hits] == [h.fact.fact_key for h in hybrid.hits]


def test_a_small_store_is_left_to_vec0(demo: Store, embedder: FastEmbedder) -> None:
    [vector] = embedder.embed(["anything"])
    assert VectorIndex(demo, min_vectors=10**9).search(vector, FactFilter(), 5, 0.0) is None


def test_a_stale_copy_reloads_before_it_answers(store: Store, embedder: FastEmbedder) -> None:
    embed = EmbedService(store, embedder)
    capture = CaptureService(store, CaptureOptions(user="t"), after_commit=embed.embed_capture)
    first = capture.capture_text(
        "Ana: We decided to buy a new espresso machine for the office.\n", "a.txt", "txt"
    )
    assert first.ok
    index = VectorIndex(store, min_vectors=0)
    [vector] = embedder.embed(["a telescope for the observatory roof"])
    before = index.search(vector, FactFilter(), 1, -1.0)  # unrelated: cosine may be < 0
    assert before is not None
    second = capture.capture_text(
        "Ben: We decided to mount the telescope on the observatory roof.\n", "b.txt", "txt"
    )
    assert second.ok
    after = index.search(vector, FactFilter(), 1, -1.0)
    assert after is not None and after[0][0] != before[0][0]
    [fact] = store.facts.by_keys([after[0][0]]).values()
    assert fact.capture_id == second.capture_id
