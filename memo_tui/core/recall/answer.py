"""Answers with receipts: numbered facts in, an answer that cites them, citations checked.

Offline, the answer is extractive (the top facts, each cited). With a model, it is written
from the numbered facts only, streamed; any [n] that names no given fact is removed (as the
text streams, and again from the whole answer) and counted. When the model fails (an error, a
deadline, a stream that breaks off), the extractive answer stands in, saying why; an answer
cut at the length limit says so and loses the citation it left open.

`ask_stream` is the async API the TUI consumes: the facts found, then answer deltas and each
citation as it is first used, then the finished result (pass the services' VectorIndex from
a long-lived process). `ask` runs it to the end.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import ParamSpec

from memo_tui.core.entities.resolve import NeedsDisambiguation, resolve
from memo_tui.core.llm.base import Provider
from memo_tui.core.llm.errors import LLMError
from memo_tui.core.llm.run import run_sync
from memo_tui.core.llm.types import Finished, Message, Request, TextDelta
from memo_tui.core.recall.citations import OPEN_CITATION, CitationStream, check_citations
from memo_tui.core.recall.claims import unsupported_claim
from memo_tui.core.recall.current import Change
from memo_tui.core.recall.extractive import MOST, extractive_answer
from memo_tui.core.recall.filters import QuestionFilters
from memo_tui.core.recall.found import find
from memo_tui.core.recall.gate import Relevance
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.listing import Listing
from memo_tui.core.recall.members import Membership, membership
from memo_tui.core.recall.router import route
from memo_tui.core.recall.search import (
    MIN_SIMILARITY,
    Hit,
    QueryEmbedder,
)
from store import Directory, Store

NO_FACTS = "No record found: no fact matched. Try other words or a wider time range."


SYSTEM = (
    "Answer the user's question based ONLY on the provided facts. Cite each fact you use with "
    "its number in square brackets like [1] or [2]. Do not invent information not present in "
    'the facts. If the facts do not answer the question, begin with "No record of" and the '
    "topic, then name the closest facts as not answering it. A fact marked (superseded) was "
    "replaced: lead with the current one and mention the old one after it."
)


P = ParamSpec("P")


# How providers say an answer stopped at its length limit (OpenAI-compatible, Anthropic).
LENGTH_STOPS = frozenset({"length", "max_tokens"})


@dataclass
class AskResult:
    answer: str
    citations: list[Hit]
    filters: QuestionFilters
    mode: str
    candidates: int
    note: str | None = None
    removed_citations: int = 0
    cited: list[int] = field(default_factory=list)
    no_record: bool = False  # the gate found nothing about the question
    which: tuple[str, ...] = ()  # a name in the question that could be any of these
    model_failed: str | None = None  # why the model wrote no answer (the facts are shown)
    truncated: bool = False  # the model's answer stopped at the length limit
    listing: Listing | None = None  # a question listing what its filters allow: how many


@dataclass(frozen=True)
class Retrieved:
    """The numbered facts the answer may cite (first event of a stream)."""

    hits: list[Hit]
    filters: QuestionFilters
    mode: str
    note: str | None


@dataclass(frozen=True)
class AnswerDelta:
    text: str


@dataclass(frozen=True)
class Cited:
    """Fact [n] was cited for the first time."""

    n: int
    hit: Hit


@dataclass(frozen=True)
class Answered:
    result: AskResult


AskEvent = Retrieved | AnswerDelta | Cited | Answered


def which_one(mentions: tuple[str, ...], directory: Directory) -> tuple[str, tuple[str, ...]]:
    """ "Which Sam do you mean: Sam Okafor or Sam Lindqvist?" for a name the question uses that
    fits several people, and those people."""
    for mention in mentions:
        found = resolve(mention, directory, "person")
        if isinstance(found, NeedsDisambiguation):
            names = tuple(dict.fromkeys(c.name for c in found.candidates[:4]))
            if len(names) > 1:
                listed = ", ".join(names[:-1]) + f" or {names[-1]}"
                return f"Which {mention} do you mean: {listed}? Facts about each follow.\n", names
    return "", ()


def _numbered(hits: list[Hit], changes: Sequence[Change] = ()) -> str:
    """The facts as the model reads them; a replaced one says which fact replaced it."""
    by = {change.old: change.new for change in changes}
    return "\n".join(
        f"[{n}] ({h.fact.fact_type}, {h.fact.occurred_at or h.fact.captured_at[:10]}, "
        f"{h.fact.capture_title or 'note'}) {h.fact.text}"
        + (f" (replaced by [{by[n - 1] + 1}])" if n - 1 in by else "")
        for n, h in enumerate(hits, 1)
    )


async def ask_stream(
    store: Store,
    embedder: QueryEmbedder | None,
    question: str,
    provider: Provider | None = None,
    model: str = "",
    deadline_s: float = 25.0,
    today: dt.date | None = None,
    min_similarity: float = MIN_SIMILARITY,
    router_model: str = "",
    router_deadline_s: float = 5.0,
    limit: int = 10,
    index: VectorIndex | None = None,
    every: bool = False,
) -> AsyncIterator[AskEvent]:
    """Retrieved, then AnswerDelta and Cited events as the answer comes, then Answered.
    `every`: answer with every fact a listing question's filters allow (`find`'s `every`)."""
    directory = await asyncio.to_thread(store.people.directory)
    filters, router_note = await route(
        question, directory, today or dt.date.today(), provider, router_model, router_deadline_s
    )
    ask_which, names = which_one(filters.unresolved, directory)
    searched = partial(find, store, embedder, question, filters, directory, min_similarity)
    found = await asyncio.to_thread(searched, limit, index, not names, every)
    note = "; ".join(n for n in (found.note, router_note) if n) or None
    changes, relevance = found.changes, found.relevance
    yield Retrieved(found.hits, filters, found.mode, note)
    if not found.hits:
        yield AnswerDelta(NO_FACTS)
        yield Answered(AskResult(NO_FACTS, [], filters, found.mode, 0, note, no_record=True))
        return
    if ask_which:
        yield AnswerDelta(ask_which)
    member, most = membership(question, filters, directory), len(found.hits) if every else MOST
    sources = _Sources(found.hits, changes, question, relevance, member, found.listing, most)
    synthesis = (
        None
        if provider is None or provider.name == "offline"
        else _ModelAnswer(provider, _synthesis(found.hits, changes, question, model, deadline_s))
    )
    written = _Written()
    async for event in _answer_events(sources, synthesis, written):
        yield event
    answer = written.answer
    result = AskResult(
        ask_which + answer,
        found.hits,
        filters,
        found.mode,
        found.candidates,
        _noted(note, written.said, relevance, answer),
        written.removed,
        written.cited,
        no_record=not relevance.answered,
        which=names,
        model_failed=written.model_failed,
        truncated=written.truncated,
        listing=found.listing,
    )
    yield Answered(result)


def _noted(note: str | None, said: str, relevance: Relevance, answer: str) -> str | None:
    """What the answer's note says: search's and the router's, why the model's answer is not
    all there is, and that the gate found no record when the answer does not say so."""
    notes = [n for n in (note, said) if n]
    if not relevance.answered and not answer.lower().startswith("no record"):
        notes.append(
            f"memo found no fact about {relevance.topic!r} ({relevance.why}): check the sources"
        )
    return "; ".join(notes) or None


@dataclass(frozen=True)
class _Sources:
    """What an answer is written from: the numbered facts, the replaced decisions among
    them, the question, whether any fact is about it, and for a listing how many there are."""

    hits: list[Hit]
    changes: Sequence[Change]
    question: str
    relevance: Relevance
    member: Membership | None = None
    listed: Listing | None = None
    most: int = MOST  # facts the answer quotes

    def extractive(self) -> str:
        return extractive_answer(
            self.hits,
            self.most,
            relevance=self.relevance,
            changes=self.changes,
            question=self.question,
            member=self.member,
            listing=self.listed,
        )


@dataclass
class _Written:
    """The answer as it ended, checked, and why it is not the model's whole answer ("" when
    it is)."""

    answer: str = ""
    removed: int = 0
    cited: list[int] = field(default_factory=list)
    said: str = ""
    model_failed: str | None = None
    truncated: bool = False


class _ModelAnswer:
    """The model's answer as text deltas; once read, whether it stopped at the length limit."""

    def __init__(self, provider: Provider, request: Request) -> None:
        self.provider, self.request = provider, request
        self.cut = False

    async def deltas(self) -> AsyncIterator[str]:
        async for event in self.provider.stream(self.request):
            if isinstance(event, TextDelta):
                yield event.text
            elif isinstance(event, Finished):
                self.cut = event.completion.stop_reason in LENGTH_STOPS


async def _answer_events(
    sources: _Sources, model: _ModelAnswer | None, written: _Written
) -> AsyncIterator[AskEvent]:
    """AnswerDelta and Cited events as the answer comes: the model's (None: offline), or the
    facts when it fails or states what they do not; `written` gets the answer as it ended."""
    checker = CitationStream(len(sources.hits))
    deltas = _once(sources.extractive()) if model is None else model.deltas()
    raw, shown = "", False
    try:
        async for delta in deltas:
            raw += delta
            for event in _checked(checker.feed(delta), sources.hits):
                shown = shown or isinstance(event, AnswerDelta)
                yield event
    except LLMError as error:
        # The timeout's "nothing was written" is about a capture; here the facts are shown.
        written.model_failed = str(error).removesuffix("; nothing was written")
        written.said = f"model failed ({written.model_failed}): showing the matching facts instead"
        lead = "\n\n[the answer above is incomplete: " if shown else "["
        for event in _facts_instead(sources, checker, f"{lead}{written.said}]\n", written):
            yield event
        return
    cut = model is not None and model.cut
    for event in _checked(checker.finish(cut), sources.hits):
        yield event
    raw = OPEN_CITATION.sub("", raw) if cut else raw
    written.answer, written.removed, written.cited = check_citations(raw, len(sources.hits))
    facts = [h.fact for h in sources.hits]
    unsupported = "" if model is None else unsupported_claim(written.answer, facts)
    if unsupported:
        # A model that states what its sources do not is not shown as the answer: the
        # sources are, as memo answers offline, with why.
        written.said = f"the model's answer was set aside: {unsupported}; these are the sources"
        for event in _facts_instead(sources, checker, f"\n\n[{written.said}]\n", written):
            yield event
    elif cut:
        written.truncated = True
        written.said = "the model's answer was cut off at the length limit"
        yield AnswerDelta(f"\n\n[{written.said}]")


def _checked(safe: tuple[str, list[int]], hits: list[Hit]) -> list[AskEvent]:
    """The events for text a CitationStream let through and the facts it cited first."""
    text, fresh = safe
    events: list[AskEvent] = [AnswerDelta(text)] if text else []
    return events + [Cited(n, hits[n - 1]) for n in fresh]


def _facts_instead(
    sources: _Sources, checker: CitationStream, lead: str, written: _Written
) -> list[AskEvent]:
    """The extractive answer in place of the model's, after `lead` says why, and a Cited
    for each fact it cites that the model's text did not."""
    written.answer, _, written.cited = check_citations(sources.extractive(), len(sources.hits))
    fresh = [n for n in written.cited if n not in checker.cited]
    return [AnswerDelta(lead + written.answer), *(Cited(n, sources.hits[n - 1]) for n in fresh)]


async def _once(text: str) -> AsyncIterator[str]:
    yield text


def _synthesis(
    hits: list[Hit], changes: Sequence[Change], question: str, model: str, deadline_s: float
) -> Request:
    facts = _numbered(hits, changes)
    return Request(
        model=model,
        system=SYSTEM,
        messages=(Message("user", f"Facts:\n{facts}\n\nQuestion: {question}"),),
        deadline_s=deadline_s,
        trigger="ask",
        max_tokens=1024,
    )


async def _collect(events: AsyncIterator[AskEvent]) -> AskResult:
    async for event in events:
        if isinstance(event, Answered):
            return event.result
    raise AssertionError("ask_stream always ends with Answered")


def _to_the_end(stream: Callable[P, AsyncIterator[AskEvent]]) -> Callable[P, AskResult]:
    def run(*args: P.args, **kwargs: P.kwargs) -> AskResult:
        return run_sync(_collect(stream(*args, **kwargs)))

    return run


ask = _to_the_end(ask_stream)
"""`ask_stream` run to the end: the whole answer at once (the CLI's --json, benchmarks)."""
