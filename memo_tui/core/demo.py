"""The demo store: the project's own sample meetings and a small mailbox (two threads and a
few newsletters), seeded on first use."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from memo_tui.core.capture import CaptureResult, CaptureService
from store import Provenance, Store, utc_now

DEMO_CLIENT = "Halvorsen Freight"
# What the sample meetings are about: (project, its client). They exist before the meetings
# are captured, so each meeting is linked to the projects it names.
DEMO_PROJECTS: tuple[tuple[str, str | None], ...] = (
    ("Atlas", None),
    ("Beacon", DEMO_CLIENT),
    ("Cobalt", None),
)
# Notes as a user keeps them.
CLIENT_NOTE = (
    "Ingrid Halvorsen signs off; Sam Cheng is the day-to-day contact for devices and sync "
    "rules (not our Sam Chen). Office and first depot in Bergen."
)
BEACON_NOTE = (
    "Pilot: ten drivers from the Bergen depot since 16 November. Tromsø waits for four weeks "
    "of Bergen data."
)


def demo_meetings() -> list[tuple[str, str]]:
    """(file name, text) of each shipped sample meeting, in date order."""
    folder = resources.files("memo_tui").joinpath("demo", "meetings")
    files = sorted((entry for entry in folder.iterdir() if entry.is_file()), key=lambda e: e.name)
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in files]


DEMO_MAILBOX = "northwind.mbox"


def demo_steps() -> int:
    """How many steps a seeding takes: each meeting, then the mailbox."""
    return len(demo_meetings()) + 1


def seed_demo(
    capture: CaptureService, progress: Callable[[str], None] | None = None
) -> list[CaptureResult]:
    """The demo's projects, client and notes, then every sample meeting not yet in the store,
    then the mailbox's new messages; `progress` is told each step's name once it is done.
    Idempotent: a second call finds everything there and changes nothing. A seeding stopped
    part way (`progress` raised) leaves its mark, so the next start finishes it."""
    _seed_projects(capture.store, capture.options.user)
    mark = _seeding_mark(capture.store)
    mark.touch()
    results = []
    for name, text in demo_meetings():
        source_format = name.rsplit(".", 1)[-1]
        result = capture.capture_text(
            text, name, source_format, source_path=name, source_kind="demo"
        )
        results.append(result)
        if progress is not None:
            progress(name)
    _seed_mail(capture)
    if progress is not None:
        progress(DEMO_MAILBOX)
    mark.unlink(missing_ok=True)
    return results


def _seed_mail(capture: CaptureService) -> None:
    """The demo mailbox, imported as `memo capture` imports mail (threads and newsletters)."""
    from memo_tui.core.email.importer import import_mail

    mailbox = resources.files("memo_tui").joinpath("demo", "mail", DEMO_MAILBOX)
    with resources.as_file(mailbox) as path:
        import_mail(capture.store, path, capture.capture_thread, label=DEMO_MAILBOX)


def unseeded(store: Store) -> bool:
    """Whether the demo store is to be seeded: it is empty (its first run), or a seeding was
    stopped part way (ctrl+x, a crash). Seeding again adds only what is missing; a sample
    meeting the user deleted from a whole demo stays deleted."""
    return _seeding_mark(store).exists() or not store.captures.all()


def _seeding_mark(store: Store) -> Path:
    """A file beside the store while a seeding is under way (for a server's store, in the
    temporary folder, named for the server)."""
    if store.on_postgres:
        named = hashlib.sha256(store.location.encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"memo-demo-{named}.seeding"
    return store.path.with_name(store.path.name + ".seeding")


def _seed_projects(store: Store, user: str) -> None:
    """The demo's projects, client and notes, unless the store has projects already."""
    if store.projects.all():
        return
    for project, client in DEMO_PROJECTS:
        store.projects.add(project, client)
    now = utc_now()
    store.notes.add_for_client(DEMO_CLIENT, CLIENT_NOTE, Provenance("note", "demo", now, user))
    store.notes.add_for_project("Beacon", BEACON_NOTE, Provenance("note", "demo", now, user))
