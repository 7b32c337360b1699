"""Services as the app and the CLI build them, offline: no key, no embedding model."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from support.embedding import INT8_FOLDER

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import Store


def offline(
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str = "memo.db",
    location: str | None = None,
    **settings: Any,
) -> Services:
    """Offline services on `folder`/`name` (or the PostgreSQL `location`), with a MEMO_HOME
    of their own in `folder`."""
    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings

    for var in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_EMBED_MODEL_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(folder / "home"))
    monkeypatch.setenv("MEMO_EMBED_DOWNLOAD", "0")  # no model download from a test
    settings.setdefault("embed_int8_dir", INT8_FOLDER)  # (used only with a model path)
    return build_services(Settings(provider="offline", **settings), location or folder / name)


def held_extraction(services: Services) -> tuple[threading.Event, threading.Event]:
    """Each extraction waits (up to 30 s) for the second event, after setting the first: a
    test presses keys while a capture is under way, then lets it go on."""
    started, release = threading.Event(), threading.Event()
    extract = services.capture.extractor

    def held(transcript: Any) -> Any:  # noqa: ANN401 - whatever the extractor returns
        started.set()
        release.wait(30)
        return extract(transcript)

    services.capture.extractor = held
    return started, release


def accept_all(store: Store) -> None:
    """Every proposed decision and action item asserted, as if the user had said yes to each:
    for a test of something else that the review would otherwise stop first."""
    for item in store.review.items(("proposed",)):
        store.review.settle(item.kind, item.id, {"state": "asserted"})
