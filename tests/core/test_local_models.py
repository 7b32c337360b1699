"""The OpenAI-compatible path as real small local models answer it: replies replayed from
exchanges recorded with a llama.cpp server (tests/data/llm-recordings/README.md), served by
the fake server on loopback to the real provider."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fakes import openai_api as api
from support.fakes.recordings import recorded_reply
from support.fakes.server import FakeServer, Reply
from support.ledger import ListLedger
from support.paths import DATA

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.llm_extractor import LLMExtractor
from memo_tui.core.llm.base import RetryPolicy
from memo_tui.core.llm.errors import LLMInvalidOutput
from memo_tui.core.llm.ledger import StoreLedger
from memo_tui.core.llm.openai_provider import OpenAIProvider
from memo_tui.core.llm.textcalls import written_calls, written_input
from memo_tui.core.llm.types import Message, Request, ToolSpec
from memo_tui.core.recall.router import RouterFilters, route
from memo_tui.core.services import Services
from store import Store

RECORDED = DATA / "llm-recordings"
SMALL, LARGER = RECORDED / "qwen2.5-coder-0.5b", RECORDED / "qwen2.5-coder-1.5b"


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as running:
        yield running


def provider(server: FakeServer, ledger: ListLedger | StoreLedger | None = None) -> OpenAIProvider:
    policy = RetryPolicy(max_attempts=2, base_delay_s=0.01, max_delay_s=0.02)
    return OpenAIProvider(server.url + "/v1", None, ledger or ListLedger(), policy)


def recorded_request(path: Path) -> dict[str, Any]:
    raw = path.read_text()
    body: dict[str, Any] = json.loads(raw[raw.index("{") :])
    return body


def recorded_text(path: Path) -> str:
    """What the model said in a recorded JSON reply."""
    raw = path.read_text().partition("\n\n")[2].split("\n### ", 1)[0]
    text: str = json.loads(raw)["choices"][0]["message"]["content"]
    return text


def test_every_shape_a_small_model_writes_a_forced_call_in_is_read_back() -> None:
    fenced_input = recorded_text(LARGER / "006-resp.txt")  # ```json {"summary": ...} ```
    fenced_call = recorded_text(SMALL / "002-resp.txt")  # ```json {"name": ..., "arguments"}```
    assert set(written_input(fenced_input) or {}) == {
        "summary",
        "meta",
        "decisions",
        "action_items",
    }
    assert "decisions" in (written_input(fenced_call) or {})
    tagged = '<tool_call>\n{"name": "verdict", "arguments": {"decision": "Go"}}\n</tool_call>'
    assert written_input(tagged) == {"decision": "Go"}
    assert written_input("I could not find a transcript.") is None


def test_calls_written_as_text_are_calls_only_to_offered_tools_and_only_when_that_is_all() -> None:
    several = recorded_text(LARGER / "004-resp.txt")  # <tools> blocks, eight calls
    offered = {t["function"]["name"] for t in recorded_request(LARGER / "004-req.txt")["tools"]}
    calls = written_calls(several, offered)
    assert [c.name for c in calls][:3] == ["get_project", "list_project_evidence", "context_status"]
    assert calls[0].arguments == {"project": "Beacon"}
    unknown = recorded_text(SMALL / "012-resp.txt")  # a "call" named after the task itself
    assert written_calls(unknown, offered) == ()
    answer = 'The config is {"retries": 3} [1].'
    assert written_calls(answer, {"retries"}) == ()


def _structured_request(model: str = "qwen-coder-1.5b") -> Request:
    return Request(model, (Message("user", "Today is 2026-12-01. Question: who owes what?"),))


def test_structured_output_asks_for_a_json_schema_first(server: FakeServer) -> None:
    server.push(api.completion('{"person": "Sam", "fact_types": ["action_item"]}'))
    llm = provider(server)
    routed = asyncio.run(llm.structured(_structured_request(), RouterFilters, "search_filters"))
    assert routed.person == "Sam"
    body = server.seen[0].body
    schema = body["response_format"]["json_schema"]
    assert body["response_format"]["type"] == "json_schema" and "person" in str(schema["schema"])
    assert "tools" not in body and "tool_choice" not in body
    assert body["max_tokens"] <= 2048  # a grammar-bound small model runs to any limit


def test_a_server_that_refuses_a_schema_is_asked_with_a_tool_then_in_the_prompt(
    server: FakeServer,
) -> None:
    """llama.cpp builds without grammar support refuse `response_format`; llama.cpp refuses an
    object `tool_choice` ("type must be string"). Each refusal moves to the next way, once."""
    server.push(
        api.error(400, "response_format: json_schema is not supported by this server"),
        api.error(400, "tool_choice: type must be string"),
        recorded_reply(SMALL / "006-resp.txt"),  # ```json {"name": ..., "arguments": {...}}```
        recorded_reply(SMALL / "006-resp.txt"),
    )
    llm = provider(server)
    routed = asyncio.run(llm.structured(_structured_request(), RouterFilters, "search_filters"))
    assert routed.fact_types == ["action_item"] and routed.since == dt.date(2026, 12, 1)
    first, second, third = (s.body for s in server.seen[:3])
    assert "response_format" in first
    assert second["tool_choice"] == "required" and second["tools"][0]["function"]["name"]
    assert "tools" not in third and "search_filters" in third["messages"][0]["content"]
    asyncio.run(llm.structured(_structured_request(), RouterFilters, "search_filters"))
    assert "tools" not in server.seen[3].body  # remembered: no refusal asked for twice
    assert len(server.seen) == 4


def test_the_repair_turn_quotes_the_real_validation_error(server: FakeServer) -> None:
    """The recorded 0.5B reply wraps its input in a call and gives decisions as strings: the
    repair says so, not that no tool was called."""
    server.default = recorded_reply(SMALL / "002-resp.txt")
    from memo_tui.core.llm.schemas import Extraction

    with pytest.raises(LLMInvalidOutput, match="decisions.0"):
        asyncio.run(provider(server).structured(_structured_request(), Extraction, "record"))
    repair = server.seen[1].body["messages"][-1]["content"]
    assert "did not validate" in repair and "decisions.0" in repair
    assert "did not call" not in repair


def test_a_wrapper_with_none_of_the_fields_is_no_empty_answer(
    server: FakeServer, tmp_path: Path
) -> None:
    """Recorded: the 0.5B router answered `{"name": "search_filters", "arguments": [ ... ]}`.
    Every router field is optional, so this validated as "no filters" from the model; it is
    invalid, and the rules stand in, saying so."""
    server.default = recorded_reply(SMALL / "009-resp.txt")
    with pytest.raises(LLMInvalidOutput, match="holds none of its fields"):
        asyncio.run(provider(server).structured(_structured_request(), RouterFilters, "router"))
    with Store(tmp_path / "memo.db") as store:
        filters, note = asyncio.run(
            route(
                "what does Sam owe?",
                store.people.directory(),
                dt.date(2026, 12, 1),
                provider(server),
                "qwen-coder-0.5b",
            )
        )
    assert filters.router.startswith("rules") and note and "none of its fields" in note


def test_an_agent_turn_written_as_text_is_the_calls_it_writes(server: FakeServer) -> None:
    """Recorded: asked to compile a project's document, the 1.5B model wrote its calls in
    <tools> tags instead of making them; they are the turn's calls, not its answer."""
    recorded = recorded_request(LARGER / "004-req.txt")
    tools = tuple(
        ToolSpec(t["function"]["name"], t["function"]["description"], t["function"]["parameters"])
        for t in recorded["tools"]
    )
    server.push(recorded_reply(LARGER / "004-resp.txt"))
    request = Request("qwen-coder-1.5b", (Message("user", "Compile 'Beacon'."),), tools=tools)
    completion = asyncio.run(provider(server).complete(request))
    assert completion.text == ""
    assert completion.tool_calls[0].name == "get_project"
    assert {c.name for c in completion.tool_calls} >= {"write_section", "link_evidence"}


def _recorded_meeting() -> str:
    said = recorded_request(LARGER / "006-req.txt")["messages"][-1]["content"]
    found = re.search(r"<transcript>\n(.*)</transcript>", said, re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_larger_model_capture_is_stored_through_a_json_schema(
    server: FakeServer, tmp_path: Path
) -> None:
    """The 1.5B model's recorded record of the Atlas meeting, as a server holding it to the
    schema sends it: the recorded JSON with the one field a grammar would not let it leave
    out (each action item's evidence_quote, quoted from its line) and no fence."""
    record = json.loads(written_json(recorded_text(LARGER / "006-resp.txt")))
    meeting = _recorded_meeting()
    for item in record["action_items"]:
        line = next(
            line
            for line in meeting.splitlines()
            if item["description"][:20].lower() in line.lower()
        )
        item["evidence_quote"] = line.split(": ", 1)[1]

    def reply(body: dict[str, Any]) -> Reply:
        assert body["response_format"]["type"] == "json_schema" and "tools" not in body
        return api.completion(json.dumps(record), model="qwen-coder-1.5b")

    server.default = reply
    with Store(tmp_path / "memo.db") as store:
        llm = provider(server, StoreLedger(store))
        extractor = LLMExtractor(llm, "qwen-coder-1.5b", 60.0, 12_000, 3)
        service = CaptureService(store, CaptureOptions(user="t"), extractor=extractor)
        path = tmp_path / "2026-11-10-atlas.txt"
        path.write_text(meeting)
        result = service.capture_file(path)
        assert result.capture_id is not None
        assert len(result.decisions) == 5 and len(result.action_items) == 3
        assert [c.status for c in store.ledger.calls()] == ["ok"]
    assert len(server.seen) == 1  # valid the first time: no repair


def written_json(text: str) -> str:
    return json.dumps(written_input(text))


def test_a_chat_run_whose_model_writes_its_call_as_text_searches_and_answers(
    memo, services: Services
) -> None:  # type: ignore[no-untyped-def]
    """Recorded: asked to search, the 1.5B model streamed its call as a ```json block. The
    chat run makes that call, then ends with the model's real answer, and the ledger keeps
    both streamed turns as ok (a reader stopping at the end of a stream is no failure)."""
    db = services.store.url or services.store.path
    services.close()
    with FakeServer() as server:
        server.push(
            recorded_reply(LARGER / "002-resp.txt"),
            api.stream(["The migration runbook is Sam's, due on the 13th [1]."]),
        )
        env = {
            "MEMO_PROVIDER": "openai",
            "MEMO_OPENAI_BASE_URL": server.url + "/v1",
            "MEMO_OPENAI_MODEL": "qwen-coder-1.5b",
        }
        done = memo(
            "--db",
            str(db),
            "run",
            "chat",
            "who owns the migration runbook?",
            "--json",
            extra_env=env,
        )
        assert done.code == 0, done.stderr
        ran = done.json()
        second = server.seen[1].body["messages"]
    assert ran["status"] == "completed", ran
    assert ran["answer"].startswith("The migration runbook is Sam's")
    assert "```" not in ran["answer"]
    called = next(m for m in second if m["role"] == "assistant")
    assert called["tool_calls"][0]["function"]["name"] == "search_facts"
    assert any(m["role"] == "tool" for m in second)  # the search's result went back
    with Store(db) as store:
        assert [c.status for c in store.ledger.calls()] == ["ok", "ok"]


# Said by the 1.5B model on a live llama.cpp server (tests/cli/test_local_llm_e2e.py's first run),
# as a chat turn's whole reply.
FUNCTION_TAG = (
    '<tools>\n<function name="get_person" arguments={"person": "SRE Job Description Owed"}/>'
    "\n</tools>"
)


def test_a_call_written_as_a_function_tag_is_read_back() -> None:
    [call] = written_calls(FUNCTION_TAG, {"get_person", "search_facts"})
    assert (call.name, call.arguments) == ("get_person", {"person": "SRE Job Description Owed"})
    llama = '<function=search_facts>{"query": "runbook"}</function>'
    assert written_calls(llama, {"search_facts"})[0].arguments == {"query": "runbook"}
    assert written_calls(FUNCTION_TAG, {"search_facts"}) == ()  # not a tool it was offered
    doubled = '{{"name": "get_person", "arguments": {"person": "SRE"}}}'  # said live, too
    assert written_calls(doubled, {"get_person"})[0].arguments == {"person": "SRE"}
    listed = f"[{doubled[1:-1]}, " + '{"name": "search_facts", "arguments": {"query": "x"}}]'
    offered = {"get_person", "search_facts"}
    assert [c.name for c in written_calls(listed, offered)] == ["get_person", "search_facts"]
    assert written_calls('{"name": "get_person", "arguments": {"person": "SRE"', offered) == ()


def test_a_chat_run_whose_model_writes_an_unreadable_call_fails_cleanly(
    memo, services: Services
) -> None:  # type: ignore[no-untyped-def]
    """A reply shaped like a call that names no offered tool is never the run's answer."""
    db = services.store.url or services.store.path
    services.close()
    unreadable = FUNCTION_TAG.replace("get_person", "get_people")
    with FakeServer() as server:
        server.push(api.stream([unreadable]))
        env = {
            "MEMO_PROVIDER": "openai",
            "MEMO_OPENAI_BASE_URL": server.url + "/v1",
            "MEMO_OPENAI_MODEL": "qwen-coder-1.5b",
        }
        done = memo(
            "--db", str(db), "run", "chat", "who owes the SRE job spec?", "--json", extra_env=env
        )
    ran = done.json()
    assert ran["status"] == "failed" and "wrote a tool call as text" in ran["error"], ran
    assert done.code != 0


def test_structured_calls_are_deterministic_and_placeholder_items_are_no_tasks(
    server: FakeServer, tmp_path: Path
) -> None:
    """Live, the 1.5B model filled the action list with {"description": "None", …}; and
    sampling at the server's default temperature read the same meeting differently."""
    record = {
        "summary": "Atlas planning.",
        "decisions": [],
        "action_items": [
            {"description": "None", "evidence_quote": "None noted."},
            {
                "description": "Draft the v2 migration guide for partners.",
                "assignee": "Kenji",
                "evidence_quote": "I will draft the v2 migration guide for partners.",
            },
        ],
    }
    server.default = api.completion(json.dumps(record), model="qwen-coder-1.5b")
    with Store(tmp_path / "memo.db") as store:
        extractor = LLMExtractor(provider(server, StoreLedger(store)), "qwen-coder-1.5b", 60.0)
        service = CaptureService(store, CaptureOptions(user="t"), extractor=extractor)
        path = tmp_path / "2026-11-10-atlas.txt"
        path.write_text(_recorded_meeting())
        result = service.capture_file(path)
    assert [a.description for a in result.action_items] == [
        "Draft the v2 migration guide for partners."
    ]
    assert server.seen[0].body["temperature"] == 0


def test_a_server_refusing_tools_on_an_agent_turn_fails_once_and_changes_nothing(
    server: FakeServer,
) -> None:
    """A refusal of tools when none is forced is the server's answer, not a way to step
    down: one request, a clear error, and structured output still asked for as a schema."""
    from memo_tui.core.llm.errors import LLMError

    server.default = api.error(400, "registry.ollama.ai/tiny does not support tools")
    spec = ToolSpec("search_facts", "Search.", {"type": "object", "properties": {}})
    request = Request("tiny", (Message("user", "Hi?"),), tools=(spec,), deadline_s=5.0)
    llm = provider(server)
    with pytest.raises(LLMError, match="does not support tools"):
        asyncio.run(llm.complete(request))
    assert len(server.seen) == 1 and llm.forcing == "response_format"


def test_an_empty_structured_answer_is_nothing_to_say_when_nothing_is_required(
    server: FakeServer,
) -> None:
    server.push(api.completion("{}"))
    routed = asyncio.run(provider(server).structured(_structured_request(), RouterFilters, "r"))
    assert routed == RouterFilters() and len(server.seen) == 1


def test_prose_that_shows_a_call_as_an_example_stays_prose() -> None:
    said = 'The docs show <function=get_person>{"person": "x"}</function> as an example.'
    assert written_calls(said, {"get_person"}) == ()
