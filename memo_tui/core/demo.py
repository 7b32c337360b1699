"""The demo store: the project's own sample meetings, seeded on first use."""

from __future__ import annotations

from importlib import resources

from memo_tui.core.capture import CaptureResult, CaptureService


def demo_meetings() -> list[tuple[str, str]]:
    """(file name, text) of each shipped sample meeting, in date order."""
    folder = resources.files("memo_tui").joinpath("demo", "meetings")
    files = sorted((entry for entry in folder.iterdir() if entry.is_file()), key=lambda e: e.name)
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in files]


def seed_demo(capture: CaptureService) -> list[CaptureResult]:
    """Capture every sample meeting not yet in the store (idempotent)."""
    results = []
    for name, text in demo_meetings():
        source_format = name.rsplit(".", 1)[-1]
        results.append(
            capture.capture_text(text, name, source_format, source_path=name, source_kind="demo")
        )
    return results
