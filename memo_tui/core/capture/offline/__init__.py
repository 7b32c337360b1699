"""The offline extractor: rules find and word the items, a small learned judge decides.

The rules and the judge load on the first extraction, so starting the app (which extracts
nothing) skips them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memo_tui.core.capture.sources import Transcript
    from memo_tui.core.llm.schemas import Extraction

NAME = "offline extractor"


def extract(transcript: Transcript) -> Extraction:
    """The structured record of a meeting, judged on words and cues (no embedding model)."""
    from memo_tui.core.capture.offline.extractor import extract as judged

    return judged(transcript)


class OfflineExtractor:
    """The offline extractor with the embedding model search uses: the judge reads the
    sentences' embeddings too when the model is here (and is the one it was trained with),
    and words and cues alone when it is not, which the record says (`judge_note`)."""

    name = NAME

    def __init__(self, embedder: Any | None) -> None:
        self.embedder = embedder  # a FastEmbedder; None: words and cues only

    def __call__(self, transcript: Transcript) -> Extraction:
        from memo_tui.core.capture.offline.extractor import extract as judged

        embed = self.embed()
        found = judged(transcript, embed)
        if embed is None:
            found.judge_note = f"judged on words alone ({self.missing})"
        return found

    @property
    def missing(self) -> str:
        """Why the judge reads no embeddings here."""
        from memo_tui.core.capture.offline.judge import EMBEDDING_MODEL

        if self.embedder is None:
            return "no embedding model configured"
        if self.embedder.model_name != EMBEDDING_MODEL:
            return f"it was trained with {EMBEDDING_MODEL}, not {self.embedder.model_name}"
        return "the embedding model is not available here"

    def embed(self) -> Any | None:
        """The embedder's `embed` when its model loads and is the judge's, else None."""
        return judge_embed(self.embedder)


def judge_embed(embedder: Any | None) -> Any | None:
    """`embedder.embed` when its model loads and is the one the learned models (the judge,
    the copies model, the closer, the linker) were trained with, else None: they fall back
    to words and rules."""
    from memo_tui.core.capture.offline.judge import EMBEDDING_MODEL
    from memo_tui.core.embed import EmbeddingUnavailable

    if embedder is None or embedder.model_name != EMBEDDING_MODEL:
        return None
    try:
        embedder.embed(["probe"])
    except EmbeddingUnavailable:
        return None
    return embedder.embed


__all__ = ["NAME", "OfflineExtractor", "extract", "judge_embed"]
