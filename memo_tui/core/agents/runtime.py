"""The agent loop: a model turn, its tool calls, their results, the next turn, until the
model stops; then the completion contract, with one repair turn for missing writes.

Everything is written as it happens (the run, each step and tool call, and numbered events),
so a viewer can replay a run and a crash leaves a run that says it was interrupted.
Read-only tools of one turn run side by side (at most 4); writes take the run's lock.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from memo_tui.core.agents.outcome import Outcome
from memo_tui.core.agents.proposals import Proposal, evidence
from memo_tui.core.agents.spec import Requirement, RunSpec
from memo_tui.core.agents.tools import TOOLS, SearchContext, Tool, ToolContext, result_text
from memo_tui.core.llm.base import Provider
from memo_tui.core.llm.errors import LLMError
from memo_tui.core.llm.ledger import cost_microdollars
from memo_tui.core.llm.textcalls import looks_like_a_call
from memo_tui.core.llm.types import (
    Completion,
    Finished,
    Message,
    Request,
    TextDelta,
    ToolCall,
    ToolResult,
)
from store import Approval, RunStatus, Store

READ_CONCURRENCY = 4
# One lock per key and event loop in this process; across processes and machines the store
# holds the key too (held_everywhere: a team store's advisory lock).
_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


def write_lock(key: str) -> asyncio.Lock:
    return _LOCKS.setdefault(asyncio.get_running_loop(), {}).setdefault(key, asyncio.Lock())


@asynccontextmanager
async def held_everywhere(store: Store, key: str) -> AsyncIterator[None]:
    """`key` held against other processes and machines as well (a team store's lock)."""
    held = store.key_held(key)
    await asyncio.to_thread(held.__enter__)
    try:
        yield
    finally:
        await asyncio.to_thread(held.__exit__, None, None, None)


Listener = Callable[[int, str, dict[str, Any]], None]


Approver = Callable[[Proposal], Awaitable[str]]  # 'accepted' or 'rejected'
Labeler = Callable[[dict[str, Any]], dict[str, Any]]  # marks up a tool's result for the model


class Contract:
    """Which required writes have been made (a write skipped for a user's edit counts)."""

    def __init__(self, required: tuple[Requirement, ...]) -> None:
        self.required = required
        self.done = [0] * len(required)

    def record(self, tool: str, arguments: dict[str, Any], result: dict[str, Any]) -> None:
        if "error" in result:
            return
        for n, need in enumerate(self.required):
            if need.matches(tool, arguments):
                self.done[n] += 1

    def missing(self) -> list[Requirement]:
        groups_met = {
            need.any_of
            for need, done in zip(self.required, self.done, strict=True)
            if need.any_of and done >= need.count
        }
        missing: dict[str, Requirement] = {}  # one per any-of group: its first way
        for need, done in zip(self.required, self.done, strict=True):
            if done < need.count and not (need.any_of and need.any_of in groups_met):
                missing.setdefault(need.any_of or need.describe(), need)
        return list(missing.values())


def _repair_prompt(missing: list[Requirement]) -> str:
    wanted = ", ".join(m.describe() for m in missing)
    return (
        f"You stopped before making these required writes: {wanted}. Call only those tools "
        "now, using the evidence you have already loaded."
    )


class RunTaken(LookupError):
    """The run to resume was claimed by another process first."""


class AgentRun:
    def __init__(
        self,
        store: Store,
        provider: Provider,
        spec: RunSpec,
        listener: Listener | None = None,
        deadline_s: float = 60.0,
        approver: Approver | None = None,
        approval_timeout_s: float = 90.0,
        prices: Mapping[str, tuple[float, float]] | None = None,
        *,
        search: SearchContext | None = None,
        on_text: Callable[[str], None] | None = None,
        label: Labeler | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        """`search`: the embedder and vector index search_facts may use; `on_text`: model
        text as it streams (each turn is streamed when set); `label`: applied to every tool
        result before the model (and the record) sees it; `stop`: asked before each model
        turn, true ends the run as interrupted (resumable) after the step in hand."""
        self.stop = stop
        self.store = store
        self.search = search
        self.on_text = on_text
        self.label = label
        self.prices = prices or {}
        self.approver = approver
        self.approval_timeout_s = approval_timeout_s
        self.provider = provider
        self.spec = spec
        self.listener = listener
        self.deadline_s = deadline_s
        self.contract = Contract(spec.required)
        self.run_id = 0
        self.outcome = Outcome(0, "running")

    def _event(self, kind: str, **payload: Any) -> None:
        seq = self.store.runs.append_event(
            self.run_id, kind, json.dumps(payload, ensure_ascii=False)
        )
        if self.listener is not None:
            self.listener(seq, kind, payload)

    async def run(self, brief: str, history: Sequence[Message] = ()) -> Outcome:
        """Run from `brief` (after `history`: earlier turns of a conversation)."""
        spec = self.spec
        self.run_id = self.store.runs.start(
            spec.agent, spec.entity_type, spec.entity_id, spec.model, self._spec_json()
        )
        self.outcome = Outcome(self.run_id, "running")
        self._event("started", agent=spec.agent, entity=spec.entity_name, model=spec.model)
        return await self._guarded(self._loop([*history, Message("user", brief)], 0, False))

    async def resume(self, run_id: int, brief: str) -> Outcome:
        """Go on with an interrupted (or failed) run from its last completed step. Completed
        tool calls are not made again: their stored results are what the model sees."""
        self.run_id = run_id
        self.outcome = Outcome(run_id, "running")
        if not self.store.runs.claim(run_id, self._spec_json()):  # this process runs it now
            raise RunTaken(f"run {run_id} was resumed meanwhile by another memo")
        self._event("resumed")
        messages = [Message("user", brief)]
        steps = [step for step in self.store.runs.steps(run_id) if step.message_json]
        repairing = False
        for step in steps:
            if step.kind == "repair":
                repairing = True
                messages.append(Message("user", _repair_prompt(self.contract.missing())))
            turn = json.loads(step.message_json or "{}")
            calls = tuple(
                ToolCall(c["id"], c["name"], c["arguments"]) for c in turn.get("tool_calls", [])
            )
            messages.append(Message("assistant", turn.get("text", ""), calls))
            self.outcome.steps += 1
            if calls:
                results = [await self._replayed(step.id, call) for call in calls]
                messages.append(Message("user", tool_results=tuple(results)))
        last = max((step.step_index for step in self.store.runs.steps(run_id)), default=-1)
        return await self._guarded(self._loop(messages, last + 1, repairing))

    def _spec_json(self) -> str:
        """What the run was asked, and which process runs it: its machine and pid, and on a
        team store the key its presence holds (a crashed run's process is gone)."""
        spec = self.spec
        asked = {"agent": spec.agent, "entity": spec.entity_name}
        running = {"pid": os.getpid(), "host": socket.gethostname()}
        if (presence := self.store.presence()) is not None:
            running["presence"] = presence
        return json.dumps(asked | running, ensure_ascii=False)

    async def _replayed(self, step_id: int, call: ToolCall) -> ToolResult:
        """A call of a completed step: its stored result, or (cut off before it finished)
        made now."""
        done = self.store.runs.completed_tool_call(self.run_id, call.id)
        if done is None:
            return await self._call(step_id, call)
        result = json.loads(done.result_json or "{}")
        self.contract.record(call.name, call.arguments, result)
        if TOOLS[call.name].mutating:  # made before the interruption: still this run's
            self.outcome.count(call.name, call.arguments, result)
        return ToolResult(call.id, done.result_json or "{}", "error" in result)

    async def _guarded(self, loop: Awaitable[None]) -> Outcome:
        try:
            await loop
        except LLMError as error:
            self._finish("failed", f"the model call failed: {error}")
        except asyncio.CancelledError:  # stopped by its user: resumable, like a crash
            self._finish("interrupted", "stopped before it finished")
            raise
        except Exception as error:
            self._finish("failed", f"{type(error).__name__}: {error}")
            raise
        return self.outcome

    async def _loop(self, messages: list[Message], first: int, repairing: bool) -> None:
        spec, kind = self.spec, "repair" if repairing else "turn"
        tools = [TOOLS[name].as_spec() for name in spec.tools]
        for index in range(first, first + spec.max_steps - self.outcome.steps):
            if self.stop is not None and self.stop():
                self._finish("interrupted", "stopped by the user: resume it to go on")
                return
            step_id = self.store.runs.start_step(self.run_id, index, kind)
            request = Request(
                spec.model,
                tuple(messages),
                system=spec.system,
                tools=tuple(tools),
                deadline_s=self.deadline_s,
                trigger=f"agent:{spec.agent}",
                run_id=self.run_id,
            )
            completion = await self._turn(request)
            self._completed(step_id, completion)
            if completion.text:
                self._event("model_text", text=completion.text)
            messages.append(Message("assistant", completion.text, completion.tool_calls))
            if completion.tool_calls:
                results = await self._dispatch(step_id, completion.tool_calls)
                messages.append(Message("user", tool_results=tuple(results)))
                continue
            if looks_like_a_call(completion.text):
                said = " ".join(completion.text.split())[:100]
                self._finish(
                    "failed",
                    f"the model wrote a tool call as text that memo could not read ({said!r}); "
                    "try a stronger model",
                )
                return
            missing = self.contract.missing()
            if not missing:
                self._finish("completed")
                return
            if repairing:
                self.outcome.missing = [m.describe() for m in missing]
                self._finish(
                    "failed",
                    "still missing after the repair turn: " + ", ".join(self.outcome.missing),
                )
                return
            repairing = True
            self.outcome.repair_turns += 1
            self._event("repair", missing=[m.describe() for m in missing])
            messages.append(Message("user", _repair_prompt(missing)))
        self._finish("failed", f"no finish within {spec.max_steps} steps")

    def _completed(self, step_id: int, completion: Completion) -> None:
        """A step's turn kept (its text and tool calls) and its tokens and cost counted."""
        tokens = completion.usage.input_tokens, completion.usage.output_tokens
        calls = [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in completion.tool_calls
        ]
        turn = {"text": completion.text, "tool_calls": calls}
        self.store.runs.finish_step(step_id, "completed", *tokens, json.dumps(turn))
        cost = cost_microdollars(completion.model, *tokens, self.prices)
        self.store.runs.add_usage(self.run_id, *tokens, cost)
        self.outcome.steps += 1

    async def _turn(self, request: Request) -> Completion:
        """One model turn: whole, or streamed to `on_text` as it is written."""
        if self.on_text is None:
            return await self.provider.complete(request)
        async for event in self.provider.stream(request):
            if isinstance(event, TextDelta):
                self.on_text(event.text)
            elif isinstance(event, Finished):
                return event.completion
        raise LLMError("the model's stream ended without finishing")

    async def _dispatch(self, step_id: int, calls: tuple[ToolCall, ...]) -> list[ToolResult]:
        """Reads side by side (at most READ_CONCURRENCY), writes one at a time per lock key;
        results in the order the model asked."""
        reads = asyncio.Semaphore(READ_CONCURRENCY)

        async def one(call: ToolCall) -> ToolResult:
            tool = TOOLS.get(call.name)
            if tool is None or call.name not in self.spec.tools:
                return ToolResult(call.id, result_text({"error": f"no tool {call.name}"}), True)
            key = tool.lock_key(self.spec)
            if key is None:
                async with reads:
                    return await self._call(step_id, call)
            async with write_lock(key), held_everywhere(self.store, key):
                return await self._call(step_id, call)

        return list(await asyncio.gather(*(one(call) for call in calls)))

    async def _call(self, step_id: int, call: ToolCall) -> ToolResult:
        tool = TOOLS[call.name]
        arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
        row = self.store.runs.start_tool_call(
            self.run_id, step_id, call.id, call.name, arguments, tool.mutating
        )
        self._event("tool_call", id=call.id, name=call.name, arguments=call.arguments)
        decision = await self._approval(call, row) if tool.needs_approval else "accepted"
        result = await asyncio.to_thread(self._act, tool, call, decision)
        text = result_text(result)
        self._event("tool_result", id=call.id, name=call.name, result=result)
        self.outcome.tool_calls += 1
        self.contract.record(call.name, call.arguments, result)
        if tool.mutating:
            self.outcome.count(call.name, call.arguments, result)
        return ToolResult(call.id, text, "error" in result)

    def _act(self, tool: Tool, call: ToolCall, decision: Approval) -> dict[str, Any]:
        """Run the tool and record its result in one transaction: a crash leaves the write
        and its record together or neither, so a resumed run never makes a write twice."""
        context = ToolContext(self.store, self.spec, self.run_id, self.search)
        with self.store.atomically():
            try:
                if decision == "accepted":
                    result = tool.handler(context, call.arguments)
                else:
                    result = {"outcome": decision}  # nothing written; the model is told why
            except (KeyError, ValueError, TypeError) as error:
                result = {"error": f"bad arguments for {call.name}: {error}"}
            if self.label is not None:
                result = self.label(result)
            status = "failed" if "error" in result else "completed"
            self.store.runs.finish_tool_call(self.run_id, call.id, status, result_text(result))
        return result

    async def _approval(self, call: ToolCall, row: int) -> Approval:
        """Wait for the user's yes or no (the run says it is waiting); no answer in time, or
        nobody to ask, is 'skipped'. The decision is stored with the call; a resumed run
        does not ask again."""
        asked = [d for d in self.store.runs.decisions(self.run_id) if d.tool_call_id == row]
        if asked:  # answered before the run was cut off: the answer stands
            prior = asked[-1].decision
            if prior == "accepted":
                return "accepted"
            return "rejected" if prior == "rejected" else "skipped"
        timeout = self.approval_timeout_s
        found = evidence(self.store, self.spec, call.arguments)
        proposal = Proposal(
            self.run_id, self.spec.agent, call.id, call.name, call.arguments, timeout, found
        )
        self.store.runs.set_status(self.run_id, "waiting_for_user")
        self._event("approval_needed", id=call.id, arguments=call.arguments, timeout_s=timeout)
        decision: Approval = "skipped"
        by = "timeout"
        if self.approver is not None:
            try:
                answer = await asyncio.wait_for(self.approver(proposal), timeout)
            except TimeoutError:
                answer = "skipped"
            if answer in ("accepted", "rejected"):
                decision, by = ("accepted" if answer == "accepted" else "rejected"), "user"
        self.store.runs.record_decision(self.run_id, row, decision, by, json.dumps(call.arguments))
        self.store.runs.set_status(self.run_id, "running")
        self._event("approval", id=call.id, decision=decision, decided_by=by)
        return decision

    def _finish(self, status: RunStatus, error: str | None = None) -> None:
        self.outcome.status, self.outcome.error = status, error
        with self.store.atomically():  # a finished run always has its 'finished' event
            self.store.runs.set_status(self.run_id, status, error)
            self._event("finished", status=status, error=error)
