"""Embeddings: fastembed (lazy), best-effort after each capture, `memo backfill` for the rest."""

from memo_tui.core.embed.embedder import EmbeddingUnavailable, FastEmbedder
from memo_tui.core.embed.service import BackfillResult, EmbedService

__all__ = ["BackfillResult", "EmbedService", "EmbeddingUnavailable", "FastEmbedder"]
