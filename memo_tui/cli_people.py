"""The CLI's people commands: `memo people` (and its merge and split), `resolve`, `confirm`,
`pending` and `relink`: who a name in a meeting means, and changing that."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.cli_args import record_id
from memo_tui.core.safety import sanitize_line
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.entities.service import EntityService
    from memo_tui.core.services import Services

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    people = commands.add_parser(
        "people", parents=[common], help="people, their aliases, open action items, decisions"
    )
    changes = people.add_subparsers(dest="people_command", metavar="CHANGE")
    merge = changes.add_parser(
        "merge", parents=[common], help="one person is another: move everything of theirs over"
    )
    merge.add_argument("merged", metavar="PERSON", help="the one to merge (name, alias or id)")
    merge.add_argument("kept", metavar="INTO", help="the one to keep")
    split = changes.add_parser(
        "split", parents=[common], help="undo a merge: the merged person back, with their items"
    )
    split.add_argument("person", metavar="PERSON", help="the person merged into")
    split.add_argument("--name", metavar="NAME", help="the merged person's name (else the latest)")
    resolve = commands.add_parser(
        "resolve", parents=[common], help="who a name means: resolved, ambiguous or nobody"
    )
    resolve.add_argument("mention", metavar="MENTION")
    resolve.add_argument(
        "--capture", type=record_id, metavar="ID", help="as that meeting would: its roster first"
    )
    confirm = commands.add_parser(
        "confirm",
        parents=[common],
        help="say who a name means (writes an alias, back-fills waiting facts)",
    )
    confirm.add_argument("mention", metavar="MENTION")
    confirm.add_argument("person", metavar="PERSON", nargs="?", help="a name, alias or id")
    confirm.add_argument(
        "--none", action="store_true", help="the name is none of the people memo knows"
    )
    confirm.add_argument(
        "--capture",
        type=record_id,
        action="append",
        dest="captures",
        metavar="ID",
        help="only in this meeting (repeatable); no alias is written",
    )
    commands.add_parser(
        "pending", parents=[common], help="names waiting for you to say who they are"
    )
    commands.add_parser(
        "relink", parents=[common], help="link people in meetings captured before memo knew them"
    )


def _entities(services: Services) -> EntityService:
    from memo_tui.core.entities.service import EntityService

    return EntityService(services.store, services.settings.user_name)


def _people(args: argparse.Namespace, services: Services) -> int:
    if getattr(args, "people_command", None):
        return _people_change(args, services)
    people = _entities(services).people()
    owed = services.store.people.owed_counts()
    if args.json:
        mail = {r.person_id: r for r in services.store.reports.people()}
        render.emit_json(
            {
                "people": [
                    render.person_json(p, mail.get(p.id), owed.get(p.id, 0)) for p in people
                ],
                "proposed_merges": [vars(a) for a in services.store.email.address_proposals()],
            }
        )
    else:
        render.print_people(people, owed)
    return EXIT_OK


def _people_change(args: argparse.Namespace, services: Services) -> int:
    """memo people merge PERSON INTO / memo people split PERSON [--name NAME]."""
    from memo_tui.core.entities.service import UnknownPerson
    from store import MergeError

    entities = _entities(services)
    try:
        if args.people_command == "merge":
            done = entities.merge(args.merged, args.kept)
            kept = entities.person(str(done.kept_id)).name
            payload = {"merged": done.merged_name, "into": kept, **vars(done)}
            said = (
                f"merged {done.merged_name} into {kept}: {done.decisions} decisions, "
                f"{done.action_items} action items, {done.meetings} meetings moved "
                f'(undo: memo people split "{kept}" --name "{done.merged_name}")'
            )
        else:
            done, back = entities.split(args.person, args.name)
            payload = {"split": done.merged_name, "person_id": back, **vars(done)}
            said = (
                f"split {done.merged_name} (id {back}) back out of "
                f"{entities.person(str(done.kept_id)).name}"
            )
    except (UnknownPerson, MergeError) as error:
        warn(f"memo people {args.people_command}: {error}")
        return EXIT_REFUSED
    if args.json:
        render.emit_json(payload)
    else:
        print(sanitize_line(said))
    return EXIT_OK


def _resolve(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.entities.service import UnknownPerson

    entities = _entities(services)
    try:
        found = (
            entities.resolve(args.mention)
            if args.capture is None
            else entities.resolve_in(args.mention, args.capture)
        )
    except UnknownPerson as error:
        warn(f"memo resolve: {error}")
        return EXIT_REFUSED
    if args.json:
        render.emit_json(render.resolution_json(found))
    else:
        render.print_resolution(found)
    return EXIT_OK


def _confirm(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.entities.service import UnknownPerson

    if args.none == (args.person is not None):
        warn("memo confirm: give either PERSON or --none")
        return EXIT_USAGE
    entities = _entities(services)
    try:
        person = None if args.none else entities.person(args.person)
        filled = entities.confirm(args.mention, person, args.captures)
    except UnknownPerson as error:
        warn(f"memo confirm: {error}")
        return EXIT_REFUSED
    except ValueError as error:
        warn(f"memo confirm: {error}")
        return EXIT_USAGE
    payload = {
        "mention": args.mention,
        "person": person.name if person else None,
        "person_id": person.id if person else None,
        "backfilled": {"action_items": filled.action_items, "decisions": filled.decisions},
    }
    if args.json:
        render.emit_json(payload)
    else:
        who = person.name if person else "none of the people memo knows"
        print(
            f"{sanitize_line(args.mention)} = {sanitize_line(who)}; back-filled "
            f"{filled.action_items} action items and {filled.decisions} decisions"
        )
    return EXIT_OK


def _pending(args: argparse.Namespace, services: Services) -> int:
    waiting = _entities(services).pending()
    if args.json:
        render.emit_json({"pending": [render.pending_json(p) for p in waiting]})
    else:
        render.print_pending(waiting)
    return EXIT_OK


def _relink(args: argparse.Namespace, services: Services) -> int:
    done = _entities(services).relink()
    if args.json:
        render.emit_json(
            {
                "captures": done.meetings,
                "facts": len(done.changes),
                "changes": [vars(change) for change in done.changes],
            }
        )
        return EXIT_OK
    print(f"relinked {done.meetings} meetings; {len(done.changes)} owners and deciders changed")
    for change in done.changes:
        now = "waiting for you (memo pending)" if change.waiting else change.now or "nobody"
        print(
            f"  {sanitize_line(change.title)}: {sanitize_line(change.said)}: "
            f"{sanitize_line(change.was or 'nobody')} -> {sanitize_line(now)}"
        )
    return EXIT_OK


HANDLERS: dict[str, Callable[[argparse.Namespace, Services], int]] = {
    "people": _people,
    "resolve": _resolve,
    "confirm": _confirm,
    "pending": _pending,
    "relink": _relink,
}
