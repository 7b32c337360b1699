"""Long work in the job bar: embedding, seeding the demo; ctrl+x that stops a job, and the
dialog that reports a worker's failure (the app carries on)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.css.query import NoMatches
from textual.widgets import Label, ProgressBar
from textual.worker import Worker, WorkerState, get_current_worker

from memo_tui.ui import dialogs
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from memo_tui.ui.app import MemoApp

# Worker groups ctrl+x stops (an agent run stops after the step in hand, interrupted and
# resumable: each of its writes is whole).
CANCELLABLE = ("capture", "backfill", "seed", "agent", "ask", "facts", "download")


class _Stopped(Exception):
    """The user pressed ctrl+x during a backfill or the demo's seeding."""


class JobsController(Controller):
    def __init__(self, app: MemoApp) -> None:
        super().__init__(app)
        self._models_tried: set[Path] = set()  # model folders found on disk while it ran

    def running(self, group: str) -> bool:
        return any(w.group == group and w.is_running for w in self.app.workers)

    def cancellable(self) -> bool:
        """Something ctrl+x can stop is running."""
        return any(w.group in CANCELLABLE and w.is_running for w in self.app.workers)

    def show(self, label: str, done: int, total: int, counted: bool = True) -> None:
        """The job bar: what runs, how far (`counted`: say done/total in words too)."""
        bar = self.app.query_one("#job")
        if not bar.has_class("running"):
            bar.add_class("running")
            self.app.refresh_bindings()  # ctrl+x appears
        said = f"{label} ({done}/{total})" if counted else label
        self.app.query_one("#job-label", Label).update(line(f"{said} · ctrl+x stops"))
        self.app.query_one(ProgressBar).update(total=max(total, 1), progress=done)

    def done(self, message: str | None = None) -> None:
        try:
            self.app.query_one("#job").remove_class("running")
        except NoMatches:  # the app is closing: a worker finished after its screen went
            return
        self.app.refresh_bindings()
        if message:
            self.say(message)

    def cancel(self) -> None:
        running = [w for w in self.app.workers if w.group in CANCELLABLE and w.is_running]
        if not running:
            self.app.notify("Nothing is running.")
            return
        for worker in running:
            worker.cancel()
        self.app.notify("Stopping…")

    def changed(self, event: Worker.StateChanged) -> None:
        """A worker failed: say what happened. (And ctrl+x shows only while something it can
        stop is running.)"""
        if event.worker.group in CANCELLABLE:
            self.app.refresh_bindings()
        if event.state is WorkerState.ERROR:
            self.done()
            what = event.worker.group or event.worker.name or "work"
            self.app.push_screen(
                dialogs.ErrorDialog(f"Something went wrong ({what})", str(event.worker.error))
            )

    # Embeddings and the demo

    def catch_up(self) -> None:
        """At start: a store whose vectors another model made (search is keyword-only until
        they are made again), or with facts left without one, is embedded with the configured
        local model. With no model here, memo's default one is downloaded first."""
        self.run_thread(self._catch_up, group="catch-up")

    def _catch_up(self) -> None:
        settings, services = self.services.settings, self.services
        if settings.may_download_model:
            self.from_thread(self.download_model)
            return
        if settings.embed_model_folder is None and not settings.embed_download:
            return  # no model to make them with: the status line says "keyword search only"
        stored = services.store.vectors.model()
        stale = stored is not None and stored != services.embed.embedder.name
        if stale or services.store.vectors.count_missing():  # (a capture may have reset them)
            self.from_thread(self.start_backfill)

    def download_model(self) -> None:
        """Fetch the embedding model in the job bar (ctrl+x stops); then embed every fact."""
        if not self.running("download"):
            self.run_thread(self._download, group="download")

    def _download(self) -> None:
        from memo_tui.core.model_download import DownloadFailed, Progress, Stopped

        worker = get_current_worker()
        label = "Downloading the embedding model"

        shown: list[tuple[str, int]] = []

        def progress(step: Progress) -> None:
            done, size = step.done, step.size or step.done
            if shown[-1:] != [(step.file, now := done * 100 // max(size, 1))]:  # each 1%
                shown[:] = [(step.file, now)]
                self.from_thread(self.show, f"{label}: {step.describe()}", done, size, False)

        self.from_thread(self.show, label, 0, 1, False)
        try:
            self.services.download_model(progress, lambda: worker.is_cancelled)
        except Stopped:
            self.from_thread(self.done, "Model download stopped; memo tries again at next start")
            return
        except DownloadFailed as error:
            again = "tomorrow" if error.remember else "at next start"
            said = (
                f"Search stays keyword-only: {error}. memo tries again {again}; "
                "memo backfill --download tries now"
            )
            self.from_thread(self.done, said)
            return
        self.from_thread(self.done, "The embedding model is in; embedding facts")
        self.from_thread(self.start_backfill)

    def model_appeared(self, folder: Path) -> None:
        """Another process downloaded the model while the app ran: embed with it now (once
        per folder: one that fails to load is not tried again every tick)."""
        if folder in self._models_tried or self.running("download"):
            return
        self._models_tried.add(folder)
        from memo_tui.core.embed.embedder import embedder_for

        self.services.embed.use(embedder_for(self.services.settings))
        self.say("The embedding model is here now; embedding facts")
        self.start_backfill()

    def start_backfill(self, quiet: bool = False) -> None:
        """Embed every fact without a vector, unless a backfill is already under way (it
        picks new facts up itself); `quiet` leaves the job bar alone."""
        if self.running("backfill"):
            if not quiet:
                self.app.notify("Embedding is under way: ctrl+x stops it.")
            return
        self.run_thread(self._backfill, quiet, group="backfill")

    def _backfill(self, quiet: bool) -> None:
        """A batch at a time (ctrl+x stops)."""
        worker = get_current_worker()
        embed = self.services.embed
        total = self.services.store.vectors.count_missing()
        if not quiet:
            self.from_thread(self.show, "Embedding facts", 0, total)

        def progress(result: Any) -> None:
            if worker.is_cancelled:
                raise _Stopped
            if not quiet:
                done = result.embedded + result.reused
                self.from_thread(self.show, "Embedding facts", done, total)

        try:
            result = embed.backfill(progress=progress)
        except _Stopped:
            self.from_thread(self.done, "Embedding stopped; memo backfill resumes it")
            return
        said = (
            f"Embedded {result.embedded}, reused {result.reused}; "
            f"{result.remaining} without a vector" + (f" ({result.error})" if result.error else "")
        )
        # Quiet (a note's embedding): a missing model is no news (the status line says
        # "keyword search only"); a model that failed is.
        failed = result.error and not embed.unavailable
        self.from_thread(self.done, None if quiet and not failed else said)
        self.from_thread(self.app.refresh_lists)

    def seed(self) -> None:
        """The demo store on first use: capture the sample meetings, showing progress."""
        self.run_thread(self._seed, group="seed", exclusive=True)

    def _seed(self) -> None:
        """A meeting at a time, then the mailbox: ctrl+x stops after the one under way (each
        is stored whole, and seeding again skips what is there)."""
        from memo_tui.core.demo import demo_steps, seed_demo

        worker = get_current_worker()
        total = demo_steps()
        label = "Seeding the demo meetings and mail"
        self.from_thread(self.show, label, 0, total)
        done = 0

        def one(_: str) -> None:
            nonlocal done
            done += 1
            self.from_thread(self.show, label, done, total)
            if worker.is_cancelled and done < total:
                raise _Stopped

        try:
            seed_demo(self.services.capture, progress=one)
        except _Stopped:
            said = f"Demo seeding stopped after {done} of {total} steps; memo --demo finishes it"
            self.from_thread(self.done, said)
        else:  # all in (ctrl+x during the last one, too)
            said = f"The {total - 1} demo meetings and the demo mailbox are in"
            self.from_thread(self.done, said if done else None)
            self.from_thread(self.catch_up)  # the model, the vectors (after: one job bar)
        self.from_thread(self.app.refresh_lists)
