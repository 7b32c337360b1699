"""The provider interface, with what every provider shares: deadlines that cover retries,
bounded retries, structured output through a forced tool, and a ledger row for every call."""

from __future__ import annotations

import asyncio
import json
import random
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from memo_tui.core.llm.errors import LLMError, LLMInvalidOutput, LLMTimeout
from memo_tui.core.llm.types import (
    CallRecord,
    Completion,
    Finished,
    Message,
    Request,
    StreamEvent,
    ToolResult,
    ToolSpec,
    Usage,
)

T = TypeVar("T")
Model = TypeVar("Model", bound=BaseModel)


class Ledger(Protocol):
    def record(self, call: CallRecord) -> int: ...


@dataclass(frozen=True)
class RetryPolicy:
    """Retries for overload, rate limits, server errors and dropped connections only."""

    max_attempts: int = 4
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0


@dataclass(frozen=True)
class Retryable:
    """A provider's verdict on an error: may it be retried, and after how long."""

    retry: bool
    retry_after_s: float | None
    message: str


class Provider(ABC):
    """One model provider. Subclasses implement one attempt; this class does the rest."""

    name: str = "provider"

    def __init__(self, ledger: Ledger | None = None, policy: RetryPolicy | None = None) -> None:
        self.ledger = ledger
        self.policy = policy or RetryPolicy()

    # What a provider implements

    @abstractmethod
    async def _complete_once(self, request: Request, timeout_s: float) -> Completion: ...

    @abstractmethod
    def _stream_once(self, request: Request, timeout_s: float) -> AsyncIterator[StreamEvent]: ...

    @abstractmethod
    def _classify(self, error: Exception) -> Retryable | None:
        """None when `error` is not the provider's (a bug: let it propagate)."""

    # The interface

    async def complete(self, request: Request) -> Completion:
        """One answer (text and/or tool calls), retried within the request's deadline."""
        record = CallRecord(
            self.name,
            request.model,
            request.trigger,
            "error",
            capture_id=request.capture_id,
            run_id=request.run_id,
        )
        started = time.monotonic()
        try:
            completion = await self._within_deadline(
                request, lambda timeout: self._complete_once(request, timeout)
            )
        except LLMError as error:
            record.error = str(error)
            raise
        else:
            record.status, record.usage = "ok", completion.usage
            return completion
        finally:
            self._record(record, started)

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        """Text deltas and tool calls as they come, then `Finished`. Retried only until the
        first event; an error after that fails the stream (the ledger keeps what was used)."""
        record = CallRecord(
            self.name,
            request.model,
            request.trigger,
            "error",
            capture_id=request.capture_id,
            run_id=request.run_id,
        )
        started = time.monotonic()
        deadline = started + request.deadline_s
        produced = False
        try:
            for attempt in range(self.policy.max_attempts):
                try:
                    async with asyncio.timeout_at(_loop_time(deadline)):
                        async for event in self._stream_once(request, _remaining(deadline)):
                            produced = True
                            if isinstance(event, Finished):
                                record.status, record.usage = "ok", event.completion.usage
                            yield event
                    return
                except TimeoutError as error:
                    raise self._timeout(request) from error
                except Exception as error:  # noqa: BLE001 - classified below
                    verdict = self._classify(error)
                    if verdict is None:
                        raise
                    if produced:
                        record.status = "partial"
                        raise LLMError(
                            f"{self.name} stream broke off: {verdict.message}"
                        ) from error
                    await self._pause_or_fail(request, verdict, attempt, deadline, error)
        except LLMError as error:
            record.error = str(error)
            raise
        finally:
            self._record(record, started)

    async def structured(self, request: Request, schema: type[Model], tool: str) -> Model:
        """The model's answer as `schema`, via a forced tool; one repair request if invalid."""
        spec = ToolSpec(tool, schema.__doc__ or tool, schema.model_json_schema())
        forced = replace(request, tools=(spec,), tool_choice=tool)
        completion = await self.complete(forced)
        try:
            return _validate(completion, schema, tool)
        except (ValidationError, LLMInvalidOutput) as first:
            repair = _repair_request(forced, completion, tool, first)
        completion = await self.complete(repair)
        try:
            return _validate(completion, schema, tool)
        except (ValidationError, LLMInvalidOutput) as second:
            raise LLMInvalidOutput(
                f"{self.name} model {request.model!r} returned invalid {schema.__name__} "
                f"twice; try a stronger model. Last problem: {_short(second)}"
            ) from second

    # Shared machinery

    async def _within_deadline(
        self, request: Request, attempt: Callable[[float], Awaitable[T]]
    ) -> T:
        deadline = time.monotonic() + request.deadline_s
        for number in range(self.policy.max_attempts):
            try:
                async with asyncio.timeout_at(_loop_time(deadline)):
                    return await attempt(_remaining(deadline))
            except TimeoutError as error:
                raise self._timeout(request) from error
            except Exception as error:  # noqa: BLE001 - classified below
                verdict = self._classify(error)
                if verdict is None:
                    raise
                await self._pause_or_fail(request, verdict, number, deadline, error)
        raise AssertionError("unreachable: the last attempt raises")

    async def _pause_or_fail(
        self, request: Request, verdict: Retryable, attempt: int, deadline: float, error: Exception
    ) -> None:
        last = attempt + 1 >= self.policy.max_attempts
        if not verdict.retry or last:
            tries = f" after {attempt + 1} attempts" if verdict.retry else ""
            raise LLMError(f"{self.name} {request.model}: {verdict.message}{tries}") from error
        delay = verdict.retry_after_s
        if delay is None:
            backoff = self.policy.base_delay_s * 2**attempt
            delay = min(self.policy.max_delay_s, backoff) * random.uniform(0.5, 1.0)
        if delay >= _remaining(deadline):
            raise LLMError(
                f"{self.name} {request.model}: {verdict.message}; a retry in {delay:.1f} s "
                f"would pass the {request.deadline_s:g} s deadline"
            ) from error
        await asyncio.sleep(delay)

    def _timeout(self, request: Request) -> LLMTimeout:
        return LLMTimeout(
            f"{self.name} {request.model} did not finish within {request.deadline_s:g} s "
            "(retries included); nothing was written"
        )

    def _record(self, record: CallRecord, started: float) -> None:
        record.latency_ms = int((time.monotonic() - started) * 1000)
        if self.ledger is not None:
            self.ledger.record(record)


def _loop_time(deadline: float) -> float:
    """A time.monotonic() deadline on the running loop's clock."""
    return asyncio.get_running_loop().time() + _remaining(deadline)


def _remaining(deadline: float) -> float:
    return max(deadline - time.monotonic(), 0.001)


def _validate(completion: Completion, schema: type[Model], tool: str) -> Model:
    call = next((c for c in completion.tool_calls if c.name == tool), None)
    if call is None:
        raise LLMInvalidOutput(f"the model did not call the {tool} tool")
    return schema.model_validate(call.arguments)


def _short(error: Exception) -> str:
    return str(error).replace("\n", " ")[:300]


def _repair_request(
    request: Request, completion: Completion, tool: str, problem: Exception
) -> Request:
    """Show the model its invalid output and the validation error; ask for the tool again."""
    call = next((c for c in completion.tool_calls if c.name == tool), None)
    feedback = (
        f"That input did not validate: {_short(problem)}. Call {tool} again with input that "
        "matches its schema exactly."
    )
    if call is None:
        extra: tuple[Message, ...] = (
            Message("assistant", completion.text or "(no tool call)"),
            Message("user", feedback),
        )
    else:
        extra = (
            Message("assistant", completion.text, tool_calls=(call,)),
            Message("user", tool_results=(ToolResult(call.id, feedback, is_error=True),)),
        )
    return replace(request, messages=request.messages + extra)


def tool_arguments(raw: str | dict[str, object] | None) -> dict[str, object]:
    """Tool-call arguments: JSON text (often broken from local models) or a dict."""
    if isinstance(raw, dict):
        return raw
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {"_unparsed": raw}
    return value if isinstance(value, dict) else {"_unparsed": raw}


__all__ = ["Ledger", "Provider", "Retryable", "RetryPolicy", "Usage", "tool_arguments"]
