"""Regenerate the SVG screenshots from the app on the demo meetings (headless).

    python screenshots/generate.py

Offline provider, keyword search (no embedding model needed), 100x30 like the tmux test.
One SVG per pane, page and dialog.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "memo_tui" / "demo" / "meetings"


async def shoot() -> None:
    from memo_tui.core.demo import seed_demo
    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings
    from memo_tui.ui import dialogs
    from memo_tui.ui.app import MemoApp
    from memo_tui.ui.dialogs.change_review import ChangeReview
    from memo_tui.ui.dialogs.item_review import ItemReview

    with tempfile.TemporaryDirectory() as scratch:
        os.environ.pop("MEMO_EMBED_MODEL_PATH", None)
        os.environ["MEMO_HOME"] = str(Path(scratch) / "home")
        os.environ["MEMO_EMBED_DOWNLOAD"] = "0"  # keyword search, as the README says
        services = build_services(Settings(provider="offline"), Path(scratch) / "demo.db")
        seed_demo(services.capture)
        from memo_tui.core.agents.service import run_agent

        await asyncio.to_thread(run_agent, services, "project_compile", "Beacon")  # a document
        retro = "2026-10-20-atlas-migration-retro.txt"
        edited = Path(scratch) / retro
        edited.write_text(
            (DEMO / retro).read_text(encoding="utf-8")
            + "\nPriya: We decided to keep the old cluster one more week as a fallback.\n",
            encoding="utf-8",
        )
        standup = Path(scratch) / "2026-11-24-cobalt-standup.txt"
        standup.write_text(
            "Cobalt standup\nDate: 2026-11-24\nAttendees: Tom Adeyemi, Priya Natarajan\n\n"
            "Tom Adeyemi: Quick one. I set up the Stripe account on Friday: SSO, two-factor, "
            "and only you and me get admin.\nPriya Natarajan: Great, thanks.\n",
            encoding="utf-8",
        )
        await asyncio.to_thread(services.capture.capture_file, standup)  # proposes a close
        app = MemoApp(services)
        async with app.run_test(size=(100, 30)) as pilot:

            async def settle() -> None:
                await app.workers.wait_for_complete()
                await pilot.pause()

            async def until(condition: Callable[[], bool]) -> None:
                for _ in range(400):
                    if condition():
                        break
                    await pilot.pause(0.05)
                await pilot.pause()

            def save(name: str) -> None:
                app.save_screenshot(f"{name}.svg", str(HERE))

            def on(kind: type[Any]) -> Callable[[], bool]:
                return lambda: isinstance(app.screen, kind)

            await settle()
            save("captures")
            # Newest first: the standup, the demo's two mail threads, then the steering meeting.
            await pilot.press("down", "down", "enter")
            await settle()
            save("mail-thread")
            await pilot.press("escape", "down", "enter")
            await settle()
            save("capture-detail")
            # A meeting that changed its mind: the replaced call is history, shown as such.
            await pilot.press("escape", "down", "down", "down", "enter")
            await settle()
            save("capture-replaced")
            await pilot.press("escape", *["up"] * 6, "d")
            await until(on(dialogs.Confirm))
            save("delete")
            await pilot.press("escape", "f1")
            await until(on(dialogs.Help))
            save("help")
            await pilot.press("escape", "2")
            await settle()
            save("facts")
            await pilot.press("3")
            save("people")
            await pilot.press("slash", *"Priya", "enter", "enter")
            await settle()
            save("person")
            await pilot.press("4")
            await settle()
            save("projects")
            await pilot.press("slash", *"Beacon", "enter", "enter")
            await settle()
            save("project")
            await pilot.press("n")
            await until(on(dialogs.NoteEditor))
            await pilot.press(*"Tromsø go/no-go at the January steering meeting.")
            save("note-editor")
            await pilot.press("escape", "escape", "4", "a")
            await until(on(dialogs.NewProject))
            save("new-project")
            await pilot.press("escape", "5", *"why did we pick Postgres?", "enter")
            await settle()
            save("ask")
            await pilot.press("escape", "w")
            await until(on(dialogs.WhoIsIt))
            save("who-is-it")
            await pilot.press("escape", "v")
            await until(on(ItemReview))
            save("review-item")
            for _ in range(500):  # later, each, on to the changes
                if not isinstance(app.screen, ItemReview):
                    break
                await pilot.press("l")
                await pilot.pause(0.02)
            await until(on(ChangeReview))
            save("review-changes")
            await pilot.press("escape", "c")
            await until(on(dialogs.CaptureFile))
            save("capture-file")
            await pilot.press(*str(edited), "enter")
            await until(on(dialogs.Confirm))
            save("replace")
            await pilot.press("escape")
            await settle()
            app.push_screen(
                dialogs.ErrorDialog(
                    "1 file not captured",
                    "notes.pdf: .pdf files are not captured; memo reads .txt, .md, .vtt, .srt "
                    "transcripts",
                )
            )
            await until(on(dialogs.ErrorDialog))
            save("error")
            await pilot.press("escape")
            atlas = next(p.id for p in services.store.projects.all() if p.name == "Atlas")
            app.go_to("project", atlas)
            await settle()
            await pilot.press("b")  # the collector asks before it links a meeting
            await until(on(dialogs.Approve))
            save("approve")
            await pilot.click("#no")
            job = app.query_one("#job")
            await until(lambda: not job.has_class("running"))
            await pilot.press("6")
            await settle()
            save("runs")
            await pilot.press("enter")
            await settle()
            save("run")
            await pilot.press("escape", "ctrl+p", *"Sam")
            await pilot.pause(0.5)
            save("palette")
            await pilot.press("escape")
            await pilot.press("7")
            await settle()
            save("newsletters")
            await asyncio.to_thread(services.store.concepts.add, "Postgres")
            app.refresh_lists()
            await pilot.press("8")
            await settle()
            await pilot.press("r")  # concept_compile, offline
            await settle()
            save("concepts")
            await pilot.press("enter")
            await settle()
            save("concept")
        services.close()


if __name__ == "__main__":
    asyncio.run(shoot())
