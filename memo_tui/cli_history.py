"""The CLI's history commands: `memo changes` (what replaced what, applied or proposed; accept,
reject, undo, scan)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memo_tui import render

if TYPE_CHECKING:
    from memo_tui.core.history.service import ChangesService
    from memo_tui.core.services import Services

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
        one.add_argument("change_id", type=int, metavar="ID")
    verbs.add_parser(
        "scan", parents=[common], help="look again through every meeting for replaced decisions"
    )


def _service(services: Services) -> ChangesService:
    from memo_tui.core.history.service import ChangesService

    return ChangesService(services.store, services.settings.user_name, services.embed.backfill)


def _changes(args: argparse.Namespace, services: Services) -> int:
    from store import ChangeStateError, NotFoundError

    service = _service(services)
    command = getattr(args, "changes_command", None)
    if command == "scan":
        done = service.scan()
        if args.json:
            render.emit_json(
                {"captures": done.captures, "found": [render.change_json(c) for c in done.found]}
            )
        else:
            print(f"looked through {done.captures} meetings; {len(done.found)} changes found")
            for change in done.found:
                render.print_change(change)
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
            render.print_change(change)
        return EXIT_OK
    listed = service.listed(everything=args.all)
    if args.json:
        render.emit_json({"changes": [render.change_json(c) for c in listed]})
        return EXIT_OK
    if not listed:
        print("No changes across meetings yet.")
        return EXIT_OK
    for change in listed:
        render.print_change(change)
    waiting = sum(c.status == "proposed" for c in listed)
    hint = f"{waiting} proposed: memo changes accept ID | reject ID. " if waiting else ""
    print(f"\n{hint}Undo an applied one: memo changes undo ID.")
    return EXIT_OK


HANDLERS = {"changes": _changes}
