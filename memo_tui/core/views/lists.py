"""The lists the app's panes show (captures, people, projects, runs, newsletters, concepts),
what the Facts pane suggests and opens by name, and the counts the status line gives: read
once a refresh, in a worker. A resize cuts the same records to the new width without reading
the store again."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import (
        CaptureSummary,
        ConceptSummary,
        NewsletterSummary,
        PendingMention,
        PersonReport,
        ProjectReport,
        RunRecord,
    )


@dataclass(frozen=True)
class Lists:
    captures: list[CaptureSummary]  # oldest first, as stored
    people: list[PersonReport]
    owed: dict[int, int]  # open items others owe each person (those they asked for)
    to_settle: dict[int, list[PendingMention]]  # waiting names each person may be
    projects: list[ProjectReport]
    runs: list[RunRecord]
    newsletters: list[NewsletterSummary]
    concepts: list[ConceptSummary]
    people_names: list[tuple[int, str]]
    project_names: list[tuple[int, str]]
    clients: list[str]


@dataclass(frozen=True)
class StatusCounts:
    """What the status line says: the model answering, the search it can do, what waits on
    the user, and today's spend."""

    provider: str
    model: str  # the answering model ("" offline)
    search: str  # the embedding model's own name, or "keyword search only"
    waiting_names: int
    proposed_changes: int
    to_review: int  # items, proposals and what memo applied on its own (the review shows all)
    spend_microdollars: int
    proposed_items: int = 0  # decisions and action items memo is not sure of


def read_lists(services: Services) -> Lists:
    from memo_tui.core.entities.service import EntityService

    store = services.store
    directory = store.people.directory()
    return Lists(
        captures=store.captures.all(),
        people=store.reports.people(),
        owed=store.people.owed_counts(),
        to_settle=EntityService(store, services.settings.user_name).waiting_by_person(),
        projects=store.reports.projects(),
        runs=store.runs.all(),
        newsletters=store.email.newsletters(),
        concepts=store.concepts.all(),
        people_names=[(p.id, p.name) for p in directory.people],
        project_names=[(p.id, p.name) for p in directory.projects],
        clients=[c.name for c in directory.clients],
    )


def past_questions(services: Services, most: int = 20) -> list[str]:
    """Questions asked in earlier sessions, newest first (each one a chat run)."""
    runs = services.store.runs.all(limit=10 * most)
    asked = [json.loads(r.spec_json or "{}").get("entity") for r in runs]
    found = [q for q, r in zip(asked, runs, strict=True) if r.agent_type == "chat" and q]
    return list(dict.fromkeys(str(q) for q in found))[:most]


def read_status(services: Services) -> StatusCounts:
    from memo_tui.core.history.service import ChangesService
    from memo_tui.core.llm import select

    store = services.store
    provider = services.provider.name
    model = "" if provider == "offline" else select.model_for(services.settings, "answer")
    vectors = store.vectors.model()
    # The model by its own name ("all-MiniLM-L6-v2:int8"): "F1 help" stays on at 80 columns.
    model_name = (vectors or "").rsplit("/", 1)[-1]
    search = "keyword search only" if services.embed.unavailable or not vectors else model_name
    waiting = len(store.people.pending_mentions()) + len(store.email.address_proposals())
    today = dt.datetime.now(dt.UTC).date().isoformat()  # the ledger keeps UTC
    spend = sum(cost.cost_microdollars for cost in store.ledger.costs("day", today))
    review = ChangesService(store, services.settings.user_name).review()
    proposed = sum(1 for c in review if c.status == "proposed")
    items = store.review.waiting()
    return StatusCounts(
        provider, model, search, waiting, proposed, len(review) + items, spend, items
    )
