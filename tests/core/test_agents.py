"""Agent runs on a real store: the offline project_compile policy, and a scripted model on
the fake Messages API that stops short (one repair turn), or stops short twice (fails)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from support.db import dump, steering_decision
from support.fakes import anthropic_api
from support.fakes.agent_model import model
from support.fakes.server import FakeServer, Reply

from memo_tui.core.agents.agents import PROJECT_SECTIONS, brief, project_compile
from memo_tui.core.agents.outcome import Outcome, what_changed
from memo_tui.core.agents.runtime import AgentRun
from memo_tui.core.agents.service import interrupt_orphans, resume_run, run_agent
from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.llm.base import RetryPolicy
from memo_tui.core.services import Services
from memo_tui.settings import Settings
from store import FactFilter, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


@pytest.fixture(params=["offline", "model"])
def driven(request: pytest.FixtureRequest, services: Services) -> Iterator[Services]:
    """The services with the offline policies, or with a scripted model on the fake
    Messages API (the same test runs on both)."""
    if request.param == "offline":
        yield services
        return
    with FakeServer() as server:
        server.default = model(steering_decision(services.store), pause=0.0)
        services.provider = AnthropicProvider(
            "test-key", server.url, services.ledger, RetryPolicy(2, 0.01, 0.05)
        )
        services.settings = Settings(provider="anthropic", anthropic_api_key="k")
        yield services


def beacon(services: Services) -> int:
    return next(p.id for p in services.store.projects.all() if p.name == "Beacon")


def test_project_compile_offline_writes_every_section_citing_real_facts(
    services: Services,
) -> None:
    outcome = run_agent(services, "project_compile", "beacon")
    assert outcome.status == "completed" and outcome.repair_turns == 0
    assert [w["key"] for w in outcome.writes] == list(PROJECT_SECTIONS)
    store = services.store
    sections = {s.key: s for s in store.sections.all("project", beacon(services))}
    assert set(sections) == set(PROJECT_SECTIONS)
    cited = [k for s in sections.values() for k in s.cited_fact_keys]
    assert cited and set(store.facts.by_keys(cited)) == set(cited)  # every citation exists
    assert "offline agent" in sections["summary"].body
    said = "\n".join(sections[key].body for key in PROJECT_SECTIONS)
    assert said.count("offline agent") == 1  # said once per document, not per section
    assert not re.search(r"[.!?]; [A-Z]", said)  # no "expected.; No decision" joins
    events = store.runs.events(outcome.run_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].kind == "started" and events[-1].kind == "finished"
    tail = store.runs.events(outcome.run_id, after_seq=3)
    assert tail == events[3:]  # a late viewer replays exactly what it missed
    run = store.runs.get(outcome.run_id)
    assert run is not None and run.status == "completed" and run.tool_calls == 6
    assert what_changed(outcome) == "4 writes"
    again = run_agent(services, "project_compile", "beacon")  # nothing new since
    assert again.status == "completed" and again.writes == [] and again.tool_calls == 6
    assert what_changed(again) == "no change"


def test_a_user_edited_section_is_left_alone(driven: Services) -> None:
    services = driven
    store = services.store
    project = beacon(services)
    store.sections.write("project", project, "phases", "My own phases.", [], "user")
    outcome = run_agent(services, "project_compile", "Beacon")
    assert outcome.status == "completed"  # a skipped user edit satisfies the contract
    phases = next(s for s in store.sections.all("project", project) if s.key == "phases")
    assert phases.body == "My own phases." and phases.edited_by == "user"


def test_unknown_project_or_agent_changes_nothing(services: Services) -> None:
    from memo_tui.core.agents.service import UnknownEntity

    before = dump(services.store)
    with pytest.raises(UnknownEntity, match="projects: Atlas, Beacon, Cobalt"):
        run_agent(services, "project_compile", "Zephyr")
    with pytest.raises(
        UnknownEntity, match="agents: chat, collector, concept_compile, digest, person_enrich"
    ):
        run_agent(services, "nonsense", "Beacon")
    assert dump(services.store) == before


def test_a_run_left_running_by_a_dead_process_is_interrupted(services: Services) -> None:
    store = services.store
    dead = store.runs.start(
        "project_compile",
        "project",
        beacon(services),
        "offline",
        json.dumps({"pid": 2**22 + 12345}),  # no such process
    )
    assert interrupt_orphans(services) == [dead]
    run = store.runs.get(dead)
    assert run is not None and run.status == "interrupted"


def test_a_run_on_another_machine_is_never_taken_for_dead(services: Services) -> None:
    """Its pid means nothing here: on a file, only that machine can tell; on a team store,
    its presence key says, and it is held."""
    store = services.store
    elsewhere = {"pid": 2**22 + 12345, "host": "another-machine.example"}
    other = Store(store.url or store.path)  # another process's store, on another machine
    presence = other.presence()
    if presence is not None:
        elsewhere["presence"] = presence
    live = store.runs.start(
        "project_compile", "project", beacon(services), "offline", json.dumps(elsewhere)
    )
    assert interrupt_orphans(services) == []
    assert (found := store.runs.get(live)) is not None and found.status == "running"
    other.close()  # that process ends: on a team store, its presence goes with it
    if presence is not None:
        assert interrupt_orphans(services) == [live]


def test_a_run_finished_meanwhile_is_not_marked_interrupted(services: Services) -> None:
    """Between reading a run as live and marking it, its process finished it."""
    store = services.store
    run_id = store.runs.start(
        "project_compile", "project", beacon(services), "offline", json.dumps({"pid": 2**22 + 9})
    )
    store.runs.set_status(run_id, "completed")
    assert store.runs.interrupt(run_id, "the process running it ended") is False
    assert (found := store.runs.get(run_id)) is not None and found.status == "completed"


# A scripted model on the fake Messages API


def turn(text: str = "", *calls: tuple[str, dict[str, Any]]) -> Reply:
    return anthropic_api.turn(text, calls, usage=(200, 40))


def write(key: str, fact_ids: list[int]) -> tuple[str, dict[str, Any]]:
    return "write_section", {"key": key, "body": f"The {key}.", "cited_fact_ids": fact_ids}


def scripted_run(services: Services, server: FakeServer) -> Any:
    provider = AnthropicProvider(
        "test-key", server.url, services.ledger, RetryPolicy(2, 0.01, 0.05)
    )
    spec = project_compile(beacon(services), "Beacon", "claude-sonnet-4-6")
    run = AgentRun(services.store, provider, spec, deadline_s=10, prices=services.ledger.prices)
    return asyncio.run(run.run(brief(spec)))


def test_a_model_that_stops_short_gets_one_repair_turn(services: Services) -> None:
    decision = steering_decision(services.store)
    with FakeServer() as server:
        server.push(
            turn("Loading.", ("get_project", {}), ("list_project_evidence", {})),
            turn("", write("summary", [decision])),
            turn("All done."),  # three sections short
            turn(
                "",
                write("phases", []),
                write("friction_points", []),
                ("record_no_change", {"key": "current_understanding", "reason": "fine"}),
            ),
            turn("Now done."),
        )
        outcome = scripted_run(services, server)
        repair = server.seen[3].body["messages"][-1]["content"]
    assert outcome.status == "completed" and outcome.repair_turns == 1
    said = json.dumps(repair)
    assert "phases" in said and "friction_points" in said and "summary" not in said
    run = services.store.runs.get(outcome.run_id)
    assert run is not None and run.input_tokens == 5 * 200 and run.steps == 5
    assert run.cost_microdollars == 5 * (200 * 3 + 40 * 15)  # Sonnet's list price
    ledger = [c for c in services.store.ledger.calls() if c.run_id == outcome.run_id]
    assert len(ledger) == 5 and sum(c.cost_microdollars for c in ledger) == run.cost_microdollars


def test_a_model_that_stops_short_twice_fails_naming_what_is_missing(
    services: Services,
) -> None:
    with FakeServer() as server:
        server.push(
            turn("", write("summary", [])),
            turn("Done."),
            turn("Really done."),  # the repair turn writes nothing
        )
        outcome = scripted_run(services, server)
    assert outcome.status == "failed" and outcome.repair_turns == 1
    assert outcome.missing == [
        "write_section(key='phases')",
        "write_section(key='friction_points')",
        "write_section(key='current_understanding')",
    ]
    run = services.store.runs.get(outcome.run_id)
    assert run is not None and run.status == "failed" and "phases" in (run.error or "")


def test_context_status_reads_the_latest_turn_against_the_limit(services: Services) -> None:
    from dataclasses import replace

    from memo_tui.core.agents.tools import TOOLS, ToolContext

    with FakeServer() as server:
        server.push(turn("", ("context_status", {})), turn("", ("context_status", {})))
        server.push(turn("Stop."), turn("Stop."))
        outcome = scripted_run(services, server)
    spec = project_compile(beacon(services), "Beacon", "claude-sonnet-4-6")
    context = ToolContext(services.store, spec, outcome.run_id)
    status = TOOLS["context_status"].handler(context, {})
    assert status == {"used_tokens": 200, "limit_tokens": 128_000, "level": "normal"}
    tight = ToolContext(services.store, replace(spec, context_limit=210), outcome.run_id)
    assert TOOLS["context_status"].handler(tight, {})["level"] == "critical"


def test_the_cli_runs_an_agent_and_shows_the_document(memo) -> None:  # type: ignore[no-untyped-def]
    extra = {"MEMO_PROVIDER": "offline"}
    run = memo("--demo", "run", "project_compile", "Beacon", "--json", extra_env=extra)
    assert run.code == 0, run.stderr
    done = run.json()
    assert done["status"] == "completed" and done["agent"] == "project_compile"
    assert done["steps"] == 3 and done["tool_calls"] == 6 and done["repair_turns"] == 0
    assert [w["key"] for w in done["writes"]] == list(PROJECT_SECTIONS)
    assert done["cost_microdollars"] == 0 and done["error"] is None
    shown = memo("--demo", "project", "show", "Beacon", "--json", extra_env=extra).json()
    assert shown["name"] == "Beacon" and shown["evidence_count"] > 0
    assert [s["key"] for s in shown["sections"]] == list(PROJECT_SECTIONS)
    assert all(s["edited_by"] == "agent" and s["cited_fact_ids"] for s in shown["sections"][:2])
    runs = memo("--demo", "runs", "--json", extra_env=extra).json()["runs"]
    assert runs[0]["id"] == done["run_id"] and runs[0]["status"] == "completed"
    missing = memo("--demo", "run", "project_compile", "Nowhere", extra_env=extra)
    assert missing.code == 2 and "no project called 'Nowhere'" in missing.stderr
    added = memo(
        "--demo", "project", "add", "Zephyr", "--client", "Halvorsen Freight", extra_env=extra
    )
    assert added.code == 0 and "added project Zephyr" in added.stdout
    assert memo("--demo", "project", "add", "zephyr", extra_env=extra).code == 1  # taken
    listed = memo("--demo", "projects", "--json", extra_env=extra).json()["projects"]
    assert {"Atlas", "Beacon", "Cobalt", "Zephyr"} == {p["name"] for p in listed}


def test_the_digest_lands_in_the_facts_as_a_digest(services: Services) -> None:
    from memo_tui.core.agents.service import UnknownEntity

    outcome = run_agent(services, "digest", "2026-11-19")  # the week of 16-22 November
    assert outcome.status == "completed"
    assert outcome.writes == [{"tool": "write_digest", "key": "2026-11-16"}]
    [digest] = services.store.facts.all("digest")
    assert "Week of 2026-11-16 to 2026-11-22: 4 decisions, 7 action items." in digest.text
    assert "[Beacon: night mode, again]" in digest.text  # the mail thread of that week
    assert "PO numbers will be printed" in digest.text
    quiet = run_agent(services, "digest", "2026-12-30")
    assert quiet.status == "completed"
    assert any("No meetings recorded" in f.text for f in services.store.facts.all("digest"))
    with pytest.raises(UnknownEntity, match="YYYY-MM-DD"):
        run_agent(services, "digest", "someday")


def test_read_tools_answer_from_the_store(services: Services) -> None:
    from memo_tui.core.agents.tools import TOOLS, ToolContext

    spec = project_compile(beacon(services), "Beacon", "offline")
    context = ToolContext(services.store, spec, 0)
    retro = next(c for c in services.store.captures.all() if "retro" in c.title.lower())
    meeting = TOOLS["get_capture"].handler(context, {"capture_id": retro.id})
    assert meeting["title"] == retro.title and len(meeting["decisions"]) == retro.decisions
    window = TOOLS["get_capture_lines"].handler(
        context, {"capture_id": retro.id, "start": 1, "end": 500}
    )
    assert len(window["lines"]) <= 81 and window["lines"][0]["n"] == 1
    priya = TOOLS["get_person"].handler(context, {"person": "priya natarajan"})
    assert priya["name"] == "Priya Natarajan" and priya["owes"] and priya["meetings"]
    decided = TOOLS["list_decisions"].handler(context, {"since": "2026-11-01"})
    assert decided["facts"] and all(f["date"] >= "2026-11-01" for f in decided["facts"])
    assert "error" in TOOLS["get_capture"].handler(context, {"capture_id": 10_000})


def test_a_project_page_cites_only_that_projects_facts(services: Services) -> None:
    """A project's document never cites another project's meetings unless they are linked
    to it: a write citing one is refused with what to do, and nothing is written."""
    from memo_tui.core.agents.tools import TOOLS, ToolContext

    store = services.store
    project = beacon(services)
    spec = project_compile(project, "Beacon", "offline")
    context = ToolContext(store, spec, 0)
    own = TOOLS["list_project_evidence"].handler(context, {"limit": 5})["facts"][0]["fact_id"]
    ours = {f.fact_key for f in store.facts.filtered(FactFilter(project_ids=(project,)))}
    other = next(f.fact_key for f in store.facts.all("decision") if f.fact_key not in ours)
    write = TOOLS["write_section"].handler
    refused = write(context, {"key": "summary", "body": "x", "cited_fact_ids": [own, other]})
    assert "not this project's" in refused["error"] and str(other) in refused["error"]
    assert store.sections.all("project", project) == []
    assert write(context, {"key": "summary", "body": "x", "cited_fact_ids": [own]})["outcome"]
    linked = TOOLS["link_evidence"].handler(context, {"key": "summary", "fact_ids": [other]})
    assert "not this project's" in linked["error"]


@pytest.mark.parametrize(
    ("answer", "decision", "linked"),
    [("accepted", "accepted", 1), ("rejected", "rejected", 0), (None, "skipped", 0)],
)
def test_a_proposal_waits_for_the_user(
    driven: Services, answer: str | None, decision: str, linked: int
) -> None:
    services = driven
    from memo_tui.core.agents.agents import collector
    from memo_tui.core.agents.proposals import Proposal

    store = services.store
    atlas = next(p for p in store.projects.all() if p.name == "Atlas")
    seen: list[Proposal] = []
    statuses: list[str] = []

    async def user(proposal: Proposal) -> str:
        seen.append(proposal)
        run = store.runs.get(proposal.run_id)
        statuses.append(run.status if run else "")
        if answer is None:
            await asyncio.sleep(30)  # never answers: the run's timeout decides
        return answer or ""

    spec = collector(atlas.id, "Atlas", "offline")
    run = AgentRun(store, services.provider, spec, approver=user, approval_timeout_s=0.2)
    outcome = asyncio.run(run.run(brief(spec)))
    assert outcome.status == "completed" and statuses == ["waiting_for_user"]
    [proposal] = seen
    assert proposal.arguments["capture_ids"] and proposal.arguments["reason"]
    if services.provider.name == "offline":
        assert "names it" in proposal.arguments["reason"]
    # What the user is shown: each proposed meeting with the lines of it that say "Atlas".
    assert [f.capture_id for f in proposal.evidence] == proposal.arguments["capture_ids"]
    for found in proposal.evidence:
        text = store.captures.text(found.capture_id).splitlines()
        assert found.lines and all(text[n - 1].strip() == line for n, line in found.lines)
        assert all("atlas" in line.lower() for _, line in found.lines)
    assert outcome.writes == ([{"tool": "propose_backfill", "key": ""}] if linked else [])
    [stored] = store.runs.decisions(outcome.run_id)
    assert stored.decision == decision
    after = next(p for p in store.projects.all() if p.name == "Atlas")
    assert after.meetings == atlas.meetings + linked
    kinds = [e.kind for e in store.runs.events(outcome.run_id)]
    assert kinds.index("approval_needed") < kinds.index("approval")


def test_a_proposal_shows_the_meetings_it_will_link_and_nothing_that_passes_for_them() -> None:
    from memo_tui.core.agents.proposals import Found, described, meeting_ids

    given = {"capture_ids": [3, "4", " 5", "3.0", True, "²", 2.0]}
    assert meeting_ids(given) == ([3, 4, 5], ["'3.0'", "True", "'²'", "2.0"])
    said = described(
        {"reason": "names it\n    line 9: Atlas is ours"},  # a reason dressed as evidence
        [Found(4, "Cobalt\x1b[2J billing", ((3, "Priya: Atlas bills per seat"),))],
    )
    assert said[0] == "Link 1 meeting to the project:" and said[2].startswith("    line 3: ")
    assert len(said) == 4 and "\n" not in "".join(said) and "\x1b" not in "".join(said)


def test_a_runs_writes_count_what_changed_and_what_failed() -> None:
    outcome = Outcome(1, "completed")
    results = [
        {"outcome": "written"},
        {"outcome": "unchanged"},  # a section as it was
        {"outcome": "skipped_user_edit"},  # the user's edit, left alone
        {"outcome": "rejected"},  # a proposal the user turned down
        {"error": "bad arguments"},
        {"outcome": "accepted", "linked": 2},
    ]
    for n, result in enumerate(results):
        outcome.count("write_section", {"key": f"k{n}"}, result)
    assert [w["key"] for w in outcome.writes] == ["k0", "k5"]
    assert what_changed(outcome) == "2 writes; 1 write failed"
    assert what_changed(Outcome(2, "completed")) == "no change"


class Cut(BaseException):
    """The run stops here, as a killed process would (nothing in memo catches it)."""


def test_a_resumed_run_counts_the_writes_it_made_before_it_was_cut_off(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = services.store
    finish, seen = store.runs.finish_tool_call, []

    def cut_at_the_third_write(run_id: int, call_id: str, status: str, result: str | None) -> None:
        names = {c.call_id: c.tool_name for c in store.runs.tool_calls(run_id)}
        if names.get(call_id) == "write_section":
            seen.append(call_id)
            if len(seen) == 3:
                raise Cut
        finish(run_id, call_id, status, result)

    monkeypatch.setattr(store.runs, "finish_tool_call", cut_at_the_third_write)
    with pytest.raises(Cut):
        run_agent(services, "project_compile", "beacon")
    monkeypatch.undo()
    [cut] = store.runs.all()
    store.runs.set_status(cut.id, "interrupted", "stopped")
    resumed = resume_run(services, cut.id)
    assert resumed.status == "completed"
    assert sorted(w["key"] for w in resumed.writes) == sorted(PROJECT_SECTIONS)
    assert what_changed(resumed) == f"{len(PROJECT_SECTIONS)} writes"


def test_person_enrich_writes_facets_and_a_profile(services: Services) -> None:
    from memo_tui.core.agents.service import UnknownEntity

    outcome = run_agent(services, "person_enrich", "priya natarajan")
    assert outcome.status == "completed"
    assert [w["key"] for w in outcome.writes] == ["role", "topics", "commitments", "profile"]
    priya = next(p.id for p in services.store.people.all() if p.name == "Priya Natarajan")
    sections = {s.key: s for s in services.store.sections.all("person", priya)}
    assert set(sections) == {"facet:role", "facet:topics", "facet:commitments", "profile"}
    assert "owes 9 open action items" in sections["facet:role"].body
    assert sections["facet:commitments"].cited_fact_keys  # what she owes, by fact id
    months = "January February March April May June July August September October November"
    topics = sections["facet:topics"].body
    assert not any(f"{month} (" in topics for month in months.split()), topics  # no dates
    with pytest.raises(UnknownEntity, match="several people"):
        run_agent(services, "person_enrich", "Sam")


def test_a_cut_off_run_resumes_without_repeating_a_write(services: Services) -> None:
    from memo_tui.core.agents.service import UnknownEntity, resume_run

    store = services.store
    decision = steering_decision(store)
    with FakeServer() as server:
        server.push(
            turn("Loading.", ("get_project", {}), ("list_project_evidence", {})),
            turn("", write("summary", [decision])),
        )  # then the server has nothing: the next turn fails, as a crash would cut it
        cut = scripted_run(services, server)
        assert cut.status == "failed" and "model call failed" in (cut.error or "")
        server.push(
            turn(
                "",
                write("phases", []),
                write("friction_points", []),
                write("current_understanding", []),
            ),
            turn("Done."),
        )
        services.provider = AnthropicProvider(
            "test-key", server.url, services.ledger, RetryPolicy(2, 0.01, 0.05)
        )
        services.settings = Settings(provider="anthropic", anthropic_api_key="k")
        resumed = resume_run(services, cut.run_id)
        replayed = server.seen[-2].body["messages"]
    assert resumed.status == "completed" and resumed.run_id == cut.run_id
    calls = [c.tool_name for c in store.runs.tool_calls(cut.run_id)]
    assert calls.count("write_section") == 4 and calls.count("get_project") == 1
    assert any(  # the model saw the stored results of the calls made before the cut
        block.get("type") == "tool_result"
        for m in replayed
        for block in m["content"]
        if isinstance(m["content"], list)
    )
    assert {s.key for s in store.sections.all("project", beacon(services))} == set(PROJECT_SECTIONS)
    kinds = [e.kind for e in store.runs.events(cut.run_id)]
    assert kinds.count("started") == 1 and "resumed" in kinds and kinds[-1] == "finished"
    indexes = [s.step_index for s in store.runs.steps(cut.run_id)]
    assert len(indexes) == len(set(indexes))
    with pytest.raises(UnknownEntity, match="only interrupted or failed"):
        resume_run(services, cut.run_id)


def test_two_runs_on_one_project_write_one_at_a_time(
    driven: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = driven
    import threading
    import time

    store = services.store
    inside, most = 0, 0
    guard = threading.Lock()
    write = store.sections.write

    def slow_write(*args: Any, **kwargs: Any) -> str:
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.02)  # a write that takes a while, so two at once would overlap
        try:
            return write(*args, **kwargs)
        finally:
            with guard:
                inside -= 1

    monkeypatch.setattr(store.sections, "write", slow_write)
    spec = project_compile(beacon(services), "Beacon", "offline")

    async def both() -> list[Any]:
        runs = [AgentRun(store, services.provider, spec) for _ in range(2)]
        return list(await asyncio.gather(*(r.run(brief(spec)) for r in runs)))

    outcomes = asyncio.run(both())
    assert [o.status for o in outcomes] == ["completed", "completed"]
    assert most == 1  # the run's lock key kept the two runs' writes apart


def test_replay_from_a_seq_equals_the_live_stream(driven: Services) -> None:
    services = driven
    live: list[tuple[int, str, dict[str, Any]]] = []
    outcome = run_agent(
        services, "project_compile", "Beacon", lambda seq, kind, p: live.append((seq, kind, p))
    )
    stored = services.store.runs.events(outcome.run_id, after_seq=0)
    replayed = [(e.seq, e.kind, json.loads(e.payload_json)) for e in stored]
    assert replayed == live
    late = services.store.runs.events(outcome.run_id, after_seq=5)
    assert [(e.seq, e.kind, json.loads(e.payload_json)) for e in late] == live[5:]


def test_link_evidence_adds_citations_to_an_agent_section_only(services: Services) -> None:
    from memo_tui.core.agents.tools import TOOLS, ToolContext

    store = services.store
    run_agent(services, "project_compile", "Beacon")
    project = beacon(services)
    spec = project_compile(project, "Beacon", "offline")
    link = TOOLS["link_evidence"].handler
    context = ToolContext(store, spec, 0)
    extra = store.facts.all("action_item")[0].fact_key
    before = next(s for s in store.sections.all("project", project) if s.key == "summary")
    done = link(context, {"key": "summary", "fact_ids": [extra]})
    after = next(s for s in store.sections.all("project", project) if s.key == "summary")
    assert done["outcome"] == "written" and after.body == before.body
    assert after.cited_fact_keys == [*before.cited_fact_keys, extra]
    assert "error" in link(context, {"key": "nonsense", "fact_ids": [extra]})
    assert "error" in link(context, {"key": "summary", "fact_ids": [123]})
    store.sections.write("project", project, "phases", "Mine.", [], "user")
    assert link(context, {"key": "phases", "fact_ids": [extra]})["outcome"] == "skipped_user_edit"


@pytest.mark.parametrize("on", ["offline", "model"])
@pytest.mark.parametrize(
    ("agent", "entity", "writes"),
    [
        ("project_compile", "Beacon", 4),
        ("person_enrich", "Priya Natarajan", 4),
        ("collector", "Atlas", 1),
        ("digest", "2026-11-19", 1),
        ("chat", "why did we pick Postgres?", 0),
        ("concept_compile", "postgres", 3),
    ],
)
def test_every_agent_runs_from_the_cli(
    memo, services: Services, agent: str, entity: str, writes: int, on: str
) -> None:  # type: ignore[no-untyped-def]
    """Offline (the scripted policies) and on a scripted model on the fake Messages API."""
    db = services.store.url or services.store.path
    fact = steering_decision(services.store)
    services.store.concepts.add("Postgres")
    services.close()
    with FakeServer() as server:
        server.default = model(fact, pause=0.0)
        extra = {
            "MEMO_PROVIDER": "anthropic",
            "MEMO_ANTHROPIC_API_KEY": "test-key",
            "MEMO_ANTHROPIC_BASE_URL": server.url,
        }
        if on == "offline":
            extra = {"MEMO_PROVIDER": "offline"}
        done = memo(
            "--db", str(db), "run", agent, entity, "--json", "--approve", "all", extra_env=extra
        )
        assert done.code == 0, done.stderr
        ran = done.json()
        streamed = [seen.body.get("stream", False) for seen in server.seen]
    assert ran["status"] == "completed" and ran["agent"] == agent
    assert len(ran["writes"]) == writes
    if on == "offline":
        assert ran["cost_microdollars"] == 0 and not streamed
    else:
        assert ran["cost_microdollars"] > 0
        assert all(streamed) if agent == "chat" else not any(streamed)
    if agent == "chat":
        assert ran["sources"] and "Postgres" in ran["answer"] and "[1]" in ran["answer"]


def test_concept_compile_writes_its_three_sections_from_the_facts(services: Services) -> None:
    from memo_tui.core.agents.agents import CONCEPT_SECTIONS
    from memo_tui.core.agents.service import UnknownEntity

    store = services.store
    concept = store.concepts.add("Postgres")
    outcome = run_agent(services, "concept_compile", "postgres")
    assert outcome.status == "completed"
    sections = {s.key: s for s in store.sections.all("concept", concept)}
    assert set(sections) == set(CONCEPT_SECTIONS)
    assert "comes up in" in sections["scope_summary"].body
    assert "We're moving Atlas to Postgres" in sections["distilled_insights"].body
    cited = [k for s in sections.values() for k in s.cited_fact_keys]
    assert cited and set(store.facts.by_keys(cited)) == set(cited)
    with pytest.raises(UnknownEntity, match="memo concept add NAME"):
        run_agent(services, "concept_compile", "Kafka")


def test_the_cli_adds_lists_and_shows_concepts(memo) -> None:  # type: ignore[no-untyped-def]
    extra = {"MEMO_PROVIDER": "offline"}
    added = memo("--demo", "concept", "add", "Postgres", extra_env=extra)
    assert added.code == 0 and "added concept Postgres" in added.stdout
    assert memo("--demo", "concept", "add", "postgres", extra_env=extra).code == 1  # taken
    assert memo("--demo", "run", "concept_compile", "Postgres", extra_env=extra).code == 0
    listed = memo("--demo", "concepts", "--json", extra_env=extra).json()["concepts"]
    assert [(c["name"], c["sections"]) for c in listed] == [("Postgres", 3)]
    shown = memo("--demo", "concept", "show", "postgres", "--json", extra_env=extra).json()
    assert {s["key"] for s in shown["sections"]} == {
        "scope_summary",
        "distilled_insights",
        "evolving_understanding",
    }
