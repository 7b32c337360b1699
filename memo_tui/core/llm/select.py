"""Which provider and which model each task uses, and why; and whether its server answers
(for `memo doctor`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal, get_args

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
    return str(getattr(settings, model_setting(settings, task)) or "")


def model_setting(settings: Settings, task: Task) -> str:
    """The setting a task's model comes from (a field name: `extract_model`, `openai_model`)."""
    field = f"{task}_model"
    if task not in ("extract", "router", "answer") and getattr(settings, field) is None:
        field = "answer_model"
    explicit = field in settings.model_fields_set and getattr(settings, field)
    return field if explicit or choose(settings).name != "openai" else "openai_model"


def problems(settings: Settings) -> list[str]:
    """What stops the chosen provider from working, in words a user can act on."""
    choice = choose(settings)
    found = []
    if choice.name == "anthropic" and not settings.anthropic_api_key:
        found.append("no ANTHROPIC_API_KEY: set it, or use MEMO_PROVIDER=offline")
    if choice.name == "openai" and not settings.openai_model:
        found.append("set MEMO_OPENAI_MODEL to a model your server serves (e.g. llama3.1)")
    return found


CHECK_TIMEOUT_S = 5.0
# What an extraction call needs besides the transcript (instructions, schema, the answer), in
# tokens, and the characters a token holds at worst in meeting text: for `fitting_slice`.
_CALL_OVERHEAD_TOKENS, _CHARS_PER_TOKEN = 3_000, 3.5


@dataclass(frozen=True)
class ServerCheck:
    """What asking the provider's server for its model list found (nothing is generated)."""

    url: str
    reachable: bool
    listed: tuple[str, ...] = ()  # the model names the server lists
    missing: tuple[str, ...] = ()  # models memo would use that it does not list
    context_tokens: int | None = None  # the context size the server reports, if it does
    problems: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"checked": True, **asdict(self)}


def check_server(settings: Settings, timeout_s: float = CHECK_TIMEOUT_S) -> ServerCheck | None:
    """GET the chosen provider's model list (free, and quick to fail); None when there is
    nothing to ask (offline, or no Anthropic key, which `problems` already reports)."""
    name = choose(settings).name
    if name == "openai":
        return _check_openai(settings, timeout_s)
    if name == "anthropic" and settings.anthropic_api_key:
        return _check_anthropic(settings, timeout_s)
    return None


def fitting_slice(context_tokens: int) -> int:
    """The longest MEMO_LLM_SLICE_CHARS an extraction call fits in this context, roughly."""
    room = (context_tokens - _CALL_OVERHEAD_TOKENS) * _CHARS_PER_TOKEN
    return max(2_000, int(room) // 1_000 * 1_000)


def _check_openai(settings: Settings, timeout_s: float) -> ServerCheck:
    import httpx

    url = f"{settings.openai_base_url.rstrip('/')}/models"
    where = "start the model server, or set MEMO_OPENAI_BASE_URL to where it listens"
    key = settings.openai_api_key
    try:
        response = httpx.get(
            url, headers={"authorization": f"Bearer {key}"} if key else {}, timeout=timeout_s
        )
    except httpx.TimeoutException:
        return ServerCheck(
            url, False, problems=(f"no answer from {url} in {timeout_s:g} s: {where}",)
        )
    except (httpx.HTTPError, httpx.InvalidURL) as error:
        return ServerCheck(url, False, problems=(f"cannot reach {url} ({error}): {where}",))
    if response.status_code in (401, 403):
        problem = f"{url} refused memo (HTTP {response.status_code}): set MEMO_OPENAI_API_KEY"
        return ServerCheck(url, True, problems=(problem + " to a key the server accepts",))
    try:
        body = response.json() if response.status_code == 200 else None
    except ValueError:
        body = None
    if not isinstance(body, dict):
        problem = (
            f"{url} answered HTTP {response.status_code}, not a model list: set "
            "MEMO_OPENAI_BASE_URL to the server's OpenAI-compatible root (it usually ends in /v1)"
        )
        return ServerCheck(url, True, problems=(problem,))
    listed, context = _listed_models(body)
    missing = [m for m in _models_in_use(settings) if not {m, f"{m}:latest"} & set(listed)]
    found = [_not_listed(settings, m, listed) for m in missing]
    if context and settings.llm_slice_chars > fitting_slice(context):
        found.append(
            f"the server's context is {context:,} tokens, too small for a "
            f"{settings.llm_slice_chars:,}-character slice and its answer: set "
            f"MEMO_LLM_SLICE_CHARS={fitting_slice(context)} (or give the server a larger context)"
        )
    return ServerCheck(url, True, tuple(listed), tuple(missing), context, tuple(found))


def _listed_models(body: dict[str, Any]) -> tuple[list[str], int | None]:
    """Model names in an OpenAI-style list (`data[].id`, llama.cpp's aliases and Ollama-style
    `models[]`), and the context size llama.cpp reports in `data[].meta.n_ctx`."""
    names: list[object] = []
    context = None
    for entry in body.get("data") or []:
        if not isinstance(entry, dict):
            continue
        names += [entry.get("id"), *(entry.get("aliases") or [])]
        n_ctx = (entry.get("meta") or {}).get("n_ctx")
        context = n_ctx if isinstance(n_ctx, int) and n_ctx > 0 else context
    for entry in body.get("models") or []:
        if isinstance(entry, dict):
            names += [entry.get("name"), entry.get("model")]
    return list(dict.fromkeys(n for n in names if isinstance(n, str) and n)), context


def _models_in_use(settings: Settings) -> list[str]:
    return list(dict.fromkeys(m for m in (model_for(settings, t) for t in TASKS) if m))


def _not_listed(settings: Settings, model: str, listed: list[str]) -> str:
    """The problem, naming the settings that chose `model`."""
    fields = [model_setting(settings, t) for t in TASKS if model_for(settings, t) == model]
    names = " / ".join(dict.fromkeys(f"MEMO_{f.upper()}" for f in fields))
    offer = ", ".join(listed[:10]) if listed else "none"
    return f"the server does not list {model!r} (it lists: {offer}): set {names} to one it lists"


def _check_anthropic(settings: Settings, timeout_s: float) -> ServerCheck:
    """The Models API (free) with the configured key and base URL: reachable, key accepted,
    models known (a model that no listed id starts with is a typo; aliases are prefixes)."""
    import anthropic

    client = anthropic.Anthropic(
        api_key=settings.anthropic_api_key,
        base_url=settings.anthropic_base_url,
        max_retries=0,
        timeout=timeout_s,
    )
    url = f"{str(client.base_url).rstrip('/')}/v1/models"
    where = "check the network, or set ANTHROPIC_BASE_URL to a Messages API endpoint"
    try:
        page = client.models.list(limit=1000)
    except anthropic.APITimeoutError:
        return ServerCheck(
            url, False, problems=(f"no answer from {url} in {timeout_s:g} s: {where}",)
        )
    except anthropic.APIConnectionError as error:
        return ServerCheck(url, False, problems=(f"cannot reach {url} ({error}): {where}",))
    except anthropic.APIStatusError as error:
        fix = "set ANTHROPIC_API_KEY to a valid key" if error.status_code in (401, 403) else where
        problem = f"{url} refused memo (HTTP {error.status_code}): {fix}"
        return ServerCheck(url, True, problems=(problem,))
    listed = [model.id for model in page.data]
    used = _models_in_use(settings)
    missing = [m for m in used if listed and not any(n.startswith(m) for n in listed)]
    found = [_not_listed(settings, m, listed) for m in missing]
    return ServerCheck(url, True, tuple(listed), tuple(missing), None, tuple(found))


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
