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
import math
import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import ParamSpec

from memo_tui.core.capture.offline.text import STOPWORDS, content_words
from memo_tui.core.capture.subject import DATE_MARK, is_date, is_number, values
from memo_tui.core.entities.resolve import NeedsDisambiguation, resolve
from memo_tui.core.history.closing import DONE, NOT_DONE, TICKED
from memo_tui.core.llm.base import Provider
from memo_tui.core.llm.errors import LLMError
from memo_tui.core.llm.run import run_sync
from memo_tui.core.llm.types import Finished, Message, Request, TextDelta
from memo_tui.core.recall.current import Change, lead_with_current
from memo_tui.core.recall.filters import QUESTION_WORDS, QuestionFilters
from memo_tui.core.recall.gate import Relevance, judge
from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.router import route
from memo_tui.core.recall.search import (
    MIN_SIMILARITY,
    Hit,
    QueryEmbedder,
    SearchResult,
    hybrid_search,
)
from store import Directory, FactRecord, Store

NO_FACTS = "No record found: no fact matched. Try other words or a wider time range."
SYSTEM = (
    "Answer the user's question based ONLY on the provided facts. Cite each fact you use with "
    "its number in square brackets like [1] or [2]. Do not invent information not present in "
    'the facts. If the facts do not answer the question, begin with "No record of" and the '
    "topic, then name the closest facts as not answering it. A fact marked (superseded) was "
    "replaced: lead with the current one and mention the old one after it."
)
P = ParamSpec("P")
_CITATION = re.compile(r"\[(\d{1,3})\]")
_SPACED_CITATION = re.compile(r"([ \t]*)\[(\d{1,3})\]")
_OPEN_CITATION = re.compile(r"\s*\[\d{0,3}$")  # "[2" where the length limit cut "[2]"
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


def _drop_invalid(text: str, count: int) -> tuple[str, int]:
    """Remove every [n] naming no given fact, again until none is left: removing "[9]" from
    "[[9]9]" must not leave a "[9]" behind. Returns the text and how many went."""
    removed = 0
    while True:
        invalid = sum(
            1 for m in _SPACED_CITATION.finditer(text) if not 1 <= int(m.group(2)) <= count
        )
        if not invalid:
            return text, removed
        removed += invalid
        text = _SPACED_CITATION.sub(
            lambda m: m.group(0) if 1 <= int(m.group(2)) <= count else "", text
        )


def check_citations(answer: str, count: int) -> tuple[str, int, list[int]]:
    """Remove every [n] that names no given fact; return the answer, how many went, and
    the valid numbers cited, in order of first use."""
    cleaned, removed = _drop_invalid(answer, count)
    cited = list(dict.fromkeys(int(n) for n in _CITATION.findall(cleaned)))
    tidy = re.sub(r"\s+([.,;])", r"\1", re.sub(r"[ \t]{2,}", " ", cleaned)).strip()
    return tidy, removed, cited


class CitationStream:
    """Checks citations in streamed text. A "[" is held back until its "]" shows whether it
    names a given fact, and trailing spaces until the next word, so no invented [n] (nor the
    space before it) ever reaches the screen."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.held = ""
        self.cited: list[int] = []

    def feed(self, delta: str) -> tuple[str, list[int]]:
        """(text safe to show, numbers cited for the first time)."""
        text, _ = _drop_invalid(self.held + delta, self.count)
        cut = len(text.rstrip())
        bracket = text.rfind("[")
        if bracket != -1 and "]" not in text[bracket:] and len(text) - bracket <= 5:
            cut = len(text[:bracket].rstrip())
        text, self.held = text[:cut], text[cut:]
        return text, self._fresh(text)

    def finish(self, cut: bool = False) -> tuple[str, list[int]]:
        """The text held back, at the end; `cut` (the answer stopped at the length limit)
        drops a citation it left open ("[2")."""
        text, self.held = self.held, ""
        if cut:
            text = _OPEN_CITATION.sub("", text)
        text, _ = _drop_invalid(text, self.count)
        return text, self._fresh(text)

    def _fresh(self, text: str) -> list[int]:
        fresh = [int(n) for n in _CITATION.findall(text) if int(n) not in self.cited]
        fresh = list(dict.fromkeys(fresh))
        self.cited += fresh
        return fresh


QUOTE_CHARS = 300
# "(owner: Tom) (due 2026-11-30) (done)" at the end of a fact's text: kept when it is cut.
_LABELS = re.compile(r"(?:\s\([^()]{1,80}\))+$")


def quoted(text: str, limit: int = QUOTE_CHARS) -> str:
    """A fact's first line for an answer: when long, cut at a word and marked as cut,
    keeping the labels at its end (owner, due date, done)."""
    first = text.splitlines()[0] if text else ""
    if len(first) <= limit:
        return first
    labels = _LABELS.search(first)
    tail = labels.group() if labels and len(labels.group()) <= limit // 2 else ""
    body = first[: len(first) - len(tail)][: limit - len(tail)]
    return body.rsplit(" ", 1)[0].rstrip(" ,;:-\u2014") + " \u2026" + tail


# An action item asked for and turned down ends "(dropped)" in the facts; an answer says why.
_DROPPED = re.compile(r" \(dropped\)(?=$| \()")
_DONE_LABEL = re.compile(r" \(done\)(?=$| \()")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_TURN = re.compile(r"^([^:\n]{2,60}):\s+(.*)$")


def _rarity(said: list[set[str]], asked: set[str]) -> dict[str, float]:
    """Each asked word's weight: the rarer among `said` (lines' words), the heavier."""
    df: dict[str, int] = {}
    for words in said:
        for word in words & asked:
            df[word] = df.get(word, 0) + 1
    return {w: math.log((len(said) + 1) / (n + 0.5)) for w, n in df.items()}


def focused(hits: list[Hit], question: str) -> list[str]:
    """Each hit's text as an answer shows it: an excerpt (a window of several turns) by its
    turn that holds most of the question's words, weighted by how rare each is among the
    hits' lines, and a long turn by its best sentence; other facts, and an excerpt that
    holds none of the words, by their first line."""
    asked = content_words(question)
    lines = [[(line, content_words(line)) for line in h.fact.text.splitlines()] for h in hits]
    weight = _rarity([words for fact in lines for _, words in fact], asked)

    def held(words: set[str]) -> float:
        return sum(weight.get(w, 0.0) for w in words & asked)

    shown = []
    for hit, fact in zip(hits, lines, strict=True):
        first = hit.fact.text.splitlines()[0] if hit.fact.text else ""
        if hit.fact.fact_type != "excerpt" or not fact:
            shown.append(first)
            continue
        line, words = max(fact, key=lambda pair: held(pair[1]))
        if held(words) == 0:
            shown.append(first)
            continue
        turn = _TURN.match(line)
        speaker, said = (turn.group(1) + ": ", turn.group(2)) if turn else ("", line)
        if len(line) > QUOTE_CHARS:
            said = max(_SENTENCE_END.split(said), key=lambda part: held(content_words(part)))
        shown.append(speaker + said)
    return shown


# How much the line an answer would quote counts against search's own rank (0: not at all).
# Measured with `memo bench ask` on the dev set and held-out sets: 0.3-0.6 gain, 1.0 costs.
LINE_WEIGHT = 0.5


def by_best_line(hits: list[Hit], question: str, shown: list[str] | None = None) -> list[Hit]:
    """The hits re-ranked by what they would show (`shown`, as `focused` gives it): search
    ranks a whole excerpt (six turns), while the answer quotes one turn; a hit whose quoted
    line holds more of the question's words (weighted by how rare each is among those lines)
    moves up, by at most about half the list for a line that holds them all."""
    if len(hits) < 2:
        return hits
    asked = content_words(question)
    lines = [content_words(text) for text in shown or focused(hits, question)]
    weight = _rarity(lines, asked)
    mass = sum(weight.values()) or 1.0
    count = len(hits)

    def score(rank: int, words: set[str]) -> float:
        held = sum(weight.get(w, 0.0) for w in words & asked) / mass
        return (count - rank) / count + LINE_WEIGHT * held

    order = sorted(range(count), key=lambda i: (-score(i, lines[i]), i))
    return [hits[i] for i in order]


def unsupported_claim(answer: str, facts: Sequence[FactRecord]) -> str:
    """The first number or date an answer's sentence states that none of the facts it cites
    holds (in their text, or as their meeting's date), as "<value> is in none of [n]"; ""
    when every cited sentence keeps to its facts. A number of one digit is let pass (model
    and speaker may count differently: "two" and "a couple")."""
    for sentence in _SENTENCE_END.split(answer):
        numbers = [int(n) for n in _CITATION.findall(sentence) if 0 < int(n) <= len(facts)]
        if not numbers:
            continue
        sources = " ".join(f"{facts[n - 1].text} {facts[n - 1].occurred_at or ''}" for n in numbers)
        held = _held_numbers(sources)
        for value in sorted(values(_grouped(_CITATION.sub("", sentence)))):
            bare = value.lstrip(DATE_MARK)
            stated = (is_number(value) or is_date(value)) and bare[:1].isdigit()
            if stated and len(bare) > 1 and bare not in held:
                return f"{bare} is in none of {''.join(f'[{n}]' for n in numbers)}"
    return ""


_GROUPED = re.compile(r"(?<=\d),(?=\d{3}\b)")
_SCALED = re.compile(r"\b([\w.]+)[ -](hundred|thousand|million)\b", re.IGNORECASE)
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}


def _grouped(text: str) -> str:
    """ "5,000" as "5000", so it reads as one number."""
    return _GROUPED.sub("", text)


def _held_numbers(text: str) -> set[str]:
    """Every number the text holds, as digits: written ("5,000"), said ("forty", "five
    thousand") or part of a date."""
    text = _grouped(text)
    held = {v.lstrip(DATE_MARK) for v in values(text)} | set(re.findall(r"\d+(?:\.\d+)?", text))
    for amount, scale in _SCALED.findall(text):
        said = values(amount)
        base = next((v for v in said if is_number(v)), None)
        if base is not None:
            held.add(str(int(float(base) * _SCALES[scale.lower()])))
    return held


def ordered(store: Store, hits: list[Hit], question: str) -> tuple[list[Hit], list[Change]]:
    """The hits in the order an answer tells them, and the replaced decisions among them:
    by the line each would quote, what reports it done first for "did it happen?", and what
    holds now before what it replaced."""
    shown = dict(zip((h.fact.fact_key for h in hits), focused(hits, question), strict=True))
    hits = by_best_line(hits, question, [shown[h.fact.fact_key] for h in hits])
    hits = reported_first(hits, question, [shown[h.fact.fact_key] for h in hits])
    return lead_with_current(store, hits, question)


# "Did Fiona ever send the docs?", "Is the migration finished?": asks whether it happened.
ASKS_IF_DONE = re.compile(r"^\s*(?:did|has|have|had|is|are|was|were)\b", re.IGNORECASE)


def reported_first(hits: list[Hit], question: str, shown: list[str] | None = None) -> list[Hit]:
    """For a question whether something happened, the hits whose line about it (`shown`, as
    `focused` gives it) reports it done ("thanks for sending the API docs", "the migration
    was finished on the 9th", a ticked line) first, in their order; the rest as ranked."""
    if not ASKS_IF_DONE.search(question):
        return hits
    asked = content_words(question)
    lines = shown or focused(hits, question)
    lead = [hit for hit, line in zip(hits, lines, strict=True) if _reports_done(line, asked)]
    return lead + [h for h in hits if h not in lead]


def _reports_done(line: str, asked: set[str]) -> bool:
    """Whether a line reports done something the question asks about: ticked, or a sentence
    with one of its words and a word of doing it ("sent", "finished"), not of not yet."""
    if TICKED.match(line) or _DONE_LABEL.search(line):
        return bool(asked & content_words(line))
    return any(
        asked & content_words(sentence) and DONE.search(sentence) and not NOT_DONE.search(sentence)
        for sentence in _SENTENCE_END.split(line)
    )


# How much of the question (by rarity-weighted words) a line must hold to answer "did it
# happen?" with yes. Not tuned: a clear majority, so "ship" alone never answers "ship RFID".
YES_SHARE = 0.6


def reported_yes(question: str, shown: Sequence[str], most: int) -> int | None:
    """For "did it happen?", the first of the `most` lines an answer shows that reports it
    done and holds most of what is asked, each word weighted by how rare it is among the
    lines ("docs" outweighs "StockPilot" in "Did Fiona send the StockPilot API docs?"): its
    citation number. None when none does; the answer then claims nothing either way."""
    if not ASKS_IF_DONE.search(question):
        return None
    asked = content_words(question)
    said = [content_words(line) for line in shown]
    weight = _rarity(said, asked)
    if not weight:
        return None
    mass = sum(weight.values())
    for n, (line, words) in enumerate(zip(shown[:most], said, strict=False), 1):
        held = sum(weight[w] for w in words & weight.keys())
        if held >= YES_SHARE * mass and _reports_done(line, asked):
            return n
    return None


def extractive_answer(
    hits: list[Hit],
    most: int = 3,
    relevance: Relevance | None = None,
    changes: Sequence[Change] = (),
    question: str = "",
) -> str:
    """The offline answer: the strongest facts, each with its citation. A replaced decision is
    told after the one that holds now ("changed on <date>; before: … [n]"), not on its own
    line. When the gate found no record, it says so first and offers the facts as the
    closest, not as the answer; when more facts matched than are shown, it says how many."""
    before: dict[int, list[int]] = {}
    for change in changes:
        before.setdefault(change.new, []).append(change.old)
    replaced = {change.old for change in changes}
    texts = focused(hits, question)
    lines: list[str] = []
    shown = 0
    for n, hit in enumerate(hits, 1):
        if n - 1 in replaced:
            continue
        if len(lines) == most:
            break
        line = f"- {_DROPPED.sub(' (dropped: turned down)', quoted(texts[n - 1]))} [{n}]"
        olds = before.get(n - 1, [])
        if olds:
            when = hit.fact.occurred_at or hit.fact.captured_at[:10]
            was = "; ".join(f"{quoted(hits[i].fact.text, 120)} [{i + 1}]" for i in olds)
            line += f" (changed on {when}; before: {was})"
        lines.append(line)
        shown += 1 + len(olds)
    yes = reported_yes(question, texts, most)
    if relevance is not None and not relevance.answered:
        head = f'No record of "{relevance.topic}" ({relevance.why}). Closest, not answering it:'
    elif yes is not None:
        head = f"Yes, reported done [{yes}]. From your meetings:"
    else:
        head = "From your meetings:"
    more = len(hits) - shown
    tail = (
        [f"({more} more matching fact{'s' if more != 1 else ''} in the sources)"]
        if more > 0
        else []
    )
    return "\n".join([head, *lines, *tail])


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
) -> AsyncIterator[AskEvent]:
    """Retrieved, then AnswerDelta and Cited events as the answer comes, then Answered."""
    directory = await asyncio.to_thread(store.directory)
    filters, router_note = await route(
        question, directory, today or dt.date.today(), provider, router_model, router_deadline_s
    )
    found = await asyncio.to_thread(
        retrieve, store, embedder, question, filters, min_similarity, limit, index
    )
    note = "; ".join(n for n in (found.note, router_note) if n) or None
    hits, changes = await asyncio.to_thread(ordered, store, found.hits, question)
    found = replace(found, hits=hits)
    yield Retrieved(found.hits, filters, found.mode, note)
    if not found.hits:
        yield AnswerDelta(NO_FACTS)
        yield Answered(AskResult(NO_FACTS, [], filters, found.mode, 0, note, no_record=True))
        return
    ask_which, names = which_one(filters.unresolved, directory)
    relevance = (
        Relevance(True, question)
        if names
        else await asyncio.to_thread(
            judge, store, question, search_words(question).split(), found.hits, directory
        )
    )
    if ask_which:
        yield AnswerDelta(ask_which)
    sources = _Sources(found.hits, changes, question, relevance)
    synthesis = (
        None
        if provider is None or provider.name == "offline"
        else _ModelAnswer(provider, _synthesis(found.hits, changes, question, model, deadline_s))
    )
    written = _Written()
    async for event in _answer_events(sources, synthesis, written):
        yield event
    answer = written.answer
    note = "; ".join(n for n in (note, written.said) if n) or None
    if not relevance.answered and not answer.lower().startswith("no record"):
        gate = f"memo found no fact about {relevance.topic!r} ({relevance.why}): check the sources"
        note = "; ".join(n for n in (note, gate) if n)
    result = AskResult(
        ask_which + answer,
        found.hits,
        filters,
        found.mode,
        found.candidates,
        note,
        written.removed,
        written.cited,
        no_record=not relevance.answered,
        which=names,
        model_failed=written.model_failed,
        truncated=written.truncated,
    )
    yield Answered(result)


@dataclass(frozen=True)
class _Sources:
    """What an answer is written from: the numbered facts, the replaced decisions among
    them, the question, and whether any fact is about it."""

    hits: list[Hit]
    changes: Sequence[Change]
    question: str
    relevance: Relevance

    def extractive(self) -> str:
        return extractive_answer(
            self.hits, relevance=self.relevance, changes=self.changes, question=self.question
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
    raw = _OPEN_CITATION.sub("", raw) if cut else raw
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
