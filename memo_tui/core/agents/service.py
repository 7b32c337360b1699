"""Starting agent runs for the CLI and the app: find the entity, build the spec, run it,
rebuild the rollups; and, at start, mark runs whose process died as interrupted."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from memo_tui.core.agents.agents import AGENTS, brief
from memo_tui.core.agents.runtime import AgentRun, Listener, Outcome
from memo_tui.core.llm import select

if TYPE_CHECKING:
    from memo_tui.core.services import Services


class UnknownEntity(LookupError):
    """No entity of that name for the agent (the message says what there is)."""


def run_agent(
    services: Services, agent: str, entity: str, listener: Listener | None = None
) -> Outcome:
    """Run `agent` on the entity called `entity` (a project's name for project_compile)."""
    import asyncio

    if agent not in AGENTS:
        raise UnknownEntity(f"no agent {agent!r}; agents: {', '.join(sorted(AGENTS))}")
    store = services.store
    interrupt_orphans(services)
    projects = {p.name.lower(): p for p in store.projects()}
    found = projects.get(entity.strip().lower())
    if found is None:
        known = ", ".join(sorted(p.name for p in projects.values())) or "none yet"
        raise UnknownEntity(f"no project called {entity!r} (projects: {known})")
    model = (
        "offline"
        if services.provider.name == "offline"
        else select.model_for(services.settings, "project_compile")
    )
    spec = AGENTS[agent](found.id, found.name, model, services.settings.agent_context_limit_tokens)
    run = AgentRun(
        store, services.provider, spec, listener, deadline_s=services.settings.answer_deadline_s
    )
    outcome = asyncio.run(run.run(brief(spec)))
    store.rebuild_reports()
    return outcome


def interrupt_orphans(services: Services) -> list[int]:
    """Runs left 'running' by a process that is gone become 'interrupted'."""
    orphans = []
    for run in services.store.runs():
        pid = json.loads(run.spec_json or "{}").get("pid")
        if run.status in ("running", "waiting_for_user") and not _alive(pid):
            services.store.set_run_status(run.id, "interrupted", "the process running it ended")
            orphans.append(run.id)
    return orphans


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
