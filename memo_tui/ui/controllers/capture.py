"""Capturing from the app: a file or a folder a file at a time (mail imported with its
progress), the replace dialog for a new version of a stored meeting, the summary after a
batch, and deleting a capture once asked."""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from memo_tui.ui import dialogs
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from memo_tui.core.capture import CaptureResult, Replacement

# A capture's outcome as the summary after a batch says it ("3 captured, 1 kept as stored").
_OUTCOMES = {
    "needs_replace": "kept as stored",
    "rejected": "not captured",
    "unchanged": "already captured",
}


def _changed(results: list[CaptureResult]) -> str:
    """ "; 1 earlier decision replaced, 1 change to review (v reviews: keep or undo)": what a
    capture changed, and where to look again."""
    changes = [c for r in results for c in r.changes]
    applied = sum(1 for c in changes if c.status == "applied")  # strong: replaced decisions
    waiting = sum(1 for c in changes if c.status == "proposed")
    said = [
        f"{plural(applied, 'earlier decision')} replaced" if applied else "",
        f"{plural(waiting, 'change')} to review" if waiting else "",
    ]
    told = ", ".join(s for s in said if s)
    return f"; {told} (v reviews: keep or undo)" if told else ""


class CaptureController(Controller):
    def choose(self) -> None:
        """The path dialog, then the capture (one at a time: the job bar shows it)."""
        if self.app.controllers.jobs.running("capture"):
            self.app.notify("A capture is under way: ctrl+x stops it.")
            return

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.capture(path)

        self.app.push_screen(dialogs.CaptureFile(), chosen)

    def capture(self, path: Path) -> None:
        self.run_thread(self._capture, path, group="capture")

    def _capture(self, path: Path) -> None:
        """One file at a time; ctrl+x stops between files. Mail (an mbox, a Maildir folder,
        an .eml file) is imported, its progress in the job bar."""
        from memo_tui.core.capture import CaptureResult, iter_sources
        from memo_tui.core.email.read import is_mail_source

        worker = get_current_worker()
        if is_mail_source(path):
            self._import_mail(path, lambda: worker.is_cancelled)
            return
        jobs = self.app.controllers.jobs
        sources = list(iter_sources([path]))
        results: list[CaptureResult] = []
        self.from_thread(jobs.show, "Capturing", 0, len(sources))
        for number, (source, problem) in enumerate(sources):
            if worker.is_cancelled:
                break
            self.from_thread(jobs.show, f"Capturing {source.name}", number, len(sources))
            if problem is not None:
                results.append(CaptureResult(str(source), "rejected", error=problem.message))
                continue
            results.append(
                self.services.capture.capture_file(source, ask_replace=self._ask_replace)
            )
        self.from_thread(self._captured, results, len(sources), worker.is_cancelled)

    def _import_mail(self, path: Path, stopped: Callable[[], bool]) -> None:
        """An email import in the job bar: messages read (rate, ETA when the count is known),
        then threads captured; ctrl+x stops it and what is done stays."""
        from memo_tui.core.email.importer import ImportProgress, import_mail

        jobs = self.app.controllers.jobs

        def progress(state: ImportProgress) -> None:
            if state.stage == "reading":
                eta = f", ~{state.eta_s:.0f} s left" if state.eta_s is not None else ""
                said = (
                    f"{path.name}: {state.share:.0%}, {state.messages:,} messages read, "
                    f"{state.rate:,.0f}/s{eta}"
                )
                self.from_thread(jobs.show, said, round(state.share * 1000), 1000, False)
            elif state.stage == "threads":
                said = f"{path.name}: threads"
                self.from_thread(jobs.show, said, state.threads_done, max(state.threads_total, 1))

        self.from_thread(jobs.show, f"Importing {path.name}", 0, 1)
        capture = self.services.capture
        done = import_mail(
            self.services.store,
            path,
            capture.capture_thread,
            progress,
            stopped,
            capture.thread_preparer,
        )
        skipped = f", {len(done.skipped)} malformed skipped" if done.skipped else ""
        if done.failed:
            skipped += f", {plural(len(done.failed), 'thread')} failed (tried again next import)"
        said = (
            f"{path.name}: {done.messages:,} messages, {done.new:,} new, "
            f"{done.bulk:,} newsletter{skipped}; {plural(done.threads, 'thread')} captured"
            + ("; stopped (ctrl+x): import again to go on" if done.stopped else "")
        )
        self.from_thread(jobs.done, said)
        self.from_thread(self.app.refresh_lists)

    def _ask_replace(self, replacement: Replacement) -> bool:
        """From the capture worker: show what would change and wait for the answer."""
        from memo_tui.core.capture import versions

        store = self.services.store
        stored = store.captures.get(replacement.stored_id)
        title, body, _, _ = store.captures.source(replacement.stored_id)
        new = replacement.new
        dialog = dialogs.replace_dialog(
            replacement.name,
            versions.Version(
                title,
                stored.occurred_at if stored else None,
                stored.decisions if stored else 0,
                stored.action_items if stored else 0,
                body.count("\n") + 1,
            ),
            versions.Version(
                new.title,
                new.occurred_at,
                len(new.decisions),
                len(new.action_items),
                new.line_count,
            ),
            versions.what_changed(body, new.text),
        )
        answer = self.ask_from_thread(dialog)
        worker = get_current_worker()
        while not worker.is_cancelled:  # quitting cancels the worker: stop waiting, keep all
            try:
                return bool(answer.result(timeout=0.2))
            except FutureTimeout:
                continue
        if not answer.done():  # stopped (ctrl+x) or quitting: take the question away
            with contextlib.suppress(RuntimeError):  # the app may be gone already
                self.from_thread(dialog.dismiss, False)
        return False

    def _captured(self, results: list[CaptureResult], total: int, cancelled: bool) -> None:
        self.app.controllers.jobs.done()
        counts: dict[str, int] = {}
        for result in results:
            counts[result.status] = counts.get(result.status, 0) + 1
        said = ", ".join(f"{n} {_OUTCOMES.get(status, status)}" for status, n in counts.items())
        if cancelled:
            said += f"; stopped after {len(results)} of {total} (ctrl+x)"
        said += _changed(results)
        problems = [r.error for r in results if r.status == "rejected" and r.error]
        kept = [r.error for r in results if r.status == "needs_replace" and r.error]
        self.say(said or "nothing captured")
        if problems:
            self.app.push_screen(
                dialogs.ErrorDialog(
                    f"{plural(len(problems), 'file')} not captured",
                    "\n".join(problems[:20]) + ("\n..." if len(problems) > 20 else ""),
                )
            )
        for message in kept:
            self.say(message)
        self.app.refresh_lists()
        self.app.refresh_pages()  # a replaced meeting may be open
        names = [name for r in results if r.ok for name in r.pending_names]
        if names:  # the meeting named someone several people fit: ask now
            self.app.controllers.names.who(list(dict.fromkeys(names)))

    def delete(self, capture_id: int) -> None:
        self.run(self._delete(capture_id), group="edit")

    async def _delete(self, capture_id: int) -> None:
        """Say what goes with it, ask, delete; leave its page if it is open."""
        from memo_tui.core.capture import delete

        store = self.services.store
        try:
            found = await asyncio.to_thread(delete.capture_to_delete, store, capture_id)
        except delete.UnknownCapture:
            return
        dialog = dialogs.delete_dialog(
            found.title, found.occurred_at, found.decisions, found.action_items
        )
        if not await self.app.push_screen_wait(dialog):
            return
        with contextlib.suppress(delete.UnknownCapture):  # gone meanwhile: gone all the same
            await self.commit(delete.delete_capture, store, capture_id)
        if getattr(self.app.screen, "capture_id", None) == capture_id:  # its page: leave it
            self.app.pop_screen()
        self.say(f"Deleted {found.title}")
        self.app.refresh_lists()
        self.app.refresh_pages()  # a person's or project's page may list its items
