"""Settings (env, TOML, MEMO_HOME), the safety sanitizer, and the README/CI contract."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

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
