"""The tools agents read the store with (they run side by side): facts by search or list,
meetings and their lines, people, projects, and how much of its budget a run has used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from store import ActionItemRecord, DecisionRecord, FactFilter, FactRecord

if TYPE_CHECKING:
    from memo_tui.core.agents.tools import ToolContext


def fact_json(fact: FactRecord) -> dict[str, Any]:
    return {
        "fact_id": fact.fact_key,
        "type": fact.fact_type,
        "text": fact.text,
        "meeting": fact.capture_title,
        "date": fact.occurred_at or fact.captured_at[:10],
        "lines": [fact.line_start, fact.line_end] if fact.line_start is not None else None,
    }


def search_facts(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """What `memo ask` finds, as it finds it (hybrid when the run has an embedder): what
    holds now first, and the gate says when none of it is about the query."""
    from memo_tui.core.recall import found as recall

    embedder, index = (ctx.search.embedder, ctx.search.index) if ctx.search else (None, None)
    limit = max(1, min(int(args.get("limit", 10)), 30))
    types, every = tuple(args.get("types") or ()), bool(args.get("every"))
    query = str(args["query"])
    found = recall.search_facts(ctx.store, embedder, query, types, limit, index, every)
    return recall.found_json(found, fact_json)


def get_fact(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    fact = ctx.store.facts.get(int(args["fact_id"]))
    return {"fact": fact_json(fact)} if fact else {"error": f"no fact {args['fact_id']}"}


def project_named(ctx: ToolContext, args: dict[str, Any]) -> int | None:
    name = args.get("project")
    if name is None:
        return ctx.spec.entity_id if ctx.spec.entity_type == "project" else None
    found = [p.id for p in ctx.store.projects.all() if p.name.lower() == str(name).lower()]
    return found[0] if found else None


def get_project(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = project_named(ctx, args)
    detail = ctx.store.projects.get(project_id) if project_id is not None else None
    if detail is None:
        return {"error": f"no project {args.get('project')!r}"}
    s = detail.summary
    return {
        "name": s.name,
        "client": s.client,
        "meetings": [{"id": c.id, "title": c.title, "date": c.day} for c in detail.captures],
        "notes": [{"about": n.owner, "body": n.body} for n in detail.notes],
        "sections": [
            {"key": x.key, "body": x.body, "edited_by": x.edited_by}
            for x in ctx.store.sections.all("project", s.id)
        ],
    }


def list_project_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = project_named(ctx, args)
    if project_id is None:
        return {"error": f"no project {args.get('project')!r}"}
    types = tuple(args.get("types") or ("decision", "action_item", "project_note", "client_note"))
    facts = ctx.store.facts.page(
        FactFilter(project_ids=(project_id,), fact_types=types, current=True),
        int(args.get("limit", 60)),
    )
    return {"facts": [fact_json(f) for f in facts]}


def context_status(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """How full the context is: the latest model turn's input, against the run's limit."""
    finished = [step for step in ctx.store.runs.steps(ctx.run_id) if step.finished_at]
    used = finished[-1].input_tokens if finished else 0
    share = used / ctx.spec.context_limit
    level = "normal"
    for floor, name in ((0.5, "watch"), (0.75, "low"), (0.9, "critical")):
        if share >= floor:
            level = name
    return {"used_tokens": used, "limit_tokens": ctx.spec.context_limit, "level": level}


def get_capture(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    capture_id = int(args["capture_id"])
    found = ctx.store.captures.get(capture_id)
    if found is None:
        return {"error": f"no meeting {capture_id}"}
    return {
        "id": found.id,
        "title": found.title,
        "date": found.occurred_at,
        "decisions": [_decision(d) for d in ctx.store.captures.decisions([capture_id])],
        "action_items": [_action(a) for a in ctx.store.captures.action_items([capture_id])],
    }


def get_capture_lines(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    capture_id, start = int(args["capture_id"]), max(1, int(args["start"]))
    if ctx.store.captures.get(capture_id) is None:
        return {"error": f"no meeting {capture_id}"}
    lines = ctx.store.captures.text(capture_id).split("\n")
    end = min(int(args.get("end", start + 20)), start + 80, len(lines))  # a window, not all
    return {"lines": [{"n": n, "text": lines[n - 1]} for n in range(start, end + 1)]}


def _decision(d: DecisionRecord) -> dict[str, Any]:
    return {
        "fact_id": d.fact_key,
        "text": d.description,
        "why": d.reasoning,
        "decided_by": d.decider,
        "status": d.status,  # "superseded": history, replaced by the decision `replaced_by`
        "replaced_by": d.superseded_by,
        "lines": [d.line_start, d.line_end],
    }


def _action(a: ActionItemRecord) -> dict[str, Any]:
    return {
        "fact_id": a.fact_key,
        "text": a.description,
        "owner": a.owner,
        "due": a.due_date,
        "status": a.status,
        "lines": [a.line_start, a.line_end],
    }


def _listed(ctx: ToolContext, args: dict[str, Any], fact_type: str) -> dict[str, Any]:
    since = args.get("since")
    flt = FactFilter(fact_types=(fact_type,), since=since, until=args.get("until"), current=True)
    facts = ctx.store.facts.page(flt, int(args.get("limit", 50)))
    return {"facts": [fact_json(f) for f in facts]}


def list_decisions(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return _listed(ctx, args, "decision")


def list_action_items(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return _listed(ctx, args, "action_item")


def get_person(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    name = str(args.get("person", ""))
    people = {p.name.lower(): p.id for p in ctx.store.people.all()}
    person_id = (
        people.get(name.lower())
        if name
        else (ctx.spec.entity_id if ctx.spec.entity_type == "person" else None)
    )
    person = ctx.store.people.get(person_id) if person_id is not None else None
    if person is None:
        return {"error": f"no person {name!r}"}
    return {
        "name": person.name,
        "aliases": [a.alias for a in person.aliases],
        "owes": [_action(a) for a in person.open_action_items],
        "decided": [_decision(d) for d in person.decisions],
        "meetings": [{"id": m.id, "title": m.title, "date": m.day} for m in person.meetings],
    }


def find_unlinked_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = project_named(ctx, args)
    detail = ctx.store.projects.get(project_id) if project_id is not None else None
    if detail is None:
        return {"error": f"no project {args.get('project')!r}"}
    found = ctx.store.projects.unlinked_mentions(detail.summary.id, detail.summary.name)
    return {
        "project": detail.summary.name,
        "meetings": [{"id": c, "title": t, "mentions": n} for c, t, n in found[:20]],
    }
