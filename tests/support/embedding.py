"""The real embedding model the semantic tests run (CI must have it; locally they skip)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from support.paths import REPO

if TYPE_CHECKING:
    from memo_tui.core.embed import FastEmbedder

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
INT8 = MODEL + ":int8"  # the space of the vectors memo makes by default
# Where the tests keep the model's int8 copy: made once on a machine, shared by every test,
# worker and `memo` subprocess (memo makes it atomically; a race leaves one whole copy).
INT8_FOLDER = Path(tempfile.gettempdir()) / "memo-tests-int8"


def model_path() -> Path:
    configured = os.environ.get("MEMO_EMBED_MODEL_PATH")
    path = Path(configured) if configured else REPO.parent / "shared/models/all-MiniLM-L6-v2-onnx"
    if not (path / "model.onnx").is_file():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the embedding model at {path} (MEMO_EMBED_MODEL_PATH)")
        pytest.skip("no local embedding model (set MEMO_EMBED_MODEL_PATH)")
    return path


def embedder() -> FastEmbedder:
    """The real model as memo runs it by default: the int8 copy of the local model."""
    from memo_tui.core.embed import FastEmbedder

    return FastEmbedder(MODEL, model_path(), int8_folder=INT8_FOLDER)


def captured_in_order(
    store: object, folder: Path, meetings: list[tuple[str, str]], learned: bool
) -> None:
    """Each (file name, text) captured in turn, offline, with the real model for the judge;
    with `learned`, for the closer and the linker too (else their rules)."""
    from memo_tui.core.capture.offline import OfflineExtractor, judge_embed
    from memo_tui.core.capture.service import CaptureOptions, CaptureService

    model = embedder()
    service = CaptureService(
        store,  # type: ignore[arg-type]
        CaptureOptions(user="t"),
        extractor=OfflineExtractor(model),
        embed=(lambda: judge_embed(model)) if learned else None,
    )
    for name, text in meetings:
        (folder / name).write_text(text)
        [done] = service.capture_paths([folder / name])
        assert done.status == "captured", done
