"""Which provider and which model each task uses, and why (for `memo doctor`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from memo_tui.core.llm.base import Ledger, Provider, RetryPolicy
from memo_tui.settings import Settings

Task = Literal[
    "extract",
    "router",
    "answer",
    "project_compile",
    "person_enrich",
    "collector",
    "digest",
    "chat",
    "concept_compile",
]
TASKS: tuple[Task, ...] = get_args(Task)


@dataclass(frozen=True)
class Choice:
    """The provider in use: "anthropic", "openai" or "offline", and the reason."""

    name: str
    reason: str


def choose(settings: Settings) -> Choice:
    setting = settings.provider
    if setting == "offline":
        return Choice("offline", "MEMO_PROVIDER=offline")
    if setting == "anthropic":
        return Choice("anthropic", "MEMO_PROVIDER=anthropic")
    if setting == "openai":
        return Choice("openai", f"MEMO_PROVIDER=openai, server {settings.openai_base_url}")
    if settings.anthropic_api_key:
        return Choice("anthropic", "MEMO_PROVIDER=auto and ANTHROPIC_API_KEY is set")
    return Choice("offline", "MEMO_PROVIDER=auto and no ANTHROPIC_API_KEY: the offline rules")


def model_for(settings: Settings, task: Task) -> str:
    """The model a task uses. Agents without their own setting use the answer model. On an
    OpenAI-compatible server, tasks whose model was not set use MEMO_OPENAI_MODEL."""
    field = f"{task}_model"
    if task not in ("extract", "router", "answer") and getattr(settings, field) is None:
        field = "answer_model"
    explicit = field in settings.model_fields_set and getattr(settings, field)
    if choose(settings).name == "openai" and not explicit:
        return settings.openai_model or ""
    return str(getattr(settings, field) or "")


def problems(settings: Settings) -> list[str]:
    """What stops the chosen provider from working, in words a user can act on."""
    choice = choose(settings)
    found = []
    if choice.name == "anthropic" and not settings.anthropic_api_key:
        found.append("no ANTHROPIC_API_KEY: set it, or use MEMO_PROVIDER=offline")
    if choice.name == "openai" and not settings.openai_model:
        found.append("set MEMO_OPENAI_MODEL to a model your server serves (e.g. llama3.1)")
    return found


def build_provider(settings: Settings, ledger: Ledger | None) -> Provider:
    """The provider for the current settings (offline answers with deterministic policies)."""
    choice = choose(settings)
    policy = RetryPolicy(max_attempts=settings.llm_max_attempts)
    if choice.name == "anthropic":
        from memo_tui.core.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider(
            settings.anthropic_api_key, settings.anthropic_base_url, ledger, policy
        )
    if choice.name == "openai":
        from memo_tui.core.llm.openai_provider import OpenAIProvider

        return OpenAIProvider(settings.openai_base_url, settings.openai_api_key, ledger, policy)
    from memo_tui.core.llm.offline import OfflineProvider

    return OfflineProvider()
