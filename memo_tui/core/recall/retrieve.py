"""The facts a question is answered from: hybrid search under its dates and entities, with
its steering words left out of the keywords."""

from __future__ import annotations

import re
from dataclasses import replace

from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.recall.filters import QUESTION_WORDS, QuestionFilters
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.search import (
    MIN_SIMILARITY,
    QueryEmbedder,
    SearchResult,
    hybrid_search,
)
from store import Store


def search_words(question: str) -> str:
    """The question without the words that only steer the search."""
    kept = [w for w in re.findall(r"\w+", question) if w.lower() not in QUESTION_WORDS | STOPWORDS]
    return " ".join(kept) or question


def retrieve(
    store: Store,
    embedder: QueryEmbedder | None,
    question: str,
    filters: QuestionFilters,
    min_similarity: float = MIN_SIMILARITY,
    limit: int = 10,
    index: VectorIndex | None = None,
) -> SearchResult:
    """Hybrid retrieval under the question's dates and entities.

    "Who owns / owes / to-do" asks for action items, so they filter (and the filter is
    dropped only when it leaves nothing). "Why did we..." is often answered by the
    discussion rather than the decision (measured on QMSum: 2 of 40 such questions found
    with decisions only, 11 without), so decisions are preferred, not required. Keywords come
    from the question without its steering words; the vector side embeds the whole question.
    In a question asking who, a person it names is where it happened ("Who ran the soak
    while Marta was away?"): the filter keeps their meetings, and neither side searches for
    the name, which would rank what they did above what was asked.
    """
    words, asked = search_words(question), question
    mentions = [re.escape(e.mention) for e in filters.named("person")]
    if filters.asks_who and mentions:  # the people named are where it happened: the filter
        named = re.compile(rf"\b(?:{'|'.join(mentions)})(?:'s)?\b", re.IGNORECASE)
        words = " ".join(named.sub(" ", words).split()) or words
        asked = " ".join(named.sub(" ", question).split()) or question
    hard = tuple(t for t in filters.fact_types if t == "action_item")
    soft = tuple(t for t in filters.fact_types if t not in hard)
    flt = replace(filters.fact_filter(with_types=False), fact_types=hard)
    found = hybrid_search(
        store,
        embedder,
        words,
        flt,
        limit,
        min_similarity,
        vector_query=asked,
        prefer=soft,
        index=index,
    )
    if not found.hits and hard:
        flt = filters.fact_filter(with_types=False)
        found = hybrid_search(
            store, embedder, words, flt, limit, min_similarity, vector_query=question, index=index
        )
    if not found.hits and filters.entities:  # a name read from the question, wrongly perhaps
        flt = replace(filters, entities=()).fact_filter(with_types=False)
        found = hybrid_search(
            store, embedder, words, flt, limit, min_similarity, vector_query=question, index=index
        )
        if found.hits:
            names = ", ".join(e.name for e in filters.entities)
            found = replace(found, note=f"nothing about {names}: searched without that filter")
    return found
