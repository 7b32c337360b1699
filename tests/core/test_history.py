"""Decision threads across meetings: a later meeting's change is applied (and can be undone)
or proposed (and waits for the user); answers then lead with what holds."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest
from support.db import old_schema
from support.embedding import embedder
from support.services import accept_all
from support.tui import drive, until

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.subject import changed, values
from memo_tui.core.embed import EmbedService, FastEmbedder
from memo_tui.core.history import threads
from memo_tui.core.history.service import ChangesService
from memo_tui.core.history.threads import link
from memo_tui.core.recall.answer import ask
from memo_tui.core.recall.current import decisions_first, lead_with_current
from memo_tui.core.recall.search import Hit
from store import SCHEMA_VERSION, ChangeStateError, HistoryDecision, NotFoundError, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

KICKOFF = """Launch kickoff
Date: 2026-02-02
Attendees: Nadia Roy, Omar Haddad

Nadia Roy: Launch date. Marketing wants it before the trade show.
Omar Haddad: The build is ready by the end of February.
Nadia Roy: OK. Let's go with Monday: we launch on the 2nd of March.
Omar Haddad: Courier next. Brightline and Parcelwise both quoted.
Nadia Roy: Brightline is cheaper and ships sooner. OK, Brightline it is.
Omar Haddad: And the warehouse opens at eight every day.
"""

REVIEW = """Launch review
Date: 2026-02-16
Attendees: Nadia Roy, Omar Haddad

Omar Haddad: The payment provider needs two more weeks to certify us.
Nadia Roy: Then we move it. We launch on the 16th of March.
Omar Haddad: And Brightline lost two parcels last week.
Nadia Roy: Then we go with Parcelwise instead of Brightline. Agreed.
"""


def capture(store: Store, folder: Path, name: str, text: str) -> object:
    (folder / name).write_text(text)
    return CaptureService(store, CaptureOptions(user="t")).capture_file(folder / name)


@pytest.fixture
def threaded(tmp_path: Path) -> Store:
    with Store(tmp_path / "memo.db") as store:
        capture(store, tmp_path, "2026-02-02-kickoff.txt", KICKOFF)
        yield store


@pytest.fixture
def applying(monkeypatch: pytest.MonkeyPatch) -> None:
    """memo applies a strong link by itself (off by default: threads.APPLY_STRONG)."""
    monkeypatch.setattr(threads, "APPLY_STRONG", True)


def decisions(store: Store) -> dict[str, tuple[str, int | None]]:
    ids = store.captures.ids_by_date()
    return {d.description: (d.status, d.superseded_by) for d in store.captures.decisions(ids)}


def test_by_default_every_change_waits_for_the_users_word(threaded: Store, tmp_path: Path) -> None:
    """On sets the rules were not written from even the strongest kind of link applied a
    wrong one, so memo proposes both changes, strongest first, and every call still holds."""
    result = capture(threaded, tmp_path, "2026-02-16-review.txt", REVIEW)
    changes = result.changes  # type: ignore[attr-defined]
    assert {c.status for c in changes} == {"proposed"} and len(changes) == 2
    assert all(status == "current" for status, _ in decisions(threaded).values())
    first = ChangesService(threaded, "t").review()[0]
    assert "both set launch" in first.reason
    kept = ChangesService(threaded, "t").decide(first.id, "accept")
    assert kept.status == "applied" and kept.decided_by == "t"
    launch = next(k for k in decisions(threaded) if k.startswith("Let's go with Monday"))
    assert decisions(threaded)[launch][0] == "superseded"


def test_a_later_meeting_that_moves_a_decision_replaces_it_and_says_so(
    threaded: Store, tmp_path: Path, applying: None
) -> None:
    """A value set again in the same slot with a change cue is applied; a name said just
    before the change ("Parcelwise instead of Brightline") is proposed: on sets the rules were
    not written from, that kind of link applied wrong ones (threads.VALIDATED)."""
    result = capture(threaded, tmp_path, "2026-02-16-review.txt", REVIEW)
    changes = result.changes  # type: ignore[attr-defined]
    applied = [c for c in changes if c.status == "applied"]
    assert {(c.old_text[:30], c.strength) for c in applied} == {
        ("Let's go with Monday: we launc", "strong"),
    }
    proposed = [c for c in changes if c.status == "proposed"]
    assert {(c.old_text, c.strength) for c in proposed} == {("Brightline it is.", "weak")}
    held = decisions(threaded)
    launch = next(k for k in held if k.startswith("Let's go with Monday"))
    assert held[launch][0] == "superseded" and held[launch][1] is not None
    assert held["Brightline it is."][0] == "current"  # until the user accepts the change
    [moved] = applied
    assert "both set launch" in moved.reason and moved.old_day == "2026-02-02"
    assert moved.new_day == "2026-02-16"
    # the warehouse's hours are about nothing the review changed
    assert not any("warehouse" in c.old_text for c in threaded.changes.all())


def test_undo_puts_the_old_decision_back_and_deleting_the_evidence_does_too(
    threaded: Store, tmp_path: Path, applying: None
) -> None:
    capture(threaded, tmp_path, "2026-02-16-review.txt", REVIEW)
    service = ChangesService(threaded, "t")
    launch = next(c for c in threaded.changes.all() if c.old_text.startswith("Let's go with"))
    undone = service.decide(launch.id, "undo")
    assert undone.status == "undone" and undone.decided_by == "t"
    assert decisions(threaded)[launch.old_text] == ("current", None)
    with pytest.raises(ChangeStateError):
        service.decide(launch.id, "undo")  # only an applied change can be undone
    with pytest.raises(NotFoundError):
        service.decide(999, "accept")
    review = threaded.captures.ids_by_date()[-1]
    assert threaded.captures.delete(review)
    assert all(status == "current" for status, _ in decisions(threaded).values())
    assert threaded.changes.all() == []


# Other calls, so that what the weak pair shares is rare in the store.
_OTHERS = "\n".join(
    f"Omar Haddad: What about the {thing}?\nNadia Roy: OK, {choice} it is."
    for thing, choice in [
        ("canteen coffee supplier", "Beanworks"),
        ("office cleaning contract", "Sparkle"),
        ("laptop refresh vendor", "Lenovo"),
        ("parking permits scheme", "Permitly"),
        ("staff newsletter tool", "Mailbird"),
        ("visitor badge printer", "Zebra"),
        ("plant watering service", "Greenleaf"),
        ("water cooler supplier", "Aquafine"),
    ]
)
WEAK_FIRST = f"""Storage
Date: 2026-02-02
Attendees: Nadia Roy, Omar Haddad

Omar Haddad: How many pallet racks for the mezzanine storage area?
Nadia Roy: OK, twelve pallet racks it is.
{_OTHERS}
"""
WEAK_LATER = """Storage again
Date: 2026-03-02
Attendees: Nadia Roy, Omar Haddad

Omar Haddad: The mezzanine storage area floor survey came back on the pallet racks.
Nadia Roy: OK, eight pallet racks it is.
"""


def test_a_weak_candidate_waits_for_the_user(tmp_path: Path) -> None:
    """Same subject and another value, but nothing says it is a change: proposed, not
    applied; accepting applies it, and a scan finds nothing new."""
    with Store(tmp_path / "memo.db") as store:
        capture(store, tmp_path, "2026-02-02-a.txt", WEAK_FIRST)
        capture(store, tmp_path, "2026-03-02-b.txt", WEAK_LATER)
        service = ChangesService(store, "t")
        [waiting] = service.review()
        assert (waiting.strength, waiting.status) == ("weak", "proposed")
        assert "12 → 8" in waiting.reason
        assert all(status == "current" for status, _ in decisions(store).values())
        service.decide(waiting.id, "accept")
        twelve = next(k for k in decisions(store) if "twelve" in k.lower())
        assert decisions(store)[twelve][0] == "superseded"
        assert service.scan().found == []


def test_memo_changes_reject_keeps_the_old_call_and_refuses_a_second_decision(
    memo, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    db = ("--db", str(tmp_path / "memo.db"))
    for name, text in (("2026-02-02-a.txt", WEAK_FIRST), ("2026-03-02-b.txt", WEAK_LATER)):
        (tmp_path / name).write_text(text)
        assert memo(*db, "capture", str(tmp_path / name)).code == 0
    [waiting] = memo(*db, "changes", "--json").json()["changes"]
    rejected = memo(*db, "changes", "reject", str(waiting["id"]), "--json").json()
    assert rejected["status"] == "rejected"
    assert memo(*db, "changes", "--json").json()["changes"] == []  # nothing left to review
    held = memo(*db, "facts", "--type", "decision", "--current", "--json").json()["facts"]
    assert any(f["text"].startswith("Twelve pallet racks it is.") for f in held)
    before = memo(*db, "changes", "--all", "--json").stdout
    again = memo(*db, "changes", "accept", str(waiting["id"]))
    assert again.code == 2 and "is rejected" in again.stderr
    assert memo(*db, "changes", "--all", "--json").stdout == before


OPENING = """Exhibition kickoff
Date: 2026-02-10
Attendees: Nadia Roy, Omar Haddad

Omar Haddad: Schools go back the first week of September.
Nadia Roy: Then let's say we open on Friday the eighteenth of September. That's the date.
Omar Haddad: And the booking site?
Nadia Roy: Agreed: the booking site go-live is Monday the 4th of May.
Nadia Roy: Let's hold the install for the week of the 24th of August, weeks before we open.
"""

BUDGET = """Budget and schedule
Date: 2026-05-14
Attendees: Nadia Roy, Omar Haddad

Omar Haddad: The lender can't release the skull until the end of August.
Nadia Roy: Then we move it. We open on Friday the second of October.
Omar Haddad: And the new ticket desk?
Nadia Roy: Agreed: the ticket desk go-live moves to Monday the 11th of January 2027.
"""


def _call(id: int, day: str, quote: str) -> HistoryDecision:
    from memo_tui.core.capture.subject import subject_words

    words = " ".join(sorted(subject_words([quote])))
    return HistoryDecision(id, id, day, day, quote, quote, words, "current")


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # a unit is no slot: what the pounds are for differs
        ("Parking moves to eight pounds a car.", "Tickets are twelve pounds each."),
        ("The deposit moves to fifty percent.", "Staff discount is thirty percent."),
    ],
)
def test_a_change_in_the_same_unit_of_another_thing_replaces_nothing(new: str, old: str) -> None:
    assert link(_call(2, "2026-05-01", new), _call(1, "2026-03-01", old), lambda w: 1.0) is None


def test_a_slot_most_calls_are_about_links_nothing_by_itself() -> None:
    """Both set "site", in a store where most calls are about the site: no strong link (on
    a labelled set it hid a decision that still held); a rare slot word still links."""
    new = _call(2, "2026-05-01", "Site hours move to 8 to 5 from Monday.")
    old = _call(1, "2026-03-01", "Site hours are 7 to 7.")
    found = link(new, old, lambda w: 1.0, common=lambda w: w in ("site", "hour"))
    assert found is None or found.strength == "weak"
    rare = link(new, old, lambda w: 1.0)
    assert rare is not None and rare.strength == "strong" and "both set" in rare.reason


@pytest.mark.parametrize(
    ("said", "figures"),
    [
        ("anything over a hundred and twenty guests", {"120"}),
        ("two hundred and fifty copies", {"250"}),
        ("three thousand five hundred pounds", {"3500"}),
        ("ninety-six thousand", {"96000"}),
        ("twelve hundred tickets", {"1200"}),
        ("the twenty-third of March", {"@23", "@march"}),
        ("fine, twenty fourth of july.", {"@24", "@july"}),  # as speech to text writes it
        ("twenty five pounds a head", {"25"}),
        ("three point oh feature freeze", {"3.0"}),  # a version, as spoken: as "3.0" is
        ("we ship two point four", {"2.4"}),
        ("one thirty-nine for March and April", {"139", "@march", "@april"}),  # a price
        ("two forty-nine a night", {"249"}),
        ("the one twenty-third run", {"1"}),  # a count, then a rank: no price
        ("Thursdays then", {"@thursday"}),
    ],
)
def test_a_number_said_in_several_words_is_one_value(said: str, figures: set[str]) -> None:
    """ "a hundred and twenty" is 120, never 100 and 20 (two values that matched a "20"
    named earlier and linked two unrelated calls)."""
    from memo_tui.core.capture.subject import values

    assert values(said) == figures


def test_a_change_said_with_the_same_word_replaces_the_call_it_changes(
    tmp_path: Path, applying: None
) -> None:
    """ "we move it. We open on the 2nd" replaces "we open on the 18th" (both set when we
    open), not the install week said in the same breath as the opening; and a date that had
    passed (the booking site's go-live on 4 May) is never moved by a later go-live."""
    with Store(tmp_path / "memo.db") as store:
        capture(store, tmp_path, "2026-02-10-kickoff.txt", OPENING)
        result = capture(store, tmp_path, "2026-05-14-budget.txt", BUDGET)
        applied = {(c.old_text[:34], c.new_text[:24]) for c in result.changes}  # type: ignore[attr-defined]
        assert applied == {("Let's say we open on Friday the ei", "We move it. We open on F")}
        [change] = result.changes  # type: ignore[attr-defined]
        assert change.strength == "strong" and "both set open" in change.reason


@pytest.mark.parametrize(
    ("new", "old", "how"),
    [
        ("Chilled go-live moves to Monday the 11th of January.", "Eight robots, forty.", None),
        ("Code freeze is the 27th of March.", "Code freeze is the 20th of March.", "20 → 27"),
        ("The cap is 0.8 metres per second.", "The cap is 1.2 metres per second.", "1.2 → 0.8"),
        ("We open on Friday the second of October.", "We open on the 18th of September.",
         "18, september → 2, friday, october"),
        ("We need a second opinion in March.", "We decide in March.", None),
        ("First canning run moves to Monday the 29th of June.",
         "Okay, first canning run Monday the first of June.", "1 → 29"),
        ("Let's do a hundred and fifty proofs.", "Booksellers first, festivals after.", None),
        ("Alerts go to PagerDuty.", "Alerts go to Slack.", "slack → pagerduty"),
        ("Forty robots for the pilot.", "Bring it back to 40.", None),
        # a call that opens with what it picks names it: "Fenwick it is"
        ("We're switching to Ostara.", "Fenwick it is, then.", "fenwick → ostara"),
        ("We're switching to Ostara.", "That it is, then.", None),
    ],
)  # fmt: skip
def test_a_value_changes_only_into_one_of_its_kind(new: str, old: str, how: str | None) -> None:
    assert changed(values(new), values(old)) == how


def test_migration_15_keeps_decisions_and_adds_changes(tmp_path: Path) -> None:
    from support.db import new_capture

    from store import NewDecision, captures

    path = tmp_path / "old.db"
    with old_schema(path, 14) as conn:
        new = new_capture(decisions=[NewDecision("Use Postgres", None, None, 1, 2, "a")])
        captures.insert_capture(conn, new, None)
    with Store(path) as store:
        assert store.stats().schema_version == SCHEMA_VERSION
        [kept] = store.captures.decisions(store.captures.ids_by_date())
        assert (kept.description, kept.status, kept.subject) == ("Use Postgres", "current", "")
        assert store.changes.all() == []


def test_memo_changes_lists_decides_and_refuses_bad_ids(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "2026-02-02-kickoff.txt").write_text(KICKOFF)
    (tmp_path / "2026-02-16-review.txt").write_text(REVIEW)
    db = ("--db", str(tmp_path / "memo.db"))
    assert memo(*db, "capture", str(tmp_path / "2026-02-02-kickoff.txt")).code == 0
    run = memo(*db, "capture", str(tmp_path / "2026-02-16-review.txt"))
    assert run.code == 0, run.stderr
    launch_text = "Let's go with Monday: we launch on the 2nd of March."
    assert f"may replace {launch_text} (2026-02-02)? memo changes accept|reject" in run.stdout
    listed = memo(*db, "changes", "--json").json()["changes"]
    assert [c["status"] for c in listed] == ["proposed", "proposed"]
    launch = next(c for c in listed if c["old"]["text"] == launch_text)
    assert "both set launch" in launch["reason"]
    kept = memo(*db, "changes", "accept", str(launch["id"]), "--json").json()
    assert kept["status"] == "applied" and kept["decided_by"] not in (None, "memo")
    decided = memo(*db, "facts", "--type", "decision", "--json").json()["facts"]
    old = next(f for f in decided if f["text"].startswith(launch_text))
    new = next(f for f in decided if f["fact_id"] == old["superseded_by"])
    assert (old["valid_from"], old["valid_to"]) == ("2026-02-02", "2026-02-16")
    assert (new["valid_from"], new["valid_to"]) == ("2026-02-16", None)
    before = memo(*db, "changes", "--all", "--json").stdout
    refused = memo(*db, "changes", "accept", "999")
    assert refused.code == 2 and "no change 999" in refused.stderr
    again = memo(*db, "changes", "accept", str(launch["id"]))
    assert again.code == 2 and "is applied" in again.stderr
    assert memo(*db, "changes", "--all", "--json").stdout == before
    undone = memo(*db, "changes", "undo", str(launch["id"]), "--json").json()
    assert undone["status"] == "undone"
    facts = memo(*db, "facts", "--type", "decision", "--json").json()["facts"]
    assert any(f["text"].startswith(launch_text) and f["status"] == "current" for f in facts)
    held = memo(*db, "facts", "--type", "decision", "--current", "--json").json()["facts"]
    assert len(held) == len(facts) and all(f["status"] == "current" for f in held)
    plain = memo(*db, "changes", "--all")
    assert f"[{launch['id']}] undone" in plain.stdout and "may replace?" in plain.stdout
    scanned = memo(*db, "changes", "scan", "--json").json()
    assert scanned["captures"] == 2 and scanned["found"] == []


TASKS = """Ops weekly
Date: 2026-02-02
Attendees: Nadia Roy, Omar Haddad, Lena Park

Nadia Roy: Omar, can you send the courier contract to legal by Friday?
Omar Haddad: Will do.
Nadia Roy: Lena, can you book the forklift inspection for next week?
Lena Park: Sure.
Nadia Roy: Omar, can you order the spare scanner batteries by Thursday?
Omar Haddad: Yes.
Nadia Roy: Lena, can you update the fire drill rota by Friday?
Lena Park: Fine.
"""
DONE = """Ops weekly
Date: 2026-02-09
Attendees: Nadia Roy, Omar Haddad, Lena Park

Omar Haddad: Quick update. I sent the courier contract to legal on Tuesday.
Lena Park: The forklift inspection isn't booked yet, the firm hasn't called back.
"""
DONE_BY_OWNER = DONE + "Lena Park: The fire drill rota was finished on Friday, it's on the board.\n"


def test_a_later_meeting_that_reports_a_task_done_proposes_closing_it(
    memo,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    (tmp_path / "2026-02-02-ops.txt").write_text(TASKS)
    (tmp_path / "2026-02-09-ops.txt").write_text(DONE_BY_OWNER)
    db = ("--db", str(tmp_path / "memo.db"))
    assert memo(*db, "capture", str(tmp_path / "2026-02-02-ops.txt")).code == 0
    run = memo(*db, "capture", str(tmp_path / "2026-02-09-ops.txt"))
    assert run.code == 0 and "done?     Send the courier contract" in run.stdout, run.stdout
    closes = memo(*db, "changes", "--json").json()["changes"]
    assert {c["new"]["evidence"] for c in closes} == {
        "I sent the courier contract to legal on Tuesday.",
        "The fire drill rota was finished on Friday, it's on the board.",  # said by its owner
    }
    close = next(c for c in closes if "courier" in c["new"]["evidence"])
    assert close["kind"] == "closes" and close["status"] == "proposed"
    owed = memo(*db, "items", "--open", "--owner", "Omar", "--json").json()["items"]
    assert {i["description"][:25] for i in owed} == {
        "Send the courier contract",
        "Order the spare scanner b",
    }
    assert next(i for i in owed if i["close_proposed"])["close_proposed"] == close["id"]
    assert memo(*db, "changes", "accept", str(close["id"])).code == 0
    still = memo(*db, "items", "--open", "--owner", "Omar", "--json").json()["items"]
    assert [i["description"][:25] for i in still] == ["Order the spare scanner b"]
    assert memo(*db, "changes", "undo", str(close["id"])).code == 0
    assert len(memo(*db, "items", "--open", "--owner", "Omar", "--json").json()["items"]) == 2
    nobody = memo(*db, "items", "--owner", "Zed Nobody")
    assert nobody.code == 2 and "no one memo knows" in nobody.stderr
    plain = memo(*db, "items", "--open")
    assert "forklift inspection" in plain.stdout  # "isn't booked yet" closes nothing


def test_its_owner_saying_it_went_out_proposes_closing_it(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    said = "Omar Haddad: Yes, the spare scanner batteries went to the depot.\n"
    later = "Ops weekly\nDate: 2026-02-09\n\n" + said
    (tmp_path / "2026-02-02-ops.txt").write_text(TASKS)
    (tmp_path / "2026-02-09-ops.txt").write_text(later)
    db = ("--db", str(tmp_path / "memo.db"))
    for name in ("2026-02-02-ops.txt", "2026-02-09-ops.txt"):
        assert memo(*db, "capture", str(tmp_path / name)).code == 0
    closes = memo(*db, "changes", "--json").json()["changes"]
    assert [c["new"]["evidence"] for c in closes] == [
        "Yes, the spare scanner batteries went to the depot."
    ]


def test_a_small_store_with_one_open_item_still_proposes_closing_it(tmp_path: Path) -> None:
    """Rarity is read across what the store says, not across its open items alone: with one
    open item, no word of it was rare enough and nothing was ever proposed."""
    kickoff = """Migration kickoff
Date: 2026-02-02
Attendees: Nadia Roy, Omar Haddad

Nadia Roy: We're moving the billing tables to Postgres, that's decided.
Nadia Roy: Omar, can you write the migration script for the billing tables by Friday?
Omar Haddad: Will do.
"""
    update = """Migration check-in
Date: 2026-02-09
Attendees: Nadia Roy, Omar Haddad

Omar Haddad: I finished the migration script for the billing tables on Tuesday.
"""
    with Store(tmp_path / "memo.db") as store:
        capture(store, tmp_path, "2026-02-02-kickoff.txt", kickoff)
        capture(store, tmp_path, "2026-02-09-update.txt", update)
        [proposed] = ChangesService(store, "t").review()
        assert (proposed.kind, proposed.status) == ("closes", "proposed")
        assert proposed.evidence.startswith("I finished the migration script")


def test_a_person_is_owed_what_they_asked_others_for(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "2026-02-02-ops.txt").write_text(TASKS)
    (tmp_path / "2026-02-09-ops.txt").write_text(DONE)
    db = ("--db", str(tmp_path / "memo.db"))
    for name in ("2026-02-02-ops.txt", "2026-02-09-ops.txt"):
        assert memo(*db, "capture", str(tmp_path / name)).code == 0
    people = {p["name"]: p for p in memo(*db, "people", "--json").json()["people"]}
    assert people["Nadia Roy"]["owed_action_items"] == 4  # she asked for all four
    assert people["Omar Haddad"]["owed_action_items"] == 0  # "Will do." asks nothing
    assert people["Omar Haddad"]["open_action_items"] == 2
    owed = memo(*db, "items", "--open", "--owed-to", "Nadia", "--json").json()["items"]
    assert {i["asked_by"] for i in owed} == {"Nadia Roy"} and len(owed) == 4
    closes = memo(*db, "changes", "--json").json()["changes"]
    close = next(c for c in closes if "courier" in c["new"]["evidence"])
    assert memo(*db, "changes", "accept", str(close["id"])).code == 0
    owed = memo(*db, "items", "--open", "--owed-to", "Nadia", "--json").json()["items"]
    assert len(owed) == 3  # the contract was sent
    with Store(tmp_path / "memo.db") as store:
        nadia = store.people.get(people["Nadia Roy"]["id"])
        assert nadia is not None and len(nadia.owed) == 3 and nadia.open_action_items == []
    plain = memo(*db, "people")
    assert "Nadia Roy (also: Nadia): owes 0, is owed 3," in plain.stdout


def test_migration_16_reads_who_asked_from_the_stored_lines(tmp_path: Path) -> None:
    from support.db import new_capture

    from store import NewActionItem, captures

    lines = TASKS.splitlines()[4:]
    path = tmp_path / "old.db"
    with old_schema(path, 15) as conn:
        items = [NewActionItem("x", owner, None, n, n, "q") for owner, n in TASKS_ASKED]
        new = new_capture(text="\n".join(lines), line_count=len(lines), action_items=items)
        captures.insert_capture(conn, new, None)
    with Store(path) as store:
        stored = store.captures.action_items(store.captures.ids_by_date())
        # Nadia asked on lines 1 and 3; line 2 is Omar's own "Will do.", line 4 Lena's "Sure."
        assert [i.asked_by for i in stored] == ["Nadia Roy", None, "Nadia Roy", None]


TASKS_ASKED = (("Omar", 1), ("Omar", 2), ("Lena", 3), ("Lena", 4))


def test_the_app_reviews_a_proposal_one_dialog_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Static

    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings
    from memo_tui.ui.app import MemoApp
    from memo_tui.ui.dialogs.change_review import ChangeReview

    for var in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_EMBED_MODEL_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    services = build_services(Settings(provider="offline"), tmp_path / "memo.db")
    for name, text in (("2026-02-02-ops.txt", TASKS), ("2026-02-09-ops.txt", DONE)):
        (tmp_path / name).write_text(text)
        services.capture.capture_file(tmp_path / name)
    accept_all(services.store)
    [waiting] = services.store.changes.all(("proposed",))
    app = MemoApp(services)

    def status() -> str:
        return str(app.query_one("#status", Static).render())

    async def run() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "1 change to review (v)" in status()
            await pilot.press("v")
            for _ in range(50):
                if isinstance(app.screen, ChangeReview):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, ChangeReview)
            shown = " ".join(str(s.render()) for s in app.screen.query(Static))
            assert "Is this action item done?" in shown and "(1 of 1)" in shown
            assert "I sent the courier contract to legal" in shown
            await pilot.press("a")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert services.store.changes.get(waiting.id).status == "applied"  # type: ignore[union-attr]
            assert "to review" not in status()

    try:
        asyncio.run(run())
    finally:
        services.close()


def test_the_app_shows_what_memo_replaced_on_its_own_to_keep_or_undo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, applying: None
) -> None:
    """A capture that replaced decisions on strong evidence says so, and the review shows
    each once: undo makes the old decision current again, keep leaves it replaced and the
    review has nothing left to show."""
    from textual.widgets import Static

    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings
    from memo_tui.ui.app import MemoApp
    from memo_tui.ui.dialogs.change_review import AppliedReview, ChangeReview

    for var in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_EMBED_MODEL_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    services = build_services(Settings(provider="offline"), tmp_path / "memo.db")
    for name, text in (("2026-02-02-kickoff.txt", KICKOFF), ("2026-02-16-review.txt", REVIEW)):
        (tmp_path / name).write_text(text)
    app = MemoApp(services)
    said: list[str] = []
    app.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]

    async def answer(pilot: object, number: str) -> type:
        await until(pilot, lambda: isinstance(app.screen, ChangeReview), "the review")
        shown = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert number in shown, shown
        kind = type(app.screen)
        if kind is AppliedReview:  # memo's own: undo it
            assert "keep it replaced?" in shown
            await pilot.press("r")  # type: ignore[attr-defined]
        else:  # proposed: accept it
            assert "Does the later decision replace this one?" in shown
            await pilot.press("a")  # type: ignore[attr-defined]
        await until(
            pilot,
            lambda: (
                not isinstance(app.screen, kind)
                or number not in str(" ".join(str(s.render()) for s in app.screen.query(Static)))
            ),
            "answered",
        )
        return kind

    async def script(pilot: object) -> None:
        for n, name in enumerate(("2026-02-02-kickoff.txt", "2026-02-16-review.txt"), 1):
            app.controllers.capture.capture(tmp_path / name)
            await until(pilot, lambda n=n: len(said) >= n, "the capture")
        assert said[-1] == (
            "1 captured; 1 earlier decision replaced, 1 change to review (v reviews: keep or undo)"
        )
        accept_all(services.store)  # (the items' review comes first: test_review's)
        await until(pilot, lambda: app.check_action("review_changes", ()) is True, "v")
        await pilot.press("v")  # type: ignore[attr-defined]
        kinds = {await answer(pilot, "(1 of 2)"), await answer(pilot, "(2 of 2)")}
        assert kinds == {AppliedReview, ChangeReview}
        await until(pilot, lambda: "2 changes decided" in said, "both decided")

    try:
        drive(app, script)
        statuses = {c.status for c in services.store.changes.all()}
        assert statuses == {"undone", "applied"}  # the launch undone, the courier accepted
        assert ChangesService(services.store, "t").review() == []
        current = [s for s, _ in decisions(services.store).values()]
        assert current.count("superseded") == 1
    finally:
        services.close()


def test_what_holds_leaves_replaced_decisions_out_of_listings(
    threaded: Store, tmp_path: Path, applying: None
) -> None:
    """Digests and project documents list decisions through this filter."""
    from store import FactFilter

    capture(threaded, tmp_path, "2026-02-16-review.txt", REVIEW)
    every = threaded.facts.page(FactFilter(fact_types=("decision",)), 50)
    held = threaded.facts.page(FactFilter(fact_types=("decision",), current=True), 50)
    assert len(every) - len(held) == 1  # the launch moved; the courier's change is proposed
    assert not any(f.text.endswith("(superseded)") for f in held)
    assert len(threaded.facts.all(fact_type="decision", current=True)) == len(held)


@pytest.mark.parametrize(
    ("line", "done"),
    [
        ("Omar Haddad: Sent it to Marta on Friday.", True),
        ("- [x] @SamO — site survey (done 29/1)", True),
        ("- Sam Cheng to swap the cracked Zebra this week.", False),
        ("Lena Park: The inspection isn't booked yet.", False),
        ("Nadia Roy: Will you have it finished by Friday?", False),
        ("Jon Park: Fiona, thanks for sending the API docs, by the way.", True),
        ("Jon Park: I'll have the docs sent by the 3rd.", False),
        ("Ewan Reid: The sensor quotes came in on Monday.", True),
        ("Kate Lin: Thanks for the site plan, Omar, it was great.", True),
        ("Kate Lin: Thank you Omar for the risk notice back in May.", True),
        ("Omar Haddad: I did all twelve reports when I was up at the depot.", True),
        ("Omar Haddad: I'll do the reports when I'm up at the depot.", False),
        ("Dewi Rhys: The fish rescue went fine, by the way.", True),
        ("Ewan Reid: The crash came back on Android 12.", False),
        ("Ewan Reid: Thanks everyone for the time today.", False),
        ("Ewan Reid: We got a complaint about the docs.", False),
    ],
)
def test_a_line_reports_something_done_only_when_it_is(line: str, done: bool) -> None:
    from memo_tui.core.history.closing import done_sentences

    assert bool(done_sentences(line)) is done


def test_a_scan_gives_older_decisions_the_subject_capture_would_have(
    memo,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    """A store from before schema 15 holds decisions without a subject, so nothing could link
    them: a scan reads them from the stored text, as capture does."""
    (tmp_path / "2026-02-02-kickoff.txt").write_text(KICKOFF)
    db = ("--db", str(tmp_path / "memo.db"))
    assert memo(*db, "capture", str(tmp_path / "2026-02-02-kickoff.txt")).code == 0
    with Store(tmp_path / "memo.db") as store:
        ids = store.captures.ids_by_date()
        captured = {d.id: d.subject for d in store.captures.decisions(ids)}
        with store.writer.begin() as conn:
            conn.exec_driver_sql("UPDATE decisions SET subject = ''")
    assert all(captured.values())
    scanned = memo(*db, "changes", "scan", "--json").json()
    assert scanned["subjects_filled"] == len(captured)
    with Store(tmp_path / "memo.db") as store:
        assert {d.id: d.subject for d in store.captures.decisions(ids)} == captured
    again = memo(*db, "changes", "scan")
    assert "older decisions" not in again.stdout  # nothing left to fill


def test_who_asked_is_shown_by_the_name_memo_knows_them_by(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The label said "Libby Harcourt"; she is Elizabeth Harcourt everywhere else. A meeting
    whose first line is its roster is titled from its file name, not "Attendees: …"."""
    (tmp_path / "2026-02-02-ops.txt").write_text(
        "Attendees: Elizabeth Harcourt, Omar Haddad\nDate: 2026-02-02\n\n"
        "Elizabeth Harcourt: The courier contract needs renewing.\n"
        "Omar Haddad: I can look at it.\n"
    )
    (tmp_path / "2026-02-09-ops.txt").write_text(
        "Attendees: Libby Harcourt, Omar Haddad\nDate: 2026-02-09\n\n"
        "Libby Harcourt: Omar, can you send the courier contract to legal by Friday?\n"
        "Omar Haddad: Will do.\n"
    )
    db = ("--db", str(tmp_path / "memo.db"))
    for name in ("2026-02-02-ops.txt", "2026-02-09-ops.txt"):
        assert memo(*db, "capture", str(tmp_path / name)).code == 0
    listed = memo(*db, "items").stdout
    assert "asked by Elizabeth Harcourt  (Ops, 2026-02-09)" in listed, listed


TRIAL = """Support trial kickoff
Date: 2026-02-03
Attendees: Ines Walsh, Tom Becker

Ines Walsh: How do we hear about new support tickets?
Tom Becker: The helpdesk's webhook add-on is a paid tier, and we can't buy it before April.
Ines Walsh: So for the trial, we check the ticket queue every fifteen minutes. No webhooks.
Tom Becker: Agreed.
Tom Becker: Who works a ticket, the agent who took it or whoever knows the customer?
Ines Walsh: Okay, per customer it is.
"""

TRIAL_REVIEW = """Support trial review
Date: 2026-04-21
Attendees: Ines Walsh, Tom Becker

Tom Becker: The paid tier came through last week, and checking the queue missed two urgent ones.
Ines Walsh: Then we move to webhooks for new support tickets. I'd rather hear at once.
Tom Becker: Fine.
"""

NOW = "How do new support tickets get to us now?"


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> object:
    folder = tmp_path_factory.mktemp("trial")
    model = embedder()
    with Store(folder / "memo.db") as store:
        embed = EmbedService(store, model)
        service = CaptureService(store, CaptureOptions(user="t"), after_commit=embed.embed_capture)
        names = ("2026-02-03-trial.txt", "2026-04-21-review.txt")
        for name, text in zip(names, (TRIAL, TRIAL_REVIEW), strict=True):
            (folder / name).write_text(text)
        service.capture_paths([folder / name for name in names])
        changes = ChangesService(store, "t")
        for change in changes.review():
            changes.decide(change.id, "accept")  # (the user keeps the change memo proposed)
        yield store, model


def _facts(store: Store, *starts: str) -> list[Hit]:
    facts = store.facts.all()
    return [Hit(next(f for f in facts if f.text.startswith(s)), 1.0, 1, None, None) for s in starts]


@pytest.mark.parametrize(
    ("new", "old", "linked"),
    [
        ("We move to webhooks for the orders.", "We poll every five seconds. No webhooks.", True),
        ("We switch to card payments at the bar.", "Cash only at the bar, not cards.", True),
        # the thing ruled out is not what the new call changes to
        ("Chilled go-live moves to Monday the 11th of January.",
         "We're not doing chilled in the pilot. Ambient only.", False),
        # nothing says it is a change
        ("Webhooks are nice to have.", "We poll every five seconds. No webhooks.", False),
    ],
)  # fmt: skip
def test_what_was_ruled_out_and_is_now_moved_to_replaces_the_call(
    new: str, old: str, linked: bool
) -> None:
    found = link(_call(2, "2026-05-01", new), _call(1, "2026-03-01", old), lambda w: 1.0)
    assert (found is not None) is linked
    assert found is None or (found.strength == "strong" and "ruled out before" in found.reason)


@pytest.mark.parametrize(
    ("new", "old", "reason"),
    [
        ("We're not shipping 3.2 for go-live. Daventry goes live on 3.1.4 LTS.",
         "So 3.2 goes out with the pilot.", "3.2: chosen before, ruled out now"),
        ("OK so chilled it is: aisles C1 to C6.", "We're not doing chilled in the pilot.",
         "chill: ruled out before, chosen now"),
        # the old value named as what is replaced, in other words
        ("Capacity 900 (licence limit) — was 1,200.", "Twelve hundred tickets then.",
         "moved 1200 → 900"),
        # an amount alone is too common to be the thing: 18 pickers are not 18 pounds
        ("We go to twenty-four pickers, not eighteen.", "We move to eighteen pounds an hour.",
         None),
        # what is ruled out is the head of the clause (deploys), not where (Daventry)
        ("Two field techs for Daventry.", "No deploys or config pushes to Daventry at Easter.",
         None),
        # the call that chose it rules it out as well: nothing turned
        ("We're not shipping 3.2 for go-live.", "We're not touching the lidar rate in 3.2.", None),
    ],
)  # fmt: skip
def test_a_call_ruling_out_what_another_chose_is_proposed(
    new: str, old: str, reason: str | None
) -> None:
    """Yes turned to no, and no to yes, by a name, a version or a rare word: proposed for
    review, never applied (a negation alone is weak evidence)."""
    found = link(_call(2, "2026-05-01", new), _call(1, "2026-03-01", old), lambda w: 3.0)
    assert (found.reason if found else None) == reason
    assert found is None or found.strength == "weak"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Twelve hundred tickets then.", {"1200"}),
        ("Capacity 900 — was 1,200.", {"900", "1200"}),
        ("five thousand copies", {"5000"}),
        ("We go live on 3.1.4 LTS", {"3.1.4", "lts"}),
        ("the twelfth of May", {"@12", "@may"}),
    ],
)
def test_values_read_grouped_scaled_and_dotted_numbers_as_one(text: str, said: set[str]) -> None:
    assert values(text) == said


def test_a_question_about_now_leads_with_the_call_that_changed_the_way(
    trial: tuple[Store, FastEmbedder],
) -> None:
    """The trial's call was made in a verb no rule lists ("we check the queue every fifteen
    minutes") and ruled out webhooks; the review moved to them. Asked how it works now, the
    answer leads with the move and tells the old call after it."""
    store, model = trial
    [change] = store.changes.all(("applied",))
    assert change.reason == "webhook: ruled out before, chosen now"
    result = ask(store, model, NOW, today=dt.date(2026, 6, 1))
    first = result.answer.splitlines()[1]
    assert first.startswith("- We move to webhooks for new support tickets."), result.answer
    assert "changed on 2026-04-21; before: For the trial, we check the ticket queue" in first


def test_an_excerpt_that_quotes_a_replaced_call_brings_what_replaced_it(
    trial: tuple[Store, FastEmbedder],
) -> None:
    """Search found the old call only in the transcript's words: the decision those words
    made, and so the one that replaced it, lead the answer, before another call."""
    hits = _facts(trial[0], "Support trial kickoff\nDate", "Per customer it is")
    ordered, _ = lead_with_current(trial[0], hits, NOW)
    assert [h.fact.text[:30] for h in ordered[:2]] == [
        "We move to webhooks for new su",
        "For the trial, we check the ti",
    ]
    excerpt = _facts(trial[0], "Tom Becker: Agreed.")  # quotes no replaced call
    assert lead_with_current(trial[0], excerpt, NOW)[0] == excerpt


def test_asked_about_now_a_call_that_changed_something_goes_first(
    trial: tuple[Store, FastEmbedder],
) -> None:
    """A replaced call among the best hits brings its replacement in; asked what holds "now",
    a call that replaced another (and holds two of the question's words) leads one that never
    changed. Asked in the plain present, rank order stands."""
    store = trial[0]
    hits = _facts(store, "Per customer it is", "For the trial, we check")
    assert decisions_first(store, hits, NOW)[0].fact.text.startswith("We move to webhooks")
    plain = decisions_first(store, hits, "How do new support tickets get to us?")
    assert plain[0].fact.text.startswith("Per customer it is")
