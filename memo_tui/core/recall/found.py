"""What a question finds, as every answer reads it: the facts search retrieved, in the order
an answer tells them (what holds now before what it replaced), the replaced decisions among
them, and whether any of them is about the question at all (the relevance gate).

`memo ask` answers from it, and so does the app's Ask pane, through the chat agent's
`search_facts` tool: both lead with what holds now and both say when there is no record.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from memo_tui.core.recall.current import Change
from memo_tui.core.recall.filters import QuestionFilters, parse_question, with_entities
from memo_tui.core.recall.gate import Relevance, judge
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.listing import EVERY, Listing, listing, rest_of
from memo_tui.core.recall.order import ordered
from memo_tui.core.recall.retrieve import retrieve, search_words
from memo_tui.core.recall.search import MIN_SIMILARITY, Hit, QueryEmbedder, SearchMode
from store import Directory, FactRecord, Store

EVERY_HIT = 50  # facts "show all" retrieves for a question that is not a listing


@dataclass(frozen=True)
class Found:
    hits: list[Hit]  # in the order an answer tells them
    changes: list[Change]  # the replaced decisions among them, and what replaced each
    relevance: Relevance  # whether any hit is about the question
    mode: SearchMode
    candidates: int
    note: str | None = None
    listing: Listing | None = None  # a question listing what its filters allow: how many


def find(
    store: Store,
    embedder: QueryEmbedder | None,
    question: str,
    filters: QuestionFilters,
    directory: Directory,
    min_similarity: float = MIN_SIMILARITY,
    limit: int = 10,
    index: VectorIndex | None = None,
    gated: bool = True,
    every: bool = False,
) -> Found:
    """Retrieve, order and judge the facts for `question`. `gated=False` skips the gate (a
    question about one of several people is answered for each of them). `every`: all the
    facts a listing question's filters allow after those retrieved (else `EVERY_HIT`). A
    listing's hits are filled up to `limit` with the rest of its list, newest first."""
    listed = listing(store, question, filters)
    limit = max(limit, EVERY_HIT) if every else limit
    result = retrieve(store, embedder, question, filters, min_similarity, limit, index)
    found = result.hits
    if listed is not None:  # what search found of the list, then the rest, newest first
        have = {hit.fact.fact_key for hit in found}
        room = EVERY if every else max(0, limit - len(found))
        rest = rest_of(store, filters, have, room) if room else []
        found = found + [Hit(fact, 0.0, None, None, None) for fact in rest]
    hits, changes = ordered(store, found, question, directory)
    listed_found = listed is not None and not listed.keys.isdisjoint(h.fact.fact_key for h in hits)
    if not hits or not gated or listed_found:  # a listing's facts are what it asks for
        relevance = Relevance(bool(hits), question)
    else:
        relevance = judge(store, question, search_words(question).split(), hits, directory)
    return Found(
        hits, list(changes), relevance, result.mode, result.candidates, result.note, listed
    )


def search_facts(
    store: Store,
    embedder: QueryEmbedder | None,
    query: str,
    types: tuple[str, ...] = (),
    limit: int = 10,
    index: VectorIndex | None = None,
    every: bool = False,
) -> Found:
    """`find` for a query as an agent's tool gives it: the dates and names it says filter it,
    and `types` (fact types) when given; `every` as `find` takes it."""
    directory = store.people.directory()
    filters = with_entities(parse_question(query, dt.date.today()), query, directory)
    if types:
        filters = replace(filters, fact_types=types)
    return find(store, embedder, query, filters, directory, limit=limit, index=index, every=every)


def found_json(found: Found, as_json: Callable[[FactRecord], dict[str, Any]]) -> dict[str, Any]:
    """What a tool returns: the facts in answer order, each replaced decision with the fact
    that replaced it (`replaced_by`, a fact of the list), `no_record` when none of them is
    about the query, `listed` for a listing query (how many facts its filters allow: the
    list may be longer than the facts given), and search's note."""
    by = {found.hits[c.old].fact.fact_key: found.hits[c.new].fact for c in found.changes}
    facts = [as_json(hit.fact) for hit in found.hits]
    for fact, hit in zip(facts, found.hits, strict=True):
        if hit.fact.fact_key in by:
            fact["replaced_by"] = {"fact_id": by[hit.fact.fact_key].fact_key}
    result: dict[str, Any] = {"facts": facts}
    if facts and not found.relevance.answered:
        result["no_record"] = found.relevance.no_record()
    if found.listing is not None:
        listed = found.listing
        result["listed"] = {
            "total": listed.total,
            "types": list(listed.fact_types),
            "scope": listed.scope,
            "given": [f["fact_id"] for f in facts if f["fact_id"] in listed.keys],
        }
    if found.note:
        result["note"] = found.note
    return result
