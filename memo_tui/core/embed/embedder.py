"""The embedding model: fastembed, loaded on first use, from a local folder when given."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import Any


class EmbeddingUnavailable(Exception):
    """No embedding model can be loaded; search falls back to keywords."""


class FastEmbedder:
    """`sentence-transformers/all-MiniLM-L6-v2` by default; `model_path` for offline use."""

    def __init__(
        self, model_name: str, model_path: Path | None = None, download: bool = False
    ) -> None:
        self.name = model_name
        self.model_path = model_path
        self.download = download  # off: only a local folder or fastembed's cache is used
        self._model: Any = None
        self._dim: int | None = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                if self.model_path is not None and not (self.model_path / "model.onnx").is_file():
                    raise EmbeddingUnavailable(
                        f"no model.onnx in {self.model_path}: point MEMO_EMBED_MODEL_PATH at an "
                        "ONNX export of the model"
                    )
                if self.model_path is None and not self.download and not _anything_cached():
                    raise EmbeddingUnavailable(  # (known without importing fastembed: 1 s)
                        f"no embedding model: {self.name} is not available locally (fastembed's "
                        f"cache, {_fastembed_cache()}, is empty). Set MEMO_EMBED_MODEL_PATH to "
                        "a local copy, or MEMO_EMBED_DOWNLOAD=1 to let fastembed download it; "
                        "until then search is keyword only"
                    )
                try:
                    from fastembed import TextEmbedding

                    _quiet_fastembed()

                    path = str(self.model_path) if self.model_path else None
                    self._model = TextEmbedding(
                        self.name,
                        specific_model_path=path,
                        local_files_only=path is None and not self.download,
                    )
                except Exception as error:  # noqa: BLE001 - any failure means "no model"
                    raise EmbeddingUnavailable(
                        f"no embedding model: {self.name} is not available locally ({error}). "
                        "Set MEMO_EMBED_MODEL_PATH to a local copy, or MEMO_EMBED_DOWNLOAD=1 to "
                        "let fastembed download it; until then search is keyword only"
                    ) from error
            return self._model

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = len(self.embed(["dimension probe"])[0])
        return self._dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        model = self._load()
        return [[float(x) for x in vector] for vector in model.embed(texts, batch_size=len(texts))]


def _fastembed_cache() -> Path:
    """Where fastembed keeps the models it downloaded (its own default)."""
    default = Path(tempfile.gettempdir()) / "fastembed_cache"
    return Path(os.environ.get("FASTEMBED_CACHE_PATH", default))


def _anything_cached() -> bool:
    """Whether fastembed's cache holds anything at all (if not, no model can load from it)."""
    cache = _fastembed_cache()
    try:
        return cache.is_dir() and any(cache.iterdir())
    except OSError:
        return True  # unreadable: let fastembed say what is wrong


def _quiet_fastembed() -> None:
    """fastembed logs its download attempts as errors; memo reports the outcome itself."""
    try:
        from loguru import logger

        logger.disable("fastembed")
    except ImportError:
        pass
