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
    """Wire the services around the store at `db_path`; it opens (and is created) on first use."""
    store = Store(db_path, busy_timeout_ms=settings.busy_timeout_ms)
    capture = CaptureService(
        store, CaptureOptions(max_chars=settings.max_capture_chars, user=settings.user_name)
    )
    return Services(settings=settings, store=store, capture=capture)
