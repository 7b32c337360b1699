"""What the app's pages show (a meeting, a person, a project, a concept, an agent run), read
from the store in one go: each page's worker calls its reader and draws the record it gets.
None means the thing is gone (deleted meanwhile): the page says so."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from store import CaptureLink, FactFilter

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import (
        ActionItemRecord,
        CaptureSummary,
        ConceptSummary,
        DecisionRecord,
        EventRecord,
        FactRecord,
        PersonDetail,
        PersonReport,
        ProjectDetail,
        RunRecord,
        SectionRecord,
        Store,
    )

PROJECT_FACTS = 100  # the decisions and action items a project's page lists, newest first


@dataclass(frozen=True)
class Source:
    """A capture's text and what memo took from it."""

    capture: CaptureSummary
    title: str
    body: str
    decisions: list[DecisionRecord]
    actions: list[ActionItemRecord]


@dataclass(frozen=True)
class CaptureView:
    source: Source
    source_format: str
    source_path: str | None
    summary: str
    chat_of: CaptureSummary | None  # the meeting whose chat this capture is
    chats: list[Source]  # the meeting's side channels (its saved chat)
    meta: dict[str, Any]  # how it was read: "source_lines", "skipped"


def capture_view(services: Services, capture_id: int) -> CaptureView | None:
    store = services.store
    found = store.captures.get(capture_id)
    if found is None:
        return None
    title, body, source_format, source_path = store.captures.source(capture_id)
    summary = next((f.text for f in store.facts.all("summary", capture_id=capture_id)), "")
    meeting = store.captures.get(found.channel_of) if found.channel_of is not None else None
    return CaptureView(
        _source(store, found, title, body),
        source_format,
        source_path,
        summary,
        meeting,
        [
            _source(store, chat, *store.captures.source(chat.id)[:2])
            for chat in store.captures.side_channels(capture_id)
        ],
        store.captures.meta(capture_id),
    )


def _source(store: Store, capture: CaptureSummary, title: str, body: str) -> Source:
    decisions, actions = store.captures.items([capture.id])
    return Source(capture, title, body, decisions, actions)


@dataclass(frozen=True)
class PersonView:
    person: PersonDetail
    waiting: list[ActionItemRecord | DecisionRecord]  # items on a name that may be theirs
    meetings: dict[int, CaptureLink]  # the meetings of those items and of their own
    mail: PersonReport | None  # their addresses and mail, when any names them
    sections: list[SectionRecord]  # their living document


def person_view(services: Services, person_id: int) -> PersonView | None:
    from memo_tui.core.entities.service import EntityService

    store = services.store
    person = store.people.get(person_id)
    if person is None:
        return None
    entities = EntityService(store, services.settings.user_name)
    offered = entities.waiting_by_person().get(person_id, [])
    waiting = [item for mention in offered for item in entities.waiting_on(mention)]
    meetings = dict(person.captures)
    for capture_id in {item.capture_id for item in waiting} - set(meetings):
        if (meeting := store.captures.get(capture_id)) is not None:
            day = meeting.occurred_at or meeting.captured_at[:10]
            meetings[capture_id] = CaptureLink(capture_id, meeting.title, day)
    rolled = [r for r in store.reports.people() if r.person_id == person_id]
    mail = rolled[0] if rolled and rolled[0].emails else None
    return PersonView(person, waiting, meetings, mail, store.sections.all("person", person_id))


@dataclass(frozen=True)
class ProjectView:
    project: ProjectDetail
    facts: list[FactRecord]  # its meetings' decisions and action items, newest first
    sections: list[SectionRecord]


def project_view(services: Services, project_id: int) -> ProjectView | None:
    store = services.store
    project = store.projects.get(project_id)
    if project is None:
        return None
    kinds = FactFilter(project_ids=(project_id,), fact_types=("decision", "action_item"))
    facts = [f for f in store.facts.page(kinds, PROJECT_FACTS) if f.capture_id is not None]
    return ProjectView(project, facts, store.sections.all("project", project_id))


@dataclass(frozen=True)
class ConceptView:
    concept: ConceptSummary
    sections: list[SectionRecord]


def concept_view(services: Services, concept_id: int) -> ConceptView | None:
    store = services.store
    found = next((c for c in store.concepts.all() if c.id == concept_id), None)
    if found is None:
        return None
    return ConceptView(found, store.sections.all("concept", concept_id))


@dataclass(frozen=True)
class RunView:
    run: RunRecord
    events: list[EventRecord]  # those after the last one seen


def run_view(services: Services, run_id: int, after_seq: int = 0) -> RunView | None:
    store = services.store
    found = store.runs.get(run_id)
    if found is None:
        return None
    return RunView(found, store.runs.events(run_id, after_seq=after_seq))
