"""The tools agents call: reads run side by side, writes hold a lock and land in the store.

Each tool is a JSON-Schema'd function over the store. A result is a dict the model reads
back (as JSON); a write says what it did ("written", "unchanged", "skipped_user_edit").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memo_tui.core.agents.citable import uncitable
from memo_tui.core.agents.proposals import meeting_ids
from memo_tui.core.agents.spec import RunSpec
from memo_tui.core.llm.types import ToolSpec
from store import ActionItemRecord, DecisionRecord, FactFilter, FactRecord, Store

if TYPE_CHECKING:
    from memo_tui.core.recall.index import VectorIndex
    from memo_tui.core.recall.search import QueryEmbedder

Handler = Callable[["ToolContext", dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class SearchContext:
    """What makes search_facts semantic: the query embedder and the loaded vector index."""

    embedder: QueryEmbedder | None
    index: VectorIndex | None = None


@dataclass(frozen=True)
class ToolContext:
    store: Store
    spec: RunSpec
    run_id: int
    search: SearchContext | None = None


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    schema: dict[str, Any]
    handler: Handler
    mutating: bool = False
    needs_approval: bool = False  # the user says yes or no before the handler runs

    def lock_key(self, spec: RunSpec) -> str | None:
        """Writes to one entity by one agent go one at a time (`{agent}:{entity}`), and so
        do its requests for the user's decision (`decision:{agent}:{entity}`)."""
        if not self.mutating:
            return None
        return f"decision:{spec.lock_key}" if self.needs_approval else spec.lock_key

    def as_spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, self.schema)


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


def fact_json(fact: FactRecord) -> dict[str, Any]:
    return {
        "fact_id": fact.fact_key,
        "type": fact.fact_type,
        "text": fact.text,
        "meeting": fact.capture_title,
        "date": fact.occurred_at or fact.captured_at[:10],
        "lines": [fact.line_start, fact.line_end] if fact.line_start is not None else None,
    }


def _search_facts(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """What `memo ask` finds, as it finds it (hybrid when the run has an embedder): what
    holds now first, and the gate says when none of it is about the query."""
    from memo_tui.core.recall.found import found_json, search_facts

    search = ctx.search or SearchContext(None)
    limit = max(1, min(int(args.get("limit", 10)), 30))
    types, every = tuple(args.get("types") or ()), bool(args.get("every"))
    query = str(args["query"])
    found = search_facts(ctx.store, search.embedder, query, types, limit, search.index, every)
    return found_json(found, fact_json)


def _get_fact(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    fact = ctx.store.facts.get(int(args["fact_id"]))
    return {"fact": fact_json(fact)} if fact else {"error": f"no fact {args['fact_id']}"}


def _project_id(ctx: ToolContext, args: dict[str, Any]) -> int | None:
    name = args.get("project")
    if name is None:
        return ctx.spec.entity_id if ctx.spec.entity_type == "project" else None
    found = [p.id for p in ctx.store.projects.all() if p.name.lower() == str(name).lower()]
    return found[0] if found else None


def _get_project(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = _project_id(ctx, args)
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


def _list_project_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = _project_id(ctx, args)
    if project_id is None:
        return {"error": f"no project {args.get('project')!r}"}
    types = tuple(args.get("types") or ("decision", "action_item", "project_note", "client_note"))
    facts = ctx.store.facts.page(
        FactFilter(project_ids=(project_id,), fact_types=types, current=True),
        int(args.get("limit", 60)),
    )
    return {"facts": [fact_json(f) for f in facts]}


def _context_status(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """How full the context is: the latest model turn's input, against the run's limit."""
    finished = [step for step in ctx.store.runs.steps(ctx.run_id) if step.finished_at]
    used = finished[-1].input_tokens if finished else 0
    share = used / ctx.spec.context_limit
    level = "normal"
    for floor, name in ((0.5, "watch"), (0.75, "low"), (0.9, "critical")):
        if share >= floor:
            level = name
    return {"used_tokens": used, "limit_tokens": ctx.spec.context_limit, "level": level}


def _write_section(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if ctx.spec.entity_type is None or ctx.spec.entity_id is None:
        return {"error": "this run has no entity to write about"}
    cited = [int(k) for k in args.get("cited_fact_ids") or []]
    if refused := uncitable(ctx.store, ctx.spec, cited):
        return {"error": refused}
    outcome = ctx.store.sections.write(
        ctx.spec.entity_type,
        ctx.spec.entity_id,
        str(args["key"]),
        str(args["body"]),
        cited,
        "agent",
    )
    return {"key": args["key"], "outcome": outcome}


def _record_no_change(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return {"key": args.get("key"), "outcome": "no_change", "reason": args.get("reason", "")}


def _get_capture(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
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


def _get_capture_lines(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
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


def _list_decisions(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return _listed(ctx, args, "decision")


def _list_action_items(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return _listed(ctx, args, "action_item")


def _get_person(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
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


def _write_digest(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    from store import Provenance, utc_now

    body = str(args["body"]).strip()
    if not body:
        return {"error": "a digest needs a body"}
    provenance = Provenance(
        "agent", f"run:{ctx.run_id}", utc_now(), triggered_by_agent=ctx.spec.agent
    )
    digest_id = ctx.store.notes.add_digest(
        str(args["period_start"]), str(args["period_end"]), body, provenance
    )
    return {"digest_id": digest_id, "outcome": "written"}


def _find_unlinked_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = _project_id(ctx, args)
    detail = ctx.store.projects.get(project_id) if project_id is not None else None
    if detail is None:
        return {"error": f"no project {args.get('project')!r}"}
    found = ctx.store.projects.unlinked_mentions(detail.summary.id, detail.summary.name)
    return {
        "project": detail.summary.name,
        "meetings": [{"id": c, "title": t, "mentions": n} for c, t, n in found[:20]],
    }


def _propose_backfill(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """Runs only once the user accepted: link the proposed meetings to the project."""
    project_id = _project_id(ctx, args)
    if project_id is None:
        return {"error": f"no project {args.get('project')!r}"}
    ids, bad = meeting_ids(args)  # as the user was shown them
    if bad:
        return {"error": f"not meeting ids: {', '.join(bad)}; give the ids the tools returned"}
    linked = ctx.store.projects.link_captures(project_id, ids, "agent")
    return {"outcome": "accepted" if linked else "unchanged", "linked": linked}


def _write_person_facet(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    facet = str(args["facet"])
    if facet not in FACETS:
        return {"error": f"facet must be one of {', '.join(FACETS)}"}
    return _write_section(ctx, {**args, "key": f"facet:{facet}", "body": args["value"]})


def _link_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """More citations for a section already written (its text stays as it is)."""
    if ctx.spec.entity_type is None or ctx.spec.entity_id is None:
        return {"error": "this run has no entity to link evidence to"}
    key = str(args["key"])
    current = {x.key: x for x in ctx.store.sections.all(ctx.spec.entity_type, ctx.spec.entity_id)}
    section = current.get(key)
    if section is None:
        return {"error": f"no section {key!r} yet: write it first"}
    added = [int(k) for k in args.get("fact_ids") or []]
    if refused := uncitable(ctx.store, ctx.spec, added):
        return {"error": refused}
    cited = list(dict.fromkeys([*section.cited_fact_keys, *added]))
    outcome = ctx.store.sections.write(
        ctx.spec.entity_type, ctx.spec.entity_id, key, section.body, cited, "agent"
    )
    return {"key": key, "outcome": outcome, "cited_fact_ids": cited}


SECTION_KEY = {"type": "string", "description": "the section, e.g. summary"}
FACETS = ("role", "topics", "commitments")
_PERIOD = {
    "since": {"type": "string"},
    "until": {"type": "string"},
    "limit": {"type": "integer"},
}

TOOLS: dict[str, Tool] = {
    t.name: t
    for t in (
        Tool(
            "search_facts",
            "Search every stored fact, in answer order: replaced_by names what replaced a "
            "decision; no_record says none of the facts is about the query; listed.total "
            "counts all the facts a listing query (whose items, in what period) allows, "
            "and every=true returns them all.",
            _object(
                {
                    "query": {"type": "string"},
                    "types": {"type": "array", "items": {"type": "string"}},
                    "limit": {"type": "integer"},
                    "every": {"type": "boolean"},
                },
                ["query"],
            ),
            _search_facts,
        ),
        Tool(
            "get_fact",
            "One fact by its id.",
            _object({"fact_id": {"type": "integer"}}, ["fact_id"]),
            _get_fact,
        ),
        Tool(
            "get_project",
            "A project: client, meetings, notes and its living document's sections.",
            _object({"project": {"type": "string"}}, []),
            _get_project,
        ),
        Tool(
            "list_project_evidence",
            "The decisions, action items and notes about a project, newest first.",
            _object(
                {
                    "project": {"type": "string"},
                    "types": {"type": "array", "items": {"type": "string"}},
                    "limit": {"type": "integer"},
                },
                [],
            ),
            _list_project_evidence,
        ),
        Tool(
            "context_status",
            "How much of the context budget this run has used.",
            _object({}, []),
            _context_status,
        ),
        Tool(
            "get_capture",
            "One meeting: title, date, its decisions and action items with their lines.",
            _object({"capture_id": {"type": "integer"}}, ["capture_id"]),
            _get_capture,
        ),
        Tool(
            "get_capture_lines",
            "Transcript lines of a meeting, start to end (at most 80).",
            _object(
                {
                    "capture_id": {"type": "integer"},
                    "start": {"type": "integer"},
                    "end": {"type": "integer"},
                },
                ["capture_id", "start"],
            ),
            _get_capture_lines,
        ),
        Tool(
            "list_decisions",
            "Decisions, newest first, optionally between two dates (YYYY-MM-DD).",
            _object(_PERIOD, []),
            _list_decisions,
        ),
        Tool(
            "list_action_items",
            "Action items, newest first, optionally between two dates (YYYY-MM-DD).",
            _object(_PERIOD, []),
            _list_action_items,
        ),
        Tool(
            "get_person",
            "A person: aliases, what they owe, what they decided, their meetings.",
            _object({"person": {"type": "string"}}, []),
            _get_person,
        ),
        Tool(
            "write_digest",
            "Store the digest for a period (it joins the facts as a digest).",
            _object(
                {
                    "period_start": {"type": "string"},
                    "period_end": {"type": "string"},
                    "body": {"type": "string"},
                },
                ["period_start", "period_end", "body"],
            ),
            _write_digest,
            mutating=True,
        ),
        Tool(
            "find_unlinked_evidence",
            "Meetings that name the project but are not linked to it, most mentions first.",
            _object({"project": {"type": "string"}}, []),
            _find_unlinked_evidence,
        ),
        Tool(
            "propose_backfill",
            "Propose linking meetings to the project; the user accepts or rejects it.",
            _object(
                {
                    "project": {"type": "string"},
                    "capture_ids": {"type": "array", "items": {"type": "integer"}},
                    "reason": {"type": "string"},
                },
                ["capture_ids", "reason"],
            ),
            _propose_backfill,
            mutating=True,
            needs_approval=True,
        ),
        Tool(
            "write_person_facet",
            "Write one facet of the person (role, topics or commitments), citing fact ids.",
            _object(
                {
                    "facet": {"type": "string", "enum": list(FACETS)},
                    "value": {"type": "string"},
                    "cited_fact_ids": {"type": "array", "items": {"type": "integer"}},
                },
                ["facet", "value", "cited_fact_ids"],
            ),
            _write_person_facet,
            mutating=True,
        ),
        Tool(
            "write_section",
            "Write one section of the living document, citing the fact ids it rests on.",
            _object(
                {
                    "key": SECTION_KEY,
                    "body": {"type": "string"},
                    "cited_fact_ids": {"type": "array", "items": {"type": "integer"}},
                },
                ["key", "body", "cited_fact_ids"],
            ),
            _write_section,
            mutating=True,
        ),
        Tool(
            "link_evidence",
            "Add fact ids as evidence for a section already written (its text unchanged).",
            _object(
                {"key": SECTION_KEY, "fact_ids": {"type": "array", "items": {"type": "integer"}}},
                ["key", "fact_ids"],
            ),
            _link_evidence,
            mutating=True,
        ),
        Tool(
            "record_no_change",
            "Say that a section needs no change, and why.",
            _object({"key": SECTION_KEY, "reason": {"type": "string"}}, ["key", "reason"]),
            _record_no_change,
            mutating=True,
        ),
    )
}


def result_text(result: dict[str, Any]) -> str:
    return json.dumps(result, ensure_ascii=False, sort_keys=True)
