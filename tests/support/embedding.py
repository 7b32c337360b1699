"""The real embedding model the semantic tests run (CI must have it; locally they skip)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.paths import REPO

MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def model_path() -> Path:
    configured = os.environ.get("MEMO_EMBED_MODEL_PATH")
    path = Path(configured) if configured else REPO.parent / "shared/models/all-MiniLM-L6-v2-onnx"
    if not (path / "model.onnx").is_file():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the embedding model at {path} (MEMO_EMBED_MODEL_PATH)")
        pytest.skip("no local embedding model (set MEMO_EMBED_MODEL_PATH)")
    return path
