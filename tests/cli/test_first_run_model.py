"""`memo backfill` on a machine with no model: it downloads memo's default one first, with a
progress line, from the hub MEMO_EMBED_HUB names (here a fake one on loopback); a failure is
remembered for a day, `memo doctor` says so, and `--download` tries again at once."""

from __future__ import annotations

from pathlib import Path

from support.embedding import model_path
from support.first_run import SMALL_MEETING
from support.hub import fake_hub


def first_run(memo, tmp_path: Path, hub_url: str) -> tuple[str, dict[str, str]]:  # type: ignore[no-untyped-def]
    """A store with one meeting and no model; the settings of a first run against `hub_url`."""
    del memo.env["MEMO_EMBED_DOWNLOAD"]  # as a user has it: downloads allowed
    (tmp_path / "sync.txt").write_text(SMALL_MEETING)
    db = str(tmp_path / "memo.db")
    assert memo("--db", db, "capture", str(tmp_path / "sync.txt")).code == 0
    return db, {"MEMO_EMBED_HUB": hub_url, "MEMO_EMBED_INT8": "0"}


def test_backfill_downloads_the_model_with_progress_then_embeds(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with fake_hub(model_path()) as hub:
        db, env = first_run(memo, tmp_path, hub.url)
        before = memo("--db", db, "doctor", "--offline", "--json", extra_env=env).json()
        assert (
            "memo downloads it when the app starts, or now with memo backfill"
            in (before["embedding"]["problems"][0])
        )
        done = memo("--db", db, "backfill", extra_env=env)
        asked = len(hub.requests)
        again = memo("--db", db, "backfill", extra_env=env)
    assert done.code == 0, done.stderr
    assert "downloading sentence-transformers/all-MiniLM-L6-v2: model.onnx" in done.stderr
    assert "model.onnx 91/91 MB (6/6)" in done.stderr  # the last file's end is always said
    assert done.stdout.startswith("embedded ") and "0 still without a vector" in done.stdout
    assert again.code == 0 and len(hub.requests) == asked == 6  # downloaded once
    report = memo("--db", db, "doctor", "--offline", "--json", extra_env=env).json()
    folder = memo.home / "models" / "Qdrant--all-MiniLM-L6-v2-onnx"
    assert report["embedding"]["model_path"] == str(folder)
    assert report["embedding"]["problems"] == [] and report["embedding"]["without_vectors"] == 0
    assert report["embedding"]["vectors"] > 0
    assert report["embedding"]["stored_space"] == report["embedding"]["runs_as"]


def test_a_failed_download_is_said_remembered_and_retried_on_request(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with fake_hub(model_path(), mode="missing") as hub:
        db, env = first_run(memo, tmp_path, hub.url)
        failed = memo("--db", db, "backfill", extra_env=env)
        asked = len(hub.requests)
        later = memo("--db", db, "backfill", extra_env=env)
        doctor = memo("--db", db, "doctor", "--offline", extra_env=env)
        assert len(hub.requests) == asked == 1  # the first file's 404 ended it; not asked again
        asked_again = memo("--db", db, "backfill", "--download", extra_env=env)
        hub.mode = "serve"
        retried = memo("--db", db, "backfill", "--download", extra_env=env)
    assert failed.code == 1
    assert f"memo: could not download {hub.url}/Qdrant/all-MiniLM-L6-v2-onnx" in failed.stderr
    assert "the hub answered 404" in failed.stderr and "MEMO_EMBED_MODEL_PATH" in failed.stderr
    assert later.code == 1 and "Run memo backfill --download" in later.stderr
    assert "memo tries again a day later" in later.stderr
    # Tried on request and failed again: what to do instead, not the same command again
    assert asked_again.code == 1 and "could not download" in asked_again.stderr
    assert "--download" not in asked_again.stderr and "MEMO_EMBED_MODEL_PATH" in asked_again.stderr
    assert "the download failed: could not download" in doctor.stdout
    assert retried.code == 0 and "0 still without a vector" in retried.stdout
