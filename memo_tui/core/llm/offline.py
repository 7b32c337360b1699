"""The offline provider: the same interface, answered by deterministic policies, no model.

A policy answers one forced tool. Extraction is the offline extractor reading the fenced
transcript whole; later features (the ask router, synthesis) add their own policies, and an
agent's turns come from its scripted policy (core.agents.offline).
A request no policy knows is refused with a message, never guessed at.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from memo_tui.core.llm.base import Provider, Retryable
from memo_tui.core.llm.errors import LLMUnavailable
from memo_tui.core.llm.types import (
    CallRecord,
    Completion,
    Finished,
    Request,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolCallMade,
    Usage,
)

Policy = Callable[[Request], dict[str, Any]]
_FENCED = re.compile(r"<transcript>\n?(?P<text>.*)\n?</transcript>", re.S)


def _extraction_policy(request: Request) -> dict[str, Any]:
    from memo_tui.core.capture.offline import extract
    from memo_tui.core.capture.sources import parse

    prompt = request.messages[-1].text
    fenced = _FENCED.search(prompt)
    text = fenced.group("text") if fenced else prompt
    return extract(parse(text, "meeting.txt", "txt")).model_dump(mode="json")


class OfflineProvider(Provider):
    name = "offline"

    def __init__(self) -> None:
        super().__init__(ledger=None)  # no model is called: nothing to meter
        self.policies: dict[str, Policy] = {"record_meeting": _extraction_policy}

    async def _complete_once(self, request: Request, timeout_s: float) -> Completion:
        if request.trigger.startswith("agent:"):  # an agent's scripted turn
            from memo_tui.core.agents.offline import policy_for

            turn = policy_for(request)
            if turn is None:
                raise LLMUnavailable(f"the offline provider has no policy for {request.trigger}")
            return turn(request)
        policy = self.policies.get(request.tool_choice or "")
        if policy is None:
            raise LLMUnavailable(
                f"the offline provider has no policy for {request.tool_choice or 'free text'}; "
                "set ANTHROPIC_API_KEY or MEMO_PROVIDER=openai for this feature"
            )
        call = ToolCall("offline", request.tool_choice or "", policy(request))
        return Completion("", (call,), Usage(), "tool_use", "offline")

    async def _stream_once(
        self, request: Request, timeout_s: float, record: CallRecord
    ) -> AsyncIterator[StreamEvent]:
        completion = await self._complete_once(request, timeout_s)
        if completion.text:
            yield TextDelta(completion.text)
        for call in completion.tool_calls:
            yield ToolCallMade(call)
        yield Finished(completion)

    def _classify(self, error: Exception) -> Retryable | None:
        if isinstance(error, LLMUnavailable):
            return Retryable(False, None, str(error))
        return None
