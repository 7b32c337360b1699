"""The provider interface, with what every provider shares: deadlines that cover retries,
bounded retries, structured output through a forced tool, and a ledger row for every call."""

from __future__ import annotations

import asyncio
import contextlib
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


# Rate limits, overload and server errors; other statuses are the caller's to fix.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 529})


class StreamBroken(Exception):
    """A stream ended before the provider said it was complete."""


class Provider(ABC):
    """One model provider. Subclasses implement one attempt; this class does the rest."""

    name: str = "provider"
    # A structured answer longer than this is a model rambling (a grammar-bound small model
    # can run to any limit it is given, minutes on a CPU).
    structured_max_tokens: int = 4096

    def __init__(self, ledger: Ledger | None = None, policy: RetryPolicy | None = None) -> None:
        self.ledger = ledger
        self.policy = policy or RetryPolicy()

    # What a provider implements

    def prepare(self) -> None:  # noqa: B027 - optional hook
        """Slow one-time work (importing an SDK), done before any deadline starts."""

    @abstractmethod
    async def _complete_once(self, request: Request, timeout_s: float) -> Completion: ...

    @abstractmethod
    def _stream_once(
        self, request: Request, timeout_s: float, record: CallRecord
    ) -> AsyncIterator[StreamEvent]:
        """Yield events; keep `record.usage` current so a broken stream is still metered."""

    @abstractmethod
    def _classify(self, error: Exception) -> Retryable | None:
        """The provider's verdict on an error; None when it is not the provider's."""

    # The interface

    async def complete(
        self,
        request: Request,
        deadline: float | None = None,
        check: Callable[[Completion], str | None] | None = None,
    ) -> Completion:
        """One answer (text and/or tool calls), retried within the request's deadline.
        `check` says what is wrong with an answer (None: nothing): one it finds wrong is
        recorded as failed, with the tokens it cost, not as ok."""
        self.prepare()
        record = self._new_record(request)
        started = time.monotonic()
        try:
            completion = await self._within_deadline(
                request,
                deadline or started + request.deadline_s,
                lambda timeout: self._complete_once(request, timeout),
            )
        except LLMError as error:
            record.error = str(error)
            raise
        else:
            record.status, record.usage = "ok", completion.usage
            problem = check(completion) if check is not None else None
            if problem is not None:
                record.status, record.error = "error", problem
            return completion
        finally:
            self._record(record, started)

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        """Text deltas and tool calls as they come, then `Finished` (the reader may stop there).
        Retried only until the first event; an error after that fails the stream and the ledger
        keeps what was used."""
        self.prepare()
        record = self._new_record(request)
        started = time.monotonic()
        deadline = started + request.deadline_s
        try:
            for attempt in range(self.policy.max_attempts):
                events = self._stream_once(request, _remaining(deadline), record).__aiter__()
                produced = False
                try:
                    while True:
                        try:
                            event = await asyncio.wait_for(anext(events), _remaining(deadline))
                        except StopAsyncIteration:
                            break
                        produced = True
                        if isinstance(event, Finished):
                            record.status, record.usage = "ok", event.completion.usage
                        yield event
                    if record.status != "ok":
                        raise StreamBroken("the stream ended before it was complete")
                    return
                except TimeoutError as error:
                    record.status = "partial" if produced else "error"
                    raise self._timeout(request) from error
                # A reader that stops after `Finished` had the whole answer: the call stays ok.
                except GeneratorExit:
                    if record.status != "ok":
                        record.status, record.error = "partial", "the reader stopped the stream"
                    raise
                except asyncio.CancelledError:
                    if record.status != "ok":
                        record.status, record.error = "partial", "the stream was cancelled"
                    raise
                except Exception as error:  # noqa: BLE001 - classified below
                    verdict = self._verdict(error)
                    if produced:
                        record.status = "partial"
                        raise LLMError(
                            f"{self.name} stream broke off: {verdict.message}"
                        ) from error
                    await self._pause_or_fail(request, verdict, attempt, deadline, error)
                finally:
                    await _close(events)
        except LLMError as error:
            record.error = str(error)
            raise
        finally:
            self._record(record, started)

    async def structured(self, request: Request, schema: type[Model], tool: str) -> Model:
        """The model's answer as `schema`, via a forced tool; one repair request if invalid.
        The repair shares the request's deadline."""
        deadline = time.monotonic() + request.deadline_s
        spec = ToolSpec(tool, schema.__doc__ or tool, schema.model_json_schema())
        most = min(request.max_tokens, self.structured_max_tokens)
        forced = replace(request, tools=(spec,), tool_choice=tool, max_tokens=most)

        def invalid(completion: Completion) -> str | None:
            try:
                _validate(completion, schema, tool)
            except (ValidationError, LLMInvalidOutput) as problem:
                cut = completion.stop_reason in ("max_tokens", "length")
                capped = f" (cut at the {forced.max_tokens}-token cap)" if cut else ""
                return f"invalid {tool} output{capped}: {_short(problem)}"
            return None

        completion = await self.complete(forced, deadline, invalid)
        try:
            return _validate(completion, schema, tool)
        except (ValidationError, LLMInvalidOutput) as first:
            repair = _repair_request(forced, completion, tool, first)
        completion = await self.complete(repair, deadline, invalid)
        try:
            return _validate(completion, schema, tool)
        except (ValidationError, LLMInvalidOutput) as second:
            raise LLMInvalidOutput(
                f"{self.name} model {request.model!r} returned invalid {schema.__name__} "
                f"twice; try a stronger model. Last problem: {_short(second)}"
            ) from second

    # Shared machinery

    def _new_record(self, request: Request) -> CallRecord:
        return CallRecord(
            self.name,
            request.model,
            request.trigger,
            "error",
            capture_id=request.capture_id,
            run_id=request.run_id,
        )

    def _verdict(self, error: Exception) -> Retryable:
        if isinstance(error, StreamBroken):
            return Retryable(True, None, str(error))
        verdict = self._classify(error)
        if verdict is None:  # not an API error: a bug or an unexpected reply, never retried
            return Retryable(False, None, f"unexpected {type(error).__name__}: {error}")
        return verdict

    async def _within_deadline(
        self, request: Request, deadline: float, attempt: Callable[[float], Awaitable[T]]
    ) -> T:
        for number in range(self.policy.max_attempts):
            try:
                return await asyncio.wait_for(attempt(_remaining(deadline)), _remaining(deadline))
            except TimeoutError as error:
                raise self._timeout(request) from error
            except Exception as error:  # noqa: BLE001 - classified below
                await self._pause_or_fail(request, self._verdict(error), number, deadline, error)
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
        """The timeout, naming the setting that gives this kind of call more time."""
        if request.trigger in ("capture", "changes"):
            setting = "MEMO_EXTRACT_DEADLINE_S"
        elif request.trigger == "ask_router":
            setting = "MEMO_ROUTER_DEADLINE_S"
        else:  # answers and agent turns
            setting = "MEMO_ANSWER_DEADLINE_S"
        return LLMTimeout(
            f"{self.name} {request.model} did not finish within {request.deadline_s:g} s "
            f"(retries included; a slow model needs more: raise {setting}); nothing was written"
        )

    def _record(self, record: CallRecord, started: float) -> None:
        record.latency_ms = int((time.monotonic() - started) * 1000)
        if self.ledger is not None:
            self.ledger.record(record)


async def _close(events: AsyncIterator[StreamEvent]) -> None:
    close = getattr(events, "aclose", None)
    if close is not None:
        with contextlib.suppress(Exception):
            await close()


def _remaining(deadline: float) -> float:
    return max(deadline - time.monotonic(), 0.001)


def _validate(completion: Completion, schema: type[Model], tool: str) -> Model:
    """The call's input as `schema`. An input holding only keys that are none of the
    schema's fields is invalid even when every field is optional: a wrapper object or a
    misread reply is no answer ({} is: nothing to say, when nothing is required)."""
    call = next((c for c in completion.tool_calls if c.name == tool), None)
    if call is None:
        said = " ".join(completion.text.split())[:120]
        raise LLMInvalidOutput(
            f"the reply held no {tool} input (no tool call and no JSON object"
            + (f"; it said: {said!r})" if said else "; it was empty)")
        )
    fields = set(schema.model_fields)
    if set(call.arguments) == {"_unparsed"}:
        raw = " ".join(str(call.arguments["_unparsed"]).split())[:120]
        raise LLMInvalidOutput(f"the {tool} input is not valid JSON: {raw!r}")
    if call.arguments and not fields & call.arguments.keys():
        had = ", ".join(sorted(call.arguments)) or "nothing"
        raise LLMInvalidOutput(
            f"the {tool} input holds none of its fields ({', '.join(sorted(fields))}); "
            f"it had: {had}"
        )
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
