"""The Anthropic provider through the real SDK against a fake Messages API on loopback."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from pydantic import BaseModel
from support.fakes import anthropic_api as api
from support.fakes.server import FakeServer, Reply
from support.ledger import ListLedger

from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.llm.base import RetryPolicy
from memo_tui.core.llm.errors import LLMError, LLMInvalidOutput, LLMTimeout
from memo_tui.core.llm.types import (
    Finished,
    Message,
    Request,
    TextDelta,
    ToolCallMade,
    ToolSpec,
)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as running:
        yield running


@pytest.fixture
def ledger() -> ListLedger:
    return ListLedger()


def api_key(headers: dict[str, str]) -> str | None:
    """The key as the SDK sent it (2.x uses a bearer token, older ones x-api-key)."""
    bearer = headers.get("authorization", "")
    return bearer.removeprefix("Bearer ") if bearer else headers.get("x-api-key")


def provider(server: FakeServer, ledger: ListLedger, attempts: int = 4) -> AnthropicProvider:
    policy = RetryPolicy(max_attempts=attempts, base_delay_s=0.05, max_delay_s=0.2)
    return AnthropicProvider("test-key", server.url, ledger, policy)


def ask(deadline: float = 5.0, **changes: object) -> Request:
    values: dict[str, object] = dict(
        model="claude-sonnet-4-6",
        messages=(Message("user", "Hello?"),),
        system="Be brief.",
        deadline_s=deadline,
        trigger="ask",
    )
    values.update(changes)
    return Request(**values)  # type: ignore[arg-type]


def test_completion_text_usage_and_request_shape(server: FakeServer, ledger: ListLedger) -> None:
    server.push(api.message("Hi there.", usage=(120, 7)))
    completion = asyncio.run(provider(server, ledger).complete(ask()))
    assert completion.text == "Hi there."
    assert (completion.usage.input_tokens, completion.usage.output_tokens) == (120, 7)
    [seen] = server.seen
    assert seen.path == "/v1/messages" and api_key(seen.headers) == "test-key"
    assert seen.body["system"] == "Be brief."
    assert seen.body["messages"] == [{"role": "user", "content": "Hello?"}]
    [call] = ledger.calls
    assert (call.status, call.usage.input_tokens, call.trigger) == ("ok", 120, "ask")


def test_tool_use_round_trip(server: FakeServer, ledger: ListLedger) -> None:
    server.push(api.message(tool=("lookup", {"q": "postgres"})), api.message("Found it."))
    tool = ToolSpec(
        "lookup", "Search facts", {"type": "object", "properties": {"q": {"type": "string"}}}
    )
    llm = provider(server, ledger)
    first = asyncio.run(llm.complete(ask(tools=(tool,))))
    [call] = first.tool_calls
    assert (call.name, call.arguments) == ("lookup", {"q": "postgres"})
    from memo_tui.core.llm.types import ToolResult

    follow = ask(
        messages=(
            Message("user", "Hello?"),
            Message("assistant", "", tool_calls=(call,)),
            Message("user", tool_results=(ToolResult(call.id, "Postgres chosen in Sept"),)),
        ),
        tools=(tool,),
    )
    assert asyncio.run(llm.complete(follow)).text == "Found it."
    sent = server.seen[1].body["messages"]
    assert sent[1]["content"][0] == {
        "type": "tool_use",
        "id": call.id,
        "name": "lookup",
        "input": {"q": "postgres"},
    }
    assert sent[2]["content"][0]["type"] == "tool_result"
    assert server.seen[0].body["tools"][0]["name"] == "lookup"


def test_streaming_text_and_tool_calls(server: FakeServer, ledger: ListLedger) -> None:
    server.push(api.stream(["We ", "picked ", "Postgres."], tool=("cite", {"n": 1}), usage=(50, 9)))

    async def collect() -> list[object]:
        return [event async for event in provider(server, ledger).stream(ask())]

    events = asyncio.run(collect())
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["We ", "picked ", "Postgres."]
    [made] = [e for e in events if isinstance(e, ToolCallMade)]
    assert made.call.arguments == {"n": 1}
    finished = events[-1]
    assert isinstance(finished, Finished)
    assert finished.completion.text == "We picked Postgres."
    assert finished.completion.usage.output_tokens == 9
    assert server.seen[0].body["stream"] is True
    assert ledger.calls[0].status == "ok" and ledger.calls[0].usage.input_tokens == 50


def test_rate_limit_honours_retry_after_within_the_deadline(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.push(
        api.error(429, "rate_limit_error", "slow down", {"retry-after": "0.3"}), api.message("ok")
    )
    started = time.monotonic()
    assert asyncio.run(provider(server, ledger).complete(ask())).text == "ok"
    assert time.monotonic() - started >= 0.3
    assert len(server.seen) == 2 and [c.status for c in ledger.calls] == ["ok"]


def test_retry_after_past_the_deadline_fails_at_once(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.push(api.error(429, "rate_limit_error", "slow down", {"retry-after": "30"}))
    started = time.monotonic()
    with pytest.raises(LLMError, match="would pass the 2 s deadline"):
        asyncio.run(provider(server, ledger).complete(ask(deadline=2.0)))
    assert time.monotonic() - started < 1.0
    assert len(server.seen) == 1
    assert ledger.calls[0].status == "error" and "429" in (ledger.calls[0].error or "")


def test_an_overload_storm_is_retried_a_bounded_number_of_times(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.default = api.error(529, "overloaded_error", "Overloaded")
    with pytest.raises(LLMError, match="after 3 attempts"):
        asyncio.run(provider(server, ledger, attempts=3).complete(ask()))
    assert len(server.seen) == 3 and len(ledger.calls) == 1


def test_server_errors_retry_and_client_errors_do_not(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.push(api.error(500, "api_error", "boom"), api.message("recovered"))
    assert asyncio.run(provider(server, ledger).complete(ask())).text == "recovered"
    server.push(api.error(400, "invalid_request_error", "bad model"))
    with pytest.raises(LLMError, match="HTTP 400"):
        asyncio.run(provider(server, ledger).complete(ask()))
    assert len(server.seen) == 3


def test_a_slow_answer_times_out_at_the_deadline(server: FakeServer, ledger: ListLedger) -> None:
    slow = api.message("late")
    server.push(Reply(slow.status, slow.headers, [3.0, *slow.chunks]))
    started = time.monotonic()
    with pytest.raises(LLMTimeout, match="within 1 s"):
        asyncio.run(provider(server, ledger).complete(ask(deadline=1.0)))
    assert time.monotonic() - started < 2.0
    assert ledger.calls[0].status == "error"


def test_a_mid_stream_error_fails_cleanly_and_keeps_partial_usage(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.push(api.stream(["We ", "picked ", "Postgres."], usage=(77, 9), fail_after=2))
    seen: list[str] = []

    async def consume() -> None:
        async for event in provider(server, ledger).stream(ask()):
            if isinstance(event, TextDelta):
                seen.append(event.text)

    with pytest.raises(LLMError, match="stream broke off"):
        asyncio.run(consume())
    assert seen == ["We ", "picked "]
    assert len(server.seen) == 1  # no retry once output has started
    [call] = ledger.calls
    assert call.status == "partial"


class Verdict(BaseModel):
    """A decision."""

    decision: str
    confidence: float


def test_structured_output_repairs_once(server: FakeServer, ledger: ListLedger) -> None:
    server.push(
        api.message(tool=("verdict", {"decision": "Postgres"})),
        api.message(tool=("verdict", {"decision": "Postgres", "confidence": 0.9})),
    )
    result = asyncio.run(provider(server, ledger).structured(ask(), Verdict, "verdict"))
    assert result == Verdict(decision="Postgres", confidence=0.9)
    first, repair = (s.body for s in server.seen)
    assert first["tool_choice"] == {"type": "tool", "name": "verdict"}
    assert first["tools"][0]["input_schema"]["required"] == ["decision", "confidence"]
    assert repair["messages"][-1]["content"][0]["is_error"] is True
    assert "confidence" in repair["messages"][-1]["content"][0]["content"]
    assert len(ledger.calls) == 2


def test_an_invalid_reply_is_recorded_as_failed_with_its_tokens(
    server: FakeServer, ledger: ListLedger
) -> None:
    """A reply cut at the token cap that fails validation cost its tokens and answered
    nothing: the ledger says so (failed, why, the tokens), and the repair that worked is ok."""
    server.push(
        api.message(tool=("verdict", {"decision": "Postgr"}), usage=(900, 4096), stop="max_tokens"),
        api.message(tool=("verdict", {"decision": "Postgres", "confidence": 0.9})),
    )
    asyncio.run(provider(server, ledger).structured(ask(), Verdict, "verdict"))
    cut, repaired = ledger.calls
    assert cut.status == "error" and "cut at the" in (cut.error or "") and "token cap" in cut.error
    assert (cut.usage.input_tokens, cut.usage.output_tokens) == (900, 4096)
    assert repaired.status == "ok" and repaired.error is None


def test_structured_output_fails_after_one_repair(server: FakeServer, ledger: ListLedger) -> None:
    server.push(api.message(tool=("verdict", {"x": 1})), api.message("I refuse."))
    with pytest.raises(
        LLMInvalidOutput, match="'claude-sonnet-4-6' returned invalid Verdict twice"
    ):
        asyncio.run(provider(server, ledger).structured(ask(), Verdict, "verdict"))
    assert len(server.seen) == 2


def test_the_sdk_environment_variables_are_honoured(
    server: FakeServer, ledger: ListLedger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    server.push(api.message("env works"))
    llm = AnthropicProvider(ledger=ledger)
    assert asyncio.run(llm.complete(ask())).text == "env works"
    assert api_key(server.seen[0].headers) == "from-env"


def test_the_deadline_covers_all_attempts_not_each(server: FakeServer, ledger: ListLedger) -> None:
    server.default = api.error(529, "overloaded_error", "Overloaded", {"retry-after": "0.4"})
    started = time.monotonic()
    # Which message depends on where the second retry lands (a loaded machine is slower).
    with pytest.raises(LLMError, match="would pass the 1 s deadline|did not finish within 1 s"):
        asyncio.run(provider(server, ledger, attempts=10).complete(ask(deadline=1.0)))
    assert time.monotonic() - started < 1.2
    assert len(server.seen) <= 3


def test_dropped_connections_are_retried(server: FakeServer, ledger: ListLedger) -> None:
    server.push(Reply(drop=True), api.message("second try"))
    assert asyncio.run(provider(server, ledger).complete(ask())).text == "second try"
    assert len(server.seen) == 2


def test_retry_after_ms_is_honoured(server: FakeServer, ledger: ListLedger) -> None:
    server.push(
        api.error(429, "rate_limit_error", "slow", {"retry-after-ms": "250"}), api.message("ok")
    )
    started = time.monotonic()
    asyncio.run(provider(server, ledger).complete(ask()))
    assert time.monotonic() - started >= 0.25


def test_an_error_event_before_any_output_is_retried(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.push(api.stream(["never"], fail_after=0), api.stream(["fine"]))

    async def collect() -> list[object]:
        return [e async for e in provider(server, ledger).stream(ask())]

    events = asyncio.run(collect())
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["fine"]
    assert len(server.seen) == 2 and ledger.calls[0].status == "ok"


def test_a_stream_cut_before_message_stop_is_an_error(
    server: FakeServer, ledger: ListLedger
) -> None:
    whole = api.stream(["We ", "picked ", "Postgres."])
    cut = Reply(whole.status, whole.headers, whole.chunks[:-3])  # no message_delta/stop
    server.push(cut)

    async def consume() -> None:
        async for _ in provider(server, ledger).stream(ask()):
            pass

    with pytest.raises(LLMError, match="ended before message_stop"):
        asyncio.run(consume())
    assert ledger.calls[0].status == "partial"


def test_partial_usage_is_metered_and_readers_may_stop_early(
    server: FakeServer, ledger: ListLedger
) -> None:
    server.push(api.stream(["a ", "b ", "c"], usage=(77, 9), fail_after=2))

    async def consume() -> None:
        async for _ in provider(server, ledger).stream(ask()):
            pass

    with pytest.raises(LLMError):
        asyncio.run(consume())
    assert ledger.calls[0].usage.input_tokens == 77
    server.push(api.stream(["a ", "b ", "c"], usage=(50, 9)))

    async def first_only() -> None:
        async for event in provider(server, ledger).stream(ask()):
            if isinstance(event, TextDelta):
                break

    asyncio.run(first_only())
    assert ledger.calls[1].status == "partial"
    assert ledger.calls[1].error in ("the reader stopped the stream", "the stream was cancelled")


def test_a_slow_stream_times_out_cleanly(server: FakeServer, ledger: ListLedger) -> None:
    server.push(api.stream(["a ", "b ", "c ", "d"], pause=0.4))

    async def consume() -> None:
        async for _ in provider(server, ledger).stream(ask(deadline=1.0)):
            pass

    with pytest.raises(LLMTimeout):
        asyncio.run(consume())
    assert ledger.calls[0].status == "partial"


def test_the_repair_request_shares_the_deadline(server: FakeServer, ledger: ListLedger) -> None:
    bad = api.message(tool=("verdict", {"decision": "x"}))
    good = api.message(tool=("verdict", {"decision": "x", "confidence": 1.0}))
    server.push(
        Reply(bad.status, bad.headers, [0.7, *bad.chunks]),
        Reply(good.status, good.headers, [0.7, *good.chunks]),
    )
    with pytest.raises(LLMTimeout):
        asyncio.run(provider(server, ledger).structured(ask(deadline=1.0), Verdict, "verdict"))
