"""Answers with receipts: numbered facts in, an answer that cites them, citations checked.

Offline, the answer is extractive (the top facts, each cited). With a model, it is written
from the numbered facts only; any [n] that names no given fact is removed and counted.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.llm.base import Provider
from memo_tui.core.llm.run import run_sync
from memo_tui.core.llm.types import Message, Request
from memo_tui.core.recall.filters import QUESTION_WORDS, QuestionFilters, parse_question
from memo_tui.core.recall.search import Hit, QueryEmbedder, hybrid_search
from store import FactFilter, Store

NO_FACTS = "No relevant facts found. Try narrowing the time range or rephrasing the query."
SYSTEM = (
    "Answer the user's question based ONLY on the provided facts. Cite each fact you use with "
    "its number in square brackets like [1] or [2]. Do not invent information not present in "
    "the facts. If the facts do not answer the question, say so."
)
_CITATION = re.compile(r"\[(\d{1,3})\]")


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


def check_citations(answer: str, count: int) -> tuple[str, int, list[int]]:
    """Remove every [n] that names no given fact; return the answer, how many went, and
    the valid numbers cited, in order of first use."""
    removed = 0
    cited: list[int] = []

    def keep(match: re.Match[str]) -> str:
        nonlocal removed
        number = int(match.group(1))
        if 1 <= number <= count:
            if number not in cited:
                cited.append(number)
            return match.group(0)
        removed += 1
        return ""

    cleaned = _CITATION.sub(keep, answer)
    return re.sub(r"\s+([.,;])", r"\1", re.sub(r"[ \t]{2,}", " ", cleaned)).strip(), removed, cited


def extractive_answer(hits: list[Hit], most: int = 3) -> str:
    """The offline answer: the strongest facts, each with its citation."""
    lines = [
        f"- {hit.fact.text.splitlines()[0][:300]} [{n}]" for n, hit in enumerate(hits[:most], 1)
    ]
    return "From your meetings:\n" + "\n".join(lines)


def _numbered(hits: list[Hit]) -> str:
    return "\n".join(
        f"[{n}] ({h.fact.fact_type}, {h.fact.occurred_at or h.fact.captured_at[:10]}, "
        f"{h.fact.capture_title or 'note'}) {h.fact.text}"
        for n, h in enumerate(hits, 1)
    )


def ask(
    store: Store,
    embedder: QueryEmbedder | None,
    question: str,
    provider: Provider | None = None,
    model: str = "",
    deadline_s: float = 25.0,
    today: dt.date | None = None,
    min_similarity: float = 0.65,
) -> AskResult:
    filters = parse_question(question, today or dt.date.today())
    flt = FactFilter(filters.fact_types, filters.since, filters.until)
    search_text = (
        " ".join(
            w for w in re.findall(r"\w+", question) if w.lower() not in QUESTION_WORDS | STOPWORDS
        )
        or question
    )
    result = hybrid_search(store, embedder, search_text, flt, 10, min_similarity)
    if not result.hits and filters.fact_types:  # the type was a guess: widen before giving up
        flt = FactFilter((), filters.since, filters.until)
        result = hybrid_search(store, embedder, search_text, flt, 10, min_similarity)
    if not result.hits:
        return AskResult(NO_FACTS, [], filters, result.mode, 0, result.note)
    if provider is None or provider.name == "offline":
        answer = extractive_answer(result.hits)
    else:
        request = Request(
            model=model,
            system=SYSTEM,
            messages=(
                Message("user", f"Facts:\n{_numbered(result.hits)}\n\nQuestion: {question}"),
            ),
            deadline_s=deadline_s,
            trigger="ask",
            max_tokens=1024,
        )
        answer = run_sync(provider.complete(request)).text
    answer, removed, cited = check_citations(answer, len(result.hits))
    return AskResult(
        answer, result.hits, filters, result.mode, result.candidates, result.note, removed, cited
    )
