"""People: the right person, every time. The meeting's roster decides first, aliases are
evidence, requests belong to who takes them on, one person is one record."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text
from support.paths import REPO
from support.services import accept_all

from memo_tui.core.capture import CaptureService
from memo_tui.core.capture.formats.names import short_form
from memo_tui.core.entities.names import similarity
from memo_tui.core.entities.resolve import AMBIGUOUS, AUTO_RESOLVE, Resolved
from memo_tui.core.entities.service import EntityService, UnknownPerson
from store import Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

DEV = REPO.parent / "shared" / "data" / "dev-meetings"


def capture(service: CaptureService, body: str, name: str) -> int:
    result = service.capture_text(body, name, "txt")
    assert result.ok, result.error
    assert result.capture_id is not None
    return result.capture_id


def linked(store: Store, table: str = "action_items") -> list[tuple[str | None, str | None, int]]:
    """(raw name, person, pending) of every action item (or decision), in order."""
    raw = "assignee_raw" if table == "action_items" else "decided_by"
    with store.reader.connect() as conn:
        rows = conn.execute(
            text(
                f"SELECT x.{raw}, p.name, x.pending FROM {table} x "
                "LEFT JOIN people p ON p.id = x.person_id ORDER BY x.id"
            )
        ).all()
    return [tuple(r) for r in rows]  # type: ignore[misc]


def names(store: Store) -> list[str]:
    return sorted(p.name for p in store.people.all())


@pytest.mark.parametrize(
    ("mention", "name", "band"),
    [
        ("Libby", "Elizabeth Harcourt", "resolve"),  # a diminutive
        ("Libby Harcourt", "Elizabeth Harcourt", "resolve"),
        ("Kasia Wróbel", "Katarzyna Wróbel", "resolve"),  # a diminutive from outside English
        ("Rob", "Roberto Díaz", "resolve"),  # what a first name starts with
        ("Raj Iyer", "Rajesh Iyer", "resolve"),
        ("JB", "Jean-Baptiste Lefèvre", "resolve"),  # a hyphenated first name's initials
        ("JB Lefèvre", "Jean-Baptiste Lefèvre", "resolve"),
        ("Sam Okafur", "Sam Okafor", "resolve"),  # one letter misheard
        ("John Park", "Jon Park", "resolve"),  # one sound
        ("JohnP", "John Parks", "resolve"),  # notes' shorthand
        ("Jon Park", "John Parks", "ask"),  # another surname
        ("Sam Chen", "Sam Cheng", "ask"),  # a letter more is another name
        ("Dave", "Hannah Osei", "none"),
        ("Angela Burns", "Angela Burns AM", "resolve"),  # letters after a name
        ("Dr. Jane Smith", "Jane Smith PhD", "resolve"),  # a title before it
        ("Mr Reckless", "Mark Reckless", "resolve"),  # a title and a surname
        ("John Smith Jr", "John Smith Sr", "ask"),  # a father is not his son: never decided
        ("Theo Nakamura", "Theodore Nakamura-Hill", "resolve"),  # half a double-barrelled name
        ("Ana Souza", "Ana Lima-Souza", "resolve"),
        ("Bob Lima", "Ana Lima-Souza", "none"),
        ("Seun Adeyemi", "Oluwaseun Adeyemi", "resolve"),  # a first name's end
        ("Ann Lee", "Joann Lee", "ask"),  # three letters are too few to say so
        ("Chef Dan", "Daniel Achterberg", "resolve"),  # a role before a name, set aside
        ("Nadia Haddad (External)", "Nadia Haddad", "resolve"),  # what a tool writes after it
        ("Roz", "Rosalind Pemberton", "resolve"),  # a short form as said: the z is the s
        ("Roz Pemberton", "Rosalind Pemberton", "resolve"),
        ("MOR", "Margaret Olufemi-Reid", "resolve"),  # each half of the surname has its letter
        ("MO", "Margaret Olufemi-Reid", "resolve"),
        ("Nnamdi Okonkow", "Nnamdi Okonkwo", "resolve"),  # two letters the wrong way round
        ("Owen Hadad", "Owen Haddad", "resolve"),  # a doubled letter written once
        ("Owen Hadid", "Owen Haddad", "ask"),  # and another letter: another name
        ("Sam Koen", "Sam Keon", "ask"),  # a surname of four letters is too short to say so
        ("neeve", "Niamh Gallagher", "resolve"),  # an Irish name as speech-to-text writes it
        ("Eefa Brennan", "Aoife Brennan", "resolve"),
        ("dewey", "Dewi Rhys-Morgan", "resolve"),  # a Welsh one
        ("Roo MacLeod", "Ruaridh MacLeod", "resolve"),  # a Scottish diminutive
        ("Bim Adeyemi", "Abimbola Adeyemi", "resolve"),  # a Yoruba one
        ("Shaun Adeyemi", "Oluwaseun Adeyemi", "resolve"),  # Seun as said, a name's end
        ("Shane Adeyemi", "Oluwaseun Adeyemi", "none"),  # no form of Seun
        ("Shane Murphy", "Sean Murphy", "ask"),  # another name, not another spelling
        ("Mags", "Margaret Thornton", "resolve"),
        ("Hattie", "Harriet Lowe", "resolve"),  # common diminutives, English, Indian, Akan
        ("Bea Hollis", "Beatrix Hollis", "resolve"),
        ("Ally", "Alasdair Buchanan", "resolve"),
        ("Ravi S", "Ravindra Subramaniam", "resolve"),
        ("Kobby", "Kwabena Asante", "resolve"),
        ("Kobby Mensah", "Kwabena Asante", "none"),  # the diminutive, another surname
        ("Shivon", "Siobhán D'Arcy", "resolve"),
        ("Neeve Gallagher", "Aoife Gallagher", "none"),  # another name, whatever the surname
    ],
)
def test_names_fit_the_way_people_shorten_and_mishear_them(
    mention: str, name: str, band: str
) -> None:
    score = similarity(mention, name)
    found = "resolve" if score >= AUTO_RESOLVE else "ask" if score >= AMBIGUOUS else "none"
    assert found == band, score


DANA_EARLIER = "Ops sync\nDate: 2026-03-01\nAttendees: Dana Reyes, Lee Park\n\nDana: Morning.\n"
DANA_LATER = (
    "Planning\nDate: 2026-03-08\nParticipants: Dana Ortiz, Ana Lima, Raj Mehta, Lee Wong\n\n"
    "Dana: We decided to move the database to the Hetzner cluster.\n"
    "Ana: Fine by me.\nRaj: Agreed.\nLee: I'll book the migration window by Friday.\n"
)


def test_the_meetings_roster_decides_before_an_alias(service: CaptureService, store: Store) -> None:
    capture(service, DANA_EARLIER, "ops.txt")
    with store.writer.begin() as conn:  # a guess an earlier meeting cached
        conn.execute(
            text(
                "INSERT INTO entity_aliases (entity_type, entity_id, alias, confidence, "
                "auto_resolved, created_at) SELECT 'person', id, 'Dana', 0.9, 1, 'x' "
                "FROM people WHERE name = 'Dana Reyes'"
            )
        )
    later = capture(service, DANA_LATER, "planning.txt")
    assert linked(store, "decisions") == [("Dana", "Dana Ortiz", 0)]
    assert linked(store) == [("Lee", "Lee Wong", 0)]
    # First-name speaker labels are the participants the header names, not new people.
    assert names(store) == [
        "Ana Lima",
        "Dana Ortiz",
        "Dana Reyes",
        "Lee Park",
        "Lee Wong",
        "Raj Mehta",
    ]
    assert len(store.people.attendees([later])) == 4


ALEXES = (
    "Deliverability\nDate: 2026-10-05\nAttendees: Maya Lin, Alex Rivera, Alex Kim\n\n"
    "Maya Lin: Alex, send me the deliverability results.\n"
    "Alex Rivera: Yes, I'll have both done by Friday.\n"
    "Maya Lin: Alex, can you check the bounce rates too?\n"
    "Alex Kim: Sure, I'll send it Monday.\n"
    "Maya Lin: And Alex, can you write the postmortem?\n"
    "Maya Lin: That's all.\n"
)


def test_a_request_belongs_to_who_takes_it_on_whatever_an_alias_says(
    service: CaptureService, store: Store
) -> None:
    capture(service, ALEXES.replace("2026-10-05", "2026-09-28"), "earlier.txt")
    entities = EntityService(store, "ana")
    entities.confirm("Alex", entities.person("Alex Rivera"))
    with store.writer.begin() as conn:
        conn.execute(text("DELETE FROM action_items"))
    capture(service, ALEXES, "later.txt")
    assert linked(store) == [
        ("Alex Rivera", "Alex Rivera", 0),  # "Yes, I'll have both done by Friday."
        ("Alex Kim", "Alex Kim", 0),  # "Sure, I'll send it Monday."
        ("Alex", None, 1),  # nobody answered: both Alexes were there, so it waits
    ]
    with store.reader.connect() as conn:
        due = conn.execute(text("SELECT due_date FROM action_items ORDER BY id")).scalars().all()
    assert due[0] == "2026-10-09"  # the due date came with the answer


def test_a_confirmed_alias_decides_only_among_who_could_have_been_there(
    service: CaptureService, store: Store
) -> None:
    capture(service, ALEXES.replace("2026-10-05", "2026-09-28"), "earlier.txt")
    entities = EntityService(store, "ana")
    entities.confirm("Alex", entities.person("Alex Rivera"))
    kim_only = (
        "Bounces\nDate: 2026-10-12\nAttendees: Maya Lin, Alex Kim\n\n"
        "Alex: I'll send the bounce report by Friday.\nMaya Lin: Thanks.\n"
    )
    no_roster = "Hallway\nDate: 2026-10-13\n\nMaya Lin: Alex will send the bounce report.\n"
    kim, hallway = capture(service, kim_only, "kim.txt"), capture(service, no_roster, "hall.txt")
    found = entities.resolve_in("Alex", kim)
    assert isinstance(found, Resolved) and found.entity.name == "Alex Kim"  # Rivera was not there
    found = entities.resolve_in("Alex", hallway)  # nobody says who was there: the user's word holds
    assert isinstance(found, Resolved) and found.entity.name == "Alex Rivera"


def test_an_auto_alias_stops_deciding_once_a_second_person_fits(
    service: CaptureService, store: Store
) -> None:
    capture(service, DANA_EARLIER, "ops.txt")
    entities = EntityService(store, "t")
    found = entities.resolve("Dana")
    assert isinstance(found, Resolved) and found.entity.name == "Dana Reyes"
    with store.reader.connect() as conn:  # the guess is cached as an automatic alias
        cached = conn.execute(
            text("SELECT auto_resolved FROM entity_aliases WHERE alias = 'Dana'")
        ).scalar_one()
    assert cached == 1
    capture(service, DANA_LATER, "planning.txt")  # a second Dana now exists
    hallway = capture(service, "Hallway\nDate: 2026-03-09\n\nLee Park: Dana owns it.\n", "h.txt")
    found = entities.resolve_in("Dana", hallway)
    assert not isinstance(found, Resolved)
    assert sorted(c.name for c in found.candidates[:2]) == ["Dana Ortiz", "Dana Reyes"]


def test_the_other_sam_is_the_one_who_was_not_there(service: CaptureService, store: Store) -> None:
    capture(
        service,
        "A\nDate: 2026-01-01\nAttendees: Sam Okafor, Sam Lindqvist\n\nSam Okafor: Hi.\n",
        "a.txt",
    )
    later = capture(
        service,
        "B\nDate: 2026-01-08\nAttendees: Sam Okafor, Hannah Osei\n\n"
        "Hannah Osei: The other Sam will send the logs by Friday.\nSam Okafor: Good.\n",
        "b.txt",
    )
    found = EntityService(store, "t").resolve_in("the other Sam", later)
    assert isinstance(found, Resolved) and found.entity.name == "Sam Lindqvist"


OTTER = (
    "Sam Lindqvist  0:04\nOkay, risk review.\n\n"
    "Speaker 3  0:20\nI'll update the risk assessment. Give me two weeks.\n\n"
    "Libby Harcourt  0:31\nThanks, Hannah.\n\n"
)
MEET = (
    "Sync - Transcript\nFeb 24, 2026\nAttendees\nJon Park, Siobhán D'Arcy, Tomás Ferreira\n"
    "Transcript\n00:00:00\n \n"
    "Tomás Ferreira: Shevonne, can you write the exceptions spec?\n"
    "Siobhán D'Arcy: Yeah, I'll do the exceptions spec. By Friday.\n"
)


def test_a_meeting_says_who_an_unnamed_speaker_and_a_misheard_name_are(
    service: CaptureService, store: Store
) -> None:
    capture(
        service,
        "Kickoff\nDate: 2026-01-01\nAttendees: Hannah Osei, Sam Lindqvist\n\nHannah Osei: Hi.\n",
        "k.txt",
    )
    review = capture(service, OTTER, "2026-02-10_review.txt")
    sync = capture(service, MEET, "2026-02-24_sync.txt")
    assert ("Speaker 3", "Hannah Osei", 0) in linked(store)
    entities = EntityService(store, "t")
    assert entities.resolve_in("Speaker 3", review).candidates[0].name == "Hannah Osei"
    # a spelling no table knows: the meeting says who it is (who answered to it)
    assert entities.resolve_in("Shevonne", sync).candidates[0].name == "Siobhán D'Arcy"
    assert store.captures.meta(sync)["names"] == {"Shevonne": "Siobhán D'Arcy"}


@pytest.mark.parametrize("reverse", [False, True], ids=["short first", "full first"])
def test_one_person_one_record_in_either_order(
    service: CaptureService, store: Store, reverse: bool
) -> None:
    zoom = (
        "Battery\nDate: 2026-01-27\n\nLibby Harcourt: Right, battery call.\n"
        "Raj Iyer: Two suppliers.\nJB Lefèvre: The bracket fits.\n"
    )
    teams = (
        "Allocation\nDate: 2026-04-14\n\nElizabeth Harcourt: Raj, the bad news.\n"
        "Rajesh Iyer: Voltaic put us on allocation.\nJean-Baptiste Lefèvre: Plan B then.\n"
    )
    for body, name in [(zoom, "zoom.txt"), (teams, "teams.txt")][:: -1 if reverse else 1]:
        capture(service, body, name)
    assert names(store) == ["Elizabeth Harcourt", "Jean-Baptiste Lefèvre", "Rajesh Iyer"]
    entities = EntityService(store, "t")
    for short, full in [
        ("Libby", "Elizabeth Harcourt"),
        ("Raj", "Rajesh Iyer"),
        ("JB", "Jean-Baptiste Lefèvre"),
    ]:
        found = entities.resolve(short)
        assert isinstance(found, Resolved) and found.entity.name == full


def test_titles_and_letters_after_a_name_make_no_second_person(
    service: CaptureService, store: Store
) -> None:
    capture(
        service,
        "Committee\nDate: 2026-02-01\nAttendees: Dr. Priya Nair, Angela Burns AM\n\n"
        "Priya Nair: Evidence first. Ms Burns will send the clerk's note by Friday.\n"
        "Angela Burns: Agreed.\n",
        "committee.txt",
    )
    assert names(store) == ["Angela Burns", "Priya Nair"]  # as they were heard
    assert linked(store) == [("Ms Burns", "Angela Burns", 0)]


def test_initials_fit_the_name_the_meeting_wrote(service: CaptureService, store: Store) -> None:
    """ "@FO" in notes whose header lists Femi Ogunleye is him, though memo first met him
    as Oluwafemi Ogunleye (whose own initials are OO)."""
    capture(
        service,
        "Rota\nDate: 2027-01-21\nAttendees: Oluwafemi Ogunleye, Graham Whitlock\n\n"
        "Graham Whitlock: Morning.\nOluwafemi Ogunleye: Morning.\n",
        "rota.txt",
    )
    capture(
        service,
        "# Rota review\nDate: 2027-02-23\nAttendees: Femi Ogunleye, Graham Whitlock\n\n"
        "## Actions\n- [ ] @FO draft the 3-shift rota, Fri 5/3\n",
        "review.md",
    )
    assert linked(store) == [("FO", "Oluwafemi Ogunleye", 0)]


@pytest.mark.parametrize(
    ("entry", "given"),
    [
        ("Maggie Thornton (MT) — chair", ("MT", "Maggie Thornton")),
        ("NA (Ngozi Adebayo) — chair", ("NA", "Ngozi Adebayo")),
        ("Tadhg O'Rourke (TOR, notes)", ("TOR", "Tadhg O'Rourke")),
        ("Dewi Rhys-Morgan (DRM) — site", ("DRM", "Dewi Rhys-Morgan")),
        ("AoNB (Aoife Ní Bhriain)", ("AoNB", "Aoife Ní Bhriain")),
        ('CF (Callum "Cal" Ferreday)', ("CF", "Callum Ferreday")),
        ("Lena Vogt (LenaV)", ("LenaV", "Lena Vogt")),
        ("Libby Harcourt (Kestrel, Eng)", None),  # a bracket that abbreviates nothing
        ("Sam Okafor (she/her)", None),
        ("Tom (TB)", None),  # no name to stand for
    ],
)
def test_a_roster_entry_gives_a_short_form(entry: str, given: tuple[str, str] | None) -> None:
    assert short_form(entry) == given


def test_notes_name_people_by_the_short_forms_their_roster_gives(
    service: CaptureService, store: Store
) -> None:
    capture(
        service,
        "# Community call\nDate: 2027-03-31\n\n## Attendees\n- NA (Ngozi Adebayo) — chair\n"
        "- Lena Vogt (LenaV)\n- Lena Marković (LenaM)\n- Tadhg O'Rourke (TOR, notes)\n"
        "- Apols: TL — by email\n\n## Actions\n- [ ] @TOR open the charter vote — EOD Wed\n"
        "- [ ] @LenaV tag 2.4.1 — Fri 2/4\n- [ ] @NA sign the PO — Fri 2/4\n",
        "community-call.md",
    )
    assert names(store) == ["Lena Marković", "Lena Vogt", "Ngozi Adebayo", "Tadhg O'Rourke"]
    assert linked(store) == [
        ("TOR", "Tadhg O'Rourke", 0),
        ("LenaV", "Lena Vogt", 0),
        ("NA", "Ngozi Adebayo", 0),
    ]


def test_initials_a_roster_lists_are_people_memo_knows_or_nobody(
    service: CaptureService, store: Store
) -> None:
    capture(
        service,
        "Kickoff\nDate: 2027-01-11\nAttendees: Maggie Thornton, Dan Adeyemi\n\n"
        "Maggie Thornton: Morning.\nDan Adeyemi: Morning.\n",
        "kickoff.txt",
    )
    capture(
        service,
        "# Parks team weekly\nDate: 2027-01-18\n\n## Attendees\n- MT (chair), DA, TB, AoNB\n\n"
        "## Actions\n- [ ] @DA order 4 bins for Ashgrove – by Fri 22/1\n",
        "weekly.md",
    )
    assert names(store) == ["Dan Adeyemi", "Maggie Thornton"]  # no one called "TB"
    assert linked(store) == [("DA", "Dan Adeyemi", 0)]


def test_a_recorders_header_lines_are_nobody(service: CaptureService, store: Store) -> None:
    capture(
        service,
        "Recording: New Recording 14 (car park B)\nParticipants: Graham Whitlock, Ingrid Solberg\n"
        "Duration: 00:07:01\nSource: Voice Memos\n\n"
        "[00:00:00] Graham: ok is it recording\n[00:00:04] Ingrid: yes so this is the slab\n",
        "2027-01-21_walk_autotranscript.txt",
    )
    assert names(store) == ["Graham Whitlock", "Ingrid Solberg"]


def test_resolve_in_a_meeting_from_the_cli(memo: Any, tmp_path: Any) -> None:  # noqa: ANN401
    meeting = tmp_path / "2026-03-05_walk.txt"
    meeting.write_text(
        "Floor walk\nParticipants: Sam Okafor, John Parks\n\n"
        "[00:00:03] Sam: we're at aisle one.\n[00:00:11] John: shout, the chiller is loud.\n"
        "[00:00:14] Sam: aisle one, yes.\n[00:00:18] John: fine.\n"
    )
    other = tmp_path / "2026-03-06_firmware.txt"
    other.write_text("Firmware\nAttendees: Sam Lindqvist, Priya Nair\n\nSam Lindqvist: Hi.\n")
    captured = memo("capture", str(meeting), str(other), "--json").json()["results"]
    walk = captured[0]["capture_id"]
    found = memo("resolve", "Sam", "--capture", str(walk), "--json").json()
    assert (found["status"], found["person"]) == ("resolved", "Sam Okafor")
    assert memo("resolve", "Sam", "--json").json()["status"] == "ambiguous"
    missing = memo("resolve", "Sam", "--capture", "999")
    assert missing.code != 0 and "no capture 999" in missing.stderr


@pytest.mark.slow
@pytest.mark.skipif(not DEV.is_dir(), reason=f"the dev set is not at {DEV}")
def test_bench_people_meets_its_targets_on_the_dev_set(memo: Any) -> None:  # noqa: ANN401
    figures = memo("bench", "people", "--data", str(DEV), "--json", timeout=300).json()
    assert sum(c["right"] for c in figures["cases"]) == len(figures["cases"]) == 15
    assert figures["wrong_attendees"] == [] and figures["duplicates"] == []
    assert figures["owners_right"] >= 0.95 * figures["owners_matched"] > 0


def test_once_settled_every_surface_names_the_person(memo: Any, tmp_path: Any) -> None:  # noqa: ANN401
    meeting = tmp_path / "2026-03-31_planning.txt"
    meeting.write_text(
        "Planning\nAttendees: Libby Harcourt, Sam Okafor, Sam Lindqvist\n\n"
        "Libby: We decided to cap the speed at 1.2 metres per second.\n"
        "Libby: Sam, can you update the commissioning plan by Friday?\n"
        "Libby: That's all.\n"
    )
    captured = memo("capture", str(meeting), "--json").json()["results"][0]
    [decision], [action] = captured["decisions"], captured["action_items"]
    assert (decision["decided_by"], decision["decided_by_said"]) == ("Libby Harcourt", "Libby")
    assert (action["owner"], action["pending"]) == ("Sam", True)  # both Sams were there
    assert memo("confirm", "Sam", "Sam Okafor", "--capture", str(captured["capture_id"])).code == 0
    facts = memo("facts", "--json").json()["facts"]
    item = next(f for f in facts if f["fact_type"] == "action_item")
    assert "(owner: Sam Okafor)" in item["text"]
    assert (item["owner"], item["pending"], item["status"]) == ("Sam Okafor", False, "open")
    assert item["owner_person_id"] is not None and item["due_date"] is not None
    made = next(f for f in facts if f["fact_type"] == "decision")
    assert made["decided_by"] == "Libby Harcourt" and made["decided_by_person_id"] is not None
    answer = memo("ask", "who owns the commissioning plan?", "--json").json()
    assert any(c.get("owner") == "Sam Okafor" for c in answer["citations"])
    assert "Sam Okafor" in memo("ask", "Okafor commissioning plan").stdout  # indexed anew


def people_view(store: Store) -> dict[str, object]:
    """What merging and splitting change, by name (a split person comes back with a new id)."""
    with store.reader.connect() as conn:
        q = lambda sql: sorted(tuple(r) for r in conn.execute(text(sql)))  # noqa: E731
        return {
            "people": q("SELECT name, email FROM people"),
            "owners": q(
                "SELECT a.id, p.name FROM action_items a LEFT JOIN people p ON p.id = a.person_id"
            ),
            "deciders": q(
                "SELECT d.id, p.name FROM decisions d LEFT JOIN people p ON p.id = d.person_id"
            ),
            "meetings": q(
                "SELECT c.capture_id, p.name FROM capture_people c JOIN people p "
                "ON p.id = c.person_id"
            ),
            "aliases": q(
                "SELECT a.alias, p.name FROM entity_aliases a JOIN people p ON p.id = a.entity_id"
            ),
            "facts": q("SELECT text FROM facts WHERE fact_type IN ('decision', 'action_item')"),
        }


TWO_NAMES = (
    "Battery\nDate: 2026-01-27\n\nRaj Iyer: I'll send the quotes by Friday.\n"
    "Ana Lima: We decided to buy from Voltaic.\n",
    "Allocation\nDate: 2026-04-14\n\nRajesh Kumar: We decided to order from Ardent.\n"
    "Ana Lima: Fine.\n",
)


def test_merge_moves_everything_in_one_go_and_split_puts_it_back(
    service: CaptureService, store: Store
) -> None:
    for number, body in enumerate(TWO_NAMES):
        capture(service, body, f"{number}.txt")
    accept_all(store)  # (the facts read as facts, with no "(unconfirmed)")
    entities = EntityService(store, "ana")
    before = people_view(store)
    done = entities.merge("Raj Iyer", "Rajesh Kumar")
    merged = people_view(store)
    assert ("Raj Iyer", None) not in merged["people"]  # type: ignore[operator]
    assert ("Raj Iyer", "Rajesh Kumar") in merged["aliases"]  # type: ignore[operator]
    assert ("Send the quotes by Friday. (owner: Rajesh Kumar) (due 2026-01-30)",) in merged["facts"]  # type: ignore[operator]
    assert store.reports.people()[0].name  # the rollups were rebuilt with it
    assert (done.action_items, done.meetings) == (1, 1)
    assert entities.person("Raj Iyer").name == "Rajesh Kumar"  # the old name finds them
    with pytest.raises(UnknownPerson, match="no merge"):  # the merge asked about, or none
        entities.split("Rajesh Kumar", merge_id=done.id + 1)
    entities.split("Raj Iyer", merge_id=done.id)  # by the name merged, or the kept person's
    assert people_view(store) == before


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("merge", "Nobody Here", "Ana Lima"), "no person called 'Nobody Here'"),
        (("merge", "Ana Lima", "Ana Lima"), "one person already"),
        (("split", "Ana Lima"), "no merge to undo"),
    ],
)
def test_people_changes_that_cannot_be_made_change_nothing(
    memo: Any,
    tmp_path: Any,
    args: tuple[str, ...],
    error: str,  # noqa: ANN401
) -> None:
    from support.db import dump

    meeting = tmp_path / "m.txt"
    meeting.write_text(TWO_NAMES[0])
    assert memo("capture", str(meeting)).code == 0
    with Store(memo.home / "memo.db") as store:
        before = dump(store)
    run = memo("people", *args)
    assert run.code == 1 and error in run.stderr
    with Store(memo.home / "memo.db") as store:
        assert dump(store) == before


def test_the_people_pane_merges_and_unmerges_after_asking(
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN401
) -> None:
    from support.services import offline
    from support.tui import drive, settle, until

    from memo_tui.ui import dialogs
    from memo_tui.ui.app import MemoApp

    services = offline(tmp_path, monkeypatch)
    for number, body in enumerate(TWO_NAMES):
        capture(services.capture, body, f"{number}.txt")
    ids = {p.name: p.id for p in services.store.people.all()}
    app = MemoApp(services)

    async def script(pilot: Any) -> None:  # noqa: ANN401
        await pilot.press("3")
        await settle(pilot)
        table = app.query_one("#people-table")
        table.move_cursor(row=table.get_row_index(str(ids["Raj Iyer"])))
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, dialogs.PickPerson), "who is it")
        picker = app.screen.query_one("OptionList")
        assert picker.get_option_at_index(0).id == str(ids["Rajesh Kumar"])  # likeliest first
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "confirm")
        await pilot.click("#yes")
        await until(
            pilot, lambda: "Raj Iyer" not in {p.name for p in services.store.people.all()}, "merged"
        )
        await settle(pilot)
        table.move_cursor(row=table.get_row_index(str(ids["Rajesh Kumar"])))
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "confirm split")
        await pilot.click("#yes")
        await until(
            pilot, lambda: "Raj Iyer" in {p.name for p in services.store.people.all()}, "split"
        )

    drive(app, script)


def test_relink_applies_todays_rules_to_old_captures_and_says_what_changed(
    memo: Any,
    tmp_path: Any,  # noqa: ANN401
) -> None:
    walk = tmp_path / "2026-03-05_walk.txt"
    walk.write_text(
        "Floor walk\nParticipants: Sam Okafor, John Parks\n\n"
        "Sam: I'll send the floor plan by Friday.\nJohn: Fine.\n"
    )
    both = tmp_path / "2026-03-31_planning.txt"
    both.write_text(
        "Planning\nAttendees: Sam Okafor, Sam Lindqvist, Libby Harcourt\n\n"
        "Libby Harcourt: Sam, can you check the soak rig by Friday?\n"
        "Libby Harcourt: That's all.\n"
    )
    captured = memo("capture", str(walk), str(both), "--json").json()["results"]
    planning = captured[1]["capture_id"]
    assert memo("confirm", "Sam", "Sam Lindqvist", "--capture", str(planning)).code == 0
    with Store(memo.home / "memo.db") as store:
        ids = {p.name: p.id for p in store.people.all()}
        with store.writer.begin() as conn:  # as an older memo linked the walk's "Sam"
            conn.execute(
                text("UPDATE action_items SET person_id = :p WHERE capture_id = :c"),
                {"p": ids["Sam Lindqvist"], "c": captured[0]["capture_id"]},
            )
    run = memo("relink")
    assert run.code == 0
    assert "relinked 1 meetings; 1 owners and deciders changed" in run.stdout
    assert "Floor walk: Sam: Sam Lindqvist -> Sam Okafor" in run.stdout
    owners = [f["owner"] for f in memo("facts", "--type", "action_item", "--json").json()["facts"]]
    assert sorted(owners) == ["Sam Lindqvist", "Sam Okafor"]  # the user's word stays
    assert memo("relink", "--json").json()["changes"] == []


def test_a_task_handed_on_ends_with_its_last_owner(service: CaptureService, store: Store) -> None:
    capture(
        service,
        "Planning\nDate: 2026-03-31\nAttendees: Libby Harcourt, Marta Kowalczyk, Priya Nair\n\n"
        "Libby Harcourt: Marta, can you run the seventy-two hour soak on RC1?\n"
        "Marta Kowalczyk: I'm off the week of the 6th, I told you.\n"
        "Libby Harcourt: OK, Priya, can you take the soak instead?\n"
        "Priya Nair: Yeah, I can do that, results by Friday the 10th.\n",
        "planning.txt",
    )
    assert linked(store) == [("Priya Nair", "Priya Nair", 0)]
