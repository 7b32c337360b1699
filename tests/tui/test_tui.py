"""The app, driven by Textual's Pilot on a real store: every pane, page, dialog and job.

Each test waits on state (workers done, a screen up), never on the clock.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from support.db import dump, steering_decision
from support.paths import DEMO
from support.services import accept_all, held_extraction, offline
from support.tui import (
    as_text,
    drive,
    enter_path,
    palette_hits,
    path_dialog,
    select,
    settle,
    shown,
    until,
)
from textual.widgets import DataTable, Input, Select

from memo_tui.core.capture import versions
from memo_tui.core.demo import seed_demo, unseeded
from memo_tui.core.entities.service import EntityService
from memo_tui.core.services import Services
from memo_tui.settings import Settings
from memo_tui.ui import dialogs, messages
from memo_tui.ui.app import MemoApp
from memo_tui.ui.dialogs.capture_file import CapturablePath, PathSuggester
from memo_tui.ui.screens.capture import CaptureScreen
from memo_tui.ui.screens.person import PersonPage
from memo_tui.ui.screens.project import ProjectPage
from memo_tui.ui.widgets.answer import AnswerView
from memo_tui.ui.widgets.ask import AskPane
from memo_tui.ui.widgets.facts import WITHOUT_EXCERPTS, FactsPane, due
from memo_tui.ui.widgets.runs import RunsPane
from store import FactFilter, NoteRecord, SectionRecord

# Captures


def test_captures_pane_lists_and_opens_a_capture_with_provenance(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        table = app.query_one("#captures-table")
        assert table.row_count == 10  # the demo's eight meetings and two mail threads
        assert "Cobalt: PO numbers" in str(table.get_row_at(0)[0])  # newest first: mail
        assert "Beacon steering committee" in str(table.get_row_at(2)[0])
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, CaptureScreen)
        record = as_text(app.screen.query_one("#capture-record").content)
        assert "Provenance" in record and "offline extractor" in record
        assert "Decisions" in record and "Action items" in record
        transcript = str(app.screen.query_one("#capture-transcript").render())
        assert "\x1b" not in transcript
        await pilot.press("escape")
        assert not isinstance(app.screen, CaptureScreen)
        sync = next(c.id for c in services.store.captures.all() if c.occurred_at == "2026-09-15")
        app.open_capture(sync)
        await settle(pilot)
        record = as_text(app.screen.query_one("#capture-record").content)
        assert "Share Beacon wireframes. -> Marcus Webb (done)" in record  # [x], settled name

    drive(app, script)


def test_slash_filters_the_list_and_escape_clears_it(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        table = app.query_one("#captures-table")
        await pilot.press("slash", *"atlas")
        assert table.row_count == 2
        await pilot.press("enter")  # keep the filter, back in the table
        assert table.has_focus and table.row_count == 2
        await pilot.press("escape")
        assert table.row_count == 10

    drive(app, script)


def test_home_and_end_go_to_the_first_and_last_row(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        table = app.query_one("#captures-table")
        await pilot.press("end")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1

    drive(app, script)


def test_delete_asks_first_and_escape_keeps_the_capture(services: Services) -> None:
    before = dump(services.store)
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the confirm dialog")
        assert "Delete this capture?" in shown(app)
        await pilot.press("escape")
        await settle(pilot)

    drive(app, script)
    assert dump(services.store) == before


def test_the_arrows_move_between_a_dialogs_buttons(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the confirm dialog")
        assert app.screen.focused.id == "no"  # a delete starts on Cancel
        await pilot.press("left")
        assert app.screen.focused.id == "yes"
        await pilot.press("right")
        assert app.screen.focused.id == "no"
        await pilot.press("enter")
        await settle(pilot)

    drive(app, script)
    assert len(services.store.captures.all()) == 10


def test_escape_in_the_note_editor_asks_before_dropping_typed_text(services: Services) -> None:
    app = MemoApp(services)
    before = dump(services.store)

    async def script(pilot: Any) -> None:
        await pilot.press("4", "n")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NoteEditor), "the editor")
        await pilot.press(*"a draft", "escape")
        assert isinstance(app.screen, dialogs.NoteEditor)  # it said so, and kept the text
        assert app.screen.query_one("#note-body").text == "a draft"
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, dialogs.NoteEditor)

    drive(app, script)
    assert dump(services.store) == before


def test_delete_removes_the_capture_and_its_facts(services: Services) -> None:
    newest = services.store.captures.all()[-1]
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the confirm dialog")
        await pilot.click("#yes")
        await settle(pilot)
        assert app.query_one("#captures-table").row_count == 9

    drive(app, script)
    assert newest.id not in {c.id for c in services.store.captures.all()}
    assert services.store.facts.all(capture_id=newest.id) == []
    assert services.store.integrity_check() == "ok"


# Capture from the app


def test_capture_a_file_from_the_app_then_settle_its_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = offline(tmp_path, monkeypatch)
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("2026-11-03-beacon-planning.txt", "2026-11-17-halvorsen-steering-notes.txt"):
        (folder / name).write_text((DEMO / name).read_text(encoding="utf-8"), encoding="utf-8")
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await pilot.press(*f"{folder}/2026-11-0")
        box = app.screen.query_one("#capture-path")
        await until(pilot, lambda: bool(box._suggestion), "a completion")
        await pilot.press("tab")  # completion fills in the one file that fits
        box = app.screen.query_one("#capture-path")
        assert box.value == str(folder / "2026-11-03-beacon-planning.txt")
        await pilot.press("enter")
        # Sam (two Sams were there) waits for the user: the dialog comes right after capture.
        await until(pilot, lambda: isinstance(app.screen, dialogs.WhoIsIt), "who is Sam?")
        assert app.screen.mention == "Sam"
        await pilot.press("escape")
        await settle(pilot)
        assert app.query_one("#captures-table").row_count == 1

    drive(app, script)
    assert [c.title for c in built.store.captures.all()] == ["Beacon planning"]
    built.close()


def test_the_path_dialog_refuses_what_it_cannot_capture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = offline(tmp_path, monkeypatch)
    (tmp_path / "photo.png").write_bytes(b"\x89PNG")
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, tmp_path / "photo.png")
        await pilot.pause()
        assert isinstance(app.screen, dialogs.CaptureFile)  # still asking
        problem = str(app.screen.query_one("#capture-problem").render())
        assert "photo.png: .png files are not captured" in problem
        assert ".mbox, .eml files and Maildir folders" in problem
        assert "Maildir folders." in shown(app)  # wrapped, not cut, at 80 columns
        await pilot.press(*"x" * 3, "enter")
        assert "No such file" in str(app.screen.query_one("#capture-problem").render())
        await pilot.press("escape")
        assert not isinstance(app.screen, dialogs.CaptureFile)

    drive(app, script, size=(80, 24))
    assert built.store.captures.all() == []
    built.close()


def _edited_retro(tmp_path: Path) -> Path:
    """The Atlas retro with one more decision: a new version of a stored meeting."""
    name = "2026-10-20-atlas-migration-retro.txt"
    text = (DEMO / name).read_text(encoding="utf-8")
    edited = tmp_path / name
    edited.write_text(
        text + "\nPriya: We decided to keep the old cluster for one more week as a fallback.\n",
        encoding="utf-8",
    )
    return edited


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_replace_shows_what_differs_and_does_what_the_user_says(
    services: Services, tmp_path: Path, answer: str
) -> None:
    store = services.store
    retro = next(c for c in store.captures.all() if "retro" in c.title.lower())
    edited = _edited_retro(tmp_path)
    before = dump(store)
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, edited)
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the replace dialog")
        text = shown(app)
        assert "Replace the stored meeting?" in text
        assert f"{retro.decisions}" in text and f"{retro.decisions + 1}" in text  # the counts
        await pilot.click(f"#{answer}")
        await settle(pilot)

    drive(app, script)
    if answer == "no":
        assert dump(store) == before
    else:
        now = next(c for c in store.captures.all() if "retro" in c.title.lower())
        assert now.decisions == retro.decisions + 1
        assert len(store.captures.all()) == 10


def test_replace_shows_a_changed_line_when_the_counts_are_the_same(
    services: Services, tmp_path: Path
) -> None:
    """Only a word of one decision changed: the counts match, so the dialog shows the line."""
    name = "2026-09-08-atlas-kickoff.txt"
    text = (DEMO / name).read_text(encoding="utf-8")
    edited = tmp_path / name
    edited.write_text(text.replace("Postgres", "CockroachDB", 1), encoding="utf-8")
    changed = next(n for n, row in enumerate(text.split("\n"), 1) if "Postgres" in row)
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, edited)
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the replace dialog")
        body = as_text(app.screen.body)
        assert f"1 line, from L{changed}" in body and "CockroachDB" in body
        await pilot.click("#no")
        await settle(pilot)

    drive(app, script)


def test_what_changed_counts_lines_and_finds_the_first() -> None:
    assert versions.what_changed("a\nb\nc", "a\nb\nc") is None
    change = versions.what_changed("a\nb\nc\nd", "a\nB\nc\nd\ne")
    assert change == versions.Change(lines=2, first=2, was="b", now="B")
    dropped = versions.what_changed("a\nb", "a")
    assert dropped == versions.Change(lines=1, first=2, was="b", now="(nothing)")


def test_a_failed_capture_shows_an_error_and_the_app_carries_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = offline(tmp_path, monkeypatch)

    def broken(_: object) -> object:
        raise RuntimeError("the extractor fell over")

    built.capture.extractor = broken
    (tmp_path / "m.txt").write_text("Ana: We decided to ship.\n", encoding="utf-8")
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, tmp_path / "m.txt")
        await until(pilot, lambda: isinstance(app.screen, dialogs.ErrorDialog), "the error")
        assert "fell over" in shown(app) and "nothing was stored" in shown(app)
        await pilot.press("enter")  # OK
        await pilot.press("2")  # still usable
        assert app.query_one("#panes").current == "facts"

    drive(app, script)
    assert built.store.captures.all() == []
    built.close()


def test_ctrl_x_stops_a_capture_between_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = offline(tmp_path, monkeypatch)
    started, release = held_extraction(built)
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, DEMO)
        await until(pilot, started.is_set, "the first file's extraction")
        assert app.query_one("#job").has_class("running")
        assert "Capturing" in shown(app)
        await pilot.press("ctrl+x")
        release.set()
        job = app.query_one("#job")
        await until(pilot, lambda: not job.has_class("running"), "the job bar to go")

    drive(app, script)
    assert len(built.store.captures.all()) == 1  # the file under way finished; no more started
    built.close()


def test_an_unexpected_failure_shows_an_error_dialog(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        def fails() -> None:
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(services.store.reports, "projects", fails)
        app.refresh_lists()
        await until(pilot, lambda: isinstance(app.screen, dialogs.ErrorDialog), "the error")
        assert "disk on fire" in shown(app)
        await pilot.press("enter")
        await pilot.press("1")
        assert app.query_one("#panes").current == "captures"

    drive(app, script)


# Facts


def test_the_facts_feed_pages_and_opens_a_fact(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FactsPane, "PAGE", 20)  # the demo has more than two pages of 20
    total = len(services.store.facts.all())
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("2")
        await settle(pilot)
        table = app.query_one("#facts-table")
        assert table.row_count == 20
        table.focus()
        for _ in range(15):  # near the end of the page the next one loads
            await pilot.press("down")
        await settle(pilot)
        assert table.row_count == min(40, total)
        keys = [f.fact_key for f in app.query_one(FactsPane).facts]
        assert len(keys) == len(set(keys))  # keyset paging: no fact twice
        await pilot.press(*["down"] * 40)  # key auto-repeat: highlights faster than pages load
        await settle(pilot)
        keys = [f.fact_key for f in app.query_one(FactsPane).facts]
        assert len(keys) == len(set(keys)) and len(keys) > 40
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CaptureScreen)

    drive(app, script)


def test_facts_filter_by_type_person_and_date_and_search(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        pane = app.query_one(FactsPane)
        await pilot.press("2")
        await settle(pilot)
        pane.query_one("#facts-type").value = "decision"
        await settle(pilot)
        assert pane.facts and {f.fact_type for f in pane.facts} == {"decision"}
        pane.query_one("#facts-person").focus()
        await pilot.press(*"Sam Cheng", "enter")
        await settle(pilot)
        cheng = next(p.id for p in services.store.people.all() if p.name == "Sam Cheng")
        theirs = FactFilter(fact_types=("decision",), person_ids=(cheng,))
        assert {f.fact_key for f in pane.facts} == set(services.store.search.allowed_keys(theirs))
        assert 0 < len(pane.facts) < len(services.store.facts.all("decision"))
        pane.query_one("#facts-since").focus()
        await pilot.press(*"2026-10-01", "enter")
        await settle(pilot)
        assert all((f.occurred_at or "") >= "2026-10-01" for f in pane.facts)
        pane.query_one("#facts-until").focus()
        await pilot.press(*"2026-09-01", "enter")
        await settle(pilot)
        assert "since is after until" in str(pane.query_one("#facts-info").render())
        await pilot.press("escape", "escape")  # out of the box, then clear everything
        await settle(pilot)
        assert len({f.fact_type for f in pane.facts}) > 1
        await pilot.press("slash", *"Postgres", "enter")  # / is the search box here
        await settle(pilot)
        assert pane.searching and pane.facts
        assert "postgres" in pane.facts[0].text.lower()
        assert "result" in str(pane.query_one("#facts-info").render())
        await pilot.press("slash", "down")  # from the search box down into the results
        table = pane.query_one("#facts-table")
        assert table.has_focus and table.cursor_row == 0

    drive(app, script)


def test_the_feed_leaves_excerpts_out_until_x_and_shows_who_and_when_due(
    services: Services,
) -> None:
    """Excerpts buried the decisions and action items (56 of 131 demo rows): they are out
    of the feed and the search's hits until x; each item's owner and due date, and each
    decision's maker, have their own columns rather than the end of a cut-off line."""
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        pane = app.query_one(FactsPane)
        await pilot.press("2")
        await settle(pilot)
        assert pane.facts and "excerpt" not in {f.fact_type for f in pane.facts}
        assert "excerpts hidden (x shows them)" in str(pane.query_one("#facts-info").render())
        table = pane.query_one("#facts-table", DataTable)
        assert [str(c.label) for c in table.columns.values()] == [
            "Type",
            "Date",
            "Fact",
            "Who",
            "Due",
            "Meeting",
            "Lines",
        ]
        who = services.store.facts.people_of(pane.facts)
        n, item = next(
            (n, f)
            for n, f in enumerate(pane.facts)
            if f.fact_key in who and who[f.fact_key].due_date
        )
        row = table.get_row_at(n)
        owner = who[item.fact_key].owner or ""
        assert owner.startswith(str(row[3]).rstrip(".").split()[0])
        assert str(row[4]) == str(due(who[item.fact_key].due_date, item.occurred_at or ""))
        assert "(owner:" not in str(row[2]) and "(due " not in str(row[2])
        table.focus()
        await pilot.press("x")
        await settle(pilot)
        assert "excerpt" in {f.fact_type for f in pane.facts}
        assert "hidden" not in str(pane.query_one("#facts-info").render())
        await pilot.press("slash", *"taxi", "enter")  # x typed in the box is a letter
        await settle(pilot)
        assert pane.query_one("#facts-search", Input).value == "taxi" and pane.excerpts

    drive(app, script)


def test_a_due_date_is_short_and_an_overdue_one_is_red() -> None:
    from rich.text import Text

    from memo_tui.ui.widgets.facts import short_name

    assert due("2026-04-24", "2026-03-02") == "24 Apr"  # the meeting's year goes unsaid
    assert due("2027-01-11", "2026-09-22") == "Jan 27"
    late = due("2026-04-24", "2026-03-02", open_=True)
    assert isinstance(late, Text) and late.plain == "24 Apr" and late.spans[0].style == "red"
    assert due("2999-04-24", "2999-03-02", open_=True) == "24 Apr"  # not yet due
    assert due(None) == "" and str(due("soon")) == "soon"
    assert short_name("Priya Natarajan") == "Priya N." and short_name("Sam Chen") == "Sam Chen"


def test_a_replaced_decision_says_when_it_was_replaced() -> None:
    from memo_tui.ui.widgets.facts import told
    from store import FactPeople

    replaced = FactPeople(status="superseded", superseded_by=7, valid_to="2026-02-16")
    said = "Brightline it is. (decided by Nadia Roy) (superseded)"
    assert told(said, replaced) == "Brightline it is. (replaced 16 Feb)"
    assert told(said, FactPeople()) == "Brightline it is. (superseded)"  # no date known


def test_an_unconfirmed_item_is_marked_first_where_a_long_fact_is_not_cut() -> None:
    from memo_tui.ui.widgets.facts import _fact_cell
    from store import FactPeople

    said = "Send the signed order to Acme before the audit week starts. (owner: Lee) (unconfirmed)"
    shown = _fact_cell(said, FactPeople(state="proposed"), 30).plain
    assert shown.startswith("unconfirmed · Send the") and "(unconfirmed)" not in shown
    assert len(shown) <= 30
    sure = _fact_cell(said.replace(" (unconfirmed)", ""), FactPeople(state="asserted"), 30)
    assert "unconfirmed" not in sure.plain


def test_the_feed_keeps_a_readable_fact_column_at_80_columns(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        pane = app.query_one(FactsPane)
        await pilot.press("2")
        await settle(pilot)
        table = pane.query_one("#facts-table", DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        assert labels == ["Type", "Date", "Fact", "Who", "Due"]  # the meeting opens on enter
        widths = {str(c.label): c.get_render_width(table) for c in table.columns.values()}
        assert widths["Fact"] >= 30 and sum(widths.values()) <= 78, widths

    drive(app, script, size=(80, 24))


def test_facts_filter_by_status_and_client_as_memo_facts_does(services: Services) -> None:
    store = services.store
    client = store.clients.all()[0]
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        pane = app.query_one(FactsPane)
        await pilot.press("2")
        await settle(pilot)
        pane.query_one("#facts-status", Select).value = "open"
        await settle(pilot)
        people = store.facts.people_of(pane.facts)
        assert pane.facts and all(people[f.fact_key].status == "open" for f in pane.facts)
        assert pane.flt == FactFilter(fact_types=WITHOUT_EXCERPTS, statuses=("open",))
        pane.query_one("#facts-client").focus()
        await pilot.press(*client.name, "enter")
        await settle(pilot)
        wanted = FactFilter(
            fact_types=WITHOUT_EXCERPTS, client_ids=(client.id,), statuses=("open",)
        )
        assert pane.flt == wanted
        assert {f.fact_key for f in pane.facts} == set(store.search.allowed_keys(wanted))
        await pilot.press("escape", "escape")  # out of the box, then every filter cleared
        await settle(pilot)
        assert pane.query_one("#facts-status", Select).is_blank()
        assert pane.flt == FactFilter(fact_types=WITHOUT_EXCERPTS)

    drive(app, script)


def test_facts_filter_says_who_a_name_could_be_and_leaves_it_out(services: Services) -> None:
    """The pane reads its boxes as `memo facts` reads its options (core's read_filter)."""
    app = MemoApp(services)
    atlas = next(p.id for p in services.store.projects.all() if p.name == "Atlas")

    async def script(pilot: Any) -> None:
        pane = app.query_one(FactsPane)
        await pilot.press("2")
        await settle(pilot)
        pane.query_one("#facts-person").focus()
        await pilot.press(*"Sam", "enter")
        await settle(pilot)
        info = str(pane.query_one("#facts-info").render())
        assert "person 'Sam' could be Sam Chen or Sam Cheng" in info
        assert pane.flt == FactFilter(fact_types=WITHOUT_EXCERPTS)  # not guessed: left out
        pane.query_one("#facts-project").focus()
        await pilot.press(*"atlas", "enter")
        await settle(pilot)
        assert pane.flt == FactFilter(fact_types=WITHOUT_EXCERPTS, project_ids=(atlas,))
        assert {f.fact_key for f in pane.facts} == set(services.store.search.allowed_keys(pane.flt))
        assert "could be Sam Chen" in str(pane.query_one("#facts-info").render())

    drive(app, script)


# People and projects


def test_people_and_a_person_page(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        status = str(app.query_one("#status").render())
        assert "offline" in status and "keyword search only" in status
        assert "1 name to settle" in status  # "Sam" in the Halvorsen meetings
        await pilot.press("3")
        table = app.query_one("#people-table")
        assert table.row_count >= 7
        await pilot.press("slash", *"Priya", "enter", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PersonPage)
        assert "Priya Natarajan" in str(app.screen.query_one("#page-head").render())
        entries = app.screen.query_one("#page-entries")
        headings = {str(entries.get_option_at_index(n).prompt) for n in range(entries.option_count)}
        assert {"Owes", "Is owed (they asked for it)", "Decided", "Meetings"} <= headings

    drive(app, script)


def test_people_show_their_pending_assignments(services: Services) -> None:
    """The demo's "Sam" could be Sam Chen or Sam Cheng: both have the item it holds up
    (To settle) and list it on their page; Priya, in the same meetings, does not. (The
    other "Sam" requests were taken on by who answered them.)"""
    app = MemoApp(services)
    people = {p.name: p.id for p in services.store.people.all()}

    def row_of(name: str) -> list[str]:
        table = app.query_one("#people-table")
        cells = table.get_row(str(people[name]))
        return [str(c) for c in cells]

    def waiting_on_page() -> list[str]:
        entries = app.screen.query_one("#page-entries")
        prompts = [str(entries.get_option_at_index(n).prompt) for n in range(entries.option_count)]
        if not any(p.startswith("Waiting for you") for p in prompts):
            return []
        return prompts[[p.startswith("Waiting for you") for p in prompts].index(True) + 1 :]

    async def script(pilot: Any) -> None:
        await pilot.press("3")
        assert row_of("Sam Chen")[-1] == row_of("Sam Cheng")[-1] == "1 (w)"
        assert row_of("Priya Natarajan")[-1] == ""
        app.go_to("person", people["Sam Chen"])
        await settle(pilot)
        assert len(waiting_on_page()) >= 1
        await pilot.press("escape")
        app.go_to("person", people["Priya Natarajan"])
        await settle(pilot)
        assert waiting_on_page() == []
        await pilot.press("escape", "w")
        for n in range(1, 2):  # both Sams were there: one question per item
            await until(
                pilot,
                lambda n=n: (
                    isinstance(app.screen, dialogs.WhoIsIt) and f"({n} of" in app.screen.note
                ),
                f"question {n}",
            )
            await pilot.click(f"#person-{people['Sam Cheng']}")
        await settle(pilot)
        assert row_of("Sam Chen")[-1] == row_of("Sam Cheng")[-1] == ""

    drive(app, script)


def test_projects_notes_add_edit_and_delete(services: Services) -> None:
    store = services.store
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("4")
        table = app.query_one("#projects-table")
        assert table.row_count >= 3
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NewProject), "new project")
        await pilot.press(*"Zephyr", "tab", *"halv")
        client = app.screen.query_one("#project-client")
        await until(pilot, lambda: bool(client._suggestion), "a known client suggested")
        await pilot.press("tab", "enter")  # tab takes it: no second, misspelt client
        await settle(pilot)
        zephyr = next(p for p in store.projects.all() if p.name == "Zephyr")
        assert zephyr.client == "Halvorsen Freight"
        await pilot.press("slash", *"Zephyr", "enter", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ProjectPage)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NoteEditor), "the note editor")
        await pilot.press(*"Kickoff moved to March", "ctrl+s")
        await settle(pilot)

        def own_notes() -> list[NoteRecord]:  # (the client's note shows on the page too)
            return [n for n in store.projects.get(zephyr.id).notes if n.kind == "project"]

        [note] = own_notes()
        assert note.body == "Kickoff moved to March"
        user = services.settings.user_name  # who wrote it, from where (core's rule)
        assert note.provenance is not None
        assert (note.provenance.source_id, note.provenance.triggered_by_user) == (
            f"project:{zephyr.id}",
            user,
        )
        assert "Kickoff moved to March" in shown(app)
        page = app.screen
        select(page, NoteRecord)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NoteEditor), "the note editor")
        await pilot.press("end", *" (confirmed)", "ctrl+s")
        await settle(pilot)
        assert own_notes()[0].body == "Kickoff moved to March (confirmed)"
        hits = store.search.keyword("confirmed", FactFilter(), 10)
        assert note.fact_key in {key for key, _ in hits}
        select(page, NoteRecord)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "confirm delete")
        await pilot.click("#yes")
        await settle(pilot)
        assert own_notes() == []

    drive(app, script)


# Ask


def test_ask_streams_a_cited_answer_and_a_source_opens_its_lines(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("5", *"why did we pick Postgres?", "enter")
        await settle(pilot)
        answer = app.query_one(AnswerView).shown
        assert "Postgres" in answer and "[1]" in answer
        sources = app.query_one("#ask-sources")
        numbers = [int(sources.get_option_at_index(n).id) for n in range(sources.option_count)]
        assert numbers and numbers == sorted(numbers)  # [1], [2], ... whatever came first
        await pilot.press("escape", "enter")  # out of the box: enter opens the first source
        await settle(pilot)
        assert isinstance(app.screen, CaptureScreen) and app.screen.lines is not None
        await pilot.press("escape", "5", "escape", "1")  # back; out of the question box
        assert app.query_one("#panes").current == "captures"

    drive(app, script)


def test_past_questions_can_be_asked_again(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        pane = app.query_one(AskPane)
        await pilot.press("5", *"why did we pick Postgres?", "enter")
        await settle(pilot)
        first = app.query_one(AnswerView).shown
        assert first.startswith("> why did we pick Postgres?")  # the question over its answer
        assert app.query_one("#ask-input").value == ""  # ready for the next one
        await pilot.press(*"who owns the billing design?", "enter")
        await settle(pilot)
        history = app.query_one("#ask-history")
        assert history.display and history.option_count == 1
        history.focus()
        history.highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert pane.asked[0] == "why did we pick Postgres?"
        assert app.query_one(AnswerView).shown == first

    drive(app, script)
    later = MemoApp(services)  # the next session lists them to ask again

    async def next_session(pilot: Any) -> None:
        await pilot.press("5")
        history = later.query_one("#ask-history")
        assert history.display
        prompts = [str(history.get_option_at_index(n).prompt) for n in range(2)]
        assert prompts == ["why did we pick Postgres?", "who owns the billing design?"]

    drive(later, next_session)


def test_a_follow_up_is_read_with_the_conversation_and_ctrl_l_starts_afresh(
    services: Services,
) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("5", *"who owns the rollback runbook?", "enter")
        await settle(pilot)
        await pilot.press(*"and when is it due?", "enter")
        await settle(pilot)
        [earlier] = app.query(".exchange")
        assert "> who owns the rollback runbook?" in str(earlier.render())
        answer = app.query_one(AnswerView).shown
        assert "(due 2026-10-14)" in answer  # the follow-up knew what "it" was
        cited = list(dict.fromkeys(int(n) for n in re.findall(r"\[(\d+)\]", answer)))
        assert cited == list(range(1, len(cited) + 1))  # each answer numbers its own from 1
        assert sorted(app.query_one(AskPane).sources) == cited
        note = str(app.query_one("#ask-note").render())
        assert "search facts: who owns the rollback runbook? and when is it due?" in note
        await pilot.press(*"half a question", "ctrl+l")
        await settle(pilot)
        assert not app.query(".exchange") and app.controllers.ask.chat.history == []  # type: ignore[union-attr]
        assert app.query_one("#ask-input").value == ""
        runs = services.store.runs.all()
        assert [r.agent_type for r in runs] == ["chat", "chat"]

    drive(app, script)


# Names


def test_two_sams_in_the_room_are_settled_item_by_item(services: Services) -> None:
    """The demo's "Sam" items come from meetings both Sams attended: each is asked about on
    its own, with its transcript lines, and the answers stay with their items (no alias:
    the next meeting with both Sams asks again)."""
    store = services.store
    people = {p.name: p for p in store.people.all()}
    chen = people["Sam Chen"].id
    answers = {  # who the transcript says owns each ("End of the week, yes." is no taking on)
        "Get the route-change push into the pilot build": chen,
    }
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("w")
        for n in range(1, 2):
            await until(
                pilot,
                lambda n=n: (
                    isinstance(app.screen, dialogs.WhoIsIt) and f"({n} of 1)" in app.screen.note
                ),
                f"question {n}",
            )
            dialog = app.screen
            assert dialog.mention == "Sam" and dialog.context  # the lines it came from
            [said] = dialog.waiting
            [owner] = [who for start, who in answers.items() if start in said]
            await pilot.click(f"#person-{owner}")
        await settle(pilot)
        assert not isinstance(app.screen, dialogs.WhoIsIt)
        assert "to settle" not in str(app.query_one("#status").render())

    drive(app, script, size=(100, 30))
    assert store.people.pending_mentions() == []
    after = {p.name: p for p in store.people.all()}
    assert after["Sam Chen"].open_action_items == people["Sam Chen"].open_action_items + 1
    assert after["Sam Cheng"].open_action_items == people["Sam Cheng"].open_action_items
    assert "Sam" not in after["Sam Chen"].aliases + after["Sam Cheng"].aliases
    meeting = (
        "Date: 2026-11-24\nPresent: Sam Chen, Sam Cheng, Priya Natarajan\n\n"
        "Priya Natarajan: Sam, can you send the pilot feedback summary by Friday?\n"
        "Priya Natarajan: That's it from me.\n"
    )
    result = services.capture.capture_text(meeting, "sams.txt", "txt")
    assert result.ok and result.pending_names == ["Sam"]  # asked again, not guessed


def test_a_name_nobody_in_the_room_fits_is_answered_once_and_remembered(
    services: Services,
) -> None:
    """ "Sam" at a meeting neither Sam attended fits both people memo knows: one answer
    writes the alias and back-fills the item, and the dialog says it will be remembered."""
    store = services.store
    meeting = (
        "Date: 2026-11-24\nPresent: Ana Lima, Bo Berg\n\n"
        "Ana Lima: Sam will send the device list by Friday.\nBo Berg: Good.\n"
    )
    result = services.capture.capture_text(meeting, "ana.txt", "txt")
    assert result.ok and result.pending_names == ["Sam"]
    chen = next(p.id for p in store.people.all() if p.name == "Sam Chen")
    entities = EntityService(store, "tester")
    [in_room, elsewhere] = entities.pending()  # the demo's two-Sam meetings, and this one
    assert in_room.in_room and not elsewhere.in_room
    assert elsewhere.mention.capture_ids == [result.capture_id]
    entities.settle(entities.waiting_on(in_room.mention), None)  # out of the way
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, dialogs.WhoIsIt), "who is Sam?")
        assert "from now on" in app.screen.note and not app.screen.context
        await pilot.click(f"#person-{chen}")
        await settle(pilot)

    drive(app, script, size=(100, 30))
    [item] = [
        a
        for a in store.captures.action_items([result.capture_id])
        if "device list" in a.description
    ]
    assert item.person_id == chen and not item.pending
    assert "Sam" in next(p for p in store.people.all() if p.id == chen).aliases


def test_escape_leaves_the_names_waiting(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, dialogs.WhoIsIt), "who is Sam?")
        await pilot.press("escape")
        await settle(pilot)

    drive(app, script, size=(80, 24))
    assert [m.mention for m in services.store.people.pending_mentions()] == ["Sam"]


# Help, palette, keymap, theme, demo


def test_help_lists_the_pane_keys_with_their_ids(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("4", "f1")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Help), "help")
        text = shown(app)
        assert "Projects" in text and "projects.add" in text and "app.quit" in text
        ids = [binding_id for _, _, binding_id in app.screen.keys]
        assert "app.cancel" in ids  # ctrl+x, though nothing runs to stop
        await pilot.press("escape")
        assert not isinstance(app.screen, dialogs.Help)

    drive(app, script)


def test_f1_in_a_dialog_explains_it_with_its_own_keys(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("4", "a")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NewProject), "new project")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Help), "help")
        text = shown(app)
        assert "New project: keys" in text and "its client" in text
        ids = [binding_id for _, _, binding_id in app.screen.keys]
        assert "dialog.cancel" in ids and "project.complete" in ids
        assert not {"pane.ask", "projects.add", "app.cancel"} & set(ids)  # they wait
        await pilot.press("f1")  # closes the help, back to the dialog
        await until(pilot, lambda: isinstance(app.screen, dialogs.NewProject), "the dialog")
        await pilot.press("escape")
        assert not isinstance(app.screen, dialogs.Dialog)

    drive(app, script)


def test_an_approval_that_lapses_under_its_help_closes_both(services: Services) -> None:
    app = MemoApp(services)
    answers: list[bool | None] = []

    async def script(pilot: Any) -> None:
        app.push_screen(dialogs.Approve("collector", "Link 1 meeting?", 1), answers.append)
        await until(pilot, lambda: isinstance(app.screen, dialogs.Approve), "the question")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Help), "its help")
        await until(pilot, lambda: answers == [None], "the question to lapse")
        assert not isinstance(app.screen, dialogs.Dialog)  # neither the help nor the question

    drive(app, script)


def test_the_palette_goes_to_a_person(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"person Sam Cheng")
        await until(pilot, lambda: "Go to person: Sam Cheng" in palette_hits(app), "the hit")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PersonPage)
        assert "Sam Cheng" in shown(app)

    drive(app, script)


def test_the_palette_has_whole_meeting_titles_at_80_columns(services: Services) -> None:
    title = next(c.title for c in services.store.captures.all() if "Halvorsen" in c.title)
    assert len(title) > 24  # longer than the Captures pane shows at 80 columns
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"review with Halvorsen")
        await until(pilot, lambda: title in palette_hits(app), "the whole title")
        await pilot.press("escape")
        await until(pilot, lambda: not palette_hits(app), "the palette closed")
        await pilot.press("ctrl+p", *"weekly engineering")
        await until(pilot, lambda: "Open meeting: Weekly" in palette_hits(app), "the syncs")
        hits = palette_hits(app)  # two meetings of that name, told apart by their day
        assert "Weekly engineering sync (2026-09-15)" in hits
        assert "Weekly engineering sync (2026-10-13)" in hits

    drive(app, script, size=(80, 24))


def test_a_run_whose_process_died_shows_as_interrupted(services: Services) -> None:
    store = services.store
    dead = store.runs.start("digest", None, None, "offline", json.dumps({"pid": 2**22 + 12345}))
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("6")
        run = store.runs.get(dead)
        assert run is not None and run.status == "interrupted"
        assert "interrupted" in shown(app)

    drive(app, script)


def test_a_user_keymap_moves_a_binding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = offline(
        tmp_path, monkeypatch, keymap={"pane.ask": "a", "no.such": "z"}, theme="ansi-dark"
    )
    said: list[str] = []
    app = MemoApp(built)
    app.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]

    async def script(pilot: Any) -> None:
        assert app.theme == "ansi-dark" and app.animation_level == "none"
        await pilot.press("a")
        await settle(pilot)
        assert app.query_one("#panes").current == "ask"

    drive(app, script)
    assert any("no.such" in text for text in said)
    built.close()


def test_the_demo_seeds_in_the_background(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = offline(tmp_path, monkeypatch)
    app = MemoApp(built, seed_demo=True)

    async def script(pilot: Any) -> None:
        assert app.query_one("#captures-table").row_count == 10

    drive(app, script)
    assert len(built.store.captures.all()) == 10 and built.store.projects.all()
    assert {n.sender for n in built.store.email.newsletters()} == {  # the demo mailbox's
        "news@postgresweekly.example",
        "digest@nordicfleet.example",
        "noreply@ci.northwindlabs.io",
    }
    sources = [built.store.captures.source(c.id)[3] or "" for c in built.store.captures.all()]
    assert sum(s.startswith("northwind.mbox#<") for s in sources) == 2  # no path of this machine
    assert not [s for s in sources if "/" in s.split("#")[0]]
    built.close()


def test_ctrl_x_stops_the_demo_seeding_and_the_next_start_finishes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = offline(tmp_path, monkeypatch)
    started, release = held_extraction(built)
    app = MemoApp(built, seed_demo=True)
    said: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, **_: said.append(str(message)))

    async def script() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await until(pilot, started.is_set, "the first meeting's extraction")
            assert "Seeding the demo meetings" in shown(app)
            await pilot.press("ctrl+x")
            release.set()
            job = app.query_one("#job")
            await until(pilot, lambda: not job.has_class("running"), "the job bar to go")
            await settle(pilot)

    asyncio.run(script())
    assert len(built.store.captures.all()) == 1  # the meeting under way is stored whole
    assert any("stopped after 1 of 9 steps" in message for message in said)
    assert unseeded(built.store)
    again = MemoApp(built, seed_demo=unseeded(built.store))

    async def finish(pilot: Any) -> None:
        assert again.query_one("#captures-table").row_count == 10

    drive(again, finish)
    assert len(built.store.captures.all()) == 10 and not unseeded(built.store)
    assert built.store.captures.delete(built.store.captures.all()[0].id)
    assert not unseeded(built.store)  # a sample meeting the user deleted stays deleted
    built.close()


def test_an_empty_store_says_how_to_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each empty list says where its rows come from, and a full one says nothing."""
    empty = offline(tmp_path, monkeypatch, "empty.db")
    app = MemoApp(empty)

    async def script(pilot: Any) -> None:
        for key, pane, says in (("1", "captures", "No captures yet"), ("6", "runs", "r on a")):
            await pilot.press(key)
            hint = app.query_one(f"#{pane} .empty")
            assert hint.display and says in str(hint.render())
        empty.capture.capture_text("Ana: We decided to ship.\n", "a.txt", "txt")
        app.refresh_lists()
        await settle(pilot)
        assert not app.query_one("#captures .empty").display
        date = app.query_one("#captures-table").get_row_at(0)[1]  # no date in the meeting:
        assert "dim" in str(date.style)  # the day it was captured, dimmed

    drive(app, script, size=(80, 24))
    empty.close()


def test_markup_in_a_title_is_shown_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = offline(tmp_path, monkeypatch, "m.db")
    title = "[bold]Budget[/bold] [link=https://example.invalid]review[/link]"
    assert built.capture.capture_text(
        f"{title}\n\nAna: We decided to cut the budget.\n", "b.txt", "txt"
    ).ok
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        text = shown(app)
        assert "[bold]Budget[/bold]" in text and "[link=" in text  # shown, not read
        await pilot.press("ctrl+p", *"Budget")
        await until(pilot, lambda: "Open meeting: [bold]Budget" in palette_hits(app), "the hit")

    drive(app, script)
    built.close()


HOSTILE = "says [bold]hi[/bold] \x1b]0;pwned\x1b\\ \u202eevil\u200b"


def test_an_agents_section_opens_in_the_editor_with_its_controls_visible(
    services: Services,
) -> None:
    """A model wrote a section holding a terminal-title sequence and a bidi override: the
    editor shows them as glyphs, and saving it untouched changes nothing (it is not
    rewritten, nor marked as the user's)."""
    store = services.store
    beacon = next(p.id for p in store.projects.all() if p.name == "Beacon")
    store.sections.write("project", beacon, "summary", f"The agent {HOSTILE}", [], "agent")
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        app.go_to("project", beacon)
        await settle(pilot)
        select(app.screen, SectionRecord)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NoteEditor), "the editor")
        text = app.screen.query_one("#note-body").text
        assert "\u241b]0;pwned" in text and "<U+202E>" in text
        assert not any(c in text for c in "\x1b\u202e\u200b")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, dialogs.NoteEditor)

    drive(app, script)
    [summary] = [s for s in store.sections.all("project", beacon) if s.key == "summary"]
    assert summary.body == f"The agent {HOSTILE}" and summary.edited_by == "agent"


def test_pasted_text_has_its_controls_made_visible(services: Services) -> None:
    from textual import events

    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("5")
        app.post_message(events.Paste(f"why {HOSTILE}"))
        await pilot.pause()
        value = app.query_one("#ask-input").value
        assert value.startswith("why says [bold]hi[/bold] \u241b]0;pwned")
        assert not any(c in value for c in "\x1b\u202e\u200b")

    drive(app, script)


def test_a_name_with_controls_is_never_suggested(services: Services) -> None:
    """The Facts pane's project box completes known names; a suggestion is drawn as it is,
    so a name holding controls is left out (typing it whole still filters)."""
    services.store.projects.add(f"Atlantis {HOSTILE}")
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("2")
        box = app.query_one("#facts-project")
        box.focus()
        await pilot.press("A", "t")
        await settle(pilot)
        assert box._suggestion == "Atlas"  # the demo's project, not the hostile one
        await pilot.press("l", "a", "n")
        await settle(pilot)
        assert box._suggestion == ""

    drive(app, script)


def test_ctrl_x_stops_a_backfill_and_the_rest_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.embedding import model_path

    bare = offline(tmp_path, monkeypatch)  # no model: the demo is stored without vectors
    seed_demo(bare.capture)
    bare.close()
    built = offline(tmp_path, monkeypatch, embed_model_path=model_path())
    total = built.store.vectors.count_missing()
    real = built.embed.embedder
    started, release = threading.Event(), threading.Event()

    class Gated:  # the real model, held at its first batch until the test lets it go
        name = real.name
        dim = real.dim

        def embed(self, texts: list[str]) -> list[list[float]]:
            started.set()
            release.wait(30)
            return real.embed(texts)

    built.embed.embedder = Gated()  # type: ignore[assignment]
    said: list[str] = []
    app = MemoApp(built)
    app.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]

    async def script(pilot: Any) -> None:
        app.action_backfill()
        await until(pilot, started.is_set, "the first batch")
        assert app.query_one("#job").has_class("running")
        await pilot.press("ctrl+x")
        release.set()
        job = app.query_one("#job")
        await until(pilot, lambda: not job.has_class("running"), "the job bar to go")

    drive(app, script)
    left = built.store.vectors.count_missing()
    assert 0 < left < total  # a round was stored, the rest waits for memo backfill
    assert any("Embedding stopped" in text for text in said)
    built.close()


def test_quitting_while_the_replace_dialog_is_up_ends_and_keeps_the_store(
    services: Services, tmp_path: Path
) -> None:
    edited = _edited_retro(tmp_path)
    before = dump(services.store)
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, edited)
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the replace dialog")
        await pilot.press("ctrl+q")

    runner = threading.Thread(target=drive, args=(app, script), daemon=True)
    runner.start()
    runner.join(60)
    assert not runner.is_alive(), "memo hung on quit: the capture worker waits on the dialog"
    assert dump(services.store) == before


def test_a_stray_enter_does_not_answer_who_is_it(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, dialogs.WhoIsIt), "who is Sam?")
        await pilot.press("enter", "space")  # typed for something else: nothing is chosen
        assert isinstance(app.screen, dialogs.WhoIsIt)
        await pilot.press("escape")

    drive(app, script)
    assert [m.mention for m in services.store.people.pending_mentions()] == ["Sam"]


def test_a_deleted_meeting_leaves_the_open_person_page(services: Services) -> None:
    store = services.store
    priya = next(p.id for p in store.people.all() if p.name == "Priya Natarajan")
    retro = next(c for c in store.captures.all() if "retro" in c.title.lower())
    app = MemoApp(services)

    def meetings_listed() -> list[str]:
        entries = app.screen.query_one("#page-entries")
        return [as_text(entries.get_option_at_index(n).prompt) for n in range(entries.option_count)]

    async def script(pilot: Any) -> None:
        app.go_to("person", priya)
        await settle(pilot)
        assert any("Atlas migration retrospective" in text for text in meetings_listed())
        app.post_message(messages.CaptureDeleteRequested(retro.id))
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "confirm delete")
        await pilot.click("#yes")
        await settle(pilot)
        assert isinstance(app.screen, PersonPage)
        assert not any("Atlas migration retrospective" in text for text in meetings_listed())

    drive(app, script)


def test_path_completion_never_echoes_a_control_character(tmp_path: Path) -> None:
    (tmp_path / "a\x1b]2;PWNED\x07b.txt").write_text("x", encoding="utf-8")
    (tmp_path / "agenda.txt").write_text("x", encoding="utf-8")
    suggestion = asyncio.run(PathSuggester().get_suggestion(f"{tmp_path}/a"))
    assert suggestion == f"{tmp_path}/agenda.txt"
    hostile = CapturablePath().validate(f"{tmp_path}/a\x1b]2;PWNED\x07b.txt")
    assert not hostile.is_valid


def test_fast_scrolling_loads_each_page_once(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FactsPane, "PAGE", 20)
    store = services.store
    release = threading.Event()
    page = store.facts.page

    def held(*args: Any, **kwargs: Any) -> Any:  # the next page takes its time
        if len(args) > 2 or kwargs.get("after") is not None:
            release.wait(30)
        return page(*args, **kwargs)

    monkeypatch.setattr(store.facts, "page", held)
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("2")
        await settle(pilot)
        app.query_one("#facts-table").focus()
        await pilot.press(*["down"] * 19)  # every highlight near the end asks for more
        release.set()
        await settle(pilot)
        keys = [f.fact_key for f in app.query_one(FactsPane).facts]
        assert len(keys) == 40 == len(set(keys))

    drive(app, script)


def test_a_note_about_the_projects_client(services: Services) -> None:
    store = services.store
    beacon = next(p for p in store.projects.all() if p.name == "Beacon")
    assert beacon.client == "Halvorsen Freight"
    before = {n.id for n in store.projects.get(beacon.id).notes if n.kind == "client"}
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        app.go_to("project", beacon.id)
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NoteEditor), "the note editor")
        app.screen.query_one("#note-about").value = 1  # about Halvorsen Freight
        app.screen.query_one("#note-body").focus()
        await pilot.press(*"Invoices need PO numbers", "ctrl+s")
        await settle(pilot)

    drive(app, script)
    after = [n for n in store.projects.get(beacon.id).notes if n.kind == "client"]
    [new] = [n for n in after if n.id not in before]
    assert new.owner == "Halvorsen Freight" and new.body == "Invoices need PO numbers"
    assert new.provenance is not None and new.provenance.source_type == "note"
    assert new.provenance.source_id == "client:Halvorsen Freight"
    assert new.provenance.triggered_by_user == services.settings.user_name


def test_r_runs_the_agent_and_e_edits_a_section_for_good(services: Services) -> None:
    store = services.store
    beacon = next(p.id for p in store.projects.all() if p.name == "Beacon")
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        app.go_to("project", beacon)
        await settle(pilot)
        await pilot.press("r")  # project_compile, offline
        await settle(pilot)
        page = app.screen
        assert isinstance(page, ProjectPage)
        assert {s.key for s in store.sections.all("project", beacon)} >= {"summary", "phases"}
        assert isinstance(next(iter(page.targets.values())), SectionRecord)  # listed first
        select(page, SectionRecord)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NoteEditor), "the editor")
        app.screen.query_one("#note-body").text = "Our own summary."
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("r")  # the agent again: it must leave the user's summary alone
        await settle(pilot)

    drive(app, script)
    summary = next(s for s in store.sections.all("project", beacon) if s.key == "summary")
    assert summary.body == "Our own summary." and summary.edited_by == "user"
    assert [r.status for r in store.runs.all()] == ["completed", "completed"]


def test_u_gives_an_edited_section_back_to_the_agent(services: Services) -> None:
    store = services.store
    beacon = next(p.id for p in store.projects.all() if p.name == "Beacon")
    app = MemoApp(services)
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(str(message)), notify(message, **kw))[1]  # type: ignore[method-assign]

    def summary() -> SectionRecord:
        return next(s for s in store.sections.all("project", beacon) if s.key == "summary")

    async def script(pilot: Any) -> None:
        app.go_to("project", beacon)
        await settle(pilot)
        await pilot.press("r")  # the agent writes the document
        await settle(pilot)
        page = app.screen
        written = summary().body
        store.sections.write("project", beacon, "summary", "Our own summary.", [], "user")
        page.reload()
        await settle(pilot)
        select(page, SectionRecord)  # the summary, listed first
        await pilot.press("u")
        await until(pilot, lambda: summary().edited_by == "agent", "the section given back")
        assert summary().body == "Our own summary."  # its text stays until the agent runs
        await pilot.press("u")  # the agent's already: nothing to give back
        await until(pilot, lambda: "The agent writes this section already." in said, "why not")
        await pilot.press("r")
        await settle(pilot)
        assert summary().body == written

    drive(app, script)


async def rename(pilot: Any, key: str, old: str, new: str) -> None:
    """`key` on a page asks for a new name: the box holds `old`; `new` is typed in."""
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, dialogs.Rename), "the rename")
    box = pilot.app.screen.query_one("#new-name")
    assert box.value == old
    box.value = new
    await pilot.press("enter")


def test_R_renames_and_D_deletes_a_project_from_its_page(services: Services) -> None:
    store = services.store
    cobalt = next(p for p in store.projects.all() if p.name == "Cobalt")
    meetings = len(store.captures.all())
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        app.go_to("project", cobalt.id)
        await settle(pilot)
        await rename(pilot, "R", "Cobalt", "  Cobalt   billing ")
        await until(pilot, lambda: "Cobalt billing" in shown(app), "the new name on the page")
        assert [p.id for p in store.projects.all() if p.name == "Cobalt billing"] == [cobalt.id]
        await pilot.press("R")  # a name another project has is refused; nothing changes
        await until(pilot, lambda: isinstance(app.screen, dialogs.Rename), "the rename")
        app.screen.query_one("#new-name").value = "atlas"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, dialogs.ErrorDialog), "the refusal")
        assert "atlas" in shown(app).lower()
        await pilot.press("escape")
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the question")
        assert "its meetings stay" in shown(app)
        await pilot.click("#yes")
        await until(pilot, lambda: not isinstance(app.screen, ProjectPage), "the page closed")

    drive(app, script)
    assert "Cobalt billing" not in {p.name for p in store.projects.all()}
    assert {p.name for p in store.projects.all()} == {"Atlas", "Beacon"}
    assert len(store.captures.all()) == meetings  # its meetings stay


def test_C_renames_a_projects_client_from_its_page(services: Services) -> None:
    """A typo in a client's name can be fixed in the app, as `memo client rename` does."""
    store = services.store
    beacon = next(p for p in store.projects.all() if p.name == "Beacon")
    client = beacon.client
    assert client
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        app.go_to("project", beacon.id)
        await settle(pilot)
        await rename(pilot, "C", client, f"{client} AS")
        await until(pilot, lambda: f"client: {client} AS" in shown(app), "the new name")

    drive(app, script)
    assert f"{client} AS" in {c.name for c in store.clients.all()}
    assert next(p for p in store.projects.all() if p.id == beacon.id).client == f"{client} AS"


def test_ctrl_x_stops_a_run_on_a_model_and_r_in_runs_resumes_it(services: Services) -> None:
    """project_compile against a scripted model on the fake Messages API, from the TUI:
    stopped after a step, then resumed from the Runs pane to the end."""
    from support.fakes.agent_model import model
    from support.fakes.server import FakeServer

    from memo_tui.core.agents.agents import PROJECT_SECTIONS
    from memo_tui.core.llm.anthropic_provider import AnthropicProvider
    from memo_tui.core.llm.base import RetryPolicy

    store = services.store
    beacon = next(p.id for p in store.projects.all() if p.name == "Beacon")
    fact = steering_decision(store)
    with FakeServer() as server:
        server.default = model(fact, pause=0.3)
        services.provider = AnthropicProvider(
            "test-key", server.url, services.ledger, RetryPolicy(2, 0.01, 0.05)
        )
        services.settings = Settings(provider="anthropic", anthropic_api_key="k")
        app = MemoApp(services)

        def run_status() -> str:
            runs = store.runs.all()
            return runs[0].status if runs else ""

        async def script(pilot: Any) -> None:
            app.go_to("project", beacon)
            await settle(pilot)
            await pilot.press("r")
            await until(pilot, lambda: len(store.runs.tool_calls(1)) >= 1, "the first tool call")
            await pilot.press("ctrl+x")
            await until(pilot, lambda: run_status() == "interrupted", "the run stopped")
            await settle(pilot)
            assert len(store.sections.all("project", beacon)) < len(PROJECT_SECTIONS)
            await pilot.press("escape", "6")
            await settle(pilot)
            await pilot.press("r")  # the only run, highlighted
            await until(pilot, lambda: run_status() == "completed", "the run resumed")
            await settle(pilot)

        drive(app, script)
    assert {s.key for s in store.sections.all("project", beacon)} == set(PROJECT_SECTIONS)
    kinds = [e.kind for e in store.runs.events(1)]
    assert kinds.count("started") == 1 and "resumed" in kinds and kinds[-1] == "finished"
    writes = [c for c in store.runs.tool_calls(1) if c.tool_name == "write_section"]
    assert len(writes) == len(PROJECT_SECTIONS)  # none made twice


def test_r_on_a_finished_run_says_why_it_does_not_resume(services: Services) -> None:
    """The resume rules are core's (`memo run --resume` says the same): the app only says
    what core answered."""
    from memo_tui.core.agents.service import run_agent

    run_agent(services, "digest", "2026-10-13")
    app = MemoApp(services)
    said: list[str] = []

    async def script(pilot: Any) -> None:
        app.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.press("r")
        await until(pilot, lambda: bool(said), "the app says why")

    drive(app, script)
    assert said == ["Run 1 is completed: only interrupted or failed runs resume."]
    assert [r.status for r in services.store.runs.all()] == ["completed"]


def test_a_run_took_is_shown_in_the_unit_that_reads() -> None:
    from memo_tui.ui.widgets.runs import took

    start = "2026-11-01T00:00:00+00:00"
    assert took(start, "2026-11-01T00:01:30+00:00") == "90 s"
    assert took(start, "2026-11-01T00:30:00+00:00") == "30 min"
    assert took(start, "2026-11-01T05:00:00+00:00") == "5 h"
    assert took(start, "2026-11-04T01:00:00+00:00") == "3 d"
    assert took(start, None) == ""


def test_a_runs_steps_read_as_text_without_memos_ids() -> None:
    from memo_tui.ui.screens.run import describe

    def said(kind: str, payload: dict[str, Any]) -> str:
        return describe(7, kind, payload).plain.strip()

    assert said("tool_call", {"name": "get_project", "arguments": {}}) == "7 → get_project"
    assert said("tool_call", {"name": "list_project_evidence", "arguments": {"limit": 80}}) == (
        "7 → list_project_evidence limit: 80"
    )
    meetings = [{"id": 8, "title": "Beacon steering"}, {"id": 7, "title": "Beacon kickoff"}]
    result = {"name": "Beacon", "client": "Halvorsen", "meetings": meetings, "project_id": 3}
    assert said("tool_result", {"name": "get_project", "result": result}) == (
        "7 ← get_project name: Beacon, client: Halvorsen, meetings: 2"
    )
    evidence = {"facts": [{"fact_id": 25769803778, "text": "Pilot in Bergen"}]}
    shown = said("tool_result", {"name": "list_project_evidence", "result": evidence})
    assert shown == "7 ← list_project_evidence facts: 1"
    assert said("tool_result", {"name": "write_section", "result": {}}) == "7 ← write_section done"


def test_the_runs_pane_and_a_run_replayed_in_its_view(services: Services) -> None:
    from memo_tui.core.agents.service import run_agent
    from memo_tui.ui.screens.run import RunScreen

    done = run_agent(services, "project_compile", "Beacon")
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("6")
        table = app.query_one("#runs-table")
        assert table.row_count == 1
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RunScreen) and app.screen.run_id == done.run_id
        log = as_text(app.screen.query_one("#run-events").content)
        assert "→ write_section" in log and "finished: completed" in log
        assert app.screen.seen == len(services.store.runs.events(done.run_id))

    drive(app, script)


@pytest.mark.parametrize("button", ["yes", "no", None])
def test_the_collector_asks_before_it_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, button: str | None
) -> None:
    # Unanswered, the question lapses in seconds (not one: on a busy machine it lapsed
    # before the test saw it up); answered, it must not lapse first (the click can come
    # more than a second after the dialog).
    built = offline(tmp_path, monkeypatch, approval_timeout_s=4.0 if button is None else 60.0)
    seed_demo(built.capture)
    store = built.store
    atlas = next(p for p in store.projects.all() if p.name == "Atlas")
    app = MemoApp(built)
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(str(message)), notify(message, **kw))[1]  # type: ignore[method-assign]

    async def script(pilot: Any) -> None:
        app.go_to("project", atlas.id)
        await settle(pilot)
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Approve), "the question")
        assert "Link 1 meeting to the project" in shown(app)
        assert re.search(r"line \d+: .*Atlas", shown(app))  # what it found, not a count
        if button is not None:
            await pilot.click(f"#{button}")
        job = app.query_one("#job")
        await until(pilot, lambda: not job.has_class("running"), "the run to end")

    drive(app, script)
    [run] = store.runs.all()
    [decision] = store.runs.decisions(run.id)
    expected = {"yes": "accepted", "no": "rejected", None: "skipped"}[button]
    assert run.status == "completed" and decision.decision == expected
    meetings = next(p for p in store.projects.all() if p.name == "Atlas").meetings
    assert meetings == atlas.meetings + (1 if button == "yes" else 0)
    assert f"collector completed: {'1 write' if button == 'yes' else 'no change'}" in said
    built.close()


@pytest.mark.parametrize("on", ["offline", "model"])
def test_every_agent_runs_from_the_tui(services: Services, on: str) -> None:
    """Offline and on a scripted model on the fake Messages API: r on a person's page
    (person_enrich), b on a project's (collector, approved in its dialog), the digest from
    the palette, and a question in the Ask pane (chat, streamed). project_compile: r on a
    project's page (the tests above)."""
    from support.fakes.agent_model import model
    from support.fakes.server import FakeServer

    from memo_tui.core.llm.anthropic_provider import AnthropicProvider
    from memo_tui.core.llm.base import RetryPolicy

    store = services.store
    priya = next(p.id for p in store.people.all() if p.name == "Priya Natarajan")
    atlas = next(p for p in store.projects.all() if p.name == "Atlas")
    with FakeServer() as server:
        if on == "model":
            server.default = model(steering_decision(store), pause=0.0)
            services.provider = AnthropicProvider(
                "test-key", server.url, services.ledger, RetryPolicy(2, 0.01, 0.05)
            )
            services.settings = Settings(provider="anthropic", anthropic_api_key="k")
        app = MemoApp(services)

        async def script(pilot: Any) -> None:
            app.go_to("person", priya)
            await settle(pilot)
            await pilot.press("r")
            await settle(pilot)
            app.go_to("project", atlas.id)
            await settle(pilot)
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, dialogs.Approve), "the question")
            await pilot.click("#yes")
            await until(pilot, lambda: not app.running("agent"), "the collector")
            await pilot.press("escape", "ctrl+p", *"this week's digest")
            await pilot.pause(0.3)
            await pilot.press("enter")
            await until(pilot, lambda: len(store.runs.all()) == 3, "the digest run")
            await settle(pilot)
            await pilot.press("5", *"why did we pick Postgres?", "enter")
            await settle(pilot)
            answer = app.query_one(AnswerView).shown
            assert "Postgres" in answer and "[1]" in answer
            assert app.query_one("#ask-sources").option_count >= 1

        drive(app, script)
    runs = {r.agent_type: r for r in store.runs.all()}
    assert set(runs) == {"person_enrich", "collector", "digest", "chat"}
    assert all(r.status == "completed" for r in runs.values())
    assert all((r.cost_microdollars > 0) == (on == "model") for r in runs.values())
    assert {s.key for s in store.sections.all("person", priya)} >= {"facet:role", "profile"}
    assert next(p for p in store.projects.all() if p.name == "Atlas").meetings > atlas.meetings
    assert store.facts.all("digest")


def test_a_new_run_is_selected_in_runs_when_it_starts(services: Services) -> None:
    app = MemoApp(services)

    def selected() -> str | None:
        return app.query_one(RunsPane).selected_key()

    async def script(pilot: Any) -> None:
        await pilot.press("4", "r")  # two runs, the newest first
        await settle(pilot)
        await pilot.press("3", "r")
        await settle(pilot)
        await pilot.press("6", "down")  # the older one selected
        older = selected()
        await pilot.press("4", "down", "r")  # a third run, from the Projects pane
        await until(pilot, lambda: len(services.store.runs.all()) == 3, "the third run")
        await settle(pilot)
        newest = services.store.runs.all()[0]
        assert older != str(newest.id) and selected() == str(newest.id)

    drive(app, script)


def test_r_in_the_people_and_projects_panes_runs_their_agent(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("4", "r")  # the first project listed: Atlas
        await settle(pilot)
        await pilot.press("3", "r")  # the first person listed: Elena Kowalski
        await settle(pilot)

    drive(app, script)
    runs = [
        (r.agent_type, json.loads(r.spec_json)["entity"], r.status)
        for r in services.store.runs.all()
    ]
    assert runs == [
        ("person_enrich", "Elena Kowalski", "completed"),
        ("project_compile", "Atlas", "completed"),
    ]


def test_mail_imports_from_the_capture_dialog_and_newsletters_have_a_pane(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.fakes import mail

    built = offline(tmp_path, monkeypatch)
    archive = mail.write_mbox(tmp_path / "archive.mbox", mail.messages())
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, archive)
        await until(pilot, lambda: not app.running("capture"), "the import")
        await settle(pilot)
        rows = shown(app)
        assert "✉ Atlas cutover plan (3)" in rows
        await pilot.press("7")
        await settle(pilot)
        assert app.query_one("#panes").current == "newsletters"
        table = app.query_one("#newsletters-table")
        listed = " ".join(str(cell) for n in range(table.row_count) for cell in table.get_row_at(n))
        assert "news@vendor.example" in listed and "ceo-office@corp.example" in listed
        assert "one-way" in listed and "<https://vendor.example/unsubscribe" in listed

    drive(app, script, size=(140, 36))
    built.close()


def test_ctrl_x_stops_a_mail_import_and_the_next_one_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memo_tui.core.benchmarks.email import write_mbox

    built = offline(tmp_path, monkeypatch)
    archive = tmp_path / "big.mbox"
    write_mbox(archive, 1500)  # (three batches of 500: room to stop part way)
    store = built.store
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        await path_dialog(pilot)
        await enter_path(pilot, archive)
        await until(pilot, lambda: bool(store.email.known_messages()), "the first messages")
        await pilot.press("ctrl+x")
        await until(pilot, lambda: not app.running("capture"), "the import to stop")

    drive(app, script)
    stopped = len(store.email.known_messages())
    assert 0 < stopped < 1500 or store.email.pending_threads()  # it stopped part way
    from memo_tui.core.email.importer import import_mail

    done = import_mail(store, archive, built.capture.capture_thread)
    assert done.new == 1500 - stopped and not done.stopped
    assert store.email.pending_threads() == []
    built.close()


def test_concepts_pane_adds_one_and_r_writes_its_document(services: Services) -> None:
    from memo_tui.ui.screens.concept import ConceptPage

    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("8", "a")
        await until(pilot, lambda: isinstance(app.screen, dialogs.NewConcept), "the dialog")
        await pilot.press(*"Postgres", "enter")
        await settle(pilot)
        assert app.query_one("#concepts-table").row_count == 1
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConceptPage)
        assert "Scope summary" in shown(app) and "3 sections" in shown(app)

    drive(app, script)
    [run] = services.store.runs.all()
    assert run.agent_type == "concept_compile" and run.status == "completed"


def test_vectors_another_model_made_are_made_again_when_the_app_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Search is keyword-only while the store's vectors come from another model (memo now
    runs the model as its int8 copy): the app embeds them again with the one configured."""
    from support.embedding import INT8, model_path

    from memo_tui.core.embed import EmbedService

    class Older:  # the model that made the stored vectors
        name, dim = "test/older-model", 4

        def embed(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, float(len(t) % 7), 1.0, 1.0] for t in texts]

    bare = offline(tmp_path, monkeypatch)
    bare.capture.capture_file(DEMO / "2026-09-08-atlas-kickoff.txt")
    accept_all(bare.store)  # nothing waits: the status line has room for the model's name
    EmbedService(bare.store, Older()).backfill()  # type: ignore[arg-type]
    bare.close()
    built = offline(tmp_path, monkeypatch, embed_model_path=model_path())
    assert built.store.vectors.model() == "test/older-model"
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        job = app.query_one("#job")
        await until(pilot, lambda: built.store.vectors.model() == INT8, "the new space")
        await until(pilot, lambda: not job.has_class("running"), "the job bar to go")
        app.refresh_lists()
        status = app.query_one("#status")
        await until(pilot, lambda: "MiniLM" in str(status.render()), "the model in the status")
        said = str(status.render())  # the model by its own name: F1 help stays at 80 columns
        assert "all-MiniLM-L6-v2:int8" in said and "sentence-transformers/" not in said
        assert said.rstrip().endswith("F1 help")

    drive(app, script, size=(80, 24))
    stats = built.store.stats()
    assert stats.vectors == sum(stats.facts_by_type.values()) > 10
    assert stats.embedding_dim == 384
    built.close()


def test_facts_left_without_a_vector_are_embedded_when_the_app_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `memo capture` that reset the vectors (another model made them) embedded only its
    own meeting: the app embeds the rest."""
    from support.embedding import model_path

    built = offline(tmp_path, monkeypatch, embed_model_path=model_path())
    built.capture.capture_file(DEMO / "2026-09-08-atlas-kickoff.txt")  # embedded after commit
    built.capture.after_commit = None
    built.capture.capture_file(DEMO / "2026-10-20-atlas-migration-retro.txt")  # not embedded
    assert built.store.vectors.count_missing() > 0
    app = MemoApp(built)

    async def script(pilot: Any) -> None:
        job = app.query_one("#job")
        await until(pilot, lambda: built.store.vectors.count_missing() == 0, "every vector")
        await until(pilot, lambda: not job.has_class("running"), "the job bar to go")

    drive(app, script)
    built.close()
