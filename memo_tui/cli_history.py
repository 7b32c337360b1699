"""The CLI's history commands: `memo changes` (what replaced what, applied or proposed; accept,
reject, undo, scan)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memo_tui import render, render_history
from memo_tui.cli_args import record_id
from memo_tui.core.safety import sanitize_line

if TYPE_CHECKING:
    from memo_tui.core.history.service import ChangesService
    from memo_tui.core.services import Services
    from store import CaptureSummary, Directory

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    changes = commands.add_parser(
        "changes",
        parents=[common],
        help="decisions later meetings replaced: applied, proposed; accept, reject, undo",
    )
    changes.add_argument("--all", action="store_true", help="rejected and undone ones too")
    verbs = changes.add_subparsers(dest="changes_command", metavar="ACTION")
    for verb, says in (
        ("accept", "apply a proposed change: the old decision is kept as history"),
        ("reject", "turn a proposed change down: the old decision holds"),
        ("undo", "take back an applied change: the old decision holds again"),
    ):
        one = verbs.add_parser(verb, parents=[common], help=says)
        one.add_argument("change_id", type=record_id, metavar="ID")
    verbs.add_parser(
        "scan", parents=[common], help="look again through every meeting for replaced decisions"
    )
    items = commands.add_parser(
        "items", parents=[common], help="action items: who owes what, by when, and what is done"
    )
    items.add_argument("--open", action="store_true", help="only those still owed")
    items.add_argument("--owner", metavar="NAME", help="only this person's (a name or alias)")
    items.add_argument(
        "--owed-to", metavar="NAME", help="only those this person asked someone else for"
    )


def _service(services: Services) -> ChangesService:
    from memo_tui.core.history.service import ChangesService

    return ChangesService(
        services.store,
        services.settings.user_name,
        services.embed.backfill,
        services.capture.embed,
    )


def _changes(args: argparse.Namespace, services: Services) -> int:
    from store import ChangeStateError, NotFoundError

    service = _service(services)
    command = getattr(args, "changes_command", None)
    if command == "scan":
        done = service.scan()
        if args.json:
            render.emit_json(
                {
                    "captures": done.captures,
                    "subjects_filled": done.subjects,
                    "found": [render.change_json(c) for c in done.found],
                }
            )
        else:
            filled = (
                f"; {done.subjects} older decisions given what they are about"
                if done.subjects
                else ""
            )
            print(
                f"looked through {done.captures} meetings; {len(done.found)} changes found{filled}"
            )
            for change in done.found:
                render_history.print_change(change)
        return EXIT_OK
    if command in ("accept", "reject", "undo"):
        try:
            change = service.decide(args.change_id, command)
        except (NotFoundError, ChangeStateError) as error:
            render.warn(f"memo changes {command}: {error}")
            return EXIT_USAGE
        if args.json:
            render.emit_json(render.change_json(change))
        else:
            render_history.print_change(change)
        return EXIT_OK
    listed = service.listed(everything=args.all)
    if args.json:
        render.emit_json({"changes": [render.change_json(c) for c in listed]})
        return EXIT_OK
    if not listed:
        print("No changes across meetings yet.")
        return EXIT_OK
    for change in listed:
        render_history.print_change(change)
    waiting = sum(c.status == "proposed" for c in listed)
    hint = f"{waiting} proposed: memo changes accept ID | reject ID. " if waiting else ""
    print(f"\n{hint}Undo an applied one: memo changes undo ID.")
    return EXIT_OK


def _items(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.entities.resolve import Resolved
    from memo_tui.core.entities.service import EntityService
    from memo_tui.core.history.items import action_items

    store = services.store
    entities = EntityService(store, services.settings.user_name)
    wanted: dict[str, int] = {}
    for option in ("owner", "owed_to"):
        name = getattr(args, option)
        if name:
            found = entities.resolve(name)
            if not isinstance(found, Resolved):
                render.warn(f"memo items: no one memo knows is {name!r} (memo people lists them)")
                return EXIT_USAGE
            wanted[option] = found.entity.id
    items = action_items(store, args.open, wanted.get("owner"), wanted.get("owed_to"))
    waiting = {c.old_id: c for c in store.changes.all(("proposed",)) if c.kind == "closes"}
    titles = {c: store.captures.get(c) for c in {i.capture_id for i in items}}
    called = _known_as(store.people.directory())
    if args.json:
        render.emit_json(
            {
                "items": [
                    render.action_json(i)
                    | {
                        "meeting": _title(titles[i.capture_id]),
                        "date": _day(titles[i.capture_id]),
                        "close_proposed": waiting[i.id].id if i.id in waiting else None,
                    }
                    for i in items
                ]
            }
        )
        return EXIT_OK
    if not items:
        print("No action items match.")
        return EXIT_OK
    for item in items:
        meeting = titles[item.capture_id]
        due = f", due {item.due_date}" if item.due_date else ""
        owner = item.owner or "no owner"
        by = called.get(item.asked_by.lower(), item.asked_by) if item.asked_by else None
        asked = f", asked by {sanitize_line(by)}" if by else ""
        print(
            f"  {item.status:<8} {sanitize_line(item.description)} -> {sanitize_line(owner)}{due}"
            f"{asked}  ({sanitize_line(_title(meeting) or '')}, {_day(meeting)})"
        )
        if item.id in waiting:
            change = waiting[item.id]
            print(
                f"           done? {sanitize_line(change.evidence)} "
                f"({change.new_day}): memo changes accept {change.id}"
            )
    return EXIT_OK


def _known_as(directory: Directory) -> dict[str, str]:
    """Each name a person is known by, lower-cased, to the name memo shows for them: "asked
    by" says "Elizabeth Harcourt" whether the meeting's label said "Libby Harcourt" or not."""
    names = {p.id: p.name for p in directory.people}
    called = {name.lower(): name for name in names.values()}
    for alias in directory.aliases:
        if alias.entity_type == "person" and alias.entity_id in names:
            called.setdefault(alias.alias.lower(), names[alias.entity_id])
    return called


def _day(capture: CaptureSummary | None) -> str | None:
    if capture is None:
        return None
    return capture.occurred_at or capture.captured_at[:10]


def _title(capture: CaptureSummary | None) -> str | None:
    return capture.title if capture is not None else None


HANDLERS = {"changes": _changes, "items": _items}
