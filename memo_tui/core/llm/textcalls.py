"""Tool calls and JSON that small local models write as text.

Asked to call a tool, a small model served by llama.cpp or Ollama often writes the call out
instead of making it: the input alone as JSON in a ```json fence, the call as
`{"name": ..., "arguments": {...}}`, or calls inside `<tool_call>` or `<tools>` tags, several
in a row (all seen in ../shared/data/llm-recordings). This reads those shapes back; what it
cannot read stays text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from memo_tui.core.llm.types import ToolCall

_FENCE = re.compile(r"```[\w-]*\s*\n?(.*?)(?:```|$)", re.DOTALL)
_TAGGED = re.compile(r"<(tool_call|tools|function_call)>(.*?)(?:</\1>|$)", re.DOTALL)


def _objects(text: str) -> Iterator[dict[str, Any]]:
    """Every JSON object in the text, in order (objects inside one are not repeated)."""
    decoder = json.JSONDecoder()
    at = text.find("{")
    while at != -1:
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            at = text.find("{", at + 1)
            continue
        if isinstance(value, dict):
            yield value
        at = text.find("{", end)


def _bodies(text: str) -> list[str]:
    """Where JSON may sit: inside tags, else inside fences, else the whole text."""
    tagged = [m.group(2) for m in _TAGGED.finditer(text)]
    if tagged:
        return tagged
    fenced = [m.group(1) for m in _FENCE.finditer(text)]
    return fenced or [text]


def _as_call(value: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """`{"name": n, "arguments": {...}}` (or "parameters", or OpenAI's "function" shape)."""
    function = value.get("function")
    if isinstance(function, dict) and "name" in function:
        value = function
    name = value.get("name")
    arguments = value.get("arguments", value.get("parameters"))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return None
    if isinstance(name, str) and isinstance(arguments, dict):
        return name, arguments
    return None


# `<function name="get_person" arguments={...}/>` and `<function=get_person>{...}</function>`.
_FUNCTION_TAG = re.compile(
    r"<function(?:\s+name=[\"']?|=)(?P<name>[\w.-]+)[\"']?\s*(?:arguments=|>)\s*(?=\{)"
)
# What a call written out starts with: tags, a fenced or bare JSON object naming a function.
_CALL_SHAPED = re.compile(
    r"^\s*(?:<(?:tool_call|tools|function)\b|(?:```[\w-]*\s*)?[\[{]*\{\s*\"(?:name|function)\"\s*:)"
)


def _tagged_functions(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The calls written as function tags, each with its JSON arguments."""
    decoder = json.JSONDecoder()
    found = []
    for match in _FUNCTION_TAG.finditer(text):
        try:
            arguments, _ = decoder.raw_decode(text, match.end())
        except json.JSONDecodeError:
            continue
        if isinstance(arguments, dict):
            found.append((match["name"], arguments))
    return found


def looks_like_a_call(text: str) -> bool:
    """Whether a reply is shaped like a tool call written out (tags, or an object naming a
    function), read back or not: such a reply is never an answer."""
    return bool(_CALL_SHAPED.match(text))


def written_calls(text: str, offered: set[str]) -> tuple[ToolCall, ...]:
    """The calls to offered tools the text writes out, when that is all it does: every JSON
    object in it is such a call. Nothing when any part is something else (an answer that
    quotes JSON stays an answer)."""
    if "{" not in text:
        return ()
    tagged = _tagged_functions(text)
    if tagged:
        if not all(name in offered for name, _ in tagged) or not _only_calls(text):
            return ()  # prose that shows a call as an example stays prose
        return tuple(
            ToolCall(f"text_call_{n}", name, args) for n, (name, args) in enumerate(tagged)
        )
    found: list[ToolCall] = []
    for body in _bodies(text):
        for value in _objects(body):
            call = _as_call(value)
            if call is None or call[0] not in offered:
                return ()
            found.append(ToolCall(f"text_call_{len(found)}", call[0], call[1]))
    return tuple(found) if found and _only_calls(text) else ()


def _only_calls(text: str) -> bool:
    """Whether the text holds nothing but JSON objects and their wrappers."""
    rest = _FENCE.sub(lambda m: m.group(1), text)
    rest = re.sub(r"</?(?:tool_call|tools|function_call)>|</function>", " ", rest)
    rest = _FUNCTION_TAG.sub(" ", rest)  # `<function name="x" arguments=` before its JSON
    rest = re.sub(r"\}\s*/?>", "}", rest)  # and the `/>` after it
    decoder = json.JSONDecoder()
    at, left = 0, []
    while at < len(rest):
        start = rest.find("{", at)
        if start == -1:
            left.append(rest[at:])
            break
        left.append(rest[at:start])
        try:
            _, at = decoder.raw_decode(rest, start)
        except json.JSONDecodeError:
            left.append("{")  # a stray brace; an object that never closes leaves text after it
            at = start + 1
    # stray brackets around the calls: a list of them, or doubled braces ("{{...}}")
    return not "".join(left).strip(" \n\t,;{}[]")


def written_input(text: str) -> dict[str, Any] | None:
    """The input for a forced tool, from a reply written as text: the arguments of the first
    call-shaped object (`{"name": ..., "arguments": {...}}`, in tags or a fence or bare;
    whatever name a small model gave it, as only one tool was asked for), else the first
    object itself. None when the text holds no JSON object."""
    for body in _bodies(text):
        for value in _objects(body):
            call = _as_call(value)
            return call[1] if call is not None else value
    return None
