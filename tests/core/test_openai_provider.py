"""The OpenAI-compatible provider against a fake chat-completions server on loopback."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from pydantic import BaseModel
from support.fakes import openai_api as api
from support.fakes.recordings import recorded_reply
from support.fakes.server import FakeServer, Reply
from support.ledger import ListLedger
from support.paths import DATA

from memo_tui.core.llm.base import RetryPolicy
from memo_tui.core.llm.errors import LLMError, LLMInvalidOutput
from memo_tui.core.llm.openai_provider import OpenAIProvider
from memo_tui.core.llm.select import choose, model_for
from memo_tui.core.llm.types import CallRecord, Finished, Message, Request, TextDelta, Usage
from memo_tui.settings import Settings


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as running:
        yield running


def provider(server: FakeServer, ledger: ListLedger, key: str | None = None) -> OpenAIProvider:
    policy = RetryPolicy(max_attempts=3, base_delay_s=0.05, max_delay_s=0.1)
    return OpenAIProvider(server.url + "/v1", key, ledger, policy)


def ask(**changes: object) -> Request:
    values: dict[str, object] = dict(
        model="llama3.1",
        messages=(Message("user", "Hi?"),),
        system="Be brief.",
        deadline_s=5.0,
        trigger="ask",
    )
    values.update(changes)
    return Request(**values)  # type: ignore[arg-type]


class Verdict(BaseModel):
    """A decision."""

    decision: str


def test_completion_and_request_shape(server: FakeServer) -> None:
    ledger = ListLedger()
    server.push(api.completion("Hello."))
    completion = asyncio.run(provider(server, ledger, key="sk-local").complete(ask()))
    assert completion.text == "Hello." and completion.usage.input_tokens == 40
    seen = server.seen[0]
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-local"
    assert seen.body["messages"][0] == {"role": "system", "content": "Be brief."}
    assert ledger.calls[0].provider == "openai" and ledger.calls[0].status == "ok"


def test_no_key_means_no_authorization_header(server: FakeServer) -> None:
    server.push(api.completion("ok"))
    asyncio.run(provider(server, ListLedger()).complete(ask()))
    assert "authorization" not in server.seen[0].headers


def test_streaming_text_and_function_calls(server: FakeServer) -> None:
    ledger = ListLedger()
    server.push(api.stream(["We ", "ship."], tool=("cite", api.arguments({"n": 2}))))

    async def collect() -> list[object]:
        return [e async for e in provider(server, ledger).stream(ask())]

    events = asyncio.run(collect())
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["We ", "ship."]
    final = events[-1]
    assert isinstance(final, Finished)
    assert final.completion.tool_calls[0].arguments == {"n": 2}
    assert final.completion.usage.output_tokens == 10
    assert server.seen[0].body["stream"] is True


def test_broken_json_is_repaired_once(server: FakeServer) -> None:
    server.push(
        api.completion(tool=("verdict", '{"decision": "Postgres"')),
        api.completion(tool=("verdict", api.arguments({"decision": "Postgres"}))),
    )
    result = asyncio.run(provider(server, ListLedger()).structured(ask(), Verdict, "verdict"))
    assert result.decision == "Postgres"
    repair = server.seen[1].body["messages"]
    assert repair[-1]["role"] == "tool" and "did not validate" in repair[-1]["content"]
    asked = server.seen[0].body["response_format"]  # the schema, for the server to hold to
    assert asked["type"] == "json_schema" and asked["json_schema"]["name"] == "verdict"
    assert "tools" not in server.seen[0].body


def test_json_answered_as_text_counts_as_the_forced_tool(server: FakeServer) -> None:
    server.push(api.completion('{"decision": "Stripe"}'))
    result = asyncio.run(provider(server, ListLedger()).structured(ask(), Verdict, "verdict"))
    assert result.decision == "Stripe"


def test_still_broken_after_repair_fails_naming_the_model(server: FakeServer) -> None:
    server.default = api.completion(tool=("verdict", "{not json"))
    with pytest.raises(LLMInvalidOutput, match="openai model 'llama3.1'"):
        asyncio.run(provider(server, ListLedger()).structured(ask(), Verdict, "verdict"))
    assert len(server.seen) == 2


def test_retries_on_overload_and_not_on_bad_requests(server: FakeServer) -> None:
    server.push(api.error(503, "loading model", {"retry-after": "0.1"}), api.completion("ok"))
    assert asyncio.run(provider(server, ListLedger()).complete(ask())).text == "ok"
    server.push(api.error(404, "model 'nope' not found"))
    with pytest.raises(LLMError, match="HTTP 404: model 'nope' not found"):
        asyncio.run(provider(server, ListLedger()).complete(ask()))


def test_an_unreachable_server_fails_with_its_address() -> None:
    llm = OpenAIProvider("http://127.0.0.1:9/v1", policy=RetryPolicy(2, 0.01, 0.02))
    with pytest.raises(LLMError, match="cannot reach http://127.0.0.1:9/v1"):
        asyncio.run(llm.complete(ask(deadline_s=3.0)))


def test_selection_and_per_task_models(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_ANTHROPIC_API_KEY", "MEMO_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMO_CONFIG", "/nonexistent/config.toml")
    assert choose(Settings()).name == "offline"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    auto = Settings()
    assert (choose(auto).name, model_for(auto, "extract")) == ("anthropic", "claude-sonnet-4-6")
    assert model_for(auto, "router").startswith("claude-haiku")
    monkeypatch.setenv("MEMO_DIGEST_MODEL", "claude-haiku-4-5")
    assert model_for(Settings(), "digest") == "claude-haiku-4-5"
    assert model_for(Settings(), "collector") == "claude-sonnet-4-6"
    monkeypatch.setenv("MEMO_PROVIDER", "openai")
    monkeypatch.setenv("MEMO_OPENAI_MODEL", "llama3.1")
    monkeypatch.setenv("MEMO_EXTRACT_MODEL", "qwen2.5")
    local = Settings()
    assert (model_for(local, "extract"), model_for(local, "answer")) == ("qwen2.5", "llama3.1")
    monkeypatch.setenv("MEMO_PROVIDER", "offline")
    assert choose(Settings()).name == "offline"


def test_the_offline_provider_answers_extraction_through_the_same_interface() -> None:
    from memo_tui.core.capture.llm_extractor import SYSTEM, fenced
    from memo_tui.core.capture.offline import extract
    from memo_tui.core.capture.sources import parse
    from memo_tui.core.llm.offline import OfflineProvider
    from memo_tui.core.llm.schemas import Extraction

    text = "Date: 2026-09-08\nPriya Natarajan: Final call: we're moving Atlas to Postgres.\n"
    request = ask(system=SYSTEM, messages=(Message("user", fenced(text)),))
    offline = OfflineProvider()
    result = asyncio.run(offline.structured(request, Extraction, "record_meeting"))
    assert result.decisions == extract(parse(text, "meeting.txt", "txt")).decisions
    with pytest.raises(LLMError, match="no policy for free text"):
        asyncio.run(offline.complete(ask()))


def test_configured_prices_change_the_cost(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from memo_tui.core.llm.ledger import DEFAULT_PRICES, StoreLedger, cost_microdollars
    from memo_tui.core.llm.types import Usage
    from store import Store

    assert cost_microdollars("claude-sonnet-4-6", 1_000_000, 0, DEFAULT_PRICES) == 3_000_000
    assert cost_microdollars("claude-haiku-4-5-20251001", 0, 1000, DEFAULT_PRICES) == 5_000
    assert cost_microdollars("llama3.1", 10**6, 10**6, DEFAULT_PRICES) == 0
    with Store(tmp_path / "m.db") as store:
        ledger = StoreLedger(store, {**DEFAULT_PRICES, "llama3": (0.1, 0.2)})
        ledger.record(CallRecord("openai", "llama3.1", "ask", "ok", Usage(1000, 500)))
        [row] = store.ledger.calls()
        assert row.cost_microdollars == 1000 * 0.1 + 500 * 0.2


def test_a_stream_without_done_is_an_error(server: FakeServer) -> None:
    whole = api.stream(["a", "b"])
    server.push(type(whole)(whole.status, whole.headers, whole.chunks[:-1]))
    ledger = ListLedger()

    async def consume() -> None:
        async for _ in provider(server, ledger).stream(ask()):
            pass

    with pytest.raises(LLMError, match="before \\[DONE\\]"):
        asyncio.run(consume())
    assert ledger.calls[0].status == "partial"


def test_a_malformed_reply_is_an_llm_error_not_a_crash(server: FakeServer) -> None:
    from support.fakes.server import json_reply

    server.push(json_reply({"choices": ["oops"]}))
    with pytest.raises(LLMError, match="unexpected response"):
        asyncio.run(provider(server, ListLedger()).complete(ask()))
    assert len(server.seen) == 1


def test_agents_follow_the_answer_model_on_a_local_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_CONFIG", "/nonexistent/config.toml")
    monkeypatch.setenv("MEMO_PROVIDER", "openai")
    monkeypatch.setenv("MEMO_OPENAI_MODEL", "llama3.1")
    monkeypatch.setenv("MEMO_ANSWER_MODEL", "qwen2.5:32b")
    settings = Settings()
    assert model_for(settings, "digest") == "qwen2.5:32b"
    assert model_for(settings, "router") == "llama3.1"


def test_opus_generations_are_priced_apart() -> None:
    from memo_tui.core.llm.ledger import DEFAULT_PRICES, price_of

    assert price_of("claude-opus-4-1-20250805", DEFAULT_PRICES) == (15.0, 75.0)
    assert price_of("claude-opus-4-6", DEFAULT_PRICES) == (5.0, 25.0)


@pytest.mark.parametrize(
    ("stop_at", "status", "error"),
    [(Finished, "ok", None), (TextDelta, "partial", "the reader stopped the stream")],
    ids=["after-finished", "before-finished"],
)
def test_a_reader_closing_the_stream_after_finished_leaves_the_call_ok(
    server: FakeServer, stop_at: type, status: str, error: str | None
) -> None:
    """The agent runtime stops reading at `Finished`; that must not mark the call failed."""
    server.push(api.stream(["We ", "ship."], usage=(30, 4)))
    ledger = ListLedger()

    async def read_then_close() -> None:
        events = provider(server, ledger).stream(ask())
        async for event in events:
            if isinstance(event, stop_at):
                break
        await events.aclose()  # type: ignore[attr-defined]

    asyncio.run(read_then_close())
    [call] = ledger.calls
    assert (call.status, call.error) == (status, error)
    if status == "ok":
        assert call.usage == Usage(30, 4)


def _chunk(delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
    return {
        "model": "llama3.1",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


HELLO = _chunk({"content": "Hello, "})
WORLD = _chunk({"content": "world."}, "stop")
USAGE = {"model": "llama3.1", "choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 3}}


def _data_lines(payload: dict[str, object]) -> bytes:
    """One event whose JSON is spread over several `data:` lines."""
    lines = json.dumps(payload, indent=1).splitlines()
    return "".join(f"data: {line}\n" for line in lines).encode() + b"\n"


def _sse(payload: dict[str, object] | str, sep: str = "\n", prefix: str = "data: ") -> bytes:
    """One event of one `data:` line."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return f"{prefix}{text}{sep}{sep}".encode()


WIRE_VARIANTS: dict[str, list[bytes]] = {
    "multi-line-data": [*(_data_lines(p) for p in (HELLO, WORLD, USAGE)), b"data: [DONE]\n\n"],
    "keep-alive-comments-and-fields": [
        b": keep-alive\n\n",
        b"event: message\nid: 1\nretry: 3000\n: a comment inside an event\n" + _sse(HELLO),
        b": keep-alive\n\n",
        b"id: 2\n\n",  # an event with no data
        _sse(WORLD),
        _sse(USAGE),
        b":\n\n",
        _sse("[DONE]"),
    ],
    "data-without-a-space": [_sse(p, prefix="data:") for p in (HELLO, WORLD, USAGE, "[DONE]")],
    "crlf-line-ends": [
        _sse(HELLO, sep="\r\n"),
        _sse(WORLD, sep="\r\n")[:-1],  # a CRLF split between two chunks
        b"\n" + _sse(USAGE, sep="\r\n") + _sse("[DONE]", sep="\r\n"),
    ],
}


@pytest.mark.parametrize("wire", WIRE_VARIANTS.values(), ids=WIRE_VARIANTS.keys())
def test_server_sent_events_are_parsed_per_the_spec(server: FakeServer, wire: list[bytes]) -> None:
    server.push(Reply(200, {"content-type": "text/event-stream"}, list(wire)))
    ledger = ListLedger()

    async def collect() -> list[object]:
        return [e async for e in provider(server, ledger).stream(ask())]

    events = asyncio.run(collect())
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hello, ", "world."]
    final = events[-1]
    assert isinstance(final, Finished)
    assert (final.completion.usage, final.completion.stop_reason) == (Usage(12, 3), "stop")
    assert ledger.calls[0].status == "ok"


def test_an_error_event_spread_over_data_lines_fails_the_stream(server: FakeServer) -> None:
    server.default = Reply(
        200,
        {"content-type": "text/event-stream"},
        [_data_lines({"error": {"message": "the model crashed", "code": 500}})],
    )

    async def consume() -> None:
        async for _ in provider(server, ListLedger()).stream(ask()):
            pass

    with pytest.raises(LLMError, match="the model crashed"):
        asyncio.run(consume())


def test_a_recorded_llama_cpp_stream_replays(server: FakeServer) -> None:
    server.push(recorded_reply(DATA / "llm-recordings" / "qwen2.5-coder-0.5b" / "005-resp.txt"))
    ledger = ListLedger()

    async def collect() -> list[object]:
        return [e async for e in provider(server, ledger).stream(ask())]

    events = asyncio.run(collect())
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Sam owes [2026-11-02] Beacon weekly sync. It is due [2026-11-13]."
    final = events[-1]
    assert isinstance(final, Finished) and final.completion.model == "qwen-coder-0.5b"
    assert final.completion.usage == Usage(184, 34)
    assert (ledger.calls[0].status, ledger.calls[0].usage) == ("ok", Usage(184, 34))
