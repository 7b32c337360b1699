"""The offline chat's answer, written from what `search_facts` returned as `memo ask` writes
its own: what holds now first, with "(changed on <date>; before: <old> [n])", and "No record
of …" with the closest facts when none of them is about the question."""

from __future__ import annotations

from typing import Any

from memo_tui.core.recall.extractive import quoted

MOST = 3  # facts an answer quotes


def sourced_answer(result: dict[str, Any], most: int = MOST) -> str:
    """The answer from a `search_facts` result whose facts carry their labels (`cite`)."""
    facts: list[dict[str, Any]] = result.get("facts", [])
    before: dict[int, list[dict[str, Any]]] = {}
    for fact in facts:
        if fact.get("replaced_by"):
            before.setdefault(fact["replaced_by"]["fact_id"], []).append(fact)
    lines: list[str] = []
    for fact in facts:
        if fact.get("replaced_by") or len(lines) == most:
            continue  # told after the one that replaced it
        line = f"- {quoted(fact['text'])} {fact.get('cite', '')}".rstrip()
        olds = before.get(fact["fact_id"], [])
        if olds:
            when = fact.get("date", "")
            was = "; ".join(f"{quoted(o['text'], 120)} {o.get('cite', '')}".rstrip() for o in olds)
            line += f" (changed on {when}; before: {was})"
        lines.append(line)
    head = result.get("no_record")
    head = f"{head}. Closest, not answering it:" if head else "From your meetings:"
    return "\n".join([head, *lines])
