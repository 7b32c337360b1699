"""What `memo ask` prints: the answer's JSON, its numbered sources, and how to see every fact
of a listing the answer leaves out."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from textwrap import shorten
from typing import TYPE_CHECKING, Any

from memo_tui.core.safety import sanitize_line
from memo_tui.render import line_range, warn

if TYPE_CHECKING:
    from store import FactPeople, FactRecord


def ask_json(result: Any, people: Mapping[int, FactPeople] | None = None) -> dict[str, Any]:
    """An answer and its citations (a decision or action item with who it is about)."""
    people = people or {}
    return {
        "answer": result.answer,
        "citations": [
            {
                "n": n,
                "fact_type": hit.fact.fact_type,
                "fact_id": hit.fact.fact_id,
                "text": hit.fact.text,
                "capture_id": hit.fact.capture_id,
                "title": hit.fact.capture_title,
                "date": hit.fact.occurred_at or hit.fact.captured_at[:10],
                "lines": [hit.fact.line_start, hit.fact.line_end]
                if hit.fact.line_start is not None
                else None,
                "cited": n in result.cited,
                **(vars(people[hit.fact.fact_key]) if hit.fact.fact_key in people else {}),
            }
            for n, hit in enumerate(result.citations, 1)
        ],
        "filters": result.filters.describe(),
        "retrieval": {"mode": result.mode, "candidates": result.candidates, "note": result.note},
        "removed_citations": result.removed_citations,
        "no_record": result.no_record,
        "which": list(result.which),
        "model_failed": result.model_failed,
        "truncated": result.truncated,
        "listed": None if result.listing is None else _listed_json(result),
    }


def _listed_json(result: Any) -> dict[str, Any]:
    """A listing question's count: how many facts its filters allow, and how many of them
    the answer cites."""
    listed = result.listing
    cited = [result.citations[n - 1].fact for n in result.cited]
    return {
        "total": listed.total,
        "types": list(listed.fact_types),
        "scope": listed.scope,
        "not_cited": listed.more(cited),
    }


def print_sources(result: Any) -> None:
    """The numbered sources under an answer (or, with none, what was searched)."""
    if result.removed_citations:
        warn(f"({result.removed_citations} citation(s) that named no fact were removed)")
    if result.note:
        warn(f"({result.note})")
    for name in result.filters.unresolved:
        warn(
            f'("{sanitize_line(name)}" could be several people, so no one was filtered for: '
            f'memo resolve "{sanitize_line(name)}")'
        )
    if not result.citations:
        print(sanitize_line(f"Searched {result.filters.readable()}."))
        return
    print("\nSources:")
    for n, hit in enumerate(result.citations, 1):
        if n in result.cited:
            print(_source(n, hit.fact))
    rest = [(n, hit) for n, hit in enumerate(result.citations, 1) if n not in result.cited]
    if rest:  # what else matched, with its words
        print("Also matched, not cited:")
    for n, hit in rest:
        said = (hit.fact.text.strip().splitlines() or [""])[0]
        print(f"{_source(n, hit.fact)}\n      {sanitize_line(shorten(said, 90, placeholder='…'))}")


def print_more(result: Any, question: str, every: bool) -> None:
    """How to see every fact a listing question allows, when the answer leaves some out."""
    listed = result.listing
    if every or listed is None or result.no_record:
        return
    left = listed.more([result.citations[n - 1].fact for n in result.cited])
    if left:
        print(f"\n{listed.said(left, 'more ')}: memo ask --all {_quoted(question)}")


def _quoted(words: str) -> str:
    """Words as a shell reads them back: in double quotes unless they hold what a shell
    reads inside those."""
    return shlex.quote(words) if re.search(r'["$`\\!]', words) else f'"{words}"'


def _source(n: int, fact: FactRecord) -> str:
    lines = line_range(fact.line_start, fact.line_end)
    where = f"{sanitize_line(fact.capture_title or 'note')} {lines}"
    return f"  [{n}] {fact.fact_type} - {where} ({fact.occurred_at or fact.captured_at[:10]})"
