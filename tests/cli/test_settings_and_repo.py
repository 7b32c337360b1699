"""Settings (env, TOML, MEMO_HOME), the safety sanitizer, and the README/CI contract."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.paths import REPO

from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.settings import load_settings


def test_memo_home_redirects_every_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MEMO_DB", "MEMO_DEMO_DB", "MEMO_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path))
    settings = load_settings()
    assert settings.db_path == tmp_path / "memo.db"
    assert settings.demo_db_path == tmp_path / "demo.db"
    assert not tmp_path.joinpath("memo.db").exists()  # nothing created by reading settings


def test_env_wins_over_the_toml_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text('max_capture_chars = 5000\nprovider = "offline"\n')
    monkeypatch.delenv("MEMO_MAX_CAPTURE_CHARS", raising=False)
    monkeypatch.delenv("MEMO_PROVIDER", raising=False)
    assert load_settings().max_capture_chars == 5000
    monkeypatch.setenv("MEMO_MAX_CAPTURE_CHARS", "7000")
    settings = load_settings()
    assert settings.max_capture_chars == 7000 and settings.provider == "offline"


def test_a_local_server_gets_longer_deadlines_and_a_smaller_slice_unless_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("EXTRACT_DEADLINE_S", "ROUTER_DEADLINE_S", "ANSWER_DEADLINE_S", "CONFIG"):
        monkeypatch.delenv(f"MEMO_{name}", raising=False)
    monkeypatch.delenv("MEMO_LLM_SLICE_CHARS", raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path))
    monkeypatch.setenv("MEMO_PROVIDER", "openai")
    local = load_settings()
    deadlines = (local.extract_deadline_s, local.router_deadline_s, local.answer_deadline_s)
    assert deadlines == (600, 120, 300)
    assert local.llm_slice_chars == 12_000 and len(local.local_defaults) == 4
    (tmp_path / "config.toml").write_text("router_deadline_s = 9\n")
    monkeypatch.setenv("MEMO_EXTRACT_DEADLINE_S", "30")
    mixed = load_settings()
    assert (mixed.extract_deadline_s, mixed.router_deadline_s) == (30, 9)  # set: they win
    assert (mixed.answer_deadline_s, mixed.llm_slice_chars) == (300, 12_000)
    assert mixed.local_defaults == ["answer_deadline_s", "llm_slice_chars"]
    monkeypatch.setenv("MEMO_PROVIDER", "anthropic")
    hosted = load_settings()
    assert (hosted.answer_deadline_s, hosted.llm_slice_chars) == (25, 40_000)
    assert hosted.local_defaults == []
    benched = hosted.model_copy(update={"provider": "openai"})  # memo bench --provider openai
    assert (benched.extract_deadline_s, benched.answer_deadline_s) == (30, 300)


def test_a_timeout_names_the_setting_that_gives_the_call_more_time() -> None:
    import asyncio
    from collections.abc import AsyncIterator

    from memo_tui.core.llm.base import Provider
    from memo_tui.core.llm.errors import LLMTimeout
    from memo_tui.core.llm.types import CallRecord, Completion, Message, Request, StreamEvent

    class Stalling(Provider):
        async def _complete_once(self, request: Request, timeout_s: float) -> Completion:
            await asyncio.sleep(5)
            raise AssertionError("the deadline ends it first")

        def _stream_once(
            self, request: Request, timeout_s: float, record: CallRecord
        ) -> AsyncIterator[StreamEvent]:
            raise NotImplementedError

        def _classify(self, error: Exception) -> None:
            return None

    for trigger, setting in (
        ("capture", "MEMO_EXTRACT_DEADLINE_S"),
        ("changes", "MEMO_EXTRACT_DEADLINE_S"),
        ("ask_router", "MEMO_ROUTER_DEADLINE_S"),
        ("ask", "MEMO_ANSWER_DEADLINE_S"),
        ("agent:chat", "MEMO_ANSWER_DEADLINE_S"),
    ):
        request = Request("m", (Message("user", "hi"),), deadline_s=0.05, trigger=trigger)
        with pytest.raises(LLMTimeout, match=f"raise {setting}\\)"):
            asyncio.run(Stalling().complete(request))


def test_bad_settings_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_PROVIDER", "gpt-local")
    with pytest.raises(ValueError, match="provider"):
        load_settings()


def test_sanitize_makes_terminal_controls_visible() -> None:
    payload = "ok \x1b]0;pwned\x07 \u202eevil\u200b \x9b2J\ttab\nline"
    shown = sanitize(payload)
    assert not any(c in shown for c in "\x1b\x07\u202e\u200b\x9b")
    assert "\u241b]0;pwned\u2407" in shown and "<U+202E>" in shown
    assert "\n" in shown and "\t" in shown
    assert "\n" not in sanitize_line(payload)


def test_sanitize_leaves_no_control_or_invisible_character() -> None:
    """Every control, format character (bidi, zero-width, tag characters...) and line or
    paragraph separator Python knows of is made visible; only newline and tab stay."""
    import sys
    import unicodedata

    hidden = [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp") and chr(c) not in "\n\t"
    ]
    assert len(hidden) > 200
    left = [f"U+{ord(c):04X}" for c in hidden if c in sanitize(f"a{c}b")]
    assert left == []
    assert "<U+E0041>" in sanitize("Budget review\U000e0041")  # a tag character


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    command = "pip install -e '.[test]' && pytest"
    assert command in readme and command in ci
    assert "pip install . && memo --demo" in readme


def test_a_remembered_setting_is_written_once_at_the_top_level(tmp_path: Path) -> None:
    from memo_tui.settings import remember

    path = tmp_path / "new" / "config.toml"
    remember("theme", "nord", path)
    assert path.read_text() == 'theme = "nord"\n'
    path.write_text('theme = "nord"  # mine\n[keymap]\n"pane.ask" = "a"\n')
    remember("theme", 'a "quoted" one', path)
    assert path.read_text() == 'theme = "a \\"quoted\\" one"\n[keymap]\n"pane.ask" = "a"\n'


def test_a_remembered_setting_keeps_crlf_and_goes_above_the_first_table(tmp_path: Path) -> None:
    from memo_tui.settings import remember

    path = tmp_path / "config.toml"
    path.write_bytes(b'ports = [\r\n  1,\r\n]\r\n[keymap]\r\n"pane.ask" = "a"\r\n')
    remember("theme", "nord", path)
    assert path.read_bytes() == (
        b'ports = [\r\n  1,\r\n]\r\ntheme = "nord"\r\n[keymap]\r\n"pane.ask" = "a"\r\n'
    )
