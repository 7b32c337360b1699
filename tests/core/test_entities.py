"""Entity resolution: names resolve to the right person, or memo asks (and remembers the answer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from support.db import dump

from memo_tui.core.capture import CaptureService
from memo_tui.core.entities.names import looks_like_a_person, similarity
from memo_tui.core.entities.resolve import (
    AMBIGUOUS,
    AUTO_RESOLVE,
    NeedsDisambiguation,
    Resolved,
    Unresolved,
)
from memo_tui.core.entities.service import EntityService, UnknownPerson
from store import AliasRow, Directory, PersonRow, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

TWO_SAMS = """Beacon device review
Date: 2026-09-22

Priya Natarajan: Sam Cheng runs the depot side, Sam Chen the sync code.
Sam Cheng: I'll send four devices to your office by October 2nd.
Sam Chen: I'll write up the sync rules by Friday.
Priya Natarajan: Sam, please also send the driver list by October 2nd.
Priya Natarajan: That's all for today.
"""

ONE_SAM = """Atlas kickoff
Date: 2026-09-08

Priya Natarajan: Final call: we're moving Atlas to Postgres.
Sam Chen: Fine by me.
Priya Natarajan: Sam, you own the migration design doc, due end of the month.
Tom Adeyemi: I'll set up the staging database by Friday.
"""


def capture(service: CaptureService, body: str, name: str) -> int:
    result = service.capture_text(body, name, "txt")
    assert result.ok, result.error
    assert result.capture_id is not None
    return result.capture_id


def owners(store: Store) -> list[tuple[str, str | None, int]]:
    """(raw owner, resolved person, pending) of every action item, in order."""
    with store.reader.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT a.assignee_raw, p.name, a.pending FROM action_items a "
                "LEFT JOIN people p ON p.id = a.person_id ORDER BY a.id"
            )
        ).all()
    return [tuple(r) for r in rows]  # type: ignore[misc]


# Spelling


@pytest.mark.parametrize(
    ("mention", "name", "band"),
    [
        ("Sam Chen", "sam chen", "resolve"),  # case
        ("Priya Natarjan", "Priya Natarajan", "resolve"),  # a typo
        ("Priya", "Priya Natarajan", "resolve"),  # first name only
        ("Halvorsen", "Ingrid Halvorsen", "resolve"),  # surname only
        ("SC", "Sam Chen", "resolve"),  # initials
        ("S. Chen", "Sam Chen", "resolve"),
        ("Sam Cheng", "Sam Chen", "ask"),  # a different surname is not a typo
        ("Elana", "Elena Kowalski", "ask"),
        ("Thomas Adeyemi", "Tom Adeyemi", "resolve"),  # Tom is Thomas (a diminutive)
        ("Thomas Adeyemi", "Tomas Adeyemi", "resolve"),  # the same sound
        ("Jon Park", "John Parks", "ask"),  # another surname, whatever the first name
        ("Zed", "Sam Chen", "none"),
        ("Sam", "Sara Anne Miller", "none"),  # a word is never read as initials
    ],
)
def test_similarity_bands(mention: str, name: str, band: str) -> None:
    score = similarity(mention, name)
    found = "resolve" if score >= AUTO_RESOLVE else "ask" if score >= AMBIGUOUS else "none"
    assert found == band, score


@pytest.mark.parametrize(
    ("label", "person"),
    [
        ("Priya Natarajan", True),
        ("Ingrid", True),
        ("Project Manager", False),
        ("Grad B", False),
        ("Speaker 2", False),
        ("Marketing", False),
        ("Professor D", False),
        ("Professor Jean White", True),  # a title, then a name
        ("Dr", False),
    ],
)
def test_only_personal_names_become_people(label: str, person: bool) -> None:
    assert looks_like_a_person(label) is person


# Capture links owners and deciders


def test_speakers_become_people_and_two_sams_stay_two(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    capture(service, TWO_SAMS, "review.txt")
    names = [p.name for p in store.people.all()]
    assert names == ["Priya Natarajan", "Sam Chen", "Sam Cheng", "Tom Adeyemi"]


def test_a_first_name_resolves_to_the_one_attendee_it_fits(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    assert ("Sam", "Sam Chen", 0) in owners(store)
    assert any(person == "Tom Adeyemi" for _, person, _ in owners(store))


def test_a_name_two_attendees_share_waits_for_the_user(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    result = service.capture_text(TWO_SAMS, "review.txt", "txt")
    assert result.pending_names == ["Sam"]
    assert ("Sam", None, 1) in owners(store)
    assert ("Sam Cheng", "Sam Cheng", 0) in owners(store)  # "I'll send four devices"
    waiting = EntityService(store, "ana").pending()
    assert [w.mention.mention for w in waiting] == ["Sam"]
    assert isinstance(waiting[0].resolution, NeedsDisambiguation)
    assert {c.name for c in waiting[0].resolution.candidates} == {"Sam Chen", "Sam Cheng"}


def test_confirming_writes_an_alias_and_backfills_every_waiting_item(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    capture(service, TWO_SAMS, "review.txt")
    entities = EntityService(store, "ana")
    filled = entities.confirm("Sam", entities.person("Sam Cheng"))
    assert (filled.action_items, filled.decisions) == (1, 0)
    assert ("Sam", None, 1) not in owners(store)
    assert owners(store).count(("Sam", "Sam Cheng", 0)) == 1
    assert ("Sam", "Sam Chen", 0) in owners(store)  # the kickoff's Sam is untouched
    [alias] = [a for a in store.people.directory().aliases if a.alias == "Sam"]
    assert (alias.confidence, alias.auto_resolved, alias.confirmed_by) == (1.0, False, "ana")
    assert entities.pending() == []
    # With both Sams in the next meeting too, "Sam" waits again: an alias does not say
    # which of two people in the room was meant.
    result = service.capture_text(
        TWO_SAMS.replace("2026-09-22", "2026-09-29"), "review2.txt", "txt"
    )
    assert result.pending_names == ["Sam"]
    found = entities.resolve("Sam")
    assert isinstance(found, Resolved) and found.entity.name == "Sam Cheng"


def test_none_of_these_is_remembered(service: CaptureService, store: Store) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    capture(service, TWO_SAMS, "review.txt")
    entities = EntityService(store, "ana")
    filled = entities.confirm("Sam", None)
    assert filled.action_items == 1
    assert ("Sam", None, 0) in owners(store)  # settled, owner unknown: no longer waiting
    found = entities.resolve("Sam")
    assert isinstance(found, Unresolved) and found.reason == "declined"
    assert entities.pending() == []


def test_resolution_bands_store_wide(service: CaptureService, store: Store) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    capture(service, TWO_SAMS, "review.txt")
    entities = EntityService(store, "ana")
    sam = entities.resolve("sam")
    assert isinstance(sam, NeedsDisambiguation)
    assert len(sam.candidates) == 2 and sam.candidates[0].score == sam.candidates[1].score
    assert isinstance(entities.resolve("Zed Zimmerman"), Unresolved)
    exact = entities.resolve("SAM CHENG")
    assert isinstance(exact, Resolved) and exact.via == "name"
    assert not store.people.directory().aliases  # exact names need no alias
    typo = entities.resolve("Priya Natarjan")
    assert isinstance(typo, Resolved) and typo.entity.name == "Priya Natarajan"
    [cached] = store.people.directory().aliases
    assert (cached.alias, cached.auto_resolved) == ("Priya Natarjan", True)
    again = entities.resolve("priya natarjan")
    assert isinstance(again, Resolved) and again.via == "alias"


def test_a_newcomer_retires_a_cached_guess(service: CaptureService, store: Store) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    entities = EntityService(store, "ana")
    guess = entities.resolve("Sam")  # only one Sam so far: resolved and cached
    assert isinstance(guess, Resolved) and guess.entity.name == "Sam Chen"
    assert [a.alias for a in store.people.directory().aliases] == ["Sam"]
    capture(service, TWO_SAMS, "review.txt")  # Sam Cheng arrives
    assert store.people.directory().aliases == []
    assert isinstance(entities.resolve("Sam"), NeedsDisambiguation)


def test_role_labels_make_no_people(service: CaptureService, store: Store) -> None:
    capture(
        service,
        "Project Manager: We'll go with the rubber case.\n"
        "Industrial Designer: I'll draw the case by Friday.\n",
        "ami.txt",
    )
    assert store.people.all() == []


def test_people_summary_counts(service: CaptureService, store: Store) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    people = {p.name: p for p in store.people.all()}
    assert people["Sam Chen"].open_action_items == 1
    assert people["Sam Chen"].meetings == 1
    assert people["Priya Natarajan"].decisions >= 1


def test_unknown_or_ambiguous_person_is_refused(service: CaptureService, store: Store) -> None:
    capture(service, TWO_SAMS, "review.txt")
    entities = EntityService(store, "ana")
    with pytest.raises(UnknownPerson, match="no person called"):
        entities.person("Nobody Here")
    assert entities.person(str(entities.person("Sam Chen").id)).name == "Sam Chen"


def test_demo_two_sams_are_pending_with_both_candidates(demo: Store) -> None:
    waiting = EntityService(demo, "t").pending()
    sam = [w for w in waiting if w.mention.mention == "Sam"]
    assert sam and {c.name for c in sam[0].resolution.candidates} == {"Sam Chen", "Sam Cheng"}
    names = {p.name for p in demo.people.all()}
    assert {"Sam Chen", "Sam Cheng", "Ingrid Halvorsen", "Priya Natarajan"} <= names


# The CLI contract


def test_cli_people_resolve_pending_confirm(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    for name, body in (("kickoff.txt", ONE_SAM), ("review.txt", TWO_SAMS)):
        (tmp_path / name).write_text(body)
        assert memo("--db", db, "capture", str(tmp_path / name)).code == 0
    people = memo("--db", db, "people", "--json").json()["people"]
    sam = next(p for p in people if p["name"] == "Sam Chen")
    assert set(sam) >= {"id", "name", "aliases", "open_action_items", "decisions"}
    assert sam["open_action_items"] == 2  # the design doc, the sync rules
    resolved = memo("--db", db, "resolve", "sam", "--json").json()
    assert resolved["status"] == "ambiguous" and resolved["person"] is None
    assert {c["name"] for c in resolved["candidates"]} == {"Sam Chen", "Sam Cheng"}
    assert all(set(c) >= {"name", "score"} for c in resolved["candidates"])
    assert memo("--db", db, "resolve", "Tom", "--json").json()["person"] == "Tom Adeyemi"
    assert memo("--db", db, "resolve", "Zed", "--json").json()["status"] == "none"
    assert memo("--db", db, "pending", "--json").json()["pending"][0]["mention"] == "Sam"
    assert "Who is Sam? Several people fit" in memo("--db", db).stdout
    asked = memo("--db", db, "ask", "what did Sam decide?")
    assert '"Sam" could be several people' in asked.stderr

    before = dump(Store(Path(db)))
    refused = memo("--db", db, "confirm", "Sam", "Nobody")
    assert refused.code == 1 and "no person called" in refused.stderr
    assert memo("--db", db, "confirm", "Sam").code == 2
    assert dump(Store(Path(db))) == before

    done = memo("--db", db, "confirm", "Sam", "Sam Cheng", "--json")
    assert done.code == 0, done.stderr
    assert done.json()["backfilled"] == {"action_items": 1, "decisions": 0}
    assert memo("--db", db, "pending", "--json").json()["pending"] == []
    cheng = next(
        p for p in memo("--db", db, "people", "--json").json()["people"] if p["name"] == "Sam Cheng"
    )
    assert "Sam" in cheng["aliases"] and cheng["open_action_items"] == 2


def test_a_meeting_about_a_known_project_is_linked_and_filterable(
    service: CaptureService, store: Store
) -> None:
    from memo_tui.core.recall.filters import entities_in
    from store import FactFilter, Provenance

    note = Provenance("note", "project:atlas", "2026-09-01T00:00:00+00:00", "ana")
    store.notes.add_for_project("Atlas", "The fleet-data platform; Postgres since September.", note)
    atlas = capture(service, ONE_SAM, "kickoff.txt")
    other = capture(service, TWO_SAMS, "review.txt")  # about Beacon, never names Atlas
    found, _ = entities_in("what did we decide about atlas?", store.people.directory())
    assert [(e.entity_type, e.name) for e in found] == [("project", "Atlas")]
    keys = store.search.keyword("Postgres sync devices", FactFilter(project_ids=(found[0].id,)), 50)
    facts = store.facts.by_keys([key for key, _ in keys]).values()
    assert {f.capture_id for f in facts} == {atlas, None}  # the meeting and the project note
    assert all(f.capture_id != other for f in facts)


def test_confirming_within_one_meeting_writes_no_alias(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    review = capture(service, TWO_SAMS, "review.txt")
    later = capture(service, TWO_SAMS.replace("2026-09-22", "2026-09-29"), "review2.txt")
    entities = EntityService(store, "ana")
    filled = entities.confirm("Sam", entities.person("Sam Cheng"), capture_ids=[review])
    assert filled.action_items == 1
    assert store.people.directory().aliases == []
    [waiting] = entities.pending()
    assert waiting.mention.capture_ids == [later]  # the other meeting still asks


# Found in review


def directory_of(*names: str, aliases: tuple[tuple[str, int | None, bool], ...] = ()) -> Directory:
    people = [PersonRow(i, n) for i, n in enumerate(names, 1)]
    rows = [
        AliasRow("person", who, alias, 1.0 if not auto else 0.9, auto, None)
        for alias, who, auto in aliases
    ]
    return Directory(people, [], [], rows)


def test_an_ordinary_word_is_not_read_as_a_first_name() -> None:
    from memo_tui.core.recall.filters import entities_in

    people = directory_of("Mark Owens", "Priya Natarajan")
    assert entities_in("Did we mark the Stripe invoices as paid?", people) == ((), ())
    [mark], _ = entities_in("What does Mark owe?", people)
    assert mark.name == "Mark Owens"
    [priya], _ = entities_in("What are Priya's action items?", people)  # a possessive
    assert priya.name == "Priya Natarajan"


def test_the_users_newest_word_wins_over_older_aliases_and_guesses() -> None:
    from memo_tui.core.entities.resolve import resolve

    lees = directory_of("Ana Lee", "Ben Lee", aliases=(("Dr. Lee", 1, False), ("Dr Lee", 2, False)))
    found = resolve("Dr Lee", lees)
    assert isinstance(found, Resolved) and found.entity.name == "Ben Lee"
    sams = directory_of("Sam Chen", "Sam Cheng", aliases=(("Sam", 2, False), ("sam.", 1, True)))
    found = resolve("Sam", sams)
    assert isinstance(found, Resolved) and found.entity.name == "Sam Cheng"


def test_punctuated_names_compare_whole() -> None:
    assert similarity("O'Brien", "Sean O'Brien") >= AUTO_RESOLVE
    assert similarity("Smith-Jones", "Anna Smith-Jones") >= AUTO_RESOLVE


def test_a_declined_name_is_not_linked_by_spelling_at_capture(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    EntityService(store, "ana").confirm("Sam", None)
    capture(
        service,
        "Standup\nDate: 2026-10-01\n\nSam: I'll send the report by Friday.\n",
        "standup.txt",
    )
    assert "Sam" in [p.name for p in store.people.all()]  # the label is someone else
    assert owners(store)[-1] == ("Sam", "Sam", 0)


@pytest.mark.parametrize(
    ("mention", "person", "error"),
    [
        ("", "Sam Chen", ValueError),
        ("!!!", "Sam Chen", ValueError),
        ("Sam Chen", None, UnknownPerson),  # --none for a person's own name
    ],
)
def test_confirm_refuses_what_is_not_a_name(
    service: CaptureService, store: Store, mention: str, person: str | None, error: type
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    entities = EntityService(store, "ana")
    before = dump(store)
    with pytest.raises(error):
        entities.confirm(mention, entities.person(person) if person else None)
    with pytest.raises(UnknownPerson):
        entities.confirm("Sam", entities.person("Sam Chen"), capture_ids=[999])
    with pytest.raises(UnknownPerson):
        entities.person("²")  # a digit, but not a number
    assert dump(store) == before


def test_an_empty_store_with_a_model_has_no_index_to_offer(store: Store) -> None:
    from memo_tui.core.recall.index import VectorIndex
    from store import FactFilter

    store.vectors.set_space("m", 384)
    assert VectorIndex(store, min_vectors=0).search([1.0] * 384, FactFilter(), 5, 0.0) is None


def test_confirm_settles_every_spelling_of_the_name(service: CaptureService, store: Store) -> None:
    capture(
        service,
        "Ops sync\nDate: 2026-10-02\n\nJosé Ruiz: Hi.\nJosé Ortega: Hello.\n"
        "Ana Park: José, please send the invoice by Friday.\n",
        "ops.txt",
    )
    assert ("José", None, 1) in owners(store)
    entities = EntityService(store, "ana")
    filled = entities.confirm("Jose", entities.person("José Ruiz"))  # typed without the accent
    assert filled.action_items == 1 and ("José", "José Ruiz", 0) in owners(store)


def test_an_exact_label_keeps_its_person_from_an_aliased_short_label(
    service: CaptureService, store: Store
) -> None:
    capture(service, ONE_SAM, "kickoff.txt")
    capture(service, TWO_SAMS, "review.txt")
    entities = EntityService(store, "ana")
    entities.confirm("Sam", entities.person("Sam Chen"))
    later = capture(
        service,
        "Sync\nDate: 2026-10-09\n\nSam: Morning.\nSam Chen: Morning, Sam.\n",
        "sync.txt",
    )
    attended = store.people.attendees([later])
    assert len(attended) == 2 and entities.person("Sam Chen").id in attended


def test_relink_gives_old_captures_their_people(service: CaptureService, store: Store) -> None:
    """A store captured before people existed (schema < 3): relink puts them in."""
    capture(service, ONE_SAM, "kickoff.txt")
    capture(service, TWO_SAMS.replace("Date: 2026-09-22", "Date: 2026-09-22\n"), "review.vtt")
    linked_at_capture = owners(store)
    with store.writer.begin() as conn:  # as a schema-2 store would look once migrated
        for sql in (
            "DELETE FROM capture_people",
            "UPDATE action_items SET person_id = NULL, pending = 0",
            "UPDATE decisions SET person_id = NULL, pending = 0",
            "DELETE FROM entity_aliases",
            "DELETE FROM people",
        ):
            conn.execute(text(sql))
    entities = EntityService(store, "ana")
    done = entities.relink()
    assert done.meetings == 2 and len(done.changes) > 0
    assert owners(store) == linked_at_capture
    again = entities.relink()  # nothing left to link
    assert (again.meetings, again.changes) == (0, [])
