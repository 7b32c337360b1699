"""`memo facts`: the stored facts, filtered by type, day, person, project, client or status."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.cli_args import count
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK, EXIT_USAGE = 0, 2


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    from memo_tui.core.recall.facts_filter import STATUSES
    from store import FACT_TYPES

    facts = commands.add_parser("facts", parents=[common], help="list stored facts")
    facts.add_argument("--type", choices=FACT_TYPES, dest="fact_type")
    facts.add_argument(
        "--since", default="", metavar="YYYY-MM-DD", help="only meetings on or after this day"
    )
    facts.add_argument(
        "--until", default="", metavar="YYYY-MM-DD", help="only meetings on or before this day"
    )
    facts.add_argument("--person", default="", metavar="NAME", help="only about this person")
    facts.add_argument("--project", default="", metavar="NAME", help="only about this project")
    facts.add_argument("--client", default="", metavar="NAME", help="only about this client")
    facts.add_argument(
        "--status", choices=STATUSES, help="only decisions or action items with this status"
    )
    facts.add_argument("--limit", type=count, default=None)
    facts.add_argument(
        "--current", action="store_true", help="leave out decisions later ones replaced"
    )


def facts(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.recall.facts_filter import FactOptions, read_filter

    options = FactOptions(
        fact_types=(args.fact_type,) if args.fact_type else (),
        since=args.since,
        until=args.until,
        person=args.person,
        project=args.project,
        client=args.client,
        status=args.status or "",
        current=args.current,
    )
    read = read_filter(options, services.store)
    for problem in read.problems:
        warn(f"memo facts: {problem}")
    if read.problems:
        return EXIT_USAGE
    facts = services.store.facts.filtered(read.flt, limit=args.limit)
    if args.json:
        people = services.store.facts.people_of(facts)
        render.emit_json({"facts": [render.fact_json(f, people.get(f.fact_key)) for f in facts]})
    else:
        render.print_facts(facts, filtered=not read.flt.empty)
    return EXIT_OK
