"""Agent runs cut off hard: a write and the record that it was made land together or not at
all, and `kill -9` at random moments (many times) leaves runs that are marked interrupted,
resume to the end, and never make a write twice."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.db import steering_decision
from support.fakes.agent_model import model
from support.fakes.server import FakeServer

from memo_tui.core.agents.agents import PROJECT_SECTIONS, brief, collector
from memo_tui.core.agents.proposals import Proposal
from memo_tui.core.agents.runtime import AgentRun
from memo_tui.core.agents.service import resume_run, run_agent
from memo_tui.core.demo import seed_demo
from memo_tui.core.services import Services, build_services
from memo_tui.settings import Settings
from store import Store

pytestmark = pytest.mark.slow

KILLS = int(os.environ.get("MEMO_AGENT_KILLS", "12"))


class Crash(BaseException):
    """The process dies here (nothing after it runs, nothing catches it)."""


def crash_when_recording(monkeypatch: pytest.MonkeyPatch, store: Store, tool: str) -> None:
    """Die just after `tool`'s write, before the record that the call finished."""
    finish = store.runs.finish_tool_call

    def dying(run_id: int, call_id: str, status: str, result: str | None) -> None:
        names = {c.call_id: c.tool_name for c in store.runs.tool_calls(run_id)}
        if names.get(call_id) == tool:
            raise Crash
        finish(run_id, call_id, status, result)

    monkeypatch.setattr(store.runs, "finish_tool_call", dying)


def test_a_crash_after_a_write_leaves_neither_the_write_nor_its_record(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = services.store
    crash_when_recording(monkeypatch, store, "write_digest")
    with pytest.raises(Crash):
        run_agent(services, "digest", "2026-11-19")
    assert store.facts.all("digest") == []  # the digest went with its record
    [cut] = store.runs.all()
    store.runs.set_status(cut.id, "interrupted", "killed")  # what the next start would do
    monkeypatch.undo()
    resumed = resume_run(services, cut.id)
    assert resumed.status == "completed"
    assert len(store.facts.all("digest")) == 1  # written once, by the resumed run
    writes = [c for c in store.runs.tool_calls(cut.id) if c.tool_name == "write_digest"]
    assert [c.status for c in writes] == ["completed"]


def test_an_answer_given_before_a_crash_stands_when_the_run_resumes(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = services.store
    atlas = next(p for p in store.projects.all() if p.name == "Atlas")
    asked: list[Proposal] = []

    async def yes(proposal: Proposal) -> str:
        asked.append(proposal)
        return "accepted"

    crash_when_recording(monkeypatch, store, "propose_backfill")
    spec = collector(atlas.id, "Atlas", "offline")
    with pytest.raises(Crash):
        asyncio.run(AgentRun(store, services.provider, spec, approver=yes).run(brief(spec)))
    after_crash = next(p for p in store.projects.all() if p.name == "Atlas")
    assert after_crash.meetings == atlas.meetings  # the links went with the crash
    [cut] = store.runs.all()
    store.runs.set_status(cut.id, "interrupted", "killed")
    monkeypatch.undo()
    resumed = resume_run(services, cut.id)  # nobody to ask now: the stored yes stands
    assert resumed.status == "completed" and len(asked) == 1
    assert [d.decision for d in store.runs.decisions(cut.id)] == ["accepted"]
    linked = next(p for p in store.projects.all() if p.name == "Atlas")
    assert linked.meetings > atlas.meetings


# kill -9, many times, against a scripted model on the fake Messages API


def memo_run(db: Path, url: str, *args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env |= {
        "MEMO_HOME": str(db.parent / "home"),
        "MEMO_PROVIDER": "anthropic",
        "MEMO_ANTHROPIC_API_KEY": "test-key",
        "MEMO_ANTHROPIC_BASE_URL": url,
    }
    command = [sys.executable, "-m", "memo_tui", "--db", str(db), "run", *args, "--json"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def wait_for_run(store: Store, after: int, proc: subprocess.Popen[bytes]) -> int | None:
    """The id of the run `proc` started (None if it ended first)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        newer = [r.id for r in store.runs.all() if r.id > after]
        if newer:
            return max(newer)
        time.sleep(0.01)
    return None


def check(store: Store, run_id: int, agent: str) -> None:
    """The run finished, once, and each of its writes was made exactly once."""
    run = store.runs.get(run_id)
    assert run is not None and run.status == "completed", run
    calls = store.runs.tool_calls(run_id)
    assert all(c.finished_at for c in calls)
    writes = [json.loads(c.arguments_json) for c in calls if c.mutating]
    if agent == "project_compile":
        assert sorted(w["key"] for w in writes) == sorted(PROJECT_SECTIONS)
    else:
        assert len(writes) == 1
    events = store.runs.events(run_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    kinds = [e.kind for e in events]
    assert kinds.count("started") == 1 and kinds.count("finished") == 1
    assert kinds[-1] == "finished"
    indexes = [s.step_index for s in store.runs.steps(run_id)]
    assert len(indexes) == len(set(indexes))


def test_kill_9_mid_run_many_times_resumes_without_a_repeated_write(tmp_path: Path) -> None:
    db = tmp_path / "memo.db"
    seeding = build_services(Settings(provider="offline"), db)
    seed_demo(seeding.capture)
    seeding.close()
    rng = random.Random(1729)
    store = Store(db).open()
    fact_id = steering_decision(store)
    resumed = digests = 0
    try:
        with FakeServer() as server:
            server.default = model(fact_id)
            last = 0
            for kill in range(KILLS):
                agent = "project_compile" if kill % 2 == 0 else "digest"
                entity = "Beacon" if agent == "project_compile" else f"2026-{kill + 1:02d}-15"
                proc = memo_run(db, server.url, agent, entity)
                run_id = wait_for_run(store, last, proc)
                assert run_id is not None, proc.communicate()[1].decode()
                time.sleep(rng.uniform(0, 0.6))
                proc.send_signal(signal.SIGKILL)
                proc.wait()  # reaped: its pid is gone, as after a real crash
                last = run_id
                run = store.runs.get(run_id)
                assert run is not None
                if run.status != "completed":
                    again = memo_run(db, server.url, "--resume", str(run_id))
                    out, err = again.communicate(timeout=120)
                    assert again.returncode == 0, err.decode()
                    assert json.loads(out)["status"] == "completed"
                    assert store.runs.get(run_id).status == "completed"  # type: ignore[union-attr]
                    resumed += 1
                check(store, run_id, agent)
                if agent == "digest":
                    digests += 1
        assert len(store.facts.all("digest")) == digests  # one digest per run, never two
        assert resumed >= KILLS // 2  # most kills landed mid-run
    finally:
        store.close()
