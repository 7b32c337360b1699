"""Notes as a core service (the rules `memo note` and the app's project page share), and
deleting a capture: a real SQLite store in tmp_path."""

from __future__ import annotations

import pytest
from support.db import dump
from support.paths import DEMO

from memo_tui.core.capture import CaptureService
from memo_tui.core.capture.delete import UnknownCapture, capture_to_delete, delete_capture
from memo_tui.core.notes import EmptyNote, NotesService, UnknownNote, UnknownOwner
from store import FactFilter, Provenance, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

NOW = "2026-12-01T09:00:00+00:00"


def notes_on(store: Store, refreshed: list[str] | None = None) -> NotesService:
    store.projects.add("Beacon", "Halvorsen Freight")
    store.projects.add("Atlas")
    calls = refreshed if refreshed is not None else []
    return NotesService(store, "Pat", refreshed=lambda: calls.append("embed"), clock=lambda: NOW)


def test_a_note_records_who_wrote_it_when_and_about_what(store: Store) -> None:
    notes = notes_on(store)
    beacon = notes.project("  beacon ")  # any case and spacing
    client = notes.client("HALVORSEN FREIGHT")
    about_project = notes.add(beacon, "  Kickoff moved to March\n")
    about_client = notes.add(client, "Invoices need PO numbers")
    assert about_project.body == "Kickoff moved to March"  # trimmed
    assert about_project.provenance == Provenance("note", f"project:{beacon.id}", NOW, "Pat")
    assert about_client.provenance == Provenance("note", "client:Halvorsen Freight", NOW, "Pat")
    assert (about_client.kind, about_client.owner) == ("client", "Halvorsen Freight")
    # A note is a fact: the facts view lists it with its provenance, search finds it.
    fact = store.facts.get(about_project.fact_key)
    assert fact is not None and fact.source_id == f"project:{beacon.id}"
    hits = store.search.keyword("invoices", FactFilter(), 10)
    assert about_client.fact_key in {key for key, _ in hits}


def test_a_projects_page_writes_about_it_or_its_client(store: Store) -> None:
    notes = notes_on(store)
    beacon, atlas = notes.project("Beacon"), notes.project("Atlas")
    assert [(o.kind, o.name) for o in notes.owners_of(beacon.id)] == [
        ("project", "Beacon"),
        ("client", "Halvorsen Freight"),
    ]
    assert [o.kind for o in notes.owners_of(atlas.id)] == ["project"]  # no client
    with pytest.raises(UnknownOwner):
        notes.owners_of(999)


def test_listing_by_owner(store: Store) -> None:
    notes = notes_on(store)
    beacon, atlas = notes.project("Beacon"), notes.project("Atlas")
    client = notes.client("Halvorsen Freight")
    first = notes.add(beacon, "Pilot in Bergen")
    second = notes.add(beacon, "Tromsø waits")
    theirs = notes.add(client, "Ingrid signs off")
    other = notes.add(atlas, "Postgres since September")
    assert [n.id for n in notes.listed(beacon)] == [second.id, first.id, theirs.id]
    assert [n.id for n in notes.listed(client)] == [theirs.id]
    assert [n.id for n in notes.listed()] == [other.id, second.id, first.id, theirs.id]


def test_edits_keep_who_wrote_it_first_and_embed_again(store: Store) -> None:
    refreshed: list[str] = []
    notes = notes_on(store, refreshed)
    note = notes.add(notes.project("Beacon"), "Pilot in Bergen")
    assert refreshed == ["embed"]
    edited = notes.edit(note.id, "Pilot in Bergen and Oslo")
    assert edited.changed and edited.note.body == "Pilot in Bergen and Oslo"
    assert edited.note.provenance == note.provenance
    assert refreshed == ["embed", "embed"]
    before = dump(store)
    again = notes.edit(note.id, " Pilot in Bergen and Oslo ")
    assert not again.changed and dump(store) == before and len(refreshed) == 2


def test_refused_notes_leave_the_store_as_it_was(store: Store) -> None:
    refreshed: list[str] = []
    notes = notes_on(store, refreshed)
    beacon = notes.project("Beacon")
    note = notes.add(beacon, "Pilot in Bergen")
    before = dump(store)
    with pytest.raises(EmptyNote):
        notes.add(beacon, " \n\t")
    with pytest.raises(EmptyNote):
        notes.edit(note.id, "")
    with pytest.raises(UnknownNote):
        notes.edit(note.id + 1, "text")
    with pytest.raises(UnknownNote):
        notes.delete(note.id + 1)
    with pytest.raises(UnknownOwner, match="projects: Atlas, Beacon"):
        notes.project("Zephyr")
    with pytest.raises(UnknownOwner, match="clients: Halvorsen Freight"):
        notes.client("Halvorsen")
    assert dump(store) == before and refreshed == ["embed"]


def test_a_deleted_note_is_gone_from_the_facts_and_search(store: Store) -> None:
    notes = notes_on(store)
    note = notes.add(notes.project("Beacon"), "Pilot in Bergen")
    gone = notes.delete(note.id)
    assert gone == note
    assert store.facts.get(note.fact_key) is None
    assert store.search.keyword("Bergen", FactFilter(), 10) == []
    with pytest.raises(UnknownNote):
        notes.note(note.id)


def test_deleting_a_capture_takes_what_it_owns(store: Store, service: CaptureService) -> None:
    [kickoff] = service.capture_paths([DEMO / "2026-09-08-atlas-kickoff.txt"])
    assert kickoff.capture_id is not None
    found = capture_to_delete(store, kickoff.capture_id)
    assert found.decisions + found.action_items > 0
    gone = delete_capture(store, kickoff.capture_id)
    assert gone == found
    assert store.captures.all() == [] and store.facts.all() == []
    assert store.integrity_check() == "ok"
    before = dump(store)
    with pytest.raises(UnknownCapture):
        delete_capture(store, kickoff.capture_id)
    assert dump(store) == before
