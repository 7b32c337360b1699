"""One Settings object: environment (MEMO_*), an optional TOML file, XDG paths.

Nothing here runs at import time; `load_settings()` builds the object when asked.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from memo_tui.core.model_download import HUB, ModelDownload, in_fastembed_cache

Provider = Literal["auto", "anthropic", "openai", "offline"]

# What an OpenAI-compatible server (most often a small model on a CPU) gets for the settings
# left unset: a capture call there takes minutes, and an 8k-token context holds ~12,000 chars.
LOCAL_SERVER_DEFAULTS: dict[str, float | int] = {
    "extract_deadline_s": 600.0,
    "router_deadline_s": 120.0,
    "answer_deadline_s": 300.0,
    "llm_slice_chars": 12_000,
}


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else Path.home() / fallback


def memo_home() -> Path | None:
    """`MEMO_HOME` when set: every path memo uses then lives under it."""
    value = os.environ.get("MEMO_HOME")
    return Path(value).expanduser() if value else None


def store_location(value: str) -> Path | str:
    """What --db or MEMO_DB names: a PostgreSQL URL as given, else a file's path."""
    if value.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        return value
    return Path(value).expanduser()


def data_dir() -> Path:
    """Where databases live: `$MEMO_HOME`, else `$XDG_DATA_HOME/memo`."""
    return memo_home() or _xdg("XDG_DATA_HOME", ".local/share") / "memo"


def cache_dir() -> Path:
    """What memo can make again (the embedding model's int8 copy): `$MEMO_HOME/cache`, else
    `$XDG_CACHE_HOME/memo`."""
    home = memo_home()
    return home / "cache" if home is not None else _xdg("XDG_CACHE_HOME", ".cache") / "memo"


def config_file() -> Path:
    """The optional TOML file: `$MEMO_CONFIG`, else `config.toml` beside the data or XDG config."""
    explicit = os.environ.get("MEMO_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    home = memo_home()
    if home is not None:
        return home / "config.toml"
    return _xdg("XDG_CONFIG_HOME", ".config") / "memo" / "config.toml"


_REMEMBERING = threading.Lock()  # one write of the config file at a time
_TABLE = re.compile(r"^\s*\[\[?[^\]\[=]+\]\]?\s*(?:#.*)?$")  # "[keymap]", "[[x]]"


def remember(key: str, value: str, path: Path | None = None) -> Path:
    """Write `key = "value"` at the top level of the config file (the app remembers a theme
    chosen in its palette so), keeping every other line as the user wrote it."""
    with _REMEMBERING:
        return _remember(key, value, path or config_file())


def _remember(key: str, value: str, path: Path) -> Path:
    old = path.read_bytes().decode("utf-8") if path.exists() else ""
    newline = "\r\n" if "\r\n" in old else "\n"
    lines = old.splitlines()
    entry = f"{key} = {json.dumps(value)}"  # a JSON string is a TOML basic string
    said = re.compile(rf"^\s*{re.escape(key)}\s*=")
    tables = next((n for n, text in enumerate(lines) if _TABLE.match(text)), None)
    top = len(lines) if tables is None else tables
    found = next((n for n in range(top) if said.match(lines[n])), None)
    if found is None:
        while top and not lines[top - 1].strip():  # after the last setting, not the gap
            top -= 1
        lines.insert(top, entry)
    else:
        lines[found] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    written = path.with_name(path.name + ".tmp")
    written.write_bytes((newline.join(lines) + newline).encode("utf-8"))
    os.replace(written, path)
    return path


class Settings(BaseSettings):
    """memo's configuration. Environment variables win over the TOML file."""

    model_config = SettingsConfigDict(env_prefix="MEMO_", extra="ignore")

    db: str | None = Field(
        default=None,
        description="The store file (default data_dir/memo.db), or a team store's "
        "postgresql://user@host/database URL.",
    )
    demo_db: Path | None = Field(
        default=None, description="The demo store file; default data_dir/demo.db."
    )
    provider: Provider = Field(default="auto", description="LLM provider; auto picks offline.")
    embed_model: str = Field(
        default="sentence-transformers/all-MiniLM-L6-v2", description="fastembed model name."
    )
    embed_model_path: Path | None = Field(
        default=None, description="A local ONNX export of the embedding model (offline use)."
    )
    embed_download: bool | None = Field(
        default=None,
        description="Unset (or auto): memo downloads its default model once, in the "
        "background, when there is none (a failure is not tried again for a day). 1: fastembed "
        "downloads whichever model is set, into its own cache. 0: never download.",
    )
    embed_hub: str = Field(
        default=HUB, description="Where the default embedding model is downloaded from."
    )
    embed_int8: bool = Field(
        default=True,
        description="Run a local embedding model (MEMO_EMBED_MODEL_PATH) with int8 weights: "
        "about 2x faster at the same recall (memo bench recall). Made once, kept in the cache.",
    )
    embed_int8_dir: Path | None = Field(
        default=None, description="Where the int8 copy is kept; default cache_dir/models."
    )
    embed_batch_size: int = Field(default=8, ge=1, le=64, description="Texts per batch.")
    embed_timeout_s: float = Field(
        default=5.0, gt=0, description="A batch taking longer is left for backfill."
    )
    min_similarity: float = Field(
        default=0.35,
        ge=0,
        le=1,
        description="Vector matches below this cosine similarity are not retrieved "
        "(0.35 suits all-MiniLM-L6-v2; see memo bench recall).",
    )
    max_capture_chars: int = Field(
        default=100_000, gt=0, description="Transcripts longer than this are rejected."
    )
    user: str | None = Field(default=None, description="Recorded as triggered_by_user.")
    anthropic_api_key: str | None = Field(
        default=None,
        validation_alias=AliasChoices("MEMO_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"),
        description="Anthropic API key (the SDK's ANTHROPIC_API_KEY works too).",
    )
    anthropic_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("MEMO_ANTHROPIC_BASE_URL", "ANTHROPIC_BASE_URL"),
        description="Another Messages API endpoint (ANTHROPIC_BASE_URL works too).",
    )
    openai_base_url: str = Field(
        default="http://localhost:11434/v1",
        description="An OpenAI-compatible chat-completions server (Ollama's by default).",
    )
    openai_api_key: str | None = Field(default=None, description="Sent as a bearer token if set.")
    openai_model: str | None = Field(
        default=None, description="The model the OpenAI-compatible server serves (all tasks)."
    )
    extract_model: str = Field(default="claude-sonnet-4-6", description="Model for extraction.")
    router_model: str = Field(default="claude-haiku-4-5", description="Model for ask filters.")
    answer_model: str = Field(default="claude-sonnet-4-6", description="Model for answers.")
    project_compile_model: str | None = Field(default=None, description="project_compile agent.")
    person_enrich_model: str | None = Field(default=None, description="person_enrich agent.")
    collector_model: str | None = Field(default=None, description="collector agent.")
    digest_model: str | None = Field(default=None, description="digest agent.")
    chat_model: str | None = Field(default=None, description="The Ask pane's chat agent.")
    concept_compile_model: str | None = Field(default=None, description="concept_compile agent.")
    extract_deadline_s: float = Field(
        default=26.0,
        gt=0,
        description="Extraction call deadline (600 on an OpenAI-compatible server).",
    )
    router_deadline_s: float = Field(
        default=5.0, gt=0, description="Router call deadline (120 on an OpenAI-compatible server)."
    )
    answer_deadline_s: float = Field(
        default=25.0,
        gt=0,
        description="Synthesis call deadline (300 on an OpenAI-compatible server).",
    )
    llm_max_attempts: int = Field(default=4, ge=1, le=10, description="Tries per model call.")
    llm_slice_chars: int = Field(
        default=40_000,
        gt=1000,
        description="How much of a transcript one LLM call reads (12,000 on an OpenAI-compatible "
        "server, to fit an 8k-token context).",
    )
    llm_max_chunks: int = Field(
        default=3, ge=1, le=10, description="Most calls one capture may make (chunk-and-merge)."
    )
    prices: dict[str, tuple[float, float]] = Field(
        default_factory=dict,
        description="USD per million tokens (input, output) by model prefix; adds to defaults.",
    )
    busy_timeout_ms: int = Field(default=5_000, ge=0, description="SQLite busy timeout.")
    approval_timeout_s: float = Field(
        default=90.0, gt=0, description="How long an agent's proposal waits for you (then skipped)."
    )
    agent_context_limit_tokens: int = Field(
        default=128_000, gt=0, description="An agent run's context budget (context_status)."
    )
    theme: str = Field(
        default="textual-dark",
        description="The app's theme; ansi-dark and ansi-light use the terminal's own colours.",
    )
    animations: bool = Field(default=False, description="Let the app animate (off by default).")
    my_addresses: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Your own email addresses (comma-separated in MEMO_MY_ADDRESSES): they "
        "are all you, whatever name a message gives.",
    )
    keymap: dict[str, str] = Field(
        default_factory=dict,
        description='Keys for the app\'s bindings by id, e.g. {"pane.ask": "a,f5"} '
        "(the help screen, F1 in the app, lists the ids).",
    )

    @field_validator("my_addresses", mode="before")
    @classmethod
    def _addresses(cls, value: object) -> object:
        """A comma-separated list (as an environment variable gives it), lower-cased."""
        if isinstance(value, str):
            value = [part for part in value.split(",") if part.strip()]
        if isinstance(value, list):
            return [str(v).strip().lower() for v in value]
        return value

    @field_validator("embed_download", mode="before")
    @classmethod
    def _download(cls, value: object) -> object:
        """Empty or "auto" is the default (memo's own first-run download), as unset is."""
        if isinstance(value, str) and value.strip().lower() in ("", "auto"):
            return None
        return value

    @model_validator(mode="after")
    def _local_server_defaults(self) -> Settings:
        """Deadlines and the slice left unset take the local-server defaults with
        MEMO_PROVIDER=openai; whatever was set (environment, TOML, arguments) stays."""
        self._follow_provider()
        return self

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy whose defaults follow its provider (`memo bench --provider openai`)."""
        copy = super().model_copy(update=update, deep=deep)
        copy._follow_provider()
        return copy

    def _follow_provider(self) -> None:
        for name, local in LOCAL_SERVER_DEFAULTS.items():
            if name not in self.model_fields_set:
                default = type(self).model_fields[name].default
                value = local if self.provider == "openai" else default
                object.__setattr__(self, name, value)  # still a default: not marked as set

    @property
    def local_defaults(self) -> list[str]:
        """The settings now holding a local-server default rather than a value you set."""
        if self.provider != "openai":
            return []
        return [name for name in LOCAL_SERVER_DEFAULTS if name not in self.model_fields_set]

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=config_file())
        return (init_settings, env_settings, toml)

    @property
    def db_path(self) -> Path | str:
        """The user's store: a file, or a PostgreSQL server's URL."""
        return store_location(self.db) if self.db else data_dir() / "memo.db"

    @property
    def demo_db_path(self) -> Path:
        """The demo store, never the user's."""
        return (self.demo_db or data_dir() / "demo.db").expanduser()

    @property
    def model_download(self) -> ModelDownload:
        """The embedding model as memo downloads it (into data_dir/models)."""
        return ModelDownload(self.embed_model, data_dir() / "models", self.embed_hub)

    @property
    def embed_model_folder(self) -> Path | None:
        """The local model folder: MEMO_EMBED_MODEL_PATH, else the one memo downloaded."""
        if self.embed_model_path is not None:
            return self.embed_model_path
        return self.model_download.present()

    @property
    def may_download_model(self) -> bool:
        """Whether memo should download its model by itself now: there is none here, memo
        knows where it lives, downloads are not turned off, and none failed today."""
        if self.embed_download is not None or self.embed_model_folder is not None:
            return False  # (1: fastembed downloads it, as it did before memo could)
        download = self.model_download
        if download.source is None or in_fastembed_cache(download.source):
            return False
        return download.recent_failure() is None

    @property
    def embed_int8_folder(self) -> Path | None:
        """Where the embedding model's int8 copy lives, or None to run the full model."""
        if not self.embed_int8 or self.embed_model_folder is None:
            return None
        return self.embed_int8_dir or cache_dir() / "models"

    @property
    def user_name(self) -> str:
        """Who to record as having triggered a capture."""
        if self.user:
            return self.user
        try:
            return getpass.getuser()
        except (KeyError, OSError):
            return "user"


def load_settings(**overrides: Any) -> Settings:
    """Read the environment and the TOML file now."""
    return Settings(**overrides)
