"""Settings -> Store -> services, built once by the CLI (and later the TUI) and handed around."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.embed import EmbedService
from memo_tui.core.embed.embedder import embedder_for
from memo_tui.core.llm import select
from memo_tui.core.llm.base import Provider
from memo_tui.core.llm.ledger import DEFAULT_PRICES, StoreLedger
from memo_tui.core.recall.index import VectorIndex
from memo_tui.settings import Settings
from store import Store

if TYPE_CHECKING:
    from memo_tui.core.model_download import Progress as DownloadProgress
    from memo_tui.core.recall.answer import AskEvent


@dataclass
class Services:
    settings: Settings
    store: Store
    capture: CaptureService
    provider: Provider
    ledger: StoreLedger
    embed: EmbedService
    vectors: VectorIndex  # for long-lived processes; loads on first use

    def ask(
        self, question: str, index: VectorIndex | None = None, every: bool = False
    ) -> AsyncIterator[AskEvent]:
        """`ask_stream` with this store, provider, models and deadlines (pass `self.vectors`
        from a long-lived process); `every`: with every fact a listing question allows."""
        from memo_tui.core.recall.answer import ask_stream

        settings = self.settings
        return ask_stream(
            self.store,
            None if self.embed.unavailable else self.embed.embedder,
            question,
            provider=self.provider,
            model=select.model_for(settings, "answer"),
            deadline_s=settings.answer_deadline_s,
            min_similarity=settings.min_similarity,
            router_model=select.model_for(settings, "router"),
            router_deadline_s=settings.router_deadline_s,
            index=index,
            every=every,
        )

    def download_model(
        self,
        progress: Callable[[DownloadProgress], None] | None = None,
        stopped: Callable[[], bool] = lambda: False,
    ) -> None:
        """Fetch the default embedding model (see core.model_download) and embed with it from
        now on. Raises DownloadFailed or Stopped; a backfill is the caller's next step."""
        self.settings.model_download.fetch(progress, stopped)
        self.embed.use(embedder_for(self.settings))

    def close(self) -> None:
        self.embed.close()
        self.store.close()


def _mine(addresses: list[str]) -> list[str]:
    """The user's addresses as memo stores addresses (lower case, no plus part)."""
    from memo_tui.core.email.message import normalize_address

    return [found for a in addresses if (found := normalize_address(a))]


def build_services(settings: Settings, db_path: Path | str) -> Services:
    """Wire the services around the store at `db_path`; it opens (and is created) on first use.

    With a model provider, capture extracts with it; offline, with the offline extractor.
    """
    store = Store(db_path, busy_timeout_ms=settings.busy_timeout_ms)
    ledger = StoreLedger(store, {**DEFAULT_PRICES, **settings.prices})
    provider = select.build_provider(settings, ledger)
    options = CaptureOptions(
        max_chars=settings.max_capture_chars,
        user=settings.user_name,
        my_addresses=tuple(_mine(settings.my_addresses)),
    )
    embed = EmbedService(
        store,
        embedder_for(settings),
        batch_size=settings.embed_batch_size,
        timeout_s=settings.embed_timeout_s,
    )
    from memo_tui.core.capture.offline import OfflineExtractor, judge_embed

    def closer_embed() -> Any | None:  # (the embedder may change: a model downloaded)
        return judge_embed(embed.embedder)

    if provider.name == "offline":  # the offline extractor reads the whole text, no slicing
        capture = CaptureService(
            store,
            options,
            extractor=OfflineExtractor(embed.embedder),
            after_commit=embed.embed_capture,
            embed=closer_embed,
        )
    else:
        from memo_tui.core.capture.llm_extractor import LLMExtractor
        from memo_tui.core.history.proposer import ModelProposer

        capture = CaptureService(
            store,
            options,
            extractor=LLMExtractor.from_settings(provider, settings),
            after_commit=embed.embed_capture,
            proposer=ModelProposer.from_settings(provider, settings),
            embed=closer_embed,
        )
    return Services(settings, store, capture, provider, ledger, embed, VectorIndex(store))
