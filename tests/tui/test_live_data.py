"""The app shows what another process writes to its store while it runs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from support.tui import drive, until

from memo_tui.core.services import Services
from memo_tui.ui.app import MemoApp
from memo_tui.ui.widgets.captures import CapturesPane

# The app on a SQLite file and on a PostgreSQL team store (conftest): there it hears of
# other processes' writes by LISTEN/NOTIFY.
BOTH_STORES = True

MEETING = """Depot audit
Date: 2026-03-23
Attendees: Libby Harcourt, Omar Haddad

Libby Harcourt: We renew the forklift lease with Hallam, that's agreed.
Omar Haddad: I'll send them the signed copy by Friday.
"""


def test_a_capture_made_in_another_shell_shows_without_a_restart(
    memo: Any, services: Services, tmp_path: Path
) -> None:
    app = MemoApp(services)
    app.WATCH_EVERY_S = 0.1  # type: ignore[misc]
    meeting = tmp_path / "2026-03-23-depot-audit.txt"
    meeting.write_text(MEETING)

    def titles() -> str:
        return str(app.query_one(CapturesPane).rows)

    async def script(pilot: Any) -> None:
        assert "Depot audit" not in titles()
        done = await asyncio.to_thread(
            memo, "--db", services.store.url or str(services.store.path), "capture", str(meeting)
        )
        assert done.code == 0, done.stderr
        await until(pilot, lambda: "Depot audit" in titles(), "the new capture listed")

    drive(app, script)


def test_the_apps_own_writes_are_no_outside_change(services: Services) -> None:
    """Only another connection's commit moves the version the app watches."""
    store = services.store
    seen = store.data_version()
    store.projects.add("Kestrel chilled")
    assert store.data_version() == seen
