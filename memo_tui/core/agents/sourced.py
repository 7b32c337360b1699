"""The offline chat's answer, written from what `search_facts` returned as `memo ask` writes
its own: what holds now first, with "(changed on <date>; before: <old> [n])", "No record
of …" with the closest facts when none of them is about the question, and for a listing
question how many more there are ("(3 more action items for Priya Nair: say "show all")")."""

from __future__ import annotations

from typing import Any

from memo_tui.core.recall.extractive import MOST, quoted
from memo_tui.core.recall.listing import said


def sourced_answer(result: dict[str, Any], most: int = MOST) -> str:
    """The answer from a `search_facts` result whose facts carry their labels (`cite`)."""
    facts: list[dict[str, Any]] = result.get("facts", [])
    before: dict[int, list[dict[str, Any]]] = {}
    for fact in facts:
        if fact.get("replaced_by"):
            before.setdefault(fact["replaced_by"]["fact_id"], []).append(fact)
    lines: list[str] = []
    told: set[int] = set()
    for fact in facts:
        if fact.get("replaced_by") or len(lines) == most:
            continue  # told after the one that replaced it
        line = f"- {quoted(fact['text'])} {fact.get('cite', '')}".rstrip()
        olds = before.get(fact["fact_id"], [])
        told |= {fact["fact_id"], *(o["fact_id"] for o in olds)}
        if olds:
            when = fact.get("date", "")
            was = "; ".join(f"{quoted(o['text'], 120)} {o.get('cite', '')}".rstrip() for o in olds)
            line += f" (changed on {when}; before: {was})"
        lines.append(line)
    head = result.get("no_record")
    head = f"{head}. Closest, not answering it:" if head else "From your meetings:"
    return "\n".join([head, *lines, *_more(result.get("listed"), told)])


def _more(listed: dict[str, Any] | None, told: set[int]) -> list[str]:
    """How many facts of a listing the answer leaves out, and how to see them."""
    if not listed:
        return []
    left = listed["total"] - len(told & set(listed["given"]))
    if left <= 0:
        return []
    return [f'({said(left, listed["types"], listed["scope"], "more ")}: say "show all")']
