"""The tools agents call: reads run side by side, writes hold a lock and land in the store.

Each tool is a JSON-Schema'd function over the store (the reads in `tool_reads`, the writes
in `tool_writes`); this module names them, with their schemas, for the models. A result is a
dict the model reads back (as JSON); a write says what it did ("written", "unchanged",
"skipped_user_edit").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memo_tui.core.agents import tool_reads, tool_writes
from memo_tui.core.agents.spec import RunSpec
from memo_tui.core.agents.tool_writes import FACETS
from memo_tui.core.llm.types import ToolSpec
from store import Store

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


SECTION_KEY = {"type": "string", "description": "the section, e.g. summary"}
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
            tool_reads.search_facts,
        ),
        Tool(
            "get_fact",
            "One fact by its id.",
            _object({"fact_id": {"type": "integer"}}, ["fact_id"]),
            tool_reads.get_fact,
        ),
        Tool(
            "get_project",
            "A project: client, meetings, notes and its living document's sections.",
            _object({"project": {"type": "string"}}, []),
            tool_reads.get_project,
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
            tool_reads.list_project_evidence,
        ),
        Tool(
            "context_status",
            "How much of the context budget this run has used.",
            _object({}, []),
            tool_reads.context_status,
        ),
        Tool(
            "get_capture",
            "One meeting: title, date, its decisions and action items with their lines.",
            _object({"capture_id": {"type": "integer"}}, ["capture_id"]),
            tool_reads.get_capture,
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
            tool_reads.get_capture_lines,
        ),
        Tool(
            "list_decisions",
            "Decisions, newest first, optionally between two dates (YYYY-MM-DD).",
            _object(_PERIOD, []),
            tool_reads.list_decisions,
        ),
        Tool(
            "list_action_items",
            "Action items, newest first, optionally between two dates (YYYY-MM-DD).",
            _object(_PERIOD, []),
            tool_reads.list_action_items,
        ),
        Tool(
            "get_person",
            "A person: aliases, what they owe, what they decided, their meetings.",
            _object({"person": {"type": "string"}}, []),
            tool_reads.get_person,
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
            tool_writes.write_digest,
            mutating=True,
        ),
        Tool(
            "find_unlinked_evidence",
            "Meetings that name the project but are not linked to it, most mentions first.",
            _object({"project": {"type": "string"}}, []),
            tool_reads.find_unlinked_evidence,
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
            tool_writes.propose_backfill,
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
            tool_writes.write_person_facet,
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
            tool_writes.write_section,
            mutating=True,
        ),
        Tool(
            "link_evidence",
            "Add fact ids as evidence for a section already written (its text unchanged).",
            _object(
                {"key": SECTION_KEY, "fact_ids": {"type": "array", "items": {"type": "integer"}}},
                ["key", "fact_ids"],
            ),
            tool_writes.link_evidence,
            mutating=True,
        ),
        Tool(
            "record_no_change",
            "Say that a section needs no change, and why.",
            _object({"key": SECTION_KEY, "reason": {"type": "string"}}, ["key", "reason"]),
            tool_writes.record_no_change,
            mutating=True,
        ),
    )
}


def result_text(result: dict[str, Any]) -> str:
    return json.dumps(result, ensure_ascii=False, sort_keys=True)
