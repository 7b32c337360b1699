"""What the browsing panes read and change: the facts feed, projects and notes, deleting a
capture, a person's page, the demo's projects. Each against a real store file."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from support.db import dump, new_capture

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.demo import seed_demo
from store import (
    FactCursor,
    FactFilter,
    NameTakenError,
    NewActionItem,
    NewDecision,
    NewExcerpt,
    NotFoundError,
    Provenance,
    Store,
    StoreError,
)

NOTE = Provenance("note", "user:ana", "2026-09-10T09:00:00+00:00", "ana")
VECTOR = [0.1] * 384


def meeting(tag: str, day: str | None, **changes: object) -> dict[str, object]:
    """A small capture's fields: its own words (`tag`) in every fact, so search can tell
    meetings apart."""
    values: dict[str, object] = dict(
        title=f"{tag} meeting",
        occurred_at=day,
        summary=f"Summary of {tag}.",
        decisions=[NewDecision(f"Decide {tag}", None, None, 1, 1, "a")],
        action_items=[NewActionItem(f"Do {tag}", None, None, 2, 2, "b")],
        excerpts=[NewExcerpt(1, 3, f"talk about {tag}")],
    )
    values.update(changes)
    return values


def every_page(store: Store, flt: FactFilter, limit: int) -> list[int]:
    """The feed's fact keys, page by page, to the end."""
    keys: list[int] = []
    after = None
    while page := store.facts.page(flt, limit, after):
        keys += [fact.fact_key for fact in page]
        after = FactCursor.after(page[-1])
    return keys


def count(store: Store, sql: str, **params: object) -> int:
    with store.reader.connect() as conn:
        return int(conn.execute(text(sql), params).scalar_one())


# The facts feed


@pytest.fixture
def feed(store: Store) -> Store:
    """Three meetings (two on one day, one with no date) and a note and a digest."""
    store.captures.write(new_capture("a", **meeting("alpha", "2026-09-08")))
    store.captures.write(new_capture("b", **meeting("bravo", "2026-10-01")))
    store.captures.write(new_capture("c", **meeting("charlie", "2026-10-01")))
    store.captures.write(new_capture("d", **meeting("delta", None)))  # captured 2026-09-08
    store.notes.add_for_project("Atlas", "Atlas runs on Postgres.", NOTE)
    store.notes.add_digest("2026-10-01", "2026-10-07", "A week of decisions.", NOTE)
    return store


def test_the_feed_is_newest_meeting_first_in_a_total_order(feed: Store) -> None:
    page = feed.facts.page(FactFilter(), 100)
    assert len(page) == len(feed.facts.all()) == 4 * 4 + 2
    # Same day: the later capture first; notes after the meetings of their day (09-10); a
    # meeting with no date counts from the day it was captured (09-08).
    assert [f.capture_title or f.fact_type for f in page] == [
        *["charlie meeting"] * 4,
        *["bravo meeting"] * 4,
        "digest",
        "project_note",
        *["delta meeting"] * 4,
        *["alpha meeting"] * 4,
    ]
    keys = [(f.occurred_at or f.captured_at[:10], f.capture_id or 0, f.fact_key) for f in page]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)


def test_keyset_pages_cover_the_feed_once_whatever_the_page_size(feed: Store) -> None:
    whole = [f.fact_key for f in feed.facts.page(FactFilter(), 1000)]
    for limit in (1, 3, 5, 17):
        assert every_page(feed, FactFilter(), limit) == whole


def test_a_fact_stored_meanwhile_does_not_shift_the_pages_after_the_cursor(feed: Store) -> None:
    first = feed.facts.page(FactFilter(), 5)
    rest = [f.fact_key for f in feed.facts.page(FactFilter(), 100, FactCursor.after(first[-1]))]
    feed.captures.write(new_capture("e", **meeting("echo", "2026-12-01")))  # newer than all
    again = feed.facts.page(FactFilter(), 100, FactCursor.after(first[-1]))
    assert [f.fact_key for f in again] == rest


@pytest.mark.parametrize(
    "flt",
    [
        FactFilter(fact_types=("decision", "project_note")),
        FactFilter(since="2026-09-09"),
        FactFilter(until="2026-09-30"),
        FactFilter(since="2026-09-09", until="2026-10-01", fact_types=("excerpt",)),
        FactFilter(capture_ids=(1, 3)),
        FactFilter(project_ids=(1,)),
    ],
)
def test_the_feed_filters_exactly_as_search_does(feed: Store, flt: FactFilter) -> None:
    with feed.writer.begin() as conn:  # the first meeting is about Atlas
        conn.execute(
            text("INSERT INTO capture_projects VALUES (1, 1, 'user', '2026-09-10T00:00:00+00:00')")
        )
    paged = every_page(feed, flt, 2)
    assert paged and len(paged) == len(set(paged))
    assert set(paged) == set(feed.search.allowed_keys(flt))


def test_the_person_filter_keeps_their_facts_and_meetings(store: Store) -> None:
    tom_attends = {"new_people": ("Tom Adeyemi",), "attendees": ("Tom Adeyemi",)}
    store.captures.write(new_capture("a", **meeting("alpha", "2026-09-08", **tom_attends)))
    store.captures.write(new_capture("b", **meeting("bravo", "2026-09-09")))
    [tom] = store.people.all()
    flt = FactFilter(person_ids=(tom.id,))
    assert {f.capture_title for f in store.facts.page(flt, 50)} == {"alpha meeting"}
    assert set(every_page(store, flt, 1)) == set(store.search.allowed_keys(flt))


def test_the_status_filter_keeps_decisions_and_items_in_it(store: Store) -> None:
    decisions = [
        NewDecision(f"Decide {status}", None, None, 1, 1, "a", status=status)
        for status in ("current", "superseded", "retracted")
    ]
    items = [
        NewActionItem(f"Do {status}", None, None, 2, 2, "b", status=status)
        for status in ("open", "done", "dropped")
    ]
    store.captures.write(
        new_capture("a", **meeting("alpha", "2026-09-08", decisions=decisions, action_items=items))
    )
    store.captures.write(new_capture("b", **meeting("bravo", "2026-10-01")))  # current and open

    def described(flt: FactFilter) -> set[str]:
        """What the feed shows: each fact's text up to its notes, and its meeting."""
        return {f"{f.text.split(' (')[0]} @ {f.capture_title}" for f in store.facts.page(flt, 99)}

    assert described(FactFilter(statuses=("superseded",))) == {"Decide superseded @ alpha meeting"}
    assert described(FactFilter(statuses=("retracted",))) == {"Decide retracted @ alpha meeting"}
    assert described(FactFilter(statuses=("done",))) == {"Do done @ alpha meeting"}
    assert described(FactFilter(statuses=("dropped",))) == {"Do dropped @ alpha meeting"}
    assert described(FactFilter(statuses=("current", "open"), since="2026-10-01")) == {
        "Decide bravo @ bravo meeting",
        "Do bravo @ bravo meeting",
    }
    assert described(FactFilter(statuses=("open",), fact_types=("decision",))) == set()
    for status in ("current", "superseded", "retracted", "open", "done", "dropped"):
        flt = FactFilter(statuses=(status,))
        shown = [f.fact_key for f in store.facts.filtered(flt)]  # `memo facts`
        assert (
            set(shown)
            == set(store.search.allowed_keys(flt))
            == {f.fact_key for f in store.facts.page(flt, 100)}
        )
    # Search shares the filter: "Do" is in every item, only the dropped one is left.
    [(key, _)] = store.search.keyword("Do", FactFilter(statuses=("dropped",)), 10)
    found = store.facts.get(key)
    assert found is not None and found.text.startswith("Do dropped")


def test_one_fact_by_key(feed: Store) -> None:
    decision = feed.facts.page(FactFilter(fact_types=("decision",)), 1)[0]
    assert feed.facts.get(decision.fact_key) == decision
    assert feed.facts.get((1 << 32) | 999) is None and feed.facts.get(12) is None


# Projects, clients and notes


def test_add_project_refuses_a_name_taken_in_any_case(store: Store) -> None:
    beacon = store.projects.add("Beacon", client="Halvorsen Freight")
    with pytest.raises(NameTakenError, match="already a project called 'Beacon'") as taken:
        store.projects.add("  beacon ")
    assert taken.value.existing_id == beacon
    with pytest.raises(StoreError, match="needs a name"):
        store.projects.add("   ")
    atlas = store.projects.add("Atlas")
    assert store.projects.add("Cobalt", client="halvorsen freight") > atlas  # the same client
    [client] = store.clients.all()
    assert (client.name, client.projects, client.notes) == ("Halvorsen Freight", 2, 0)


def test_projects_count_meetings_facts_and_notes_as_the_filter_does(store: Store) -> None:
    atlas = store.projects.add("Atlas", client="Northwind")
    store.projects.add("Beacon")
    store.captures.write(new_capture("a", **meeting("alpha", "2026-09-08", project_ids=(atlas,))))
    store.captures.write(new_capture("b", **meeting("bravo", "2026-10-01", project_ids=(atlas,))))
    store.captures.write(new_capture("c", **meeting("charlie", "2026-11-01")))
    store.notes.add_for_project("Atlas", "Cutover planned for October.", NOTE)
    store.notes.add_for_client("Northwind", "Prefers email.", NOTE)
    summary, beacon = store.projects.all()
    assert (summary.name, summary.client, summary.meetings, summary.notes) == (
        "Atlas",
        "Northwind",
        2,
        1,
    )
    assert summary.facts == len(store.search.allowed_keys(FactFilter(project_ids=(atlas,)))) == 9
    assert summary.last_meeting == "2026-10-01"
    assert (beacon.meetings, beacon.facts, beacon.notes, beacon.last_meeting) == (0, 0, 0, None)


def test_a_project_page_has_its_notes_its_clients_and_its_meetings(store: Store) -> None:
    atlas = store.projects.add("Atlas", client="Northwind")
    store.captures.write(new_capture("a", **meeting("alpha", "2026-09-08", project_ids=(atlas,))))
    store.captures.write(new_capture("b", **meeting("bravo", "2026-10-01", project_ids=(atlas,))))
    mine = store.notes.add_for_project("Atlas", "Cutover planned for October.", NOTE)
    theirs = store.notes.add_for_client("Northwind", "Prefers email.", NOTE)
    store.notes.add_for_project("Beacon", "Not about Atlas.", NOTE)
    page = store.projects.get(atlas)
    assert page is not None and page.summary.name == "Atlas"
    assert [(n.id, n.kind, n.owner, n.body) for n in page.notes] == [
        (mine, "project", "Atlas", "Cutover planned for October."),
        (theirs, "client", "Northwind", "Prefers email."),
    ]
    assert page.notes[1].fact_key == (5 << 32) | theirs
    assert [(c.title, c.day) for c in page.captures] == [
        ("bravo meeting", "2026-10-01"),
        ("alpha meeting", "2026-09-08"),
    ]
    assert store.projects.get(999) is None


def test_meetings_naming_a_project_are_found_until_they_are_linked(store: Store) -> None:
    atlas = store.projects.add("Atlas")
    text = "Atlas is late.\nATLAS again, and atlas once more.\nNothing here."
    thrice = store.captures.write(new_capture("a", **meeting("alpha", None), text=text))
    once = store.captures.write(new_capture("b", **meeting("bravo", None), text="On Atlas."))
    store.captures.write(new_capture("c", **meeting("charlie", None), text="No project."))
    a, b = thrice.capture_id, once.capture_id
    found = store.projects.unlinked_mentions(atlas, "Atlas")
    assert found == [(a, "alpha meeting", 3), (b, "bravo meeting", 1)]
    # 999 is a meeting that is gone: it is not linked
    assert store.projects.link_captures(atlas, [a, 999], "user") == 1
    assert store.projects.link_captures(atlas, [a], "user") == 0  # linked already
    assert store.projects.unlinked_mentions(atlas, "Atlas") == [(b, "bravo meeting", 1)]


def test_editing_a_note_reindexes_it_and_drops_its_stale_vector(store: Store) -> None:
    note = store.notes.add_for_project("Atlas", "The warehouse runs on MySQL.", NOTE)
    key = (6 << 32) | note
    store.vectors.put(key, VECTOR, "test-model", "old-text")
    assert store.vectors.count_missing() == 0
    store.notes.update(note, "The warehouse runs on Postgres.")
    assert [k for k, _ in store.search.keyword("postgres", FactFilter(), 10)] == [key]
    assert store.search.keyword("mysql", FactFilter(), 10) == []
    assert store.stats().vectors == 0  # backfill embeds the new text
    assert store.vectors.missing(10) == [(key, "Atlas: The warehouse runs on Postgres.")]
    page = store.projects.get(1)
    assert page is not None
    [edited] = page.notes
    assert edited.body.endswith("Postgres.") and edited.updated_at != NOTE.captured_at
    fact = store.facts.get(key)  # who wrote it first still stands
    assert fact is not None and (fact.source_type, fact.captured_at) == ("note", NOTE.captured_at)
    with pytest.raises(NotFoundError):
        store.notes.update(note + 1, "No such note.")
    with pytest.raises(StoreError, match="cannot be empty"):
        store.notes.update(note, "  ")
    assert store.integrity_check() == "ok"


def test_deleting_a_note_removes_it_from_search(store: Store) -> None:
    note = store.notes.add_for_client("Halvorsen Freight", "Prefers email over calls.", NOTE)
    store.vectors.put((5 << 32) | note, VECTOR, "test-model", "h")
    assert store.notes.delete(note) is True
    assert store.search.keyword("email", FactFilter(), 10) == []
    assert store.stats().vectors == 0 and store.stats().fts_rows == 0
    assert store.notes.delete(note) is False


# Deleting a capture


def test_deleting_a_capture_takes_everything_it_owns_and_nothing_else(store: Store) -> None:
    atlas = store.projects.add("Atlas")
    people = {"new_people": ("Tom Adeyemi",), "attendees": ("Tom Adeyemi",)}
    gone = store.captures.write(
        new_capture("a", **meeting("alpha", "2026-09-08", project_ids=(atlas,), **people))
    )
    kept = store.captures.write(
        new_capture("b", **meeting("bravo", "2026-09-09", project_ids=(atlas,), **people))
    )
    for fact in store.facts.all():
        store.vectors.put(fact.fact_key, VECTOR, "test-model", f"h{fact.fact_key}")
    kept_facts = store.facts.all(capture_id=kept.capture_id)
    assert store.captures.get(gone.capture_id) is not None

    assert store.captures.delete(gone.capture_id) is True
    assert store.captures.get(gone.capture_id) is None
    assert store.search.keyword("alpha", FactFilter(), 10) == []
    assert len(store.search.keyword("bravo", FactFilter(), 10)) == 4
    stats = store.stats()
    assert stats.captures == 1 and stats.fts_rows == stats.vectors == len(kept_facts) == 4
    assert store.facts.all() == kept_facts
    kept_summary = store.captures.get(kept.capture_id)
    assert kept_summary is not None and kept_summary.decisions == kept_summary.action_items == 1
    for table in ("decisions", "action_items", "excerpts", "capture_people", "capture_projects"):
        assert count(store, f"SELECT count(*) FROM {table} WHERE capture_id = 1") == 0, table
    assert store.projects.all()[0].meetings == 1 and len(store.people.all()) == 1
    assert store.integrity_check() == "ok"
    if not store.on_postgres:  # (PostgreSQL checks every reference as it is written)
        assert count(store, "SELECT count(*) FROM pragma_foreign_key_check") == 0
    assert store.captures.delete(gone.capture_id) is False


# A person's page


def test_a_persons_page_lists_what_they_owe_decided_attended_and_what_waits(store: Store) -> None:
    priya_decides = NewDecision("Use Postgres", None, "Priya", 1, 1, "a", person="Priya Natarajan")
    first = store.captures.write(
        new_capture(
            "a",
            **meeting(
                "alpha",
                "2026-09-08",
                new_people=("Tom Adeyemi", "Priya Natarajan"),
                attendees=("Tom Adeyemi", "Priya Natarajan"),
                decisions=[priya_decides],
                action_items=[
                    NewActionItem("Set up staging", "Tom", None, 2, 2, "b", person="Tom Adeyemi"),
                    NewActionItem("Ask Sam", "Sam", None, 3, 3, "c", pending=True),
                ],
            ),
        )
    )
    tom = next(p.id for p in store.people.all() if p.name == "Tom Adeyemi")
    later = store.captures.write(  # Tom owes something from a meeting he did not attend
        new_capture(
            "b",
            **meeting(
                "bravo",
                "2026-10-01",
                action_items=[
                    NewActionItem("Write the runbook", "Tom", None, 1, 1, "a", person=tom),
                    NewActionItem("Old chore", "Tom", None, 2, 2, "b", status="done", person=tom),
                ],
            ),
        )
    )
    store.people.cache_alias("person", "Tommy", tom, 0.9)
    store.people.confirm_alias("person", "T.A.", tom, "ana")

    page = store.people.get(tom)
    assert page is not None and page.name == "Tom Adeyemi"
    assert [(a.alias, a.confirmed) for a in page.aliases] == [("T.A.", True), ("Tommy", False)]
    assert [a.description for a in page.open_action_items] == [
        "Write the runbook",
        "Set up staging",
    ]
    assert page.decisions == []
    assert [m.id for m in page.meetings] == [first.capture_id]
    assert page.captures[later.capture_id].title == "bravo meeting"
    assert page.captures[first.capture_id].day == "2026-09-08"

    priya = store.people.get(next(p.id for p in store.people.all() if p.name == "Priya Natarajan"))
    assert priya is not None and [d.description for d in priya.decisions] == ["Use Postgres"]
    assert store.people.get(999) is None


# The demo store


def test_the_demo_has_projects_a_client_and_notes_and_seeds_once(store: Store) -> None:
    capture = CaptureService(store, CaptureOptions(user="ana"))
    assert all(result.status == "captured" for result in seed_demo(capture))
    projects = {p.name: p for p in store.projects.all()}
    assert set(projects) == {"Atlas", "Beacon", "Cobalt"}
    assert projects["Beacon"].client == "Halvorsen Freight"
    assert all(p.meetings and p.facts for p in projects.values())
    beacon = store.projects.get(projects["Beacon"].id)
    assert beacon is not None
    assert {c.title for c in beacon.captures} >= {
        "Beacon review with Halvorsen Freight",
        "Beacon planning",
    }
    assert [n.kind for n in beacon.notes] == ["project", "client"]
    atlas = store.projects.get(projects["Atlas"].id)
    assert atlas is not None and "Atlas kickoff" in {c.title for c in atlas.captures}
    [client] = store.clients.all()
    assert (client.name, client.projects, client.notes) == ("Halvorsen Freight", 1, 1)

    def links() -> list[tuple[object, ...]]:
        with store.reader.connect() as conn:
            return list(conn.execute(text("SELECT * FROM capture_projects ORDER BY 1, 2")))

    before = (dump(store), links())
    assert all(result.status == "unchanged" for result in seed_demo(capture))
    assert (dump(store), links()) == before
