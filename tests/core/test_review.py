"""The review of what memo is not sure of: a proposed item is a fact labelled unconfirmed;
accepted, it is asserted with the reviewer's name; rejected, it is kept but never shown (not
searched, not counted, not exported) and stays rejected when its meeting is captured again;
edited, it reads as the user wrote it. On a SQLite file and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.postgres import fresh_database
from support.services import offline
from support.tui import drive, until

from memo_tui.core.history.review import Edit, ReviewError, ReviewService
from memo_tui.core.services import Services
from store import FactFilter, ReviewItem

BOTH_STORES = True

MEETING = """\
Dana Whitfield: Okay so the vendor question. We go with Acme for the scanners, that's agreed.
Lee Chen: Agreed.
Dana Whitfield: Lee, can you send Acme the purchase order by Friday?
Lee Chen: Yes, I'll send it Friday.
Sam Ortiz: I'll book the training room for the scanner rollout next week.
"""


@pytest.fixture
def captured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> Iterator[tuple[Services, Path, int]]:
    source = tmp_path / "2026-03-02_vendor.txt"
    source.write_text(MEETING)
    location = None if backend == "sqlite" else fresh_database()
    services = offline(tmp_path, monkeypatch, location=location, user="Dana Whitfield")
    result = services.capture.capture_paths([source])[0]
    assert result.status == "captured", result.error
    yield services, source, result.capture_id or 0
    services.close()


def _review(services: Services) -> ReviewService:
    return ReviewService(services.store, "Dana Whitfield")


def _proposed(services: Services, kind: str, words: str) -> ReviewItem:
    """The item of `kind` whose words hold `words`, made proposed (whatever the judge said):
    what the review starts from."""
    items = [*services.store.review.items(("asserted", "proposed"))]
    [item] = [i for i in items if i.kind == kind and words in i.record.description]
    return services.store.review.settle(kind, item.id, {"state": "proposed"})


def _fact_texts(services: Services) -> list[str]:
    """The decisions and action items memo shows as facts (the transcript's own lines stay
    searchable as excerpts: they are what was said, not what memo took from it)."""
    shown = services.store.facts.page(FactFilter(), limit=100)
    return [f.text for f in shown if f.fact_type in ("decision", "action_item")]


def test_a_proposed_item_is_a_fact_labelled_unconfirmed_until_accepted(
    captured: tuple[Services, Path, int],
) -> None:
    services, _, _ = captured
    item = _proposed(services, "decision", "Acme")
    assert item in _review(services).listed()
    assert any("Acme" in t and t.endswith("(unconfirmed)") for t in _fact_texts(services))

    accepted = _review(services).decide(item.handle, "accept")

    assert accepted.record.state == "asserted" and accepted.record.reviewed_by == "Dana Whitfield"
    assert item not in _review(services).listed()
    shown = [t for t in _fact_texts(services) if "Acme for the scanners" in t]
    assert shown and not any("unconfirmed" in t for t in shown)
    assert services.store.search.keyword("Acme scanners", FactFilter(), limit=5)  # indexed again


def test_a_rejected_item_is_kept_but_never_shown(captured: tuple[Services, Path, int]) -> None:
    services, _, capture_id = captured
    item = _proposed(services, "action_item", "training room")
    owner = item.record.person_id
    before = services.store.people.all()

    rejected = _review(services).decide(f"a{item.id}", "reject")

    assert rejected.record.state == "rejected"
    assert rejected.record.reviewed_by == "Dana Whitfield"
    assert not any("training room" in t for t in _fact_texts(services))
    items = FactFilter(fact_types=("action_item",))
    assert not services.store.search.keyword("training room", items, limit=5)
    _, actions = services.store.captures.items([capture_id])
    assert item.id not in {a.id for a in actions}
    assert owner is not None
    detail = services.store.people.get(owner)
    assert detail is not None and item.id not in {a.id for a in detail.open_action_items}
    counts = {p.id: p.open_action_items for p in services.store.people.all()}
    assert counts[owner] == {p.id: p.open_action_items for p in before}[owner] - 1
    kept = _review(services).listed(everything=True)
    assert item.id in {i.id for i in kept if i.record.state == "rejected"}
    assert item.id not in {i.id for i in _review(services).listed()}


def test_an_edit_rewrites_owner_due_date_and_words_and_asserts(
    captured: tuple[Services, Path, int],
) -> None:
    services, _, _ = captured
    item = _proposed(services, "action_item", "purchase order")
    edit = Edit(text="Send Acme the signed purchase order.", owner="Sam", due="2026-03-10")

    edited = _review(services).edit(item.handle, edit)

    record = edited.record
    assert record.state == "asserted" and record.reviewed_by == "Dana Whitfield"
    assert record.description == "Send Acme the signed purchase order."
    assert record.due_date == "2026-03-10"
    assert record.person_name == "Sam Ortiz" and not record.pending
    shown = [t for t in _fact_texts(services) if "signed purchase order" in t]
    assert shown == ["Send Acme the signed purchase order. (owner: Sam Ortiz) (due 2026-03-10)"]


@pytest.mark.parametrize(
    ("handle", "edit", "says"),
    [
        ("x1", Edit(text="a"), "not an item"),
        ("a999", Edit(text="a"), "no action item 999"),
        ("", Edit(due="next friday"), "not a date"),
        ("", Edit(text="   "), "cannot be empty"),
    ],
)
def test_a_review_the_store_cannot_take_changes_nothing(
    captured: tuple[Services, Path, int], handle: str, edit: Edit, says: str
) -> None:
    services, _, _ = captured
    item = _proposed(services, "action_item", "purchase order")
    before = services.store.review.items(("asserted", "proposed", "rejected"))
    with pytest.raises(ReviewError, match=says):
        _review(services).edit(handle or item.handle, edit)
    assert services.store.review.items(("asserted", "proposed", "rejected")) == before


def test_a_bare_number_names_an_item_only_when_one_kind_has_it(
    captured: tuple[Services, Path, int],
) -> None:
    services, _, _ = captured
    decisions = {
        i.id for i in services.store.review.items(("asserted", "proposed")) if i.kind == "decision"
    }
    actions = {
        i.id
        for i in services.store.review.items(("asserted", "proposed"))
        if i.kind == "action_item"
    }
    both = sorted(decisions & actions)
    assert both, "the first decision and the first action item share id 1"
    with pytest.raises(ReviewError, match="say which"):
        _review(services).find(str(both[0]))
    only = sorted(actions - decisions)
    if only:
        assert _review(services).find(str(only[0])).kind == "action_item"


def test_the_users_word_outlives_a_new_version_of_the_meeting(
    captured: tuple[Services, Path, int],
) -> None:
    """Captured again (a new version, replacing the old), a rejected item is not proposed
    again, an accepted one stays asserted and an edited one keeps the user's words."""
    services, source, capture_id = captured
    review = _review(services)
    rejected = review.decide(_proposed(services, "action_item", "training room").handle, "reject")
    accepted = review.decide(_proposed(services, "decision", "Acme").handle, "accept")
    edited = review.edit(
        _proposed(services, "action_item", "purchase order").handle,
        Edit(text="Send Acme the purchase order.", due="2026-03-11"),
    )
    source.write_text(MEETING + "Lee Chen: One more thing, the scanners need cases.\n")

    again = services.capture.capture_paths([source], replace=True)[0]

    assert again.status == "replaced" and again.capture_id == capture_id
    items = services.store.review.items(("asserted", "proposed", "rejected"))
    by_quote = {i.record.evidence_quote: i.record for i in items}
    assert by_quote[rejected.record.evidence_quote].state == "rejected"
    assert by_quote[accepted.record.evidence_quote].state == "asserted"
    assert by_quote[accepted.record.evidence_quote].reviewed_by == "Dana Whitfield"
    redone = by_quote[edited.record.evidence_quote]
    assert redone.description == "Send Acme the purchase order."
    assert redone.due_date == "2026-03-11" and redone.state == "asserted"
    assert not any("training room" in t for t in _fact_texts(services))


def test_the_transcript_lines_of_an_item_are_shown_with_their_context(
    captured: tuple[Services, Path, int],
) -> None:
    services, _, _ = captured
    item = _proposed(services, "action_item", "training room")
    lines = _review(services).evidence(item, around=1)
    start = item.record.line_start or 0
    assert [n for n, _ in lines] == list(range(start - 1, min(start + 1, 5) + 1))
    assert any("training room" in text for _, text in lines)


def test_the_app_reviews_each_unconfirmed_item_with_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """v opens a dialog per proposed item, its transcript lines shown (its own marked): e
    edits (a due date here), r rejects; the status line counts what waits, and stops
    counting once nothing does."""
    from textual.widgets import Input, Static

    from memo_tui.ui.app import MemoApp
    from memo_tui.ui.dialogs.item_review import ItemEdit, ItemReview

    source = tmp_path / "2026-03-02_vendor.txt"
    source.write_text(MEETING)
    services = offline(tmp_path, monkeypatch, user="Dana Whitfield")
    assert services.capture.capture_paths([source])[0].status == "captured"
    for item in services.store.review.items(("proposed",)):
        services.store.review.settle(item.kind, item.id, {"state": "asserted"})
    order = _proposed(services, "action_item", "purchase order")
    room = _proposed(services, "action_item", "training room")
    app = MemoApp(services)

    def status() -> str:
        return str(app.query_one("#status", Static).render())

    def shown() -> str:
        return " ".join(str(s.render()) for s in app.screen.query(Static))

    async def script(pilot: Any) -> None:
        assert "2 items to review (v)" in status()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ItemReview), "the first item")
        first = shown()
        assert "Is this an action item? (1 of 2)" in first
        assert f"> {order.record.line_start:>4}  Dana Whitfield: Lee, can you send" in first
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ItemEdit), "the edit")
        app.screen.query_one("#due", Input).value = "2026-03-09"
        await pilot.press("enter")
        await until(pilot, lambda: "(2 of 2)" in shown(), "the second item")
        await pilot.press("r")
        await until(pilot, lambda: "to review" not in status(), "nothing left to review")

    try:
        drive(app, script)
        edited = services.store.review.get("action_item", order.id).record
        assert edited.due_date == "2026-03-09" and edited.state == "asserted"
        assert edited.reviewed_by == "Dana Whitfield"
        assert services.store.review.get("action_item", room.id).record.state == "rejected"
    finally:
        services.close()
