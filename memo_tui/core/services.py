"""Settings -> Store -> services, built once by the CLI (and later the TUI) and handed around."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.settings import Settings
from store import Store


@dataclass
class Services:
    settings: Settings
    store: Store
    capture: CaptureService

    def close(self) -> None:
        self.store.close()


def build_services(settings: Settings, db_path: Path) -> Services:
    """Open the store at `db_path` (creating and migrating it) and wire the services."""
    store = Store(db_path, busy_timeout_ms=settings.busy_timeout_ms).open()
    capture = CaptureService(
        store, CaptureOptions(max_chars=settings.max_capture_chars, user=settings.user_name)
    )
    return Services(settings=settings, store=store, capture=capture)
