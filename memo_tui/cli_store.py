"""`memo store copy --to URL`: move this store into another, a team's PostgreSQL server
(or a file), every row with its id; run again, it copies only what is new."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from memo_tui.core.safety import sanitize_line
from memo_tui.render import warn
from memo_tui.settings import store_location

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK, EXIT_REFUSED = 0, 1


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    store = commands.add_parser("store", help="the store itself: copy it into a team's server")
    actions = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    copy = actions.add_parser(
        "copy",
        parents=[common],
        help="copy every row the target lacks, ids kept (again: only what is new)",
    )
    copy.add_argument(
        "--to",
        required=True,
        type=store_location,
        metavar="URL",
        help="the store to copy into: postgresql://user@host/database (or a file)",
    )


def _store(args: argparse.Namespace, services: Services) -> int:
    from store import Store, StoreError
    from store.copy import copy_store

    target = Store(args.to, busy_timeout_ms=services.settings.busy_timeout_ms)
    source = services.store
    if target.location == source.location:
        warn("memo store copy: the target is this store; name another with --to")
        return EXIT_REFUSED
    try:
        with target:
            copied = copy_store(source, target, _progress(args))
    except StoreError as error:
        warn(f"memo store copy: {error}")
        return EXIT_REFUSED
    added = sum(copied.added.values())
    if args.json:
        print(json.dumps({"target": target.location, **vars(copied), "rows": added}, indent=2))
        return EXIT_OK
    said = f"Copied {added:,} rows and {copied.vectors:,} vectors to {target.location}"
    print(sanitize_line(said))
    if copied.updated:
        print(f"{copied.updated:,} rows copied before were brought up to date.")
    if copied.present:
        print(f"{copied.present:,} rows were there already as they are here.")
    if copied.vectors_skipped:
        print(f"No vectors copied: {copied.vectors_skipped}; memo backfill there embeds them.")
    return EXIT_OK


def _progress(args: argparse.Namespace) -> Any:
    """A line per table on stderr (one line rewritten on a terminal)."""
    live, shown = sys.stderr.isatty(), {"at": 0.0}

    def progress(table: str, done: int, total: int) -> None:
        now, whole = time.monotonic(), done == total
        if args.json or not (whole or (live and now - shown["at"] > 0.25)):
            return
        shown["at"] = now
        said = f"copying {table}: {done:,}/{total:,}"
        print(
            f"\r\x1b[K{said}" if live else said,
            end="\n" if whole or not live else "",
            file=sys.stderr,
            flush=True,
        )

    return progress


HANDLERS = {"store": _store}
