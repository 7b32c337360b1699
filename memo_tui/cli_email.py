"""The CLI's email commands: `memo capture` of mbox files, Maildir folders and .eml files
(routed here), and `memo newsletters`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.core.safety import sanitize_line
from memo_tui.core.words import plural

if TYPE_CHECKING:
    from memo_tui.core.email.importer import ImportProgress, ImportSummary
    from memo_tui.core.services import Services

EXIT_OK = 0


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    commands.add_parser(
        "newsletters", parents=[common], help="newsletters and other bulk mail, by sender"
    )


def import_mail(path: Path, services: Services, quiet: bool) -> ImportSummary:
    """Import one mail source, saying how it goes on stderr (unless `quiet`)."""
    from memo_tui.core.email.importer import import_mail as run

    def progress(state: ImportProgress) -> None:
        if quiet:
            return
        if state.stage == "reading":
            eta = f", about {state.eta_s:.0f} s left" if state.eta_s is not None else ""
            eta = f" {state.share:.0%}{eta}" if state.share else eta
            said = f"{path.name}: {state.messages:,} messages read ({state.rate:,.0f}/s{eta})"
        elif state.stage == "threads":
            said = f"{path.name}: threads {state.threads_done:,}/{state.threads_total:,}"
        else:
            return
        print(sanitize_line(said), file=sys.stderr)

    capture = services.capture
    return run(
        services.store, path, capture.capture_thread, progress, None, capture.thread_preparer
    )


def summary_json(summary: ImportSummary) -> dict[str, Any]:
    return {
        "source": summary.source,
        "messages": summary.messages,
        "new": summary.new,
        "unchanged": summary.unchanged,
        "newsletters": summary.bulk,
        "skipped": [{"where": s.where, "reason": s.reason} for s in summary.skipped],
        "threads": summary.threads,
        "capture_ids": summary.capture_ids,
        "failed_threads": summary.failed,
        "decisions": summary.decisions,
        "action_items": summary.action_items,
    }


def print_summary(summary: ImportSummary) -> None:
    skipped = f", {len(summary.skipped)} skipped (malformed)" if summary.skipped else ""
    print(
        sanitize_line(
            f"{summary.source}: {summary.messages:,} messages ({summary.new:,} new, "
            f"{summary.unchanged:,} already stored, {summary.bulk:,} newsletters{skipped}); "
            f"{plural(summary.threads, 'thread')} captured with "
            f"{plural(summary.decisions, 'decision')} and "
            f"{plural(summary.action_items, 'action item')}"
        )
    )
    for s in summary.skipped[:10]:
        print(sanitize_line(f"  skipped {s.where}: {s.reason}"), file=sys.stderr)
    for failure in summary.failed[:10]:
        print(
            sanitize_line(f"  not captured (tried again next import): {failure}"), file=sys.stderr
        )


def _newsletters(args: argparse.Namespace, services: Services) -> int:
    found = services.store.email.newsletters()
    if args.json:
        render.emit_json(
            {
                "newsletters": [
                    {
                        "sender": n.sender,
                        "name": n.name,
                        "messages": n.messages,
                        "last_seen": n.last_seen,
                        "unsubscribe": n.unsubscribe,
                        "why": n.reason,
                    }
                    for n in found
                ]
            }
        )
        return EXIT_OK
    if not found:
        print("No newsletters yet: memo capture an mbox, a Maildir folder or .eml files")
    for n in found:
        last = (n.last_seen or "")[:10]
        said = f"{n.name} <{n.sender}>: {plural(n.messages, 'message')}, last {last}"
        print(sanitize_line(said))
        if n.unsubscribe:
            print(sanitize_line(f"  unsubscribe: {n.unsubscribe}"))
    return EXIT_OK


HANDLERS = {"newsletters": _newsletters}
