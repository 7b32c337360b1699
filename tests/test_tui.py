"""The app, driven by Textual's Pilot on a real store: panes, capture detail, Ask."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import DEMO

from memo_tui.core.services import build_services
from memo_tui.settings import Settings
from memo_tui.ui.app import CaptureScreen, MemoApp


@pytest.fixture
def services(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    for name in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_EMBED_MODEL_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    built = build_services(Settings(provider="offline"), tmp_path / "memo.db")
    built.capture.capture_paths([DEMO])
    yield built
    built.close()


def test_captures_pane_lists_and_opens_a_capture(services) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_captures_pane_lists_and_opens_a_capture(services))


async def _captures_pane_lists_and_opens_a_capture(services) -> None:  # type: ignore[no-untyped-def]
    app = MemoApp(services)
    async with app.run_test(size=(120, 36)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.query_one("#captures-table")
        assert table.row_count == 8
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CaptureScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        record = str(app.screen.query_one("#capture-record").render())
        assert "Atlas kickoff" in record and "Decision" in record
        transcript = str(app.screen.query_one("#capture-transcript").render())
        assert "\x1b" not in transcript
        await pilot.press("escape")
        assert not isinstance(app.screen, CaptureScreen)


def test_ask_streams_a_cited_answer_and_a_source_opens_its_lines(services) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_ask_streams_a_cited_answer_and_a_source_opens_its_lines(services))


async def _ask_streams_a_cited_answer_and_a_source_opens_its_lines(services) -> None:  # type: ignore[no-untyped-def]
    app = MemoApp(services)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("5")
        await pilot.press(*"why did we pick Postgres?")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        answer = str(app.query_one("#ask-answer").render())
        assert "Postgres" in answer and "[1]" in answer
        sources = app.query_one("#ask-sources")
        assert sources.option_count >= 1
        sources.focus()
        sources.highlighted = 0
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, CaptureScreen) and app.screen.lines is not None
        await pilot.press("escape", "5", "escape", "1")  # back; out of the question box
        assert app.query_one("#panes").current == "captures"


def test_the_status_line_and_people(services) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_the_status_line_and_people(services))


async def _the_status_line_and_people(services) -> None:  # type: ignore[no-untyped-def]
    app = MemoApp(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "offline" in status and "keyword search only" in status
        assert "1 name to settle" in status  # "Sam" in the Halvorsen meetings
        await pilot.press("3")
        assert app.query_one("#people-table").row_count >= 7


def test_who_is_it_confirms_a_name_and_backfills(services) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_who_is_it(services))


async def _who_is_it(services) -> None:  # type: ignore[no-untyped-def]
    from memo_tui.ui.app import WhoIsIt

    store = services.store
    cheng = next(p.id for p in store.people() if p.name == "Sam Cheng")
    before = next(p for p in store.people() if p.id == cheng).open_action_items
    app = MemoApp(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, WhoIsIt)
        assert app.screen.waiting.mention.mention == "Sam"
        await pilot.click(f"#person-{cheng}")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, WhoIsIt)
        status = str(app.query_one("#status").render())
        assert "to settle" not in status  # the status line updated
    assert store.pending_mentions() == []
    after = next(p for p in store.people() if p.id == cheng)
    assert after.open_action_items > before and "Sam" in after.aliases


def test_escape_leaves_the_names_waiting(services) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_escape_leaves(services))


async def _escape_leaves(services) -> None:  # type: ignore[no-untyped-def]
    app = MemoApp(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("escape")
        await app.workers.wait_for_complete()
    assert [m.mention for m in services.store.pending_mentions()] == ["Sam"]


def test_the_facts_feed_pages_and_opens_a_fact(services, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from memo_tui.ui.app import FactsPane

    monkeypatch.setattr(FactsPane, "PAGE", 20)  # the demo has more than two pages of 20
    asyncio.run(_facts_feed(services))


async def _facts_feed(services) -> None:  # type: ignore[no-untyped-def]
    total = len(services.store.facts())
    app = MemoApp(services)
    async with app.run_test(size=(120, 36)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("2")
        table = app.query_one("#facts-table")
        assert table.row_count == 20
        for _ in range(15):  # near the end of the page the next one loads
            await pilot.press("down")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert table.row_count == min(40, total)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, CaptureScreen)


def test_an_empty_store_says_how_to_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    empty = build_services(Settings(provider="offline"), tmp_path / "empty.db")
    asyncio.run(_empty(empty))
    empty.close()


async def _empty(services) -> None:  # type: ignore[no-untyped-def]
    app = MemoApp(services)
    said: list[str] = []
    app.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert any("No captures yet" in text for text in said)


def test_markup_in_a_title_is_shown_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    built = build_services(Settings(provider="offline"), tmp_path / "m.db")
    title = "[bold]Budget[/bold] [link=https://example.invalid]review[/link]"
    assert built.capture.capture_text(
        f"{title}\n\nAna: We decided to cut the budget.\n", "b.txt", "txt"
    ).ok
    asyncio.run(_markup(built, title))
    built.close()


async def _markup(services, title: str) -> None:  # type: ignore[no-untyped-def]
    app = MemoApp(services)
    async with app.run_test(size=(120, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "[bold]Budget[/bold]" in shown and "[link=" in shown  # shown, not read
