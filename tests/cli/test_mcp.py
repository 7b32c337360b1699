"""`memo mcp` driven by the MCP SDK's own client over stdio, as an assistant would: the tools
it lists, what they answer on the demo store, paging, refusals, and a store left as it was."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from support.db import dump

from memo_tui.core.services import Services
from store import Store

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


def session(db: Path, script: Callable[[ClientSession], Awaitable[None]], *flags: str) -> None:
    """Start `memo --db DB mcp FLAGS` and run `script` against it as an MCP client."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env |= {"MEMO_HOME": str(db.parent / "home"), "MEMO_PROVIDER": "offline"}
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "memo_tui", "--db", str(db), "mcp", *flags], env=env
    )

    async def run() -> None:
        async with (
            stdio_client(server) as (reading, writing),
            ClientSession(reading, writing) as client,
        ):
            await client.initialize()
            await asyncio.wait_for(script(client), 120)

    asyncio.run(run())


async def called(client: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, (tool, result.content)
    answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert isinstance(answer, dict)
    return answer


async def refused(client: ClientSession, tool: str, **arguments: Any) -> str:
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
