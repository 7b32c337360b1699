"""The offline extractor against the demo's hand-written ground truth, and its rules."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from support.paths import DATA, DEMO

from memo_tui.core.capture.dates import find_due_date
from memo_tui.core.capture.decode import decode
from memo_tui.core.capture.evidence import EvidenceIndex
from memo_tui.core.capture.offline import extract
from memo_tui.core.capture.sources import Transcript, parse
from memo_tui.core.llm.schemas import Extraction

TRUTH = json.loads((DATA / "demo_truth.json").read_text(encoding="utf-8"))


def load(name: str) -> Transcript:
    path = DEMO / name
    return parse(decode(path.read_bytes(), name), name, path.suffix[1:])


def file_lines(transcript: Transcript, quote: str) -> tuple[int, int]:
    """Where a quote sits in the original file (an export's turns map back to its lines)."""
    found = EvidenceIndex(transcript.lines).locate(quote)
    assert found is not None, f"quote not in transcript: {quote!r}"
    if not transcript.as_written:
        turns = transcript.turns
        return turns[found.line_start - 1].source_lines[0], turns[found.line_end - 1].source_lines[
            1
        ]
    return found.line_start, found.line_end


def overlaps(a: tuple[int, int], b: list[int]) -> bool:
    return a[0] <= b[1] and a[1] >= b[0]


def score(kind: str) -> tuple[float, float, list[tuple[dict[str, object], object]]]:
    ours_hit = ours_total = gold_hit = gold_total = 0
    pairs = []
    for name, truth in TRUTH.items():
        transcript = load(name)
        result = extract(transcript)
        items = result.decisions if kind == "decisions" else result.action_items
        spans = [(item, file_lines(transcript, item.evidence_quote)) for item in items]
        gold = truth[kind]
        ours_total += len(spans)
        ours_hit += sum(any(overlaps(s, g["lines"]) for g in gold) for _, s in spans)
        gold_total += len(gold)
        for g in gold:
            match = next((item for item, s in spans if overlaps(s, g["lines"])), None)
            gold_hit += match is not None
            if match is not None:
                pairs.append((g, match))
    return ours_hit / ours_total, gold_hit / gold_total, pairs


def test_decisions_match_the_demo_truth() -> None:
    precision, recall, _ = score("decisions")
    assert precision >= 0.85 and recall >= 0.75, (precision, recall)


def test_action_items_match_the_demo_truth_with_owners_and_due_dates() -> None:
    precision, recall, pairs = score("action_items")
    assert precision >= 0.85 and recall >= 0.85, (precision, recall)
    due_right = sum(
        (g["due_date"] or None) == (a.due_date.isoformat() if a.due_date else None)  # type: ignore[union-attr]
        for g, a in pairs
    )
    assert due_right / len(pairs) >= 0.75
    owner_right = sum(
        bool(a.assignee) and str(g["assignee"]).split()[0] == a.assignee.split()[0]  # type: ignore[union-attr]
        for g, a in pairs
    )
    assert owner_right / len(pairs) >= 0.8


def test_every_item_quotes_the_transcript_verbatim() -> None:
    for name in TRUTH:
        transcript = load(name)
        index = EvidenceIndex(transcript.lines)
        result = extract(transcript)
        for item in [*result.decisions, *result.action_items]:
            assert index.locate(item.evidence_quote) is not None, (name, item.evidence_quote)


def test_a_final_decision_that_reverses_an_earlier_one_wins() -> None:
    result = extract(load("2026-10-06-cobalt-billing-design.srt"))
    current = [d for d in result.decisions if d.status == "current"]
    assert "stripe billing" in " ".join(d.description for d in current).lower()
    assert not any(
        "in-house" in d.description.lower() and "stripe" not in d.description.lower()
        for d in current
    )
    # The reversed call is kept as history, pointing at the decision that replaced it.
    [old] = [d for d in result.decisions if d.status == "superseded"]
    assert "in-house" in old.description.lower() and old.superseded_by is not None
    assert "stripe billing" in result.decisions[old.superseded_by - 1].description.lower()
    assert "in-house" not in result.summary.split("Decided:")[1].split(".")[0].lower()


def test_reversal_rule_on_a_small_transcript() -> None:
    text = (
        "Date: 2026-03-02\n"
        "Ana Lima: Let's go with MySQL for the reporting database.\n"
        "Bo Chan: Fine.\n"
        "Ana Lima: Actually, scratch that: let's go with Postgres for the reporting database "
        "instead, because we need PostGIS.\n"
    )
    result = extract(parse(text, "t.txt", "txt"))
    assert [(d.description, d.status, d.superseded_by) for d in result.decisions] == [
        ("Let's go with MySQL for the reporting database.", "superseded", 2),
        ("Let's go with Postgres for the reporting database instead.", "current", None),
    ]
    assert "PostGIS" in (result.decisions[1].reasoning or "")


@pytest.mark.parametrize(
    ("said", "due"),
    [
        ("Tom Adeyemi: I'll send the plan by Friday.", "2026-09-11"),
        ("Tom Adeyemi: I'll send the plan tomorrow.", "2026-09-09"),
        ("Tom Adeyemi: I'll send the plan by the end of the month.", "2026-09-30"),
        ("Tom Adeyemi: I'll send the plan in two weeks.", "2026-09-22"),
        ("Tom Adeyemi: I'll send the plan by October 2nd.", "2026-10-02"),
        ("Tom Adeyemi: I'll send the plan, no rush.", None),
        ("Tom Adeyemi: I'll send the plan by the 13th of October.", "2026-10-13"),
        ("Tom Adeyemi: I'll send the plan EOD Thursday.", "2026-09-10"),
        ("Tom Adeyemi: I'll send the plan. Done by Monday the 21st.", "2026-09-21"),
        ("Tom Adeyemi: I'll send the plan before the first of October.", "2026-10-01"),
        ("Tom Adeyemi: I'll send the plan by 18/9.", "2026-09-18"),
        ("Tom Adeyemi: I'll send the plan for w/c 5/10, by 24/9.", "2026-09-24"),
        ("Tom Adeyemi: I'll send the plan. Two weeks.", "2026-09-22"),
        ("Tom Adeyemi: I'll send the plan (done 2/9).", None),
        ("Tom Adeyemi: I'll rerun it on 3/4 of the nodes by Friday.", "2026-09-11"),
        ("Tom Adeyemi: I'll set up 24/7 paging by Thursday.", "2026-09-10"),
        ("Tom Adeyemi: I'll send the 2026-10-01 export by Friday.", "2026-09-11"),
        ("Tom Adeyemi: I'll send the plan, though we may first need the rig.", None),
        # a day and month more than two months gone is next year's: a task is due ahead
        ("Tom Adeyemi: I'll send the plan by the 20th of April.", "2027-04-20"),
        # as speech to text writes them: "i'll", ordinals in words, spaced or not
        ("Tom Adeyemi: i'll send the plan before the twenty-ninth.", "2026-09-29"),
        ("Tom Adeyemi: i'll send the plan on the twenty sixth.", "2026-09-26"),
        ("Tom Adeyemi: I'll send the plan by the end of October.", "2026-10-31"),
        ("Tom Adeyemi: I'll send the plan by the end of next month.", "2026-10-31"),
        ("Tom Adeyemi: I'll send the plan in a fortnight.", "2026-09-22"),
        ("Tom Adeyemi: I'll send the plan in 2 wks.", "2026-09-22"),
        ("Tom Adeyemi: I'll send the plan tmrw.", "2026-09-09"),
        ("Tom Adeyemi: I'll send the plan first thing Monday.", "2026-09-14"),
        # a weekday written with its date: the date says which one
        ("Tom Adeyemi: I'll send the plan by Fri 25/9.", "2026-09-25"),
        ("Tom Adeyemi: I'll send the plan EOD Thu 24/9.", "2026-09-24"),
    ],
)
def test_due_dates_resolve_against_the_meeting_date(said: str, due: str | None) -> None:
    result = extract(parse(f"Date: 2026-09-08\n{said}\n", "t.txt", "txt"))  # a Tuesday
    [item] = result.action_items
    assert item.assignee == "Tom Adeyemi"
    assert (item.due_date.isoformat() if item.due_date else None) == due


@pytest.mark.parametrize(
    ("line", "meeting", "due"),
    [
        # a date said as when the task was done, sent or carried from is not when it is due
        ("@CatO get Iona's sign-off on the final text - done Fri 12/6.", "2026-06-16", None),
        ("@DRM lock keeper rota (done, circulated Mon 11/5).", "2026-05-13", None),
        ("@RP ring council licensing (from 14/1) - done w/c 19/1.", "2026-04-08", None),
        ("@DA load the midweek floor from 1/5 - EOD Wed.", "2027-04-01", "2027-04-07"),
        ("@RH Pennine 1-yr renewal signed — 14/1.", "2027-03-09", None),
        # a week commencing says when a thing happens, not when it is due
        ("Book next live drill, w/c 8/11 @NG.", "2027-04-14", None),
        # a dash before a date in notes: the due date, whatever else the line dates
        ("@OH update the handbook for Sun work parties — Fri 22/5.", "2026-05-13", "2026-05-22"),
        ("@MT call Leonie (was RL – away w/c 15/2) – Wed 17/2", "2027-02-12", "2027-02-17"),
        ("@TM Bookwell training for the team – before go-live 1/3.", "2027-02-12", "2027-03-01"),
        ("@AB check by the way 3/4 of the rota is set.", "2027-02-12", None),
        # both readings of "6/3" are to come: the weekday said with it picks the 3rd of June
        ("@TB send the plan - by Wed 6/3.", "2026-01-05", "2026-06-03"),
        ("@TB send the plan - by Fri 6/3.", "2026-01-05", "2026-03-06"),
    ],
)
def test_due_dates_in_notes(line: str, meeting: str, due: str | None) -> None:
    found = find_due_date(line, dt.date.fromisoformat(meeting))
    assert (found.isoformat() if found else None) == due


def test_a_struck_through_note_no_longer_holds() -> None:
    """Markdown writers strike through a call the meeting went back on ("see 4": what
    replaced it) and a task nobody will do."""
    notes = (
        "# Festival planning\nDate: 2026-04-08\n\n## Decisions\n"
        "1. Festival moved to Sat 19 Sept.\n"
        "2. ~~Two sessions (12-5 / 6-11)~~ — agreed, then reversed, see 4.\n"
        "3. Cashless only at all festival bars.\n"
        "4. Single session 12:00-22:00.\n"
        "5. ~~Food from the Fry Brothers van~~ — fell through.\n"
        "6. Food from the Salt Box van instead.\n\n"
        "## Actions\n- ~~@KM cover the ORR day Tue 20/4~~ — KM on leave, DW covers.\n"
    )
    result = extract(parse(notes, "festival.md", "md"))
    held = {d.description: (d.status, d.superseded_by) for d in result.decisions}
    numbers = {d.description: n for n, d in enumerate(result.decisions, start=1)}
    assert held["Two sessions (12-5 / 6-11)."] == (
        "superseded",
        numbers["Single session 12:00-22:00."],
    )
    assert held["Food from the Fry Brothers van."][0] == "superseded"
    assert held["Cashless only at all festival bars."] == ("current", None)
    [task] = result.action_items
    assert task.status == "dropped"


def test_markdown_sections_are_read_as_decisions_and_action_items() -> None:
    result = extract(load("2026-09-15-weekly-eng-sync.md"))
    assert len(result.decisions) == 3
    assert all(d.decided_by for d in result.decisions)
    done = [a for a in result.action_items if a.status == "done"]
    assert len(done) == 1 and "wireframes" in done[0].description.lower()


def test_quoted_instructions_in_a_transcript_are_not_obeyed() -> None:
    result = extract(load("2026-11-03-beacon-planning.txt"))
    assert all((a.assignee or "") != "Bob" for a in result.action_items)
    assert not any("ignore all previous" in a.evidence_quote for a in result.action_items)


def test_the_whole_transcript_is_read_not_the_last_40k_chars() -> None:
    opening = "Priya Natarajan: Final call: we're moving Atlas to Postgres.\n"
    filler = "".join(
        f"Sam Chen: Line {i} of the long status update on the data model.\n" for i in range(1200)
    )
    text = "Date: 2026-09-08\n" + opening + filler
    assert len(text) > 60_000
    result = extract(parse(text, "long.txt", "txt"))
    assert any("Postgres" in d.description for d in result.decisions)


def test_summary_and_meta_name_people_topics_and_outcomes() -> None:
    result: Extraction = extract(load("2026-09-08-atlas-kickoff.txt"))
    assert "Priya Natarajan" in result.meta.attendees
    assert "Postgres" in result.meta.topics
    assert result.meta.outcomes == [d.description for d in result.decisions]
    assert "Postgres" in result.summary


def test_extraction_is_deterministic() -> None:
    transcript = load("2026-09-22-halvorsen-beacon-review.vtt")
    assert extract(transcript) == extract(transcript)


def test_meeting_date_unknown_leaves_relative_due_dates_unresolved() -> None:
    said = "Tom Adeyemi: I'll send the plan by Friday.\n"
    assert extract(parse(said, "t.txt", "txt")).action_items[0].due_date is None
    dated = extract(parse(said, "2026-09-08-sync.txt", "txt"))  # the date from the file name
    assert dated.action_items[0].due_date == dt.date(2026, 9, 11)


def test_a_request_turned_down_is_not_an_action_item() -> None:
    text = (
        "Date: 2026-10-20\n"
        "Ana Lima: I'll send the write-up to Ingrid by Thursday.\n"
        "Bo Chan: Can you leave out the part about the outage?\n"
        "Ana Lima: Absolutely not. Thanks, everyone.\n"
        "Bo Chan: Can you also add the timeline?\n"
        "Ana Lima: Sure, will do.\n"
    )
    result = extract(parse(text, "t.txt", "txt"))
    said = [a.description for a in result.action_items]
    assert said == ["Send the write-up to Ingrid by Thursday.", "Add the timeline."]


def test_an_action_label_names_the_owner_and_is_not_part_of_the_task() -> None:
    text = (
        "Date: 2026-10-20\n"
        "Ana Lima: Action item for Tom: final snapshot of the Mongo cluster on November 30th.\n"
        "Tom Ek: Happily.\n"
        "Ana Lima: Last one from me: I'll write this up and send it to Ingrid by Thursday.\n"
    )
    items = extract(parse(text, "t.txt", "txt")).action_items
    assert [(a.assignee, a.description) for a in items] == [
        ("Tom", "Final snapshot of the Mongo cluster on November 30th."),
        ("Ana Lima", "Write this up and send it to Ingrid by Thursday."),
    ]


def test_a_short_step_pointing_back_at_a_task_is_part_of_it() -> None:
    text = (
        "Date: 2026-10-05\n"  # a Monday
        "Ana Lima: Action item for me: ask our accountant about the invoices. "
        "I'll email her tomorrow.\n"
        "Ana Lima: Bo, you own the migration design doc, due Friday.\n"
        "Bo Chan: Okay. I'll have a draft by then.\n"
        "Cy Dee: I'll send the agenda tomorrow. I'll also book the room.\n"
    )
    items = extract(parse(text, "t.txt", "txt")).action_items
    assert [(a.assignee, a.description, str(a.due_date)) for a in items] == [
        ("Ana Lima", "Ask our accountant about the invoices.", "2026-10-06"),
        ("Bo Chan", "You own the migration design doc, due Friday.", "2026-10-09"),  # who answered
        ("Cy Dee", "Send the agenda tomorrow.", "2026-10-06"),
        ("Cy Dee", "Book the room.", "None"),  # not short for the agenda: its own task
    ]


def test_the_summary_names_each_owner_once() -> None:
    text = (
        "Date: 2026-10-05\n"
        "Tom Ek: I'll send the agenda tomorrow.\n"
        "Ana Lima: Tom will also book the room by Friday.\n"
        "Sam Chen: Fine.\n"
        "Sam Cheng: Fine.\n"
        "Ana Lima: Sam will write the spec by Friday.\n"
    )
    result = extract(parse(text, "t.txt", "txt"))
    assert {a.assignee for a in result.action_items} == {"Tom Ek", "Tom", "Sam"}
    assert result.summary.endswith("3 action items (owners: Sam and Tom Ek).")


def test_typed_notes_wrapped_over_lines_keep_the_reason_with_the_decision() -> None:
    result = extract(load("2026-11-17-halvorsen-steering-notes.txt"))
    tromso = next(d for d in result.decisions if "Tromsø" in d.description)
    assert tromso.decided_by == "Ingrid"
    assert "full month of pilot data" in (tromso.reasoning or "")
    drivers = next(d for d in result.decisions if "thirty Bergen drivers" in d.description)
    assert drivers.description.endswith("once the duplicate-stop fix is on every device.")


def test_a_decision_that_only_says_so_takes_what_was_decided_from_the_next_sentence() -> None:
    text = (
        "Date: 2026-11-03\n"
        "Bo Chan: Start with ten drivers, then the other thirty a week later.\n"
        "Ana Lima: Okay, we're going to do it that way, then. Ten drivers on Monday the "
        "sixteenth, the remaining thirty on the twenty-third.\n"
        "Ana Lima: The plan is: the old cluster stays up, read-only, until November 30th.\n"
    )
    transcript = parse(text, "t.txt", "txt")
    decisions = extract(transcript).decisions
    assert [d.description for d in decisions] == [
        "Ten drivers on Monday the sixteenth, the remaining thirty on the twenty-third.",
        "The old cluster stays up, read-only, until November 30th.",
    ]
    assert decisions[0].reasoning is None and decisions[0].decided_by == "Ana Lima"
    assert decisions[0].evidence_quote.startswith("Okay, we're going to do it that way")
    assert EvidenceIndex(transcript.lines).locate(decisions[0].evidence_quote) is not None


@pytest.mark.parametrize(
    "reply",
    [
        "No issues at all, it will be ready.",
        "I cannot see why not. Leave it with me.",
        "No, that's fine, I'll do it tonight.",
    ],
)
def test_a_reply_that_takes_the_request_on_keeps_it(reply: str) -> None:
    asked = "Alice Ng: Dana, can you update the pricing sheet by Thursday?"
    text = f"Date: 2024-03-04\n{asked}\nDana Wu: {reply}\n"
    items = extract(parse(text, "t.txt", "txt")).action_items
    assert "Update the pricing sheet by Thursday." in [a.description for a in items]


def test_what_follows_a_vague_decision_is_not_taken_when_it_is_a_task() -> None:
    text = (
        "Date: 2024-03-04\n"
        "Alice Ng: Okay, we'll do it that way then. Tom will write up the notes by Friday.\n"
        "Bob Li: I'll fix the build today. Then I'll deploy it to prod.\n"
    )
    result = extract(parse(text, "t.txt", "txt"))
    assert [d.description for d in result.decisions] == ["We'll do it that way then."]
    assert [a.description for a in result.action_items] == [
        "Write up the notes by Friday.",
        "Fix the build today.",
        "Deploy it to prod.",  # a step that names new work is a task of its own
    ]


def test_bullets_boxes_and_dates_before_a_task_are_not_part_of_it() -> None:
    text = (
        "Weekly standup\nDate: 2024-03-04\n\n"
        "[ ] Priya will book the venue for the offsite.\n"
        "2024-03-02 Bob will migrate the billing service to the new cluster.\n"
        "\u2013 Tom will draft the press release for the launch by Friday.\n"
    )
    items = extract(parse(text, "t.txt", "txt")).action_items
    assert [(a.assignee, a.description, str(a.due_date)) for a in items] == [
        ("Priya", "Book the venue for the offsite.", "None"),
        ("Bob", "Migrate the billing service to the new cluster.", "None"),
        ("Tom", "Draft the press release for the launch by Friday.", "2024-03-08"),
    ]
