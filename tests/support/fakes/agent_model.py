"""A scripted model for agent runs on the fake Messages API: it reads the conversation so
far and makes the next call of its agent's plan (one call a turn), so it carries on
correctly after a resume. Which agent it serves it tells from the tools it is offered; it
answers a streamed request with a stream (the chat agent streams)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import count
from typing import Any

from memo_tui.core.agents.agents import CONCEPT_SECTIONS, PROJECT_SECTIONS
from support.fakes import anthropic_api
from support.fakes.server import Reply

_IDS = count(1)
Call = tuple[str, dict[str, Any]]


def said(body: dict[str, Any]) -> list[Call]:
    """The tool calls the model has made so far in this run (name, input)."""
    return [
        (block["name"], block["input"])
        for message in body["messages"]
        if message["role"] == "assistant" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_use"
    ]


def results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results the model has been sent so far, parsed, in order."""
    found = []
    for message in body["messages"]:
        if message["role"] != "user" or not isinstance(message["content"], list):
            continue
        for block in message["content"]:
            if block.get("type") == "tool_result":
                content = block["content"]
                text = content if isinstance(content, str) else content[0]["text"]
                found.append(json.loads(text))
    return found


def _question(body: dict[str, Any]) -> str:
    """The last question the user asked (a chat's history comes before it)."""
    asked = [m["content"] for m in body["messages"] if isinstance(m["content"], str)]
    return asked[-1] if asked else ""


def _plan(names: set[str], body: dict[str, Any], fact_id: int) -> list[Call]:
    loaded = results(body)
    if "write_digest" in names:
        start, end = re.findall(r"\d{4}-\d{2}-\d{2}", json.dumps(body["messages"][0]))[:2]
        week = {"period_start": start, "period_end": end, "body": "A week."}
        return [("list_decisions", {}), ("list_action_items", {}), ("write_digest", week)]
    if "propose_backfill" in names:
        meetings = loaded[1].get("meetings", []) if len(loaded) > 1 else []
        ids = [m["id"] for m in meetings]
        last: Call = (
            ("propose_backfill", {"capture_ids": ids, "reason": "They name the project."})
            if ids
            else ("record_no_change", {"key": "backfill", "reason": "nothing unlinked"})
        )
        return [("get_project", {}), ("find_unlinked_evidence", {}), last]
    if "concept" in str(body.get("system", "")):
        sections = [
            ("write_section", {"key": k, "body": f"The {k}.", "cited_fact_ids": [fact_id]})
            for k in CONCEPT_SECTIONS
        ]
        return [("search_facts", {"query": _question(body)}), *sections]
    if "write_person_facet" in names:
        facets = [
            (
                "write_person_facet",
                {"facet": f, "value": f"Their {f}.", "cited_fact_ids": [fact_id]},
            )
            for f in ("role", "topics", "commitments")
        ]
        profile = ("write_section", {"key": "profile", "body": "A profile.", "cited_fact_ids": []})
        return [("get_person", {}), *facets, profile]
    if "write_section" in names:
        sections = [
            ("write_section", {"key": k, "body": f"The {k}.", "cited_fact_ids": [fact_id]})
            for k in PROJECT_SECTIONS
        ]
        return [("get_project", {}), ("list_project_evidence", {}), *sections]
    return [("search_facts", {"query": _question(body)})]  # the chat agent


def _final(names: set[str], body: dict[str, Any]) -> str:
    """The last turn's text: the chat agent answers from the first fact it found."""
    if {"write_section", "write_digest", "propose_backfill"} & names:
        return "Done."
    found = results(body)
    facts = found[-1].get("facts", []) if found else []
    if not facts:
        return "Nothing stored answers that."
    return f"{facts[0]['text'].splitlines()[0]} {facts[0].get('cite', '')}"


def model(fact_id: int, pause: float = 0.06) -> Callable[[dict[str, Any]], Reply]:
    """The fake server's reply to each request (set it as the server's default)."""

    def reply(body: dict[str, Any]) -> Reply:
        names = {t["name"] for t in body.get("tools", [])}
        plan = _plan(names, body, fact_id)
        done = said(body)
        step = plan[len(done)] if len(done) < len(plan) else None
        text = "Working." if step is not None else _final(names, body)
        if body.get("stream"):
            tool_id = f"toolu_stream_{next(_IDS)}"
            return anthropic_api.stream([text], tool=step, pause=pause, tool_id=tool_id)
        slow = anthropic_api.turn(text, [step] if step else [])
        slow.chunks.insert(0, pause)  # a model takes a while: kills land mid-turn too
        return slow

    return reply
