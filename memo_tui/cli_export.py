"""`memo export markdown|adr DIR`: the record as notes for an Obsidian-style vault, or its
decisions as decision records."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.core.safety import sanitize_line

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK, EXIT_REFUSED = 0, 1


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    export = commands.add_parser(
        "export", help="the record as files: Markdown for a vault, or decision records"
    )
    kinds = export.add_subparsers(dest="export_command", metavar="KIND", required=True)
    markdown = kinds.add_parser(
        "markdown",
        parents=[common],
        help="a note per meeting, person and project, and a decision log; a re-run rewrites "
        "only what memo wrote and you left as it was",
    )
    markdown.add_argument("folder", type=Path, metavar="DIR")
    markdown.add_argument(
        "--transcripts", action="store_true", help="each meeting's lines in its note too"
    )
    adr = kinds.add_parser(
        "adr",
        parents=[common],
        help="a decision record (MADR) per decision: status, superseded-by links, reasons",
    )
    adr.add_argument("folder", type=Path, metavar="DIR")


def export(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.export import adr, markdown
    from memo_tui.core.export.vault import write_notes

    if args.export_command == "adr":
        made, retire = adr.records(services.store), adr.retired
    else:
        made, retire = markdown.notes(services, args.transcripts), None
    try:
        done = write_notes(args.folder, made, retire)
    except (OSError, ValueError) as error:
        render.warn(f"memo export: {error}")
        return EXIT_REFUSED
    if args.json:
        render.emit_json(
            {
                "written": done.written,
                "unchanged": done.unchanged,
                "skipped": done.skipped,
                "failed": done.failed,
                "stale": done.stale,
                "retired": done.retired,
            }
        )
        return EXIT_REFUSED if done.failed else EXIT_OK
    print(
        f"{len(done.written)} written, {len(done.unchanged)} unchanged, "
        f"{len(done.skipped)} skipped in {sanitize_line(str(args.folder))}"
    )
    for path in done.skipped:
        print(f"  skipped {sanitize_line(path)}: changed since memo wrote it (yours now)")
    for path in done.stale:
        kept = "marked deprecated" if path in done.retired else "left in place"
        print(f"  stale {sanitize_line(path)}: memo no longer makes it ({kept})")
    for path, why in done.failed.items():
        render.warn(f"memo export: {sanitize_line(path)} not written: {sanitize_line(why)}")
    return EXIT_REFUSED if done.failed else EXIT_OK
