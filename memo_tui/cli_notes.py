"""The CLI's notes and deletes: `memo note add|edit|delete`, `memo notes`, and `memo forget ID`
(a capture deleted with all it owns)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.cli_args import record_id
from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.core.words import plural
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.notes import NoteOwner, NotesService
    from memo_tui.core.services import Services
    from store import CaptureSummary, NoteRecord

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2
_TEXT_HELP = "the note's text; - reads it from stdin"


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    note = commands.add_parser("note", help="write, edit or delete a project's or client's note")
    actions = note.add_subparsers(dest="note_command", metavar="ACTION", required=True)
    add = actions.add_parser("add", parents=[common], help="a new note about a project or client")
    about = add.add_mutually_exclusive_group(required=True)
    about.add_argument("--project", metavar="NAME", help="about this project")
    about.add_argument("--client", metavar="NAME", help="about this client")
    add.add_argument("text", metavar="TEXT", help=_TEXT_HELP)
    edit = actions.add_parser("edit", parents=[common], help="a note's new text")
    edit.add_argument("note_id", type=record_id, metavar="ID")
    edit.add_argument("text", metavar="TEXT", help=_TEXT_HELP)
    delete = actions.add_parser("delete", parents=[common], help="delete a note")
    delete.add_argument("note_id", type=record_id, metavar="ID")
    notes = commands.add_parser(
        "notes", parents=[common], help="projects' and clients' notes, with who wrote them"
    )
    only = notes.add_mutually_exclusive_group()
    only.add_argument("--project", metavar="NAME", help="this project's notes, then its client's")
    only.add_argument("--client", metavar="NAME", help="this client's notes")
    forget = commands.add_parser(
        "forget",
        parents=[common],
        help="delete a capture and everything memo took from it (asks first)",
    )
    forget.add_argument(
        "capture_id", type=record_id, metavar="ID", help="the capture's id (see `memo`)"
    )
    forget.add_argument("--yes", "-y", action="store_true", help="delete without asking")


# Notes


def _service(services: Services) -> NotesService:
    from memo_tui.core.notes import NotesService

    def embed() -> None:
        """As the app does after a note is written: embed what has no vector (best effort;
        a missing model is no news, a model that failed is)."""
        done = services.embed.backfill()
        if done.error and not services.embed.unavailable:
            warn(f"memo: the note is saved but not embedded ({done.error}); memo backfill")

    return NotesService(services.store, services.settings.user_name, refreshed=embed)


def _note(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.notes import NoteRefused

    command = args.note_command
    notes = _service(services)
    try:
        if command == "add":
            owner = _owner(notes, args)
            assert owner is not None  # (argparse requires --project or --client)
            note, action = notes.add(owner, _text(args.text)), "added"
        elif command == "edit":
            edited = notes.edit(args.note_id, _text(args.text))
            note, action = edited.note, "edited" if edited.changed else "unchanged"
        else:
            note, action = notes.delete(args.note_id), "deleted"
    except NoteRefused as error:
        warn(f"memo note {command}: {error}")
        return EXIT_USAGE
    if args.json:
        render.emit_json({"action": action, "note": note_json(note)})
    else:
        print(f"{action} note {note.id} about {_about(note)}")
    return EXIT_OK


def _notes(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.notes import NoteRefused

    notes = _service(services)
    try:
        listed = notes.listed(_owner(notes, args))
    except NoteRefused as error:
        warn(f"memo notes: {error}")
        return EXIT_USAGE
    if args.json:
        render.emit_json({"notes": [note_json(n) for n in listed]})
        return EXIT_OK
    if not listed:
        print("No notes yet. Write one: memo note add --project NAME TEXT")
    heading = None
    for note in listed:
        if (note.kind, note.owner) != heading:
            heading = (note.kind, note.owner)
            print(_about(note))
        provenance = note.provenance
        by = provenance.triggered_by_user or provenance.triggered_by_agent if provenance else None
        written = f", by {sanitize_line(by)}" if by else ""
        print(f"  note {note.id}, {note.updated_at[:10]}{written}")
        for line in sanitize(note.body).split("\n"):
            print(f"    {sanitize_line(line)}")
    return EXIT_OK


def _owner(notes: NotesService, args: argparse.Namespace) -> NoteOwner | None:
    if args.project is not None:
        return notes.project(args.project)
    if args.client is not None:
        return notes.client(args.client)
    return None


def _text(given: str) -> str:
    """TEXT as given, or stdin's for `-`."""
    return sys.stdin.read() if given == "-" else given


def _about(note: NoteRecord) -> str:
    return f"{sanitize_line(note.owner)} (the {note.kind})"


def note_json(note: NoteRecord) -> dict[str, Any]:
    """A note for a script: its text, what it is about, and who wrote it, when, from where."""
    return {
        "id": note.id,
        "fact_key": note.fact_key,
        "kind": note.kind,
        "owner": note.owner,
        "body": note.body,
        "updated_at": note.updated_at,
        "provenance": vars(note.provenance) if note.provenance else None,
    }


# Deleting a capture


def _forget(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.capture import delete

    try:
        found = delete.capture_to_delete(services.store, args.capture_id)
    except delete.UnknownCapture as error:
        warn(f"memo forget: {error}")
        return EXIT_USAGE
    if not args.yes and not _confirmed(found):
        return EXIT_REFUSED
    try:
        gone = delete.delete_capture(services.store, args.capture_id)
    except delete.UnknownCapture as error:  # deleted meanwhile
        warn(f"memo forget: {error}")
        return EXIT_USAGE
    if args.json:
        render.emit_json({"deleted": capture_json(gone)})
    else:
        print(f"deleted {_described(gone)}")
    return EXIT_OK


def _confirmed(found: CaptureSummary) -> bool:
    """In a terminal, the user's yes; in a script, a refusal that says to add --yes."""
    if not sys.stdin.isatty():
        warn(
            f"memo forget: not deleting {_described(found)} without asking; "
            f"add --yes to delete it from a script: memo forget {found.id} --yes"
        )
        return False
    print(f"Delete {_described(found)}? It cannot be undone. [y/N] ", end="", file=sys.stderr)
    sys.stderr.flush()
    try:
        answer = input()
    except EOFError:
        answer = ""
    if answer.strip().lower() in ("y", "yes"):
        return True
    warn("memo forget: kept")
    return False


def _described(capture: CaptureSummary) -> str:
    when = capture.occurred_at or capture.captured_at[:10]
    return sanitize_line(
        f"capture {capture.id}, {capture.title!r} ({when}), with its "
        f"{plural(capture.decisions, 'decision')} and {plural(capture.action_items, 'action item')}"
    )


def capture_json(capture: CaptureSummary) -> dict[str, Any]:
    return {
        "capture_id": capture.id,
        "title": capture.title,
        "occurred_at": capture.occurred_at,
        "decisions": capture.decisions,
        "action_items": capture.action_items,
    }


HANDLERS = {"note": _note, "notes": _notes, "forget": _forget}
