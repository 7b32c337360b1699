"""The tools agents write with (each holds its entity's lock): living documents' sections
and their citations, digests, a person's facets, and meetings linked to a project once the
user said yes. A write says what it did ("written", "unchanged", "skipped_user_edit")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memo_tui.core.agents import tool_reads
from memo_tui.core.agents.citable import uncitable
from memo_tui.core.agents.proposals import meeting_ids

if TYPE_CHECKING:
    from memo_tui.core.agents.tools import ToolContext

FACETS = ("role", "topics", "commitments")


def write_section(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
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


def record_no_change(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return {"key": args.get("key"), "outcome": "no_change", "reason": args.get("reason", "")}


def write_digest(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
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


def propose_backfill(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """Runs only once the user accepted: link the proposed meetings to the project."""
    project_id = tool_reads.project_named(ctx, args)
    if project_id is None:
        return {"error": f"no project {args.get('project')!r}"}
    ids, bad = meeting_ids(args)  # as the user was shown them
    if bad:
        return {"error": f"not meeting ids: {', '.join(bad)}; give the ids the tools returned"}
    linked = ctx.store.projects.link_captures(project_id, ids, "agent")
    return {"outcome": "accepted" if linked else "unchanged", "linked": linked}


def write_person_facet(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    facet = str(args["facet"])
    if facet not in FACETS:
        return {"error": f"facet must be one of {', '.join(FACETS)}"}
    return write_section(ctx, {**args, "key": f"facet:{facet}", "body": args["value"]})


def link_evidence(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
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
