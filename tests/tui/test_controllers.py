"""Controllers: the app's work in workers. A change the user asked for lands whole, and is
shown, even when another edit cancels the worker that was writing it."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support.services import offline
from support.tui import drive, until
from textual.widgets import Input

from memo_tui.core.projects import ProjectService
from memo_tui.core.services import Services
from memo_tui.settings import Settings
from memo_tui.ui import dialogs
from memo_tui.ui.app import MemoApp
from memo_tui.ui.widgets.projects import ProjectsPane


def test_a_write_cut_off_by_the_next_edit_still_lands_and_is_listed(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first project is being written (held) when a again starts the next edit, which
    cancels the first edit's worker: the project is written all the same and listed."""
    release = threading.Event()
    original = ProjectService.add

    def held(self: ProjectService, name: str, client: str | None = None) -> int:
        assert release.wait(30), "the test never released the write"
        return original(self, name, client)

    monkeypatch.setattr(ProjectService, "add", held)
    app = MemoApp(services)

    def listed() -> set[str]:
        return {row.cells[0].plain for row in app.query_one(ProjectsPane).rows}

    async def script(pilot: Any) -> None:
        await pilot.press("4", "a")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NewProject), "the dialog")
        app.screen.query_one("#project-name", Input).value = "Harbour Lights"
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, dialogs.NewProject), "it closed")
        await pilot.press("a")  # the next edit: cancels the first edit's worker
        await until(pilot, lambda: isinstance(app.screen, dialogs.NewProject), "the next one")
        await pilot.press("escape")
        release.set()
        await until(pilot, lambda: "Harbour Lights" in listed(), "the first project listed")

    drive(app, script)
    assert [p.name for p in services.store.projects.all()].count("Harbour Lights") == 1


MINE = '# mine\nanimations = false\n\n[keymap]\n"pane.ask" = "a"\n'  # a user's config file


def configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> tuple[Path, Services, MemoApp]:
    """The app on offline services whose config file holds `text`; the file, both."""
    config = tmp_path / "home" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(text)
    built = offline(tmp_path, monkeypatch)
    return config, built, MemoApp(built)


def test_a_theme_chosen_in_the_app_is_kept_in_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The palette's "Change theme" sets the app's theme; the config file keeps it, and
    keeps everything the user wrote there."""
    config, built, app = configured(tmp_path, monkeypatch, MINE)

    async def script(pilot: Any) -> None:
        assert app.theme == "textual-dark"  # as configured: nothing written for it
        assert "theme" not in config.read_text()
        app.theme = "nord"  # what the palette's Change theme does
        await until(pilot, lambda: 'theme = "nord"' in config.read_text(), "the theme saved")

    drive(app, script)
    built.close()
    assert config.read_text() == (
        '# mine\nanimations = false\ntheme = "nord"\n\n[keymap]\n"pane.ask" = "a"\n'
    )
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    again = Settings()
    assert (again.theme, again.keymap) == ("nord", {"pane.ask": "a"})


def test_the_status_line_cuts_model_names_and_keeps_f1_help_at_80_columns() -> None:
    from memo_tui.core.views.lists import StatusCounts
    from memo_tui.ui.controllers.lists import _status

    long = StatusCounts(
        provider="openai",
        model="qwen2.5-coder-1.5b-instruct-q4_k_m-with-a-long-local-name.gguf",
        search="sentence-transformers/all-MiniLM-L6-v2:int8",
        waiting_names=2,
        proposed_changes=1,
        to_review=1,
        spend_microdollars=1_230_000,
    )
    said = _status(long, 80).text.plain  # what waits and F1 help come first
    assert said == "2 names to settle (w) | 1 change to review (v) | today $1.23 | F1 help"
    unsure = _status(replace(long, proposed_items=12, to_review=13), 80).text.plain
    assert unsure.startswith("2 names to settle (w) | 12 items and 1 change to review (v) |")
    calm = replace(long, waiting_names=0, proposed_changes=0, to_review=0)
    said = _status(calm, 80).text.plain
    assert len(said) <= 78 and said.endswith(" | today $1.23 | F1 help")
    assert said.startswith("openai qwen2.5-coder") and said.count("…") == 2
    wide = _status(long, 200).text.plain
    assert long.model in wide and long.search in wide and "…" not in wide
    said = _status(calm, 120).text.plain
    assert said.startswith(f"openai {long.model} | ") and said.endswith("F1 help")
    assert len(said) <= 118


def test_a_theme_chosen_after_an_unknown_one_is_kept_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, built, app = configured(tmp_path, monkeypatch, 'theme = "no-such-theme"\n')

    async def script(pilot: Any) -> None:
        app.theme = "nord"
        await until(pilot, lambda: 'theme = "nord"' in config.read_text(), "the theme saved")

    drive(app, script)
    built.close()
    assert config.read_text() == 'theme = "nord"\n'
