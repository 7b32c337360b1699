"""The record as Markdown notes for an Obsidian-style vault (`memo export markdown DIR`).

One note per meeting (YAML front matter: date, attendees, projects, source, memo's id; its
summary, decisions and action items with `[[Person]]` links and line references; the
transcript when asked), one per person (what they owe, are owed and decided), one per
project (its living document and notes), and a decision log. Names are stable, so a
re-export finds its own notes again (core.export.vault writes them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memo_tui.core.export.vault import Note, safe_name
from memo_tui.core.safety import sanitize_line

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import ActionItemRecord, CaptureSummary, DecisionRecord, Store


@dataclass(frozen=True)
class Names:
    """Each meeting's, person's and project's note name (a wiki link's target)."""

    meetings: dict[int, str]
    people: dict[int, str]
    projects: dict[int, str]
    projects_of: dict[int, list[str]]  # a meeting's projects' names


def notes(services: Services, transcripts: bool = False) -> list[Note]:
    """Every note of the export, meetings first."""
    store = services.store
    captures = store.captures.all()
    names = _names(store, captures)
    made = [_meeting(services, c, names, transcripts) for c in captures]
    made += [_person(services, pid, names) for pid in names.people]
    made += [_project(services, pid, names) for pid in names.projects]
    made.append(_decision_log(store, captures, names))
    return [note for note in made if note is not None]


def _names(store: Store, captures: list[CaptureSummary]) -> Names:
    def unique(pairs: Iterable[tuple[int, str]]) -> dict[int, str]:
        named: dict[int, str] = {}
        for key, name in pairs:
            stem = safe_name(name)
            taken = {n.casefold() for n in named.values()}  # (file systems that fold case)
            named[key] = stem if stem.casefold() not in taken else f"{stem} ({key})"
        return named

    projects = unique((p.id, p.name) for p in store.projects.all())
    projects_of: dict[int, list[str]] = {}
    for project_id, name in projects.items():
        detail = store.projects.get(project_id)
        for meeting in detail.captures if detail else []:
            projects_of.setdefault(meeting.id, []).append(name)
    return Names(
        meetings={c.id: f"{safe_name(f'{meeting_day(c)} {c.title}')} ({c.id})" for c in captures},
        people=unique((p.id, p.name) for p in store.people.all()),
        projects=projects,
        projects_of=projects_of,
    )


def meeting_day(capture: CaptureSummary) -> str:
    """A meeting's date, else the day it was captured."""
    return capture.occurred_at or capture.captured_at[:10]


def _front(fields: dict[str, object]) -> str:
    """YAML front matter; every value written as JSON, which YAML reads as it is."""
    lines = ["---"]
    for key, value in fields.items():
        if isinstance(value, list):
            lines.append(f"{key}:" if value else f"{key}: []")
            lines += [f"  - {json.dumps(item)}" for item in value]
        else:
            lines.append(f"{key}: {json.dumps(value)}")  # (\u escapes: YAML reads them)
    return "\n".join([*lines, "---", ""])


def _link(name: str) -> str:
    return f"[[{name}]]"


def line_span(start: int | None, end: int | None) -> str:
    """The lines a fact was read from ("L12", "L12-14"); "" when it has none."""
    if start is None:
        return ""
    return f"L{start}" if end in (None, start) else f"L{start}-{end}"


def _lines(start: int | None, end: int | None) -> str:
    span = line_span(start, end)
    return f" ({span})" if span else ""


# A proposed item: memo is not sure of it and the user has not said yes (memo review).
UNCONFIRMED = " *(unconfirmed)*"


def _decision(d: DecisionRecord, names: Names, meeting: str | None = None) -> str:
    decider = names.people.get(d.person_id) if d.person_id is not None else None
    who = f" — decided by {_link(decider)}" if decider else ""
    who = who or (f" — decided by {d.decided_by}" if d.decided_by else "")
    why = f" Why: {d.reasoning}" if d.reasoning else ""
    where = f" in {_link(meeting)}" if meeting else ""
    replaced = " *(replaced by a later decision)*" if d.status == "superseded" else ""
    said = f"- {d.description}{who}{where}{_lines(d.line_start, d.line_end)}{replaced}"
    said += f"{UNCONFIRMED if d.state == 'proposed' else ''}{why}"
    return sanitize_line(said)


def _action(a: ActionItemRecord, names: Names, meeting: str | None = None) -> str:
    box = "x" if a.status == "done" else " "
    owner = names.people.get(a.person_id) if a.person_id is not None else None
    who = f" — {_link(owner)}" if owner else (f" — {a.assignee_raw}" if a.assignee_raw else "")
    due = f", due {a.due_date}" if a.due_date else ""
    where = f" in {_link(meeting)}" if meeting else ""
    unsure = UNCONFIRMED if a.state == "proposed" else ""
    return sanitize_line(
        f"- [{box}] {a.description}{who}{due}{where}{_lines(a.line_start, a.line_end)}{unsure}"
    )


def _meeting(
    services: Services, capture: CaptureSummary, names: Names, transcripts: bool
) -> Note | None:
    from memo_tui.core.views.pages import capture_view

    view = capture_view(services, capture.id)
    if view is None:
        return None
    store = services.store
    attended = [names.people[p] for p in store.people.attendees([capture.id]) if p in names.people]
    projects = names.projects_of.get(capture.id, [])
    front = _front(
        {
            "date": meeting_day(capture),
            "attendees": [_link(n) for n in attended],
            "projects": [_link(n) for n in projects],
            "source": view.source_path or view.source_format,
            "memo_id": capture.id,
            "type": "meeting",
        }
    )
    body = [
        sanitize_line(f"# {capture.title}"),
        "",
        sanitize_line(view.summary or "(no summary)"),
        "",
    ]
    decided = [_decision(d, names) for d in view.source.decisions]
    asked = [_action(a, names) for a in view.source.actions]
    body += ["## Decisions", *(decided or ["None."]), "", "## Action items", *(asked or ["None."])]
    if transcripts:
        lines = enumerate(view.source.body.splitlines(), 1)
        numbered = (sanitize_line(f"{n:>4}  {text}") for n, text in lines)
        body += ["", "## Transcript", "", "```text", *numbered, "```"]
    return Note(f"meetings/{names.meetings[capture.id]}.md", front + "\n".join(body) + "\n")


def _person(services: Services, person_id: int, names: Names) -> Note | None:
    from memo_tui.core.views.pages import person_view

    view = person_view(services, person_id)
    if view is None:
        return None
    person = view.person
    meeting = names.meetings.get
    front = _front(
        {"aliases": [a.alias for a in person.aliases], "memo_id": person.id, "type": "person"}
    )
    body = [sanitize_line(f"# {person.name}"), "", "## Owes"]
    body += [_action(a, names, meeting(a.capture_id)) for a in person.open_action_items] or [
        "Nothing open."
    ]
    body += ["", "## Is owed"]
    body += [_action(a, names, meeting(a.capture_id)) for a in person.owed] or ["Nothing open."]
    body += ["", "## Decided"]
    body += [_decision(d, names, meeting(d.capture_id)) for d in person.decisions] or ["None."]
    body += ["", "## Meetings", *(f"- {_link(meeting(m.id) or m.title)}" for m in person.meetings)]
    return Note(f"people/{names.people[person_id]}.md", front + "\n".join(body) + "\n")


def _project(services: Services, project_id: int, names: Names) -> Note | None:
    from memo_tui.core.views.pages import project_view

    view = project_view(services, project_id)
    if view is None:
        return None
    summary = view.project.summary
    front = _front({"client": summary.client, "memo_id": summary.id, "type": "project"})
    body = [sanitize_line(f"# {summary.name}"), ""]
    for section in view.sections:
        body += [f"## {section.key.replace('_', ' ').capitalize()}", "", section.body, ""]
    notes = [sanitize_line(f"- {n.body} *({n.owner})*") for n in view.project.notes]
    body += ["## Notes", *(notes or ["None."]), "", "## Meetings"]
    body += [f"- {_link(names.meetings.get(c.id, c.title))}" for c in view.project.captures]
    return Note(f"projects/{names.projects[project_id]}.md", front + "\n".join(body) + "\n")


def _decision_log(store: Store, captures: list[CaptureSummary], names: Names) -> Note:
    """Every decision, newest meeting first; those later ones replaced say so."""
    body = ["# Decision log", ""]
    for capture in sorted(captures, key=lambda c: (meeting_day(c), c.id), reverse=True):
        decided = store.captures.decisions([capture.id])
        if decided:
            body += [f"## {meeting_day(capture)} {_link(names.meetings[capture.id])}", ""]
            body += [_decision(d, names) for d in decided] + [""]
    return Note("Decision log.md", _front({"type": "decision log"}) + "\n".join(body))
