"""The app on a machine with no embedding model: it downloads memo's default one in the job
bar, then embeds every fact by itself; a failed download says so, and the next start does
not try again that day. The hub is a fake one on loopback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.embedding import model_path
from support.first_run import SMALL_MEETING
from support.hub import fake_hub
from support.services import offline
from support.tui import drive, until
from textual.widgets import Static

from memo_tui.ui.app import MemoApp
from memo_tui.ui.controllers.jobs import JobsController


def told(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the job bar showed and what it said when each job ended, in order."""
    said: list[str] = []
    show, done = JobsController.show, JobsController.done

    def shown(self: JobsController, label: str, *args: Any) -> None:
        said.append(label)
        show(self, label, *args)

    def ended(self: JobsController, message: str | None = None) -> None:
        said.append(f"done: {message}")
        done(self, message)

    monkeypatch.setattr(JobsController, "show", shown)
    monkeypatch.setattr(JobsController, "done", ended)
    return said


def first_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hub: str) -> Any:  # noqa: ANN401
    built = offline(tmp_path, monkeypatch, embed_download=None, embed_hub=hub, embed_int8=False)
    built.capture.capture_text(SMALL_MEETING, "sync.txt", "txt")
    return built


def test_the_app_downloads_the_model_then_embeds_every_fact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = told(monkeypatch)
    with fake_hub(model_path()) as hub:
        built = first_run(tmp_path, monkeypatch, hub.url)
        assert built.store.vectors.count_missing() > 0 and built.embed.unavailable  # no model
        app = MemoApp(built)

        def status() -> str:
            return str(app.query_one("#status", Static).render())

        async def script(pilot: Any) -> None:
            await until(pilot, lambda: built.store.vectors.count_missing() == 0, "all embedded")
            await until(pilot, lambda: "all-MiniLM-L6-v2" in status(), "the model named")

        drive(app, script)
        built.close()
    assert said[0] == "Downloading the embedding model"
    assert any(s.startswith("Downloading the embedding model: model.onnx") for s in said)
    at = said.index("done: The embedding model is in; embedding facts")
    assert said[at + 1] == "Embedding facts" and said[-1].startswith("done: Embedded ")
    assert len(hub.requests) == 6


async def downloads_over(pilot: Any) -> None:  # noqa: ANN401
    jobs = pilot.app.controllers.jobs
    await until(pilot, lambda: not jobs.running("download"), "the download over")


def test_a_failed_download_is_said_and_not_tried_again_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = told(monkeypatch)
    with fake_hub(model_path(), mode="missing") as hub:
        for _ in range(2):  # two starts
            built = first_run(tmp_path, monkeypatch, hub.url)
            drive(MemoApp(built), downloads_over)
            assert built.store.vectors.model() is None  # nothing embedded
            built.close()
    assert len(hub.requests) == 1  # the second start did not ask
    [failed] = [s for s in said if s.startswith("done:")]
    assert failed.startswith("done: Search stays keyword-only: could not download")
    assert failed.endswith("memo tries again tomorrow; memo backfill --download tries now")


def test_a_model_another_process_downloads_is_used_while_the_app_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`memo backfill` in another terminal fetched the model: the open app embeds with it
    within a tick, with no restart, and says so."""
    said = told(monkeypatch)
    with fake_hub(model_path()) as hub:
        built = offline(tmp_path, monkeypatch, embed_hub=hub.url, embed_int8=False)
        built.capture.capture_text(SMALL_MEETING, "sync.txt", "txt")  # (downloads are off: 0)
        app = MemoApp(built)

        async def script(pilot: Any) -> None:
            await pilot.pause(0.5)
            assert built.store.vectors.count_missing() > 0 and built.embed.unavailable
            built.settings.model_download.fetch()  # what the other process did
            await until(pilot, lambda: built.store.vectors.count_missing() == 0, "embedded")

        drive(app, script)
        built.close()
    assert said[0] == "Embedding facts" and said[-1].startswith("done: Embedded ")
