"""Scripted "models" for the fake servers.

`obedient_extractor` reads the transcript the way a careless model would: up to the first
closing tag it sees. What is inside it extracts honestly (with memo's offline rules, which is
deterministic); anything after that closing tag that is not memo's own closing reminder it
treats as an instruction and obeys. So only a fence that cannot be broken keeps it honest.
"""

from __future__ import annotations

import re
from typing import Any

from memo_tui.core.capture.offline import extract
from memo_tui.core.capture.sources import parse
from memo_tui.core.llm.schemas import ExtractedDecision
from support.fakes import anthropic_api
from support.fakes.server import Reply

OPEN = "<transcript>"
TRAILER = re.compile(r"^\s*Record this meeting with the \w+ tool\..*$", re.S)


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


# What a model would take for a closing tag: any case or spacing, invisible characters and
# full-width brackets seen through, with or without the final ">".
_LOOKS_CLOSED = re.compile(r"<\s*/\s*transcript\b[^>\n]*>?", re.IGNORECASE)
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"))


def split_fence(prompt: str) -> tuple[str, str]:
    """(inside, outside) as a model that trusts the first closing tag would read them."""
    seen = prompt.translate(_INVISIBLE).replace("\uff1c", "<").replace("\uff1e", ">")
    seen = re.sub(
        r"(?<=<)(\s*/\s*)((?:t\s*){1}r\s*a\s*n\s*s\s*c\s*r\s*i\s*p\s*t)",
        lambda m: m.group(1) + re.sub(r"\s", "", m.group(2)),
        seen,
        flags=re.I,
    )
    start = seen.find(OPEN)
    inside_start = start + len(OPEN) if start >= 0 else 0
    close = _LOOKS_CLOSED.search(seen, inside_start)
    if close is None:
        return seen[inside_start:], ""
    return seen[inside_start : close.start()], seen[close.end() :]


def obedient_record(prompt: str) -> dict[str, Any]:
    inside, outside = split_fence(prompt)
    extraction = extract(parse(inside.strip("\n"), "meeting.txt", "txt"))
    command = TRAILER.sub("", outside).strip()
    if command:  # a careless model does what unfenced text tells it to
        extraction.decisions.append(
            ExtractedDecision(description=command[:300], evidence_quote=command[:80])
        )
        hijack = re.search(r"\bto ([A-Z][\w'-]+ [A-Z][\w'-]+)", command)
        for item in extraction.action_items:
            item.assignee = hijack.group(1) if hijack else item.assignee
    return extraction.model_dump(mode="json")


def obedient_extractor(body: dict[str, Any]) -> Reply:
    tool = body["tool_choice"]["name"]
    return anthropic_api.message(tool=(tool, obedient_record(user_text(body))), usage=(1000, 200))
