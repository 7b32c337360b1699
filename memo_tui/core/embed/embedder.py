"""The embedding model: fastembed, loaded on first use, from a local folder when given."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memo_tui.core.model_download import fastembed_cache

if TYPE_CHECKING:
    from memo_tui.settings import Settings


class EmbeddingUnavailable(Exception):
    """No embedding model can be loaded; search falls back to keywords."""


class FastEmbedder:
    """`sentence-transformers/all-MiniLM-L6-v2` by default; `model_path` for offline use.

    With `int8_folder` (and a `model_path`) the model runs as an int8 copy kept there; its
    vectors are a space of their own, named `<model>:int8`."""

    def __init__(
        self,
        model_name: str,
        model_path: Path | None = None,
        download: bool = False,
        int8_folder: Path | None = None,
        hint: str | None = None,
    ) -> None:
        self.model_name = model_name
        self.hint = hint or "set MEMO_EMBED_MODEL_PATH to a local copy"  # what fixes it here
        self.model_path = model_path
        self.download = download  # off: only a local folder or fastembed's cache is used
        self.int8_folder = int8_folder if model_path is not None else None
        self.name = f"{model_name}:int8" if self.int8_folder is not None else model_name
        self._model: Any = None
        self._dim: int | None = None
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to another process) as what it loads, not the loaded model or its lock."""
        return {**self.__dict__, "_model": None, "_lock": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _lock=threading.Lock())

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                if self.model_path is not None and not (self.model_path / "model.onnx").is_file():
                    raise EmbeddingUnavailable(
                        f"no model.onnx in {self.model_path}: point MEMO_EMBED_MODEL_PATH at an "
                        "ONNX export of the model"
                    )
                if self.model_path is None and not self.download and not _anything_cached():
                    why = f"fastembed's cache, {fastembed_cache()}, is empty"
                    raise EmbeddingUnavailable(self._missing(why))  # (known in 1 s, no import)
                try:
                    from fastembed import TextEmbedding

                    _quiet_fastembed()

                    path = str(self._folder()) if self.model_path else None
                    self._model = TextEmbedding(
                        self.model_name,
                        specific_model_path=path,
                        local_files_only=path is None and not self.download,
                    )
                except EmbeddingUnavailable:
                    raise
                except Exception as error:  # noqa: BLE001 - any failure means "no model"
                    raise EmbeddingUnavailable(self._missing(str(error))) from error
            return self._model

    def _missing(self, why: str) -> str:
        return (
            f"no embedding model: {self.model_name} is not available locally ({why}). To "
            f"fix it, {self.hint}; until then search is keyword only"
        )

    def _folder(self) -> Path:
        """The model folder fastembed loads: the given one, or its int8 copy."""
        assert self.model_path is not None
        if self.int8_folder is None:
            return self.model_path
        from memo_tui.core.embed.int8 import TRAINED_TOKENS, int8_copy

        return int8_copy(self.model_path, self.int8_folder, TRAINED_TOKENS.get(self.model_name))

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = len(self.embed(["dimension probe"])[0])
        return self._dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        model = self._load()
        return [[float(x) for x in vector] for vector in model.embed(texts, batch_size=len(texts))]


def embedder_for(settings: Settings) -> FastEmbedder:
    """The embedding model the settings name, from MEMO_EMBED_MODEL_PATH or the copy memo
    downloaded (int8 unless MEMO_EMBED_INT8=0)."""
    return FastEmbedder(
        settings.embed_model,
        settings.embed_model_folder,
        settings.embed_download is True,
        settings.embed_int8_folder,
        model_hint(settings),
    )


def model_hint(settings: Settings) -> str:
    """What would give search its vectors here: the one fix memo names wherever the model is
    missing (memo doctor, a backfill, a search)."""
    download = settings.model_download
    local = (
        f"set MEMO_EMBED_MODEL_PATH to a local copy of {settings.embed_model} "
        "(a folder with model.onnx)"
    )
    if settings.embed_download is True:
        return (
            f"let fastembed fetch it (MEMO_EMBED_DOWNLOAD=1 is set: run memo backfill), or {local}"
        )
    if not download.known:
        return f"{local}, or MEMO_EMBED_DOWNLOAD=1 to let fastembed fetch it"
    if settings.embed_download is False:
        return f"{local}, or unset MEMO_EMBED_DOWNLOAD (it is 0) to let memo fetch it"
    if failed := download.recent_failure():
        return f"the download failed: {failed}. Run memo backfill --download, or {local}"
    return f"memo downloads it when the app starts, or now with memo backfill; or {local}"


def _anything_cached() -> bool:
    """Whether fastembed's cache holds anything at all (if not, no model can load from it)."""
    cache = fastembed_cache()
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
