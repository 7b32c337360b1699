"""The CLI's project and client commands: `memo projects`, `memo project add|show|rename|delete|
section`, `memo clients`, `memo client rename|delete`.

Errors exit 2 and change nothing (`project add` and `project show` keep their exit 1)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.core.words import plural
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.projects import Kind, ProjectService
    from memo_tui.core.sections import SectionChange
    from memo_tui.core.services import Services
    from store import Attached, Renamed, SectionRecord

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    commands.add_parser("projects", parents=[common], help="projects, their clients and counts")
    project = commands.add_parser(
        "project", help="add, show, rename or delete a project; edit its document's sections"
    )
    actions = project.add_subparsers(dest="project_command", metavar="ACTION", required=True)
    add = actions.add_parser("add", parents=[common], help="add a project")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--client", metavar="NAME", help="the client it is for")
    show = actions.add_parser("show", parents=[common], help="a project's living document")
    show.add_argument("name", metavar="NAME")
    _rename_and_delete(actions, common, "project", "meetings, notes, document and runs")
    section = actions.add_parser(
        "section",
        parents=[common],
        help="a section of a project's living document: show it, edit it (agents then leave "
        "it) or reset it (the next compile may rewrite it)",
    )
    section.add_argument("name", metavar="NAME", help="the project")
    section.add_argument("key", metavar="KEY", help="the section, e.g. summary")
    change = section.add_mutually_exclusive_group()
    change.add_argument(
        "--edit", metavar="TEXT", help="your text for it (- reads stdin); agents leave it"
    )
    change.add_argument(
        "--reset",
        action="store_true",
        help="give it back to the agent: the next compile may rewrite it",
    )
    commands.add_parser("clients", parents=[common], help="clients, their projects and notes")
    client = commands.add_parser("client", help="rename or delete a client")
    verbs = client.add_subparsers(dest="client_command", metavar="ACTION", required=True)
    _rename_and_delete(verbs, common, "client", "projects and notes")


def _rename_and_delete(actions: Any, common: argparse.ArgumentParser, kind: str, kept: str) -> None:
    rename = actions.add_parser(
        "rename", parents=[common], help=f"rename a {kind}: its {kept} stay with it"
    )
    rename.add_argument("old", metavar="OLD")
    rename.add_argument("new", metavar="NEW")
    delete = actions.add_parser(
        "delete",
        parents=[common],
        help=f"delete a {kind} (refused, saying what it has, if it has anything; meetings "
        "are never deleted)",
    )
    delete.add_argument("name", metavar="NAME")
    delete.add_argument(
        "--force", action="store_true", help="delete it with what it has (see the refusal)"
    )


def _service(services: Services) -> ProjectService:
    from memo_tui.core.projects import ProjectService

    def embed() -> None:
        """A rename re-indexes notes and drops their vectors: embed them again (best effort)."""
        done = services.embed.backfill()
        if done.error and not services.embed.unavailable:
            warn(
                f"memo: renamed, but its notes are not embedded again ({done.error}); memo backfill"
            )

    return ProjectService(services.store, refreshed=embed)


# Listing and showing


def _projects(args: argparse.Namespace, services: Services) -> int:
    projects = services.store.projects.all()
    if args.json:
        render.emit_json({"projects": [vars(p) for p in projects]})
        return EXIT_OK
    if not projects:
        print("No projects yet. Add one: memo project add NAME [--client NAME]")
    for p in projects:
        client = f" ({p.client})" if p.client else ""
        print(
            sanitize_line(
                f"{p.name}{client}: {plural(p.meetings, 'meeting')}, {plural(p.facts, 'fact')}, "
                f"{plural(p.notes, 'note')}, last {p.last_meeting or 'never'}"
            )
        )
    return EXIT_OK


def _clients(args: argparse.Namespace, services: Services) -> int:
    clients = services.store.clients.all()
    if args.json:
        render.emit_json({"clients": [vars(c) for c in clients]})
        return EXIT_OK
    if not clients:
        print("No clients yet. Add one with a project: memo project add NAME --client NAME")
    for c in clients:
        print(
            sanitize_line(f"{c.name}: {plural(c.projects, 'project')}, {plural(c.notes, 'note')}")
        )
    return EXIT_OK


def _project(args: argparse.Namespace, services: Services) -> int:
    command = args.project_command
    if command == "add":
        return _add(args, services)
    if command == "show":
        return _show(args, services)
    if command == "section":
        return _section(args, services)
    return _rename_or_delete(args, services, "project", command)


def _client(args: argparse.Namespace, services: Services) -> int:
    return _rename_or_delete(args, services, "client", args.client_command)


def _add(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.projects import ProjectRefused, ProjectService

    try:
        project_id = ProjectService(services.store).add(args.name, args.client)
    except ProjectRefused as error:
        warn(f"memo: {error}")
        return EXIT_REFUSED
    added = services.store.projects.get(project_id)
    name = added.summary.name if added else args.name
    client = added.summary.client if added else args.client
    if args.json:
        render.emit_json({"id": project_id, "name": name, "client": client})
    else:
        print(sanitize_line(f"added project {name} (id {project_id})"))
    return EXIT_OK


def _show(args: argparse.Namespace, services: Services) -> int:
    store = services.store
    found = next((p for p in store.projects.all() if p.name.lower() == args.name.lower()), None)
    if found is None:
        warn(f"memo: no project called {args.name!r}; memo projects lists them")
        return EXIT_REFUSED
    sections = store.sections.all("project", found.id)
    payload = {
        "name": found.name,
        "sections": [section_json(s) for s in sections],
        "evidence_count": found.facts,
    }
    if args.json:
        render.emit_json(payload)
        return EXIT_OK
    print(sanitize_line(f"{found.name}: {found.facts} facts of evidence"))
    if not sections:
        print(f"No living document yet: memo run project_compile {found.name!r}")
    print_sections(sections)
    return EXIT_OK


def section_json(section: SectionRecord) -> dict[str, Any]:
    return {
        "key": section.key,
        "body": section.body,
        "cited_fact_ids": section.cited_fact_keys,
        "edited_by": section.edited_by,
    }


def print_sections(sections: list[SectionRecord]) -> None:
    for s in sections:
        by = " (edited by you)" if s.edited_by == "user" else ""
        print(f"\n## {sanitize_line(s.key)}{by}")
        print(sanitize(s.body))


# Renaming and deleting


def _rename_or_delete(args: argparse.Namespace, services: Services, kind: Kind, verb: str) -> int:
    from memo_tui.core.projects import ProjectRefused, StillInUse, describe

    projects = _service(services)
    try:
        if verb == "rename":
            renamed = projects.rename(kind, args.old, args.new)
        else:
            had = projects.delete(kind, args.name, force=args.force)
    except StillInUse as error:
        warn(f"memo {kind} delete: {error}; {_forcing(error.attached)}")
        return EXIT_USAGE
    except ProjectRefused as error:
        warn(f"memo {kind} {verb}: {error}")
        return EXIT_USAGE
    if verb == "rename":
        _said_renamed(args, renamed)
    elif args.json:
        render.emit_json(attached_json(had) | {"deleted": True})
    else:
        had_said = f"; it had {describe(had)}" if had.in_use else ""
        print(sanitize_line(f"deleted {kind} {had.name!r}{had_said}"))
        if had.meetings:
            print("the meetings themselves stay")
        if had.projects:
            print(sanitize_line(f"its projects stay, without a client: {', '.join(had.projects)}"))
        if had.runs:
            print(f"{plural(had.runs, 'agent run')} about it stay in memo runs")
    return EXIT_OK


def _forcing(had: Attached) -> str:
    """What --force would do, for a refused delete."""
    gone = [
        what
        for count, what in (
            (had.meetings, "the meetings' links (the meetings stay)"),
            (had.notes, "the notes"),
            (had.sections, "the document"),
        )
        if count
    ]
    stays = "; its projects stay, without a client" if had.projects else ""
    deletes = f" with {' and '.join(gone)}" if gone else ""
    command = f"memo {had.kind} delete {_quoted(had.name)} --force"
    return f"{command} deletes it{deletes}{stays}"


def _said_renamed(args: argparse.Namespace, renamed: Renamed) -> None:
    if args.json:
        render.emit_json(
            {
                "kind": renamed.kind,
                "id": renamed.id,
                "old_name": renamed.old_name,
                "name": renamed.name,
                "changed": renamed.changed,
                "notes_reindexed": renamed.notes_reindexed,
                "aliases_dropped": renamed.aliases_dropped,
            }
        )
    elif not renamed.changed:
        print(sanitize_line(f"{renamed.kind} {renamed.name!r} is called that already"))
    else:
        print(sanitize_line(f"renamed {renamed.kind} {renamed.old_name!r} to {renamed.name!r}"))


def attached_json(had: Attached) -> dict[str, Any]:
    """A project or client and what it has, for a script."""
    return {
        "kind": had.kind,
        "id": had.id,
        "name": had.name,
        "meetings": had.meetings,
        "notes": had.notes,
        "sections": had.sections,
        "projects": list(had.projects),
        "aliases": had.aliases,
        "runs": had.runs,
    }


def _quoted(name: str) -> str:
    return repr(name) if any(c.isspace() for c in name) or not name.isprintable() else name


# A section of a project's living document


def _section(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.projects import ProjectRefused, ProjectService
    from memo_tui.core.sections import SectionRefused, SectionService

    sections = SectionService(services.store)
    try:
        project_id, name = ProjectService(services.store).find("project", args.name)
        if args.edit is not None:
            text = sys.stdin.read() if args.edit == "-" else args.edit
            change = sections.edit("project", project_id, args.key, text)
        elif args.reset:
            change = sections.reset("project", project_id, args.key)
        else:
            return _show_section(args, sections.section("project", project_id, args.key), name)
    except (ProjectRefused, SectionRefused) as error:
        warn(f"memo project section: {error}")
        return EXIT_USAGE
    _said_section(args, name, change)
    return EXIT_OK


def _show_section(args: argparse.Namespace, section: SectionRecord | None, name: str) -> int:
    if section is None:
        warn(
            f"memo project section: {name!r} has no section {args.key!r} yet; "
            f"memo run project_compile {_quoted(name)} writes it"
        )
        return EXIT_USAGE
    if args.json:
        render.emit_json({"project": name} | section_json(section))
    else:
        print_sections([section])
    return EXIT_OK


def _said_section(args: argparse.Namespace, name: str, change: SectionChange) -> None:
    section = change.section
    if args.json:
        render.emit_json({"project": name} | section_json(section) | {"outcome": change.outcome})
        return
    key = sanitize_line(section.key)
    if change.outcome == "unchanged":
        already = "reads so and is yours" if section.edited_by == "user" else "is the agent's"
        print(sanitize_line(f"{name}: section {key} already {already}"))
    elif section.edited_by == "user":
        print(
            sanitize_line(
                f"{name}: section {key} is yours now, agents leave it (--reset gives it back)"
            )
        )
    else:
        print(
            sanitize_line(
                f"{name}: section {key} is the agent's again; "
                f"memo run project_compile {_quoted(name)} may rewrite it"
            )
        )


HANDLERS = {
    "projects": _projects,
    "project": _project,
    "clients": _clients,
    "client": _client,
}
