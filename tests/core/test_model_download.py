"""The first-run model download, against a fake hub on loopback: the files land whole or not
at all, progress is told, a failure is remembered for a day, MEMO_EMBED_MODEL_PATH wins."""

from __future__ import annotations

import hashlib
import socket
import time
from pathlib import Path

import pytest
from support.embedding import model_path
from support.hub import fake_hub

from memo_tui.core.embed.embedder import embedder_for
from memo_tui.core.model_download import (
    FASTEMBED_FILES,
    RETRY_AFTER_S,
    DownloadFailed,
    ModelDownload,
    Progress,
    Stopped,
)
from memo_tui.settings import Settings

MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_model_downloads_whole_with_progress_and_is_then_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = model_path()
    seen: list[Progress] = []
    with fake_hub(source) as hub:
        download = ModelDownload(MODEL, tmp_path / "models", hub.url)
        assert download.present() is None
        folder = download.fetch(seen.append)
        assert download.fetch() == folder  # there already: the hub is not asked again
    assert len(hub.requests) == len(FASTEMBED_FILES)
    for name in FASTEMBED_FILES:
        assert digest(folder / name) == digest(source / name)
    left = sorted(p.name for p in (tmp_path / "models").iterdir())
    assert left == [".download.lock", folder.name]  # no work folder left
    last = seen[-1]
    size = (source / "model.onnx").stat().st_size
    assert (last.file, last.done, last.size) == ("model.onnx", size, size)
    assert last.describe().startswith("model.onnx 91/91 MB (6/6)")
    assert {step.file for step in seen} == set(FASTEMBED_FILES)
    # The settings now find it (the embedder loads from it), until MEMO_EMBED_MODEL_PATH says
    # otherwise: then that wins.
    monkeypatch.setenv("MEMO_HOME", str(tmp_path))
    monkeypatch.delenv("MEMO_EMBED_MODEL_PATH", raising=False)
    settings = Settings(embed_hub=hub.url, embed_download=None)
    assert settings.embed_model_folder == folder and not settings.may_download_model
    assert embedder_for(settings).model_path == folder
    mine = Settings(embed_model_path=source, embed_download=None)
    assert mine.embed_model_folder == source and embedder_for(mine).model_path == source


@pytest.mark.parametrize("mode", ["missing", "cut"])
def test_a_failed_download_leaves_nothing_and_is_remembered_for_a_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    with fake_hub(model_path(), mode=mode) as hub:
        download = ModelDownload(MODEL, tmp_path / "models", hub.url)
        with pytest.raises(DownloadFailed) as failed:
            download.fetch()
    said = str(failed.value)
    assert said.startswith(f"could not download {hub.url}/" if mode == "missing" else hub.url)
    assert ("404" in said) if mode == "missing" else ("ended after" in said)
    assert download.present() is None
    left = sorted(p.name for p in (tmp_path / "models").iterdir())
    assert left == [".download.lock", "download-failed.json"]
    remembered = download.recent_failure()
    assert remembered is not None and remembered.startswith(said)
    assert download.recent_failure(time.time() + RETRY_AFTER_S) is None  # a day later: try
    assert ModelDownload(MODEL, tmp_path / "models", "http://elsewhere").recent_failure() is None
    monkeypatch.setenv("MEMO_HOME", str(tmp_path))
    monkeypatch.delenv("MEMO_EMBED_MODEL_PATH", raising=False)
    assert not Settings(embed_hub=hub.url, embed_download=None).may_download_model
    assert Settings(embed_hub="http://127.0.0.1:1", embed_download=None).may_download_model
    assert not Settings(embed_hub="http://127.0.0.1:1", embed_download=False).may_download_model


def test_an_unreachable_hub_fails_at_once_and_a_later_success_forgets_the_failure(
    tmp_path: Path,
) -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    download = ModelDownload(MODEL, tmp_path, f"http://127.0.0.1:{port}", timeout_s=2)
    started = time.monotonic()
    with pytest.raises(DownloadFailed, match="refused"):
        download.fetch()
    assert time.monotonic() - started < 2
    with fake_hub(model_path()) as hub:
        download = ModelDownload(MODEL, tmp_path, hub.url)
        download.fetch()  # (asked by hand: a remembered failure stops only the automatic try)
    assert not (tmp_path / "download-failed.json").exists()


def test_a_stopped_download_leaves_nothing_and_is_not_held_against_the_hub(tmp_path: Path) -> None:
    with fake_hub(model_path()) as hub:
        download = ModelDownload(MODEL, tmp_path, hub.url)
        with pytest.raises(Stopped):
            download.fetch(stopped=lambda: True)
    assert [p.name for p in tmp_path.iterdir()] == [".download.lock"]
    assert download.recent_failure() is None


def test_a_copy_missing_a_file_is_downloaded_again(tmp_path: Path) -> None:
    with fake_hub(model_path()) as hub:
        download = ModelDownload(MODEL, tmp_path, hub.url)
        folder = download.fetch()
        (folder / "vocab.txt").unlink()
        assert download.present() is None
        assert download.fetch() == folder and download.present() == folder


def test_a_model_memo_cannot_locate_is_not_downloaded(tmp_path: Path) -> None:
    download = ModelDownload("BAAI/bge-small-en-v1.5", tmp_path)
    assert not download.known and download.present() is None
    with pytest.raises(DownloadFailed, match="does not know where"):
        download.fetch()


def test_a_home_memo_cannot_write_to_is_a_failure_said_not_a_crash(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    download = ModelDownload(MODEL, blocked / "models", "http://127.0.0.1:1")
    with pytest.raises(DownloadFailed, match="could not write in") as failed:
        download.fetch()
    assert not failed.value.remember  # this machine's trouble, not the hub's: try next time


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("page", "config.json from http://127.0.0.1:[0-9]+ is not the model's file"),
        ("garbage", "could not download .*config.json"),
    ],
)
def test_what_is_not_the_model_is_refused_and_remembered(
    tmp_path: Path, mode: str, said: str
) -> None:
    """A captive portal's page sent with a 200, or a server that is not HTTP: a failure
    said and remembered, not a model kept (nor a crash)."""
    with fake_hub(model_path(), mode=mode) as hub:
        download = ModelDownload(MODEL, tmp_path, hub.url)
        with pytest.raises(DownloadFailed, match=said):
            download.fetch()
    assert download.present() is None and download.recent_failure() is not None


def test_two_downloads_at_once_fetch_the_files_once(tmp_path: Path) -> None:
    """The app and memo backfill, say: the second waits for the first, then finds it."""
    import threading

    found: list[Path] = []
    with fake_hub(model_path(), mode="slow") as hub:
        runs = [
            threading.Thread(
                target=lambda: found.append(ModelDownload(MODEL, tmp_path, hub.url).fetch())
            )
            for _ in range(2)
        ]
        for run in runs:
            run.start()
        for run in runs:
            run.join(60)
    assert len(found) == 2 and found[0] == found[1]
    assert len(hub.requests) == len(FASTEMBED_FILES)


def test_a_download_killed_part_way_is_cleared_by_the_next(tmp_path: Path) -> None:
    left = tmp_path / ".Qdrant--all-MiniLM-L6-v2-onnx.99999.partial"
    left.mkdir(parents=True)
    (left / "model.onnx").write_bytes(b"half")
    with fake_hub(model_path()) as hub:
        ModelDownload(MODEL, tmp_path, hub.url).fetch()
    assert not left.exists()


def test_a_hub_that_is_not_http_is_refused_and_not_held_against_it(tmp_path: Path) -> None:
    download = ModelDownload(MODEL, tmp_path, "file:///etc")
    with pytest.raises(DownloadFailed, match="not an http") as failed:
        download.fetch()
    assert not failed.value.remember and download.recent_failure() is None
