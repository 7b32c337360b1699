"""The tools agents call: reads run side by side, writes hold a lock and land in the store.

Each tool is a JSON-Schema'd function over the store. A result is a dict the model reads
back (as JSON); a write says what it did ("written", "unchanged", "skipped_user_edit").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memo_tui.core.agents.spec import RunSpec
from memo_tui.core.llm.types import ToolSpec
from store import FactFilter, FactRecord, Store

Handler = Callable[["ToolContext", dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class ToolContext:
    store: Store
    spec: RunSpec
    run_id: int


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    schema: dict[str, Any]
    handler: Handler
    mutating: bool = False

    def lock_key(self, spec: RunSpec) -> str | None:
        """Writes to one entity by one agent go one at a time."""
        return spec.lock_key if self.mutating else None

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
    from memo_tui.core.recall.search import hybrid_search

    flt = FactFilter(fact_types=tuple(args.get("types") or ()))
    found = hybrid_search(
        ctx.store, None, str(args["query"]), flt, limit=int(args.get("limit", 10))
    )
    return {"facts": [fact_json(hit.fact) for hit in found.hits]}


def _get_fact(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    fact = ctx.store.fact(int(args["fact_id"]))
    return {"fact": fact_json(fact)} if fact else {"error": f"no fact {args['fact_id']}"}


def _project_id(ctx: ToolContext, args: dict[str, Any]) -> int | None:
    name = args.get("project")
    if name is None:
        return ctx.spec.entity_id if ctx.spec.entity_type == "project" else None
    found = [p.id for p in ctx.store.projects() if p.name.lower() == str(name).lower()]
    return found[0] if found else None


def _get_project(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = _project_id(ctx, args)
    detail = ctx.store.project(project_id) if project_id is not None else None
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
            for x in ctx.store.sections("project", s.id)
        ],
    }


def _list_project_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    project_id = _project_id(ctx, args)
    if project_id is None:
        return {"error": f"no project {args.get('project')!r}"}
    types = tuple(args.get("types") or ("decision", "action_item", "project_note", "client_note"))
    facts = ctx.store.facts_page(
        FactFilter(project_ids=(project_id,), fact_types=types), int(args.get("limit", 60))
    )
    return {"facts": [fact_json(f) for f in facts]}


def _context_status(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """How full the context is: the latest model turn's input, against the run's limit."""
    finished = [step for step in ctx.store.steps(ctx.run_id) if step.finished_at]
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
    known = ctx.store.facts_by_keys(cited)
    missing = [k for k in cited if k not in known]
    if missing:
        return {"error": f"no such fact ids: {missing}; cite ids the tools returned"}
    outcome = ctx.store.write_section(
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


SECTION_KEY = {"type": "string", "description": "the section, e.g. summary"}

TOOLS: dict[str, Tool] = {
    t.name: t
    for t in (
        Tool(
            "search_facts",
            "Keyword search over every stored fact (decisions, action items, notes).",
            _object(
                {
                    "query": {"type": "string"},
                    "types": {"type": "array", "items": {"type": "string"}},
                    "limit": {"type": "integer"},
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
