"""A scripted model for agent runs on the fake Messages API: it reads the conversation so
far and makes the next call of its plan, so it carries on correctly after a resume."""

from __future__ import annotations

import json
import re
from itertools import count
from typing import Any

from fakes.server import Reply, json_reply
from memo_tui.core.agents.agents import PROJECT_SECTIONS

_IDS = count(1)


def said(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls the model has made so far in this conversation (name, input)."""
    return [
        (block["name"], block["input"])
        for message in body["messages"]
        if message["role"] == "assistant" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_use"
    ]


def model(fact_id: int, pause: float = 0.06) -> Any:
    """A model that looks at what it has done and does the next thing, one call a turn (so
    a run has many moments to be killed in), whichever agent's tools it was given."""

    def reply(body: dict[str, Any]) -> Reply:
        done = said(body)
        names = {t["name"] for t in body.get("tools", [])}
        if "write_digest" in names:
            start, end = re.findall(r"\d{4}-\d{2}-\d{2}", json.dumps(body["messages"][0]))[:2]
            plan = [("list_decisions", {}), ("list_action_items", {})]
            plan.append(
                ("write_digest", {"period_start": start, "period_end": end, "body": "A week."})
            )
        else:
            plan = [("get_project", {}), ("list_project_evidence", {})]
            plan += [
                ("write_section", {"key": k, "body": f"The {k}.", "cited_fact_ids": [fact_id]})
                for k in PROJECT_SECTIONS
            ]
        step = plan[len(done)] if len(done) < len(plan) else None
        content: list[dict[str, Any]] = [{"type": "text", "text": "Working."}]
        if step is not None:
            content.append(
                {"type": "tool_use", "id": f"toolu_{next(_IDS)}", "name": step[0], "input": step[1]}
            )
        message = {
            "id": f"msg_{next(_IDS)}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": content,
            "stop_reason": "tool_use" if step else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20},
        }
        slow = json_reply(message)
        slow.chunks.insert(0, pause)  # a model takes a while: kills land mid-turn too
        return slow

    return reply
