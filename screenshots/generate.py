"""Regenerate the SVG screenshots from the app on the demo meetings (headless).

    python screenshots/generate.py

Offline provider, keyword search (no embedding model needed), 100x30 like the tmux test.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


async def shoot() -> None:
    from memo_tui.core.demo import seed_demo
    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings
    from memo_tui.ui.app import MemoApp

    with tempfile.TemporaryDirectory() as scratch:
        os.environ.pop("MEMO_EMBED_MODEL_PATH", None)
        services = build_services(Settings(provider="offline"), Path(scratch) / "demo.db")
        seed_demo(services.capture)
        app = MemoApp(services)
        async with app.run_test(size=(100, 30)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.save_screenshot("captures.svg", str(HERE))
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.save_screenshot("capture-detail.svg", str(HERE))
            await pilot.press("escape", "2")
            await pilot.pause()
            app.save_screenshot("facts.svg", str(HERE))
            await pilot.press("3")
            await pilot.pause()
            app.save_screenshot("people.svg", str(HERE))
            await pilot.press("5", *"why did we pick Postgres?", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.save_screenshot("ask.svg", str(HERE))
            await pilot.press("escape")  # out of the question box
            await pilot.press("w")
            await pilot.pause()
            app.save_screenshot("who-is-it.svg", str(HERE))
            await pilot.press("escape")
        services.close()


if __name__ == "__main__":
    asyncio.run(shoot())
