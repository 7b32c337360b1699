"""Starting agent runs for the CLI and the app: find the entity, build the spec, run it,
rebuild the rollups; and, at start, mark runs whose process died as interrupted."""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memo_tui.core.agents.agents import (
    AGENTS,
    brief,
    collector,
    concept_compile,
    digest,
    person_enrich,
    project_compile,
)
from memo_tui.core.agents.outcome import Outcome
from memo_tui.core.agents.runtime import AgentRun, Approver, Listener, RunTaken
from memo_tui.core.agents.spec import RunSpec
from memo_tui.core.llm import select

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import RunRecord, Store


class UnknownEntity(LookupError):
    """No entity of that name for the agent (the message says what there is)."""


def run_agent(
    services: Services,
    agent: str,
    entity: str,
    listener: Listener | None = None,
    approver: Approver | None = None,
    stop: Callable[[], bool] | None = None,
) -> Outcome:
    """Run `agent` on `entity`: a project's name for project_compile; for digest, a day of
    the week to digest (YYYY-MM-DD), or this-week / last-week."""
    import asyncio

    if agent not in AGENTS:
        raise UnknownEntity(f"no agent {agent!r}; agents: {', '.join(sorted(AGENTS))}")
    if agent == "chat":
        raise UnknownEntity("chat answers a question: memo run chat QUESTION, or the Ask pane")
    interrupt_orphans(services)
    spec = _spec(services, agent, entity)
    run = _agent_run(services, spec, listener, approver, stop)
    outcome = asyncio.run(run.run(brief(spec)))
    services.store.reports.rebuild()
    return outcome


def resumable(services: Services, run_id: int) -> RunRecord:
    """The run, when it can go on: it exists, it was interrupted or failed, and it is not a
    chat's answer (a question is asked again instead). UnknownEntity says why not."""
    found = services.store.runs.get(run_id)
    if found is None:
        raise UnknownEntity(f"no run {run_id}; memo runs lists them")
    if found.status not in ("interrupted", "failed"):
        raise UnknownEntity(
            f"run {run_id} is {found.status}: only interrupted or failed runs resume"
        )
    if found.agent_type == "chat":
        raise UnknownEntity(f"run {run_id} answered a question: ask it again instead")
    return found


def named(services: Services, entity_type: str, entity_id: int) -> str:
    """The name of a person, project or concept an agent may run on; UnknownEntity when
    there is none by that id (deleted meanwhile)."""
    store = services.store
    found = {
        "person": lambda: [p.name for p in [store.people.get(entity_id)] if p is not None],
        "project": lambda: [p.name for p in store.projects.all() if p.id == entity_id],
        "concept": lambda: [c.name for c in store.concepts.all() if c.id == entity_id],
    }.get(entity_type, list)()
    if not found:
        raise UnknownEntity(f"no {entity_type or 'entity'} {entity_id}: nothing selected")
    return found[0]


def resume_run(
    services: Services,
    run_id: int,
    listener: Listener | None = None,
    approver: Approver | None = None,
    stop: Callable[[], bool] | None = None,
) -> Outcome:
    """Go on with an interrupted or failed run from its last completed step."""
    import asyncio

    interrupt_orphans(services)
    found = resumable(services, run_id)
    asked = json.loads(found.spec_json or "{}")
    entity = str(asked.get("entity", ""))
    if found.entity_type == "project" and found.entity_name:
        entity = found.entity_name  # its name now: it may have been renamed since
    spec = _spec(services, found.agent_type, entity)
    run = _agent_run(services, spec, listener, approver, stop)
    try:
        outcome = asyncio.run(run.resume(run_id, brief(spec)))
    except RunTaken as taken:
        raise UnknownEntity(f"{taken}: memo runs shows it") from None
    services.store.reports.rebuild()
    return outcome


def _agent_run(
    services: Services,
    spec: RunSpec,
    listener: Listener | None,
    approver: Approver | None,
    stop: Callable[[], bool] | None,
) -> AgentRun:
    settings = services.settings
    return AgentRun(
        services.store,
        services.provider,
        spec,
        listener,
        deadline_s=settings.answer_deadline_s,
        approver=approver,
        approval_timeout_s=settings.approval_timeout_s,
        prices=services.ledger.prices,
        stop=stop,
    )


def _spec(services: Services, agent: str, entity: str) -> RunSpec:
    settings = services.settings
    offline = services.provider.name == "offline"
    model = "offline" if offline else select.model_for(settings, agent)  # type: ignore[arg-type]
    limit = settings.agent_context_limit_tokens
    if agent == "digest":
        start, end = week_of(entity)
        return digest(start, end, model, limit)
    if agent == "person_enrich":
        person_id, name = _person(services, entity)
        return person_enrich(person_id, name, model, limit)
    if agent == "concept_compile":
        concepts = {c.name.lower(): c for c in services.store.concepts.all()}
        concept = concepts.get(" ".join(entity.split()).lower())
        if concept is None:
            known = ", ".join(sorted(c.name for c in concepts.values())) or "none yet"
            raise UnknownEntity(
                f"no concept called {entity!r} (concepts: {known}); memo concept add NAME"
            )
        return concept_compile(concept.id, concept.name, model, limit)
    projects = {p.name.lower(): p for p in services.store.projects.all()}
    found = projects.get(entity.strip().lower())
    if found is None:
        known = ", ".join(sorted(p.name for p in projects.values())) or "none yet"
        raise UnknownEntity(f"no project called {entity!r} (projects: {known})")
    build = collector if agent == "collector" else project_compile
    return build(found.id, found.name, model, limit)


def _person(services: Services, entity: str) -> tuple[int, str]:
    """The one person a name means (spelling as memo resolves names), or why not."""
    from memo_tui.core.entities.resolve import NeedsDisambiguation, Resolved, resolve

    found = resolve(entity, services.store.people.directory())
    if isinstance(found, Resolved):
        return found.entity.id, found.entity.name
    if isinstance(found, NeedsDisambiguation):
        names = ", ".join(c.name for c in found.candidates)
        raise UnknownEntity(f"{entity!r} could be several people ({names}): say which")
    raise UnknownEntity(f"no person called {entity!r}; memo people lists them")


def week_of(entity: str) -> tuple[str, str]:
    """Monday and Sunday of the week `entity` names: a date, this-week or last-week, or
    the week a run stored (`START..END`, so a resumed digest keeps its week)."""
    today = dt.datetime.now(dt.UTC).date()
    named = {"this-week": today, "last-week": today - dt.timedelta(days=7)}
    try:
        day = named.get(entity) or dt.date.fromisoformat(entity.split("..")[0])
    except ValueError:
        raise UnknownEntity(
            f"digest wants a day of the week to digest (YYYY-MM-DD), this-week or last-week; "
            f"not {entity!r}"
        ) from None
    monday = day - dt.timedelta(days=day.weekday())
    return monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat()


def interrupt_orphans(services: Services) -> list[int]:
    """Runs left 'running' by a process that is gone become 'interrupted'."""
    store = services.store
    return [
        run.id
        for run in store.runs.all()
        if run.status in ("running", "waiting_for_user")
        and not _alive(store, json.loads(run.spec_json or "{}"))
        and store.runs.interrupt(run.id, "the process running it ended")
    ]


def _alive(store: Store, running: dict[str, Any]) -> bool:
    """Whether the process a run's spec names still runs. On a team store its presence key
    says, whichever machine it is on; on a file, its pid on this machine (a run another
    machine records, on a file shared between them, is left for that machine to tell)."""
    presence = running.get("presence")
    if isinstance(presence, str) and (present := store.present(presence)) is not None:
        return present
    host = running.get("host")
    if host is not None and host != socket.gethostname():
        return True
    return _pid_alive(running.get("pid"))


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
