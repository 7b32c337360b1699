"""`memo review`: the decisions and action items memo is not sure of, and the user's word on
each (accept, reject, edit; show one with its transcript lines)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memo_tui import render, render_history

if TYPE_CHECKING:
    from memo_tui.core.history.review import ReviewService
    from memo_tui.core.services import Services

EXIT_OK, EXIT_USAGE = 0, 2


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    review = commands.add_parser(
        "review",
        parents=[common],
        help="decisions and action items memo is not sure of: accept, reject, edit",
    )
    review.add_argument("--all", action="store_true", help="the rejected ones too")
    verbs = review.add_subparsers(dest="review_command", metavar="ACTION")
    for verb, says in (
        ("show", "one item with the transcript lines it was taken from"),
        ("accept", "it is right: a fact from now on, with your name on it"),
        ("reject", "it is wrong: kept as rejected, never shown as a fact, not proposed again"),
    ):
        one = verbs.add_parser(verb, parents=[common], help=says)
        one.add_argument("item", metavar="ITEM", help="d12 (decision 12) or a7 (action item 7)")
    edit = verbs.add_parser(
        "edit", parents=[common], help="change its words, owner or due date (then it is a fact)"
    )
    edit.add_argument("item", metavar="ITEM", help="d12 (decision 12) or a7 (action item 7)")
    edit.add_argument("--text", help="the words as they should read")
    edit.add_argument("--owner", metavar="NAME", help="who owns it (who decided, for a decision)")
    edit.add_argument("--due", metavar="DATE", help="due date, YYYY-MM-DD (none: no due date)")


def _service(services: Services) -> ReviewService:
    from memo_tui.core.history.review import ReviewService

    return ReviewService(services.store, services.settings.user_name, services.embed.backfill)


def _review(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.history.review import Edit, ReviewError

    service = _service(services)
    command = getattr(args, "review_command", None)
    if command is None:
        return _listed(args, service)
    try:
        if command == "show":
            item = service.find(args.item)
        elif command == "edit":
            if args.text is None and args.owner is None and args.due is None:
                raise ReviewError("say what to change: --text, --owner or --due")
            item = service.edit(args.item, Edit(args.text, args.owner, args.due))
        else:
            item = service.decide(args.item, command)
    except ReviewError as error:
        render.warn(f"memo review {command}: {error}")
        return EXIT_USAGE
    lines = service.evidence(item) if command == "show" else None
    if args.json:
        render.emit_json(render_history.review_json(item, lines))
        return EXIT_OK
    if command != "show":
        done = {"accept": "accepted", "reject": "rejected", "edit": "edited"}[command]
        print(f"{done} {item.handle}: {item.record.state}")
    render_history.print_review_item(item)
    if lines is not None:
        render_history.print_evidence(lines, item)
    return EXIT_OK


def _listed(args: argparse.Namespace, service: ReviewService) -> int:
    items = service.listed(everything=args.all)
    if args.json:
        render.emit_json({"items": [render_history.review_json(i) for i in items]})
        return EXIT_OK
    if not items:
        print("Nothing to review: memo is sure of every decision and action item it holds.")
        return EXIT_OK
    for item in items:
        render_history.print_review_item(item)
    waiting = sum(i.record.state == "proposed" for i in items)
    print(
        f"\n{waiting} proposed (memo is not sure of them; facts say 'unconfirmed'). "
        "memo review show ITEM | accept ITEM | reject ITEM | edit ITEM --text/--owner/--due"
    )
    return EXIT_OK


HANDLERS = {"review": _review}
