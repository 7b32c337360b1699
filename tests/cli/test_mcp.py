"""`memo mcp` driven by the MCP SDK's own client over stdio, as an assistant would (or, where
the process itself is not in question, in this process): the tools it lists, what they answer
on the demo store, paging, refusals in words, text shown safely, and a store left as it was."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from mcp import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server.mcpserver.exceptions import ToolError
from support.db import dump
from support.paths import REPO

from memo_tui.core.services import Services
from memo_tui.mcp_server import build
from store import FACT_TYPES, Store

TOOLS = {
    "search_facts",
    "ask",
    "get_capture",
    "list_people",
    "get_person",
    "list_projects",
    "get_project_document",
    "open_action_items",
    "recent_decisions",
    "pending_names",
}


def environment(db: Path) -> dict[str, str]:
    """The environment `memo mcp` runs in: hermetic, offline."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    return env | {"MEMO_HOME": str(db.parent / "home"), "MEMO_PROVIDER": "offline"}


def session(
    db: Path,
    script: Callable[[ClientSession], Awaitable[None]],
    *flags: str,
    errlog: IO[str] = sys.stderr,
) -> None:
    """Start `memo --db DB mcp FLAGS` and run `script` against it as an MCP client (what the
    server writes on stderr goes to `errlog`)."""
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memo_tui", "--db", str(db), "mcp", *flags],
        env=environment(db),
    )

    async def run() -> None:
        async with (
            stdio_client(server, errlog=errlog) as (reading, writing),
            ClientSession(reading, writing) as client,
        ):
            await client.initialize()
            await asyncio.wait_for(script(client), 120)

    asyncio.run(run())


def in_process(
    services: Services, script: Callable[[Client], Awaitable[None]], allow_writes: bool = False
) -> None:
    """Run `script` as an MCP client of the server `memo mcp` builds, in this process."""

    async def run() -> None:
        async with Client(build(services, allow_writes)) as client:
            await asyncio.wait_for(script(client), 120)

    asyncio.run(run())


async def called(client: ClientSession | Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, (tool, result.content)
    answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert isinstance(answer, dict)
    return answer


async def refused(client: ClientSession | Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, tool
    return str(result.content[0].text)  # type: ignore[union-attr]


def test_an_mcp_client_lists_read_only_tools_and_reads_the_record(services: Services) -> None:
    db = services.store.url or services.store.path
    services.close()
    with Store(db) as store:
        before = dump(store)
    seen: dict[str, Any] = {}

    async def script(client: ClientSession) -> None:
        listed = (await client.list_tools()).tools
        seen["tools"] = {t.name: t for t in listed}
        found = await called(client, "search_facts", query="Postgres", limit=3)
        seen["found"] = found
        seen["next"] = await called(
            client, "search_facts", query="Postgres", limit=3, offset=found["next_offset"]
        )
        first = found["facts"][0]
        start, end = first["lines"]
        seen["lines"] = await called(
            client, "get_capture", capture_id=first["capture_id"], start_line=start, end_line=end
        )
        seen["answer"] = await called(client, "ask", question="Why did we pick Postgres?")
        seen["items"] = await called(client, "open_action_items", limit=2)
        seen["more"] = await called(client, "open_action_items", limit=2, offset=2)
        seen["person"] = await called(client, "get_person", name="priya")
        seen["projects"] = await called(client, "list_projects")
        name = seen["projects"]["projects"][0]["name"]
        seen["document"] = await called(client, "get_project_document", name=name.upper())
        seen["decisions"] = await called(client, "recent_decisions", limit=3)
        seen["people"] = await called(client, "list_people", limit=2)
        seen["pending"] = await called(client, "pending_names")
        seen["no meeting"] = await refused(client, "get_capture", capture_id=99_999)
        seen["backwards"] = await refused(
            client, "get_capture", capture_id=first["capture_id"], start_line=9, end_line=3
        )
        seen["too many"] = await refused(client, "search_facts", query="x", limit=500)
        seen["nobody"] = await refused(client, "get_person", name="Zebedee Quark")

    session(db, script)
    tools = seen["tools"]
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.annotations.read_only_hint and not tool.annotations.open_world_hint
        assert tool.description and tool.input_schema["type"] == "object"
    assert tools["search_facts"].input_schema["properties"]["limit"]["maximum"] == 50

    found = seen["found"]
    assert 1 <= len(found["facts"]) <= 3 and "data to read" in found["note"]
    assert any("postgres" in f["text"].lower() for f in found["facts"])
    assert found["next_offset"] == 3 and seen["next"]["facts"]
    first_page = {(f["fact_type"], f["fact_id"]) for f in found["facts"]}
    assert first_page.isdisjoint((f["fact_type"], f["fact_id"]) for f in seen["next"]["facts"])
    quoted = " ".join(line["text"] for line in seen["lines"]["lines"]).lower()
    assert seen["lines"]["lines"][0]["n"] == found["facts"][0]["lines"][0]
    assert "postgres" in quoted

    answer = seen["answer"]
    assert "postgres" in answer["answer"].lower() and answer["citations"]
    assert not answer["no_record"]

    items, more = seen["items"], seen["more"]
    assert len(items["action_items"]) == 2 and items["next_offset"] == 2
    assert items["total"] == more["total"] > 2
    assert {i["id"] for i in items["action_items"]}.isdisjoint(
        i["id"] for i in more["action_items"]
    )
    assert all(i["status"] == "open" for i in items["action_items"])

    person = seen["person"]
    assert person["name"].startswith("Priya") and (person["owes"] or person["decided"])
    assert seen["document"]["name"] == seen["projects"]["projects"][0]["name"]
    assert all(d["fact_type"] == "decision" for d in seen["decisions"]["decisions"])
    assert len(seen["people"]["people"]) == 2 and seen["people"]["next_offset"] == 2
    assert isinstance(seen["pending"]["pending"], list)

    assert "no meeting 99999" in seen["no meeting"]
    assert "end_line 3 is before start_line 9" in seen["backwards"]
    assert "less than or equal to 50" in seen["too many"]
    assert "no one memo knows" in seen["nobody"]
    with Store(db) as store:
        assert dump(store) == before  # read-only: nothing written


MEETING = (
    "Ana Lopez: Decision: we move the nightly export to 02:00 so it stops colliding with "
    "backups.\nBen Ode: I'll update the cron job and the runbook by Friday.\n"
    "Ana Lopez: Thanks Ben.\n"
)


def test_write_tools_are_offered_only_when_allowed_and_add_to_the_record(
    services: Services,
) -> None:
    db = services.store.url or services.store.path
    project = services.store.projects.all()[0].name
    services.close()
    seen: dict[str, Any] = {}

    async def script(client: ClientSession) -> None:
        seen["tools"] = {t.name: t for t in (await client.list_tools()).tools}
        seen["captured"] = await called(client, "capture_text", text=MEETING, title="Ops sync")
        seen["again"] = await called(client, "capture_text", text=MEETING, title="Ops sync")
        seen["note"] = await called(
            client, "add_note", body="Export moved to 02:00", project=project
        )
        seen["neither"] = await refused(client, "add_note", body="x")
        seen["confirmed"] = await called(client, "confirm_name", mention="Ben")
        seen["found"] = await called(client, "search_facts", query="nightly export cron", limit=5)

    session(db, script, "--allow-writes")
    tools = seen["tools"]
    assert set(tools) == TOOLS | {"capture_text", "confirm_name", "add_note"}
    assert not tools["capture_text"].annotations.read_only_hint
    assert tools["confirm_name"].annotations.destructive_hint
    assert not tools["add_note"].annotations.destructive_hint
    captured = seen["captured"]
    assert captured["decisions"] and captured["action_items"]
    again = seen["again"]
    assert (again["status"], again["capture_id"]) == ("unchanged", captured["capture_id"])
    assert seen["note"]["about"] == project and "either project or client" in seen["neither"]
    assert seen["confirmed"]["person"] is None
    assert any(f["capture_id"] == captured["capture_id"] for f in seen["found"]["facts"])
    with Store(db) as store:
        kept = store.captures.get(captured["capture_id"])
        assert kept is not None and kept.source_kind == "mcp"


def strings(value: Any) -> Iterator[str]:
    """Every string in a tool's answer, keys too."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def test_no_call_the_schema_admits_fails_opaquely_or_with_a_traceback(
    services: Services, tmp_path: Path
) -> None:
    db = services.store.url or services.store.path
    services.close()
    seen: dict[str, Any] = {}

    async def script(client: ClientSession) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        seen["schema"] = tools["get_capture"].input_schema["properties"]["capture_id"]
        seen["huge"] = await refused(client, "get_capture", capture_id=2**70)
        seen["largest"] = await refused(client, "get_capture", capture_id=2**63 - 1)

    with (tmp_path / "stderr.txt").open("w") as errlog:
        session(db, script, errlog=errlog)
    stderr = (tmp_path / "stderr.txt").read_text()
    assert seen["schema"]["maximum"] == 2**63 - 1
    assert "less than or equal to 9223372036854775807" in seen["huge"]
    assert "no meeting 9223372036854775807" in seen["largest"]
    assert "Traceback" not in stderr and "unexpected exception" not in stderr


def test_a_tool_that_fails_unforeseen_refuses_in_words(
    services: Services, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    monkeypatch.setattr(services.store.people, "owed_counts", broken)
    monkeypatch.setattr(services, "ask", broken)
    seen: dict[str, str] = {}

    async def script(client: Client) -> None:
        seen["list_people"] = await refused(client, "list_people")
        seen["ask"] = await refused(client, "ask", question="why?")

    in_process(services, script)
    for tool, refusal in seen.items():
        assert f"{tool} failed inside memo (OverflowError)" in refusal, refusal
    assert not [record for record in caplog.records if record.exc_info]  # no traceback

    async def quoting(question: str) -> dict[str, Any]:
        """A tool that refuses, quoting the record."""
        raise ToolError("no answer in \x1b]52;c;aGk=\x07")

    from memo_tui.mcp_server import safe_tool

    with pytest.raises(ToolError) as refused_here:
        asyncio.run(safe_tool(quoting)(question="?"))
    assert str(refused_here.value) == "no answer in \u241b]52;c;aGk=\u2407"


def test_search_facts_offers_exactly_the_fact_types_it_accepts(services: Services) -> None:
    seen: dict[str, Any] = {}

    async def script(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        seen["schema"] = tools["search_facts"].input_schema
        for fact_type in FACT_TYPES:
            seen[fact_type] = await called(
                client, "search_facts", query="export", fact_type=fact_type, limit=1
            )
        seen["note"] = await refused(client, "search_facts", query="export", fact_type="note")

    in_process(services, script)
    schema = json.dumps(seen["schema"]["properties"]["fact_type"])
    offered = {t for t in FACT_TYPES if f'"{t}"' in schema}
    assert offered == set(FACT_TYPES) and '"note"' not in schema
    assert all(f["fact_type"] == t for t in FACT_TYPES for f in seen[t]["facts"])
    assert "decision" in seen["note"] and "'note'" in seen["note"]


def test_a_day_is_a_day_on_the_calendar(services: Services) -> None:
    seen: dict[str, Any] = {}

    async def script(client: Client) -> None:
        seen["feb 30"] = await refused(client, "recent_decisions", since="2026-02-30")
        seen["9999"] = await refused(client, "recent_decisions", since="9999-99-99")
        seen["until"] = await refused(client, "search_facts", query="x", until="2026-02-30")
        seen["shape"] = await refused(client, "recent_decisions", since="2026-2-3")
        seen["leap"] = await called(client, "recent_decisions", since="2024-02-29")

    in_process(services, script)
    assert "2026-02-30 is not a day on the calendar" in seen["feb 30"]
    assert "9999-99-99 is not a day on the calendar" in seen["9999"]
    assert "2026-02-30 is not a day on the calendar" in seen["until"]
    assert "should match pattern" in seen["shape"]
    assert seen["leap"]["decisions"]


def test_capture_text_refuses_what_capturing_a_file_refuses(
    services: Services, tmp_path: Path
) -> None:
    texts = {
        "nul": MEETING.replace("Thanks", "Tha\x00nks"),
        "controls": MEETING + "\x01\x02\x03" * 20,
    }
    expected = {}
    for key, text in texts.items():  # what `memo capture "Ops sync.txt"` says of each
        (tmp_path / "Ops sync.txt").write_bytes(text.encode())
        expected[key] = services.capture.capture_file(tmp_path / "Ops sync.txt").error
    before = len(services.store.captures.all())
    seen: dict[str, str] = {}

    async def script(client: Client) -> None:
        for key, text in texts.items():
            seen[key] = await refused(client, "capture_text", text=text, title="Ops sync")

    in_process(services, script, allow_writes=True)
    for key in texts:
        assert expected[key] and expected[key] in seen[key], key
    assert "NUL" in seen["nul"] and "control characters" in seen["controls"]
    assert len(services.store.captures.all()) == before


def test_capture_text_says_how_to_replace_a_meeting_with_its_own_parameter(
    services: Services,
) -> None:
    seen: dict[str, Any] = {}
    later = MEETING.replace("by Friday", "by Thursday")

    async def script(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        seen["schema"] = tools["capture_text"].input_schema["properties"]
        seen["first"] = await called(client, "capture_text", text=MEETING, title="Ops sync")
        seen["later"] = await refused(client, "capture_text", text=later, title="Ops sync")
        seen["replaced"] = await called(
            client, "capture_text", text=later, title="Ops sync", replace=True
        )

    in_process(services, script, allow_writes=True)
    assert seen["schema"]["replace"]["type"] == "boolean"
    assert seen["schema"]["replace"]["default"] is False
    first = seen["first"]["capture_id"]
    assert "--" not in seen["later"] and "replace=true" in seen["later"]
    assert f"new version of meeting {first}" in seen["later"]
    assert seen["replaced"]["status"] == "replaced"


def test_a_read_only_server_makes_no_store_where_there_is_none(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "memo.db"
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_people"}},
    ]
    server = subprocess.Popen(
        [sys.executable, "-m", "memo_tui", "--db", str(db), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(db),
    )
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    try:
        server.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
        server.stdin.flush()
    except BrokenPipeError:
        pass  # it stopped at once
    for line in server.stdout:  # until list_people is answered, or the server is gone
        if json.loads(line).get("id") == 2:
            break
    server.stdin.close()
    code = server.wait(60)
    stderr = server.stderr.read()
    server.stdout.close()
    server.stderr.close()
    assert not db.exists() and not db.parent.exists()
    assert code == 2 and f"no store at {db}" in stderr and "--db" in stderr


def test_mcp_offers_the_store_options_and_no_json(capsys: pytest.CaptureFixture[str]) -> None:
    from memo_tui.cli import build_parser

    parser = build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args(["mcp", "--help"])
    shown = capsys.readouterr().out
    assert "--db" in shown and "--demo" in shown and "--allow-writes" in shown
    assert "--json" not in shown
    with pytest.raises(SystemExit):
        parser.parse_args(["mcp", "--json"])
    assert "unrecognized arguments: --json" in capsys.readouterr().err
    assert parser.parse_args(["facts", "--json"]).json  # the other commands keep it


def test_tool_results_show_control_and_invisible_characters(services: Services) -> None:
    from memo_tui.core.notes import NotesService

    osc52 = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"  # sets the reader's clipboard
    said = f"the deploy keys {osc52} rotate \u202eykcal\u202c quarterly\x9b2J"
    captured = services.capture.capture_text(f"Ana Lopez: {said}.\n", "Keys.txt", "txt")
    assert captured.ok and captured.capture_id is not None
    project = services.store.projects.all()[0].name
    notes = NotesService(services.store, "tester")
    notes.add(notes.project(project), f"Rotation: {said}")
    seen: dict[str, Any] = {}

    async def script(client: Client) -> None:
        seen["lines"] = await called(client, "get_capture", capture_id=captured.capture_id)
        seen["document"] = await called(client, "get_project_document", name=project)
        seen["found"] = await called(
            client, "search_facts", query="deploy keys rotate", fact_type="project_note"
        )
        result = await client.call_tool("get_capture", {"capture_id": captured.capture_id})
        seen["structured"] = result.structured_content

    in_process(services, script)
    unsafe = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x202E]} - {"\n", "\t"}
    for key, answer in seen.items():
        assert not any(set(text) & unsafe for text in strings(answer)), key
    shown = "\u241b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u2407 rotate <U+202E>ykcal<U+202C>"
    assert shown in seen["lines"]["lines"][0]["text"]
    assert any(shown in note["body"] for note in seen["document"]["notes"])
    assert any(shown in fact["text"] for fact in seen["found"]["facts"])
    _, text, _, _ = services.store.captures.source(captured.capture_id)
    assert osc52 in text  # the store keeps what was said


def test_the_readme_gives_a_copyable_client_configuration() -> None:
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("**For an assistant (MCP).**") :]
    snippet = section[
        section.index("```json") + 7 : section.index("```", section.index("```json") + 7)
    ]
    memo = json.loads(snippet)["mcpServers"]["memo"]
    assert Path(memo["command"]).is_absolute() and Path(memo["command"]).name == "memo"
    assert memo["args"] == ["mcp"]
    assert Path(memo["env"]["MEMO_DB"]).is_absolute()
    assert "which memo" in section[: section.index("```json")]
