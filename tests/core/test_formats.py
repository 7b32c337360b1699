"""Transcripts as real tools export them: the format read from the content, every turn
mapped back to its file lines, and none of the export's scaffolding stored as speech."""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from support.db import dump
from support.paths import DATA, REPO

from memo_tui.core.benchmarks.formats import lines_hold, markup_lines
from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.decode import decode
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.evidence import EvidenceIndex
from memo_tui.core.capture.formats.docx import docx_text
from memo_tui.core.capture.sources import Transcript, parse
from store import Store

FIXTURES = DATA / "formats"
EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (FIXTURES / "expected.json").read_text(encoding="utf-8")
)
DEV = REPO.parent / "shared" / "data" / "dev-meetings"
needs_dev_set = pytest.mark.skipif(not DEV.is_dir(), reason=f"the dev set is not at {DEV}")

sys.path.insert(0, str(FIXTURES))
import make_docx  # noqa: E402  (the fixtures' own generator of Word documents)

GUID_CUE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
BARE_TIME = re.compile(r"^\s*[\[(]?(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?[\])]?\s*$")


def docx_bytes(name: str) -> bytes:
    out = io.BytesIO()
    (make_docx.write_teams_docx if name.startswith("teams") else make_docx.write_notes_docx)(out)
    return out.getvalue()


def read(name: str) -> Transcript:
    """A fixture read as a capture reads it (by content; the extension is a hint)."""
    if name.endswith(".docx"):
        return parse(docx_text(docx_bytes(name), name), name, "docx")
    return parse(decode((FIXTURES / name).read_bytes(), name), name, name.rsplit(".", 1)[1])


def assert_no_scaffolding(transcript: Transcript) -> None:
    for turn in transcript.turns:
        for said in (turn.text, turn.speaker or ""):
            assert "-->" not in said and "<v " not in said and "</v>" not in said, turn
            assert "WEBVTT" not in said and not GUID_CUE.search(said), turn
            assert not BARE_TIME.match(said), turn
    assert markup_lines(transcript) == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_export_reads_as_its_tool_wrote_it(name: str) -> None:
    """Fixtures written from what Teams, Zoom, Otter, Meet, SubRip and chat windows
    export, independently of this code (tests/data/formats/README.md)."""
    want = EXPECTED[name]
    transcript = read(name)
    assert transcript.source_format == want["format"]
    speakers = [s for s in transcript.speakers if s not in ("Unknown Speaker", "Speaker 2")]
    if want["speakers"]:  # a first-name label is the speaker as said; people come later
        assert len(speakers) == len(want["speakers"]), speakers
        assert all(full.startswith(s) for s, full in zip(speakers, want["speakers"], strict=True))
    assert sorted(transcript.attendees) == sorted(want["attendees"])
    if want["date"]:
        assert transcript.occurred_at is not None
        assert transcript.occurred_at.isoformat() == want["date"]
    if want["title"]:
        assert transcript.title == want["title"]
    if want["turns"] is not None:
        assert sum(1 for t in transcript.turns if t.speaker) == want["turns"]
    said = [t.text for t in transcript.turns]
    for phrase in want["said"]:
        assert any(phrase in text for text in said), phrase
    for phrase in want["never"]:
        assert not any(phrase in text for text in said), phrase
    skipped = want["skipped"]
    if isinstance(skipped, dict):  # a chat: what was left out, by why
        assert transcript.skipped.get("direct_message", 0) == skipped["direct"]
        assert transcript.skipped.get("bot_message", 0) == skipped["bots"]
    else:
        assert sum(transcript.skipped.values()) == skipped
    assert_no_scaffolding(transcript)
    assert lines_hold(transcript) == len(transcript.turns)


@needs_dev_set
def test_no_stored_turn_of_the_dev_set_holds_export_markup() -> None:
    truth = [json.loads(line) for line in (DEV / "truth.jsonl").read_text().splitlines()]
    same = {"teams_vtt_txt": "teams_vtt", "auto_transcript_messy": "timestamped_txt"}
    for row in truth:
        path = DEV / row["file"]
        transcript = parse(decode(path.read_bytes(), path.name), path.name, path.suffix[1:])
        assert transcript.source_format == same.get(row["format"], row["format"]), path.name
        assert_no_scaffolding(transcript)
        assert lines_hold(transcript) == len(transcript.turns), path.name
        if not transcript.as_written:  # one turn a line, none of them blank
            assert len(transcript.lines) == len(transcript.turns)
            assert all(line.strip() for line in transcript.lines)


TEAMS = """WEBVTT

9f2c1a4e-1111-4c2d-9a0b-5d6e7f809a1b/12-0
00:00:03.400 --> 00:00:07.100
<v Ana Lima (External)>We ship the <lang en-US>pilot</lang> on Monday,

9f2c1a4e-1111-4c2d-9a0b-5d6e7f809a1b/12-1
00:00:07.200 --> 00:00:09.000
<v Ana Lima (External)>if the <c.yellow>scanner</c> passes.</v>

3b1d2e4f-2222-4c2d-9a0b-5d6e7f809a1b/4-0
00:00:09.500 --> 00:00:12.000
<v Raj Patel>Agreed, and I&apos;ll
book the site visit.</v>
"""


def test_teams_cues_of_one_speaker_are_one_turn_without_tags_or_suffixes() -> None:
    transcript = parse(TEAMS, "standup.txt", "txt")  # a Teams file saved as .txt
    assert transcript.source_format == "teams_vtt"
    assert transcript.lines == [
        "Ana Lima: We ship the pilot on Monday, if the scanner passes.",
        "Raj Patel: Agreed, and I'll book the site visit.",
    ]
    assert [t.source_lines for t in transcript.turns] == [(5, 9), (13, 14)]


BROKEN = """WEBVTT

1
00:00:01.000 --> 00:00:04.000
Ana Lima: We keep the old scanner for now.

2
00:00:0x.000 --> 00:00:06.000
Ana Lima: GARBLED cue text.

3
00:00:06.500 --> 00:00:08.000

4
00:00:08.500 --> 00:00:10.000
<v Raj Patel UNCLOSED voice and its words

a stray paragraph pasted in
over two lines

5
00:00:11.000 --> 00:00:13.000
<v Raj Patel>Then I'll order the new ones in May.</v>
"""


def test_a_broken_subtitle_file_is_read_as_far_as_it_goes() -> None:
    transcript = parse(BROKEN, "call.vtt", "vtt")
    assert transcript.lines == [
        "Ana Lima: We keep the old scanner for now.",
        "Raj Patel: Then I'll order the new ones in May.",
    ]
    assert transcript.skipped == {
        "garbled_timing": 1,
        "empty_cue": 1,
        "unclosed_voice": 1,
        "outside_cue": 2,
    }
    assert "GARBLED" not in transcript.text and "UNCLOSED" not in transcript.text


def test_a_file_with_nothing_readable_is_refused_and_the_store_is_untouched(
    tmp_path: Path, store: Store, service: CaptureService
) -> None:
    service.capture_file(FIXTURES / "teams.vtt")
    before = dump(store)
    path = tmp_path / "garbled.vtt"
    path.write_text("WEBVTT\n\n1\n00:00:0x --> 00:00:02\nAna: hi\n\n2\n00:00:03.000 -->\n")
    result = service.capture_file(path)
    assert result.status == "rejected"
    assert "nothing in it could be read as speech" in (result.error or "")
    assert "2 cues with a garbled timing line" in (result.error or "")
    assert dump(store) == before


def test_a_file_of_no_known_format_is_read_as_plain_text() -> None:
    transcript = read("not_a_transcript.txt")
    assert transcript.source_format == "plain_txt" and transcript.as_written
    assert transcript.text == transcript.raw_text  # stored as written, as before


def test_direct_messages_are_never_stored_not_even_in_the_raw_text(
    tmp_path: Path, store: Store, service: CaptureService
) -> None:
    for name in ("zoom_chat.txt", "zoom_chat_old.txt"):
        private = [p for p in EXPECTED[name]["never"] if "ivately" in p or "irect" in p]
        private += _direct_words(FIXTURES / name)
        result = service.capture_file(FIXTURES / name)
        assert result.status == "captured" and result.format == "zoom_chat"
        assert result.skipped["direct_message"] == EXPECTED[name]["skipped"]["direct"]
        stored = repr(dump(store))
        for words in private:
            assert words not in stored, words


def _direct_words(path: Path) -> list[str]:
    """The text of each direct or private message in a chat file, read plainly."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    for number, line in enumerate(lines):
        if re.search(r"direct message|privately", line, re.I):
            rest = line.partition(":")[2].strip() if re.search(r"\)\s*:\s*\S", line) else ""
            found.append(rest or lines[number + 1].strip())
    assert found, path
    return found


@pytest.mark.parametrize("chat_first", [False, True], ids=["transcript first", "chat first"])
def test_a_chat_saved_beside_its_transcript_is_the_meetings_side_channel(
    tmp_path: Path, store: Store, service: CaptureService, chat_first: bool
) -> None:
    folder = tmp_path / "Zoom"
    folder.mkdir()
    transcript = shutil.copy(
        FIXTURES / "zoom.vtt", folder / "2026-03-10_sprint-14_Recording.transcript.vtt"
    )
    chat = shutil.copy(
        FIXTURES / "zoom_chat.txt", folder / "2026-03-10_sprint-14_meeting_saved_chat.txt"
    )
    first, second = (chat, transcript) if chat_first else (transcript, chat)
    results = {Path(r.path).name: r for r in service.capture_paths([Path(first), Path(second)])}
    meeting = results[Path(transcript).name].capture_id
    chat_id = results[Path(chat).name].capture_id
    assert meeting is not None and chat_id is not None
    stored = store.captures.get(chat_id)
    assert stored is not None and stored.channel_of == meeting
    assert [c.id for c in store.captures.side_channels(meeting)] == [chat_id]
    assert stored.title.endswith("(chat)")
    facts = [f for f in store.facts.all("excerpt", capture_id=chat_id)]
    assert facts and all(f.capture_title and f.capture_title.endswith("(chat)") for f in facts)
    assert store.captures.delete(meeting)
    again = store.captures.get(chat_id)
    assert again is not None and again.channel_of is None  # the chat stays, on its own


def test_a_chat_from_another_meeting_stays_on_its_own(
    tmp_path: Path, store: Store, service: CaptureService
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(
        FIXTURES / "zoom.vtt", tmp_path / "a" / "2026-03-10_sprint-14_Recording.transcript.vtt"
    )
    shutil.copy(
        FIXTURES / "zoom_chat.txt", tmp_path / "a" / "2026-03-10_budget_meeting_saved_chat.txt"
    )
    shutil.copy(
        FIXTURES / "zoom_chat_old.txt",
        tmp_path / "b" / "2026-03-10_sprint-14_meeting_saved_chat.txt",
    )
    service.capture_paths([tmp_path / "a", tmp_path / "b"])
    assert all(c.channel_of is None for c in store.captures.all())


def test_a_teams_word_download_reads_as_a_transcript(
    tmp_path: Path, store: Store, service: CaptureService
) -> None:
    path = tmp_path / "Data retention policy review.docx"
    path.write_bytes(docx_bytes("teams.docx"))
    result = service.capture_file(path)
    assert result.status == "captured" and result.format == "teams_docx"
    title, text, source_format, _ = store.captures.source(result.capture_id or 0)
    assert title == "Data retention policy review" and source_format == "teams_docx"
    assert text.startswith("Siobhán O'Neill: Thanks for joining.")
    meta = store.captures.meta(result.capture_id or 0)
    assert len(meta["source_lines"]) == len(text.split("\n"))


def test_a_word_document_is_read_by_its_content_whatever_its_name(
    tmp_path: Path, service: CaptureService
) -> None:
    path = tmp_path / "minutes.txt"
    path.write_bytes(docx_bytes("notes.docx"))
    result = service.capture_file(path)
    assert result.status == "captured" and result.format == "docx_notes"


@pytest.mark.parametrize(
    "data",
    [b"PK\x03\x04 not really a zip", b"Ana: this is text, not a document\n", b""],
    ids=["broken zip", "text named .docx", "empty"],
)
def test_a_docx_that_is_no_word_document_is_refused_with_what_to_do(
    tmp_path: Path, store: Store, service: CaptureService, data: bytes
) -> None:
    before = dump(store)
    path = tmp_path / "call.docx"
    path.write_bytes(data)
    result = service.capture_file(path)
    assert result.status == "rejected"
    assert "not a Word document memo can read" in (result.error or "")
    assert "save it again as .docx" in (result.error or "")
    assert dump(store) == before


def test_a_zip_without_a_document_body_is_refused(tmp_path: Path) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/other.xml", "<x/>")
    with pytest.raises(CaptureRejected, match="no document body"):
        docx_text(out.getvalue(), "call.docx")


def capture_everything(tmp_path: Path) -> tuple[Store, list[int]]:
    store = Store(tmp_path / "all.db")
    service = CaptureService(store, CaptureOptions(max_chars=100_000, user="tester"))
    files = [FIXTURES / n for n in EXPECTED if not n.endswith(".docx")]
    files += sorted(p for p in DEV.glob("2026-*")) if DEV.is_dir() else []
    ids = [r.capture_id for r in service.capture_paths(files) if r.capture_id is not None]
    return store, ids


def test_evidence_opens_the_right_lines_for_every_format(tmp_path: Path) -> None:
    """Each decision's and action item's quote is on the stored lines it names, and on
    the file lines those map back to."""
    store, ids = capture_everything(tmp_path)
    checked = 0
    with store:
        for capture_id in ids:
            _, text, _, _ = store.captures.source(capture_id)
            meta = store.captures.meta(capture_id)
            with store.reader.connect() as conn:
                from sqlalchemy import text as sql

                raw = conn.execute(
                    sql("SELECT raw_text FROM captures WHERE id = :c"), {"c": capture_id}
                ).scalar_one()
            stored, file_lines = text.split("\n"), raw.split("\n")
            items = [
                *store.captures.decisions([capture_id]),
                *store.captures.action_items([capture_id]),
            ]
            for item in items:
                if item.line_start is None or item.line_end is None:
                    continue
                shown = stored[item.line_start - 1 : item.line_end]
                assert EvidenceIndex(shown).locate(item.evidence_quote or "") is not None
                if "source_lines" in meta:
                    first = meta["source_lines"][item.line_start - 1][0]
                    last = meta["source_lines"][item.line_end - 1][1]
                    there = " ".join(file_lines[first - 1 : last])
                    words = (item.evidence_quote or "").split()
                    assert words[0] in there and words[-1] in there, (item, there)
                checked += 1
    assert checked >= 50


def test_capture_json_says_which_format_was_read_and_what_was_left_out(memo: Any) -> None:  # noqa: ANN401
    run = memo(
        "capture",
        str(FIXTURES / "teams_saved_as.txt"),
        str(FIXTURES / "broken_timing.vtt"),
        "--json",
    )
    assert run.code == 0, run.stderr
    results = {Path(r["path"]).name: r for r in run.json()["results"]}
    assert results["teams_saved_as.txt"]["format"] == "teams_vtt"
    assert results["teams_saved_as.txt"]["skipped"] == {}
    assert results["broken_timing.vtt"]["format"] == "zoom_vtt"
    assert results["broken_timing.vtt"]["skipped"] == {"garbled_timing": 2}
    plain = memo("capture", str(FIXTURES / "broken_timing.vtt"))
    assert "zoom_vtt" in plain.stdout  # unchanged, and it still says what it read


@pytest.mark.slow
@needs_dev_set
def test_bench_formats_prints_the_dev_set_figures(memo: Any) -> None:  # noqa: ANN401
    run = memo("bench", "formats", "--data", str(DEV), "--json", timeout=300)
    assert run.code == 0, run.stderr
    figures = run.json()
    assert figures["formats_right"] == figures["formats_known"] == 14
    assert figures["markup_lines"] == 0 and figures["errors"] == 0
    assert figures["lines_held"] == figures["turns"]
    chat = next(f for f in figures["files"] if f["format"] == "zoom_chat")
    assert chat["companion_linked"] is True
    shown = memo("bench", "formats", "--data", str(DEV), timeout=300).stdout
    assert "formats right 14/14" in shown and "markup lines stored 0" in shown


def test_the_meetings_page_shows_its_chat_and_the_chat_names_its_meeting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.services import offline
    from support.tui import as_text, drive, settle

    from memo_tui.ui.app import MemoApp

    services = offline(tmp_path, monkeypatch)
    folder = tmp_path / "Zoom"
    folder.mkdir()
    meeting_file = folder / "2026-03-10_sprint-14_Recording.transcript.vtt"
    shutil.copy(FIXTURES / "zoom.vtt", meeting_file)
    shutil.copy(FIXTURES / "zoom_chat.txt", folder / "2026-03-10_sprint-14_meeting_saved_chat.txt")
    results = services.capture.capture_paths([folder])
    meeting = next(r.capture_id for r in results if r.path == str(meeting_file))
    chat = next(r.capture_id for r in results if r.path != str(meeting_file))
    assert meeting is not None and chat is not None
    app = MemoApp(services)

    async def script(pilot: Any) -> None:  # noqa: ANN401
        app.open_capture(meeting)
        await settle(pilot)
        record = as_text(app.screen.query_one("#capture-record").content)
        assert f"From the meeting's chat (capture {chat})" in record
        assert "(zoom_vtt)" in record and "each keeps the file lines it came from" in record
        transcript = as_text(app.screen.query_one("#capture-transcript").content)
        assert "Chat" in transcript.split("Transcript", 1)[1]
        app.open_capture(chat)
        await settle(pilot)
        record = as_text(app.screen.query_one("#capture-record").content)
        assert f"the chat of Sprint 14 (capture {meeting})" in record
        left_out = record.split("left out of the file: ", 1)[1]
        assert "1 direct message" in left_out and "2 note-taking bots' messages" in left_out

    drive(app, script)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an older Teams export: voices, no cue ids
        (
            "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Ana Lima>We ship Monday.</v>\n\n"
            "00:00:03.500 --> 00:00:05.000\n<v Raj Patel>Agreed.</v>\n",
            "teams_vtt",
        ),
        # Zoom with the header lost: numbered cues, names before a colon
        (
            "1\n00:00:01.000 --> 00:00:03.000\nAna Lima: We ship Monday.\n\n"
            "2\n00:00:03.500 --> 00:00:05.000\nRaj Patel: Agreed.\n",
            "zoom_vtt",
        ),
        # captions with nobody named
        (
            "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nwe ship monday\n\n"
            "00:00:03.500 --> 00:00:05.000\nagreed\n",
            "webvtt",
        ),
        # a Meet transcript whose doc starts with its tab's heading
        (
            "\U0001f4d6 Transcript\nFeb 24, 2026\n\n00:00:00\n \nAna Lima: We ship Monday.\n"
            "Raj Patel: Agreed.\n00:01:10\n \nAna Lima: Good.\n",
            "google_meet_txt",
        ),
    ],
    ids=["teams without ids", "zoom without header", "plain captions", "meet tab heading"],
)
def test_the_format_is_read_from_the_content(text: str, expected: str) -> None:
    transcript = parse(text, "call.txt", "txt")
    assert transcript.source_format == expected
    assert_no_scaffolding(transcript)


def test_a_folder_capture_skips_the_lock_file_word_keeps_open(
    tmp_path: Path, service: CaptureService
) -> None:
    (tmp_path / "minutes.docx").write_bytes(docx_bytes("notes.docx"))
    (tmp_path / "~$minutes.docx").write_bytes(b"\x05owner")  # Word's, while it is open
    results = service.capture_paths([tmp_path])
    assert [(Path(r.path).name, r.status) for r in results] == [("minutes.docx", "captured")]


# What a first review broke the readers with (each failed before its fix).

CHAT_TRICKS = """10:01:00 From Bob Stone to Everyone: we ship friday
\tok?
10:02:00 From Dee (PM: Ops) to Raj Patel (Direct Message):
\tmy salary is 90k
10:03:00 From Dee (PM: Ops) to Everyone:
\tnoted, 14:00 works
10:04:00 From Eve Park to Everyone (in Breakout Room 2):
\tbreakout summary: we agreed on Monday
"""


def test_a_colon_in_a_name_lets_no_direct_message_through_and_rooms_are_public() -> None:
    transcript = parse(CHAT_TRICKS, "chat.txt", "txt")
    assert transcript.source_format == "zoom_chat"
    assert "90k" not in transcript.text and "90k" not in transcript.raw_text
    assert transcript.skipped == {"direct_message": 1}
    assert transcript.lines[1:] == [
        "Dee: noted, 14:00 works",  # what a display name brackets at its end is not the name
        "Eve Park: breakout summary: we agreed on Monday",
    ]


def test_a_chat_that_lost_its_tabs_keeps_no_direct_message() -> None:
    lines = []
    for minute, who in enumerate(["Ana Lima", "Raj Patel", "Ana Lima", "Raj Patel"] * 2):
        lines += [f"10:0{minute}:00 From {who} to Everyone:", "first line of it", "and a second"]
    lines += ["10:09:00 From Raj Patel to Ana Lima(Privately):", "salary 90k", "really"]
    text = "\n".join(lines) + "\n"
    for pasted in (text, "Notes from the call\n\n" + text.replace("10:0", "Raj said at 10:0", 4)):
        transcript = parse(pasted, "notes.txt", "txt")
        assert "90k" not in transcript.raw_text and "90k" not in transcript.text
        assert transcript.skipped["direct_message"] == 1


def test_trailing_spaces_on_timing_lines_lose_no_cue() -> None:
    text = "".join(
        f"{n}\n00:00:0{n}.000 --> 00:00:0{n}.900 \t\nAna Lima: line {n}\n\n" for n in range(1, 4)
    )
    transcript = parse("WEBVTT\n\n" + text, "call.vtt", "vtt")
    assert transcript.lines == ["Ana Lima: line 1 line 2 line 3"] and not transcript.skipped


def test_an_otter_export_with_one_space_before_the_time_keeps_its_speakers() -> None:
    text = "Sam Lindqvist 0:04\nOkay, we're live.\n\nPriya Nair 0:18\nHello.\n\n"
    text += "Unknown Speaker 1:02:11\nWrong call?\n\nTranscribed by https://otter.ai\n"
    transcript = parse(text, "planning.txt", "txt")
    assert transcript.source_format == "otter_txt"
    assert transcript.lines == [
        "Sam Lindqvist: Okay, we're live.",
        "Priya Nair: Hello.",
        "Unknown Speaker: Wrong call?",
    ]


def test_speech_that_mentions_an_id_an_arrow_or_a_time_is_kept() -> None:
    text = (
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n"
        "Ana Lima: the request was 9f2c1a4e-1111-4c2d-9a0b-5d6e7f809a1b\n\n"
        "2\n00:00:03.000 --> 00:00:04.000\nRaj Patel: upload --> scan --> ship\n\n"
        "3\n00:00:05.000 --> 00:00:06.000\nAna Lima: 14:00\n"
    )
    transcript = parse(text, "call.vtt", "vtt")
    assert len(transcript.turns) == 3 and not transcript.skipped


@pytest.mark.parametrize(
    ("cues", "expected"),
    [
        (
            ">> ANA LIMA: Shall we ship Monday?\n>> RAJ PATEL: Yes.",
            ["ANA LIMA: Shall we ship Monday?", "RAJ PATEL: Yes."],
        ),
        (
            "- Ana Lima: Shall we ship Monday?\n- Raj Patel: Yes.",
            ["Ana Lima: Shall we ship Monday?", "Raj Patel: Yes."],
        ),
        (
            "Ana Lima: Shall we ship\nMonday? Right: it is.",
            ["Ana Lima: Shall we ship Monday? Right: it is."],
        ),
        ("{\\an8}Ana Lima: Shall we ship Monday?", ["Ana Lima: Shall we ship Monday?"]),
    ],
    ids=["chevrons", "dashes", "a colon mid-sentence", "position tag"],
)
def test_each_speaker_in_one_cue_gets_their_own_turn(cues: str, expected: list[str]) -> None:
    transcript = parse(f"1\n00:00:01,000 --> 00:00:04,000\n{cues}\n", "call.srt", "srt")
    assert transcript.lines == expected


def test_a_meet_doc_under_its_tab_heading_stores_only_speech() -> None:
    text = (
        "\U0001f4d6 Transcript\nFeb 24, 2026\nAttendees\nAna Lima, Raj Patel\nTranscript\n"
        "00:00:00\n \nAna Lima: We ship Monday.\nRaj Patel: Agreed.\n"
    )
    transcript = parse(text, "sync.txt", "txt")
    assert transcript.lines == ["Ana Lima: We ship Monday.", "Raj Patel: Agreed."]
    assert transcript.attendees == ["Ana Lima", "Raj Patel"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("teams.vtt", "teams_vtt"), ("plain.txt", "plain_txt"), ("zoom_chat.txt", "zoom_chat")],
)
def test_an_srt_extension_is_a_hint_the_content_overrules(name: str, expected: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert parse(text, "saved.srt", "srt").source_format == expected


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "agenda.txt",
            "Offsite plan\nWelcome\t9:30\nRoadmap\t9:45\nLunch\t12:00\nClose\t16:30\n\n"
            "Ana: we ship Monday\nRaj: agreed\n",
            "plain_txt",
        ),
        (
            "triage.md",
            "# Captions bug\n\nThe file had\n\n```\n00:00:01.000 --> 00:00:02.000\nhello\n\n"
            "00:00:03.000 --> 00:00:04.000\nworld\n```\n\n## Decisions\n- Fix the reader.\n"
            "- Ship on Monday.\n- Tell support.\n",
            "markdown_notes",
        ),
        (
            "sync.txt",
            "Weekly sync - Transcript\nDate: 2026-03-03\nAttendees: Ana Lima, Raj Patel\n\n"
            "Ana Lima: We ship Monday.\nRaj Patel: Agreed.\n",
            "plain_txt",
        ),
    ],
    ids=["agenda with times", "notes quoting cues", "a title ending in Transcript"],
)
def test_notes_that_look_a_little_like_an_export_stay_notes(
    name: str, text: str, expected: str
) -> None:
    transcript = parse(text, name, name.rsplit(".", 1)[1])
    assert transcript.source_format == expected and transcript.text == text


def test_a_teams_duration_note_is_no_title_and_join_notices_are_no_speech() -> None:
    text = (
        'WEBVTT\n\nNOTE duration:"00:10:17.5430000"\n\nNOTE language:en-us\n\n'
        "00:00:01.000 --> 00:00:02.000\n<v Ana Lima>We ship Monday.</v>\n\n"
        "00:00:03.000 --> 00:00:04.000\nRaj Patel joined the meeting\n"
    )
    transcript = parse(text, "2026-03-03_sync.vtt", "vtt")
    assert transcript.title == "Sync"
    assert transcript.lines == ["Ana Lima: We ship Monday."]


@pytest.mark.parametrize("chat_first", [False, True], ids=["transcript first", "chat first"])
def test_zoom_cloud_names_pair_a_chat_with_its_own_meeting_only(
    tmp_path: Path, store: Store, service: CaptureService, chat_first: bool
) -> None:
    shutil.copy(FIXTURES / "zoom.vtt", tmp_path / "GMT20260310-140000_Recording.transcript.vtt")
    chat = shutil.copy(
        FIXTURES / "zoom_chat.txt", tmp_path / "GMT20260310-100012_RecordingnewChat.txt"
    )
    meeting = shutil.copy(
        FIXTURES / "teams.vtt", tmp_path / "GMT20260310-100012_Recording.transcript.vtt"
    )
    notes = shutil.copy(
        FIXTURES / "notes.md", tmp_path / "GMT20260310-100012_Recording.transcript.md"
    )
    order = [chat, meeting, notes] if chat_first else [notes, meeting, chat]
    results = {Path(r.path).name: r.capture_id for r in service.capture_paths(map(Path, order))}
    stored = store.captures.get(results[Path(chat).name] or 0)
    assert stored is not None and stored.channel_of == results[Path(meeting).name]


def test_a_zoom_recording_folder_pairs_by_the_folder(
    tmp_path: Path, store: Store, service: CaptureService
) -> None:
    folder = tmp_path / "2026-03-10 10.00.12 Sprint 14 planning 85512345678"
    folder.mkdir()
    shutil.copy(FIXTURES / "zoom.vtt", folder / "closed_caption.vtt")
    shutil.copy(FIXTURES / "zoom_chat.txt", folder / "meeting_saved_chat.txt")
    meeting, chat = service.capture_paths(
        [folder / "closed_caption.vtt", folder / "meeting_saved_chat.txt"]
    )
    assert meeting.title == "Sprint 14 planning"
    stored = store.captures.get(chat.capture_id or 0)
    assert stored is not None and stored.channel_of == meeting.capture_id
    assert stored.title == "Sprint 14 planning (chat)" and stored.occurred_at == "2026-03-10"


def test_the_limit_is_on_what_is_stored_not_on_an_exports_scaffolding(
    tmp_path: Path, store: Store
) -> None:
    service = CaptureService(store, CaptureOptions(max_chars=3_000, user="tester"))
    cues = "".join(
        f"f466b38c-4da7-461a-acc7-49977358028c/{n}-0\n00:00:{n:02}.000 --> 00:00:{n:02}.900\n"
        f"<v Ana Lima (External)>Point {n}.</v>\n\n"
        for n in range(1, 60)
    )
    export = tmp_path / "call.vtt"
    export.write_text("WEBVTT\n\n" + cues)
    assert len(export.read_text()) > 3_000
    assert service.capture_file(export).status == "captured"
    notes = tmp_path / "notes.txt"
    notes.write_text("Ana: " + "words " * 600)
    refused = service.capture_file(notes)
    assert refused.status == "rejected" and "3,000-character limit" in (refused.error or "")


def test_a_word_document_with_pictures_is_not_held_to_the_text_limit(
    tmp_path: Path, service: CaptureService
) -> None:
    document = io.BytesIO(docx_bytes("notes.docx"))
    with zipfile.ZipFile(document, "a") as archive:
        archive.writestr("word/media/image1.png", bytes(range(256)) * 8_000, zipfile.ZIP_STORED)
    path = tmp_path / "minutes.docx"
    path.write_bytes(document.getvalue())
    assert path.stat().st_size > 1_000_000
    assert service.capture_file(path).status == "captured"


def test_a_word_document_that_unpacks_past_the_cap_is_refused(tmp_path: Path) -> None:
    document = io.BytesIO(docx_bytes("notes.docx"))
    with zipfile.ZipFile(document, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/styles2.xml", b"<a/>" + b" " * 300_000_000)
    with pytest.raises(CaptureRejected, match="unpacks to"):
        docx_text(document.getvalue(), "bomb.docx")


def test_capturing_a_broken_file_again_still_says_what_was_left_out(
    service: CaptureService,
) -> None:
    first = service.capture_file(FIXTURES / "broken_timing.vtt")
    again = service.capture_file(FIXTURES / "broken_timing.vtt")
    assert again.status == "unchanged" and again.skipped == first.skipped == {"garbled_timing": 2}


def test_a_timestamped_line_without_its_time_carries_on_unless_it_names_someone() -> None:
    text = (
        "Retro\n\n[00:00:01] Ana Lima: Morning.\n[00:00:02] Raj Patel: Morning.\n"
        "[00:00:03] Ana Lima: We keep the old scanner\nuntil May.\n"
        "Raj Patel: Then I'll order the new ones.\n"
    )
    transcript = parse(text, "retro.txt", "txt")
    assert transcript.source_format == "timestamped_txt"
    assert transcript.lines[0] == "Retro"  # the lines above the first time stay
    assert transcript.lines[3:] == [
        "Ana Lima: We keep the old scanner until May.",
        "Raj Patel: Then I'll order the new ones.",
    ]


# What a second review found (each failed before its fix).

GEMINI = """\U0001f4dd Notes
Mar 2, 2026
Weekly product sync
Summary
Alice Smith and Bob Jones agreed to ship on Friday.
Suggested next steps
Bob Jones will send the release notes by Thursday noon.

\U0001f4d6 Transcript
Mar 2, 2026
Weekly product sync - Transcript
00:00:00

Alice Smith: Good morning everyone.
Bob Jones: QA signed off on staging.
00:05:12

Alice Smith: Great, we ship Friday.

Meeting ended after 00:06:40 \U0001f44b
"""

READS = {
    "gemini notes, then the transcript": (
        GEMINI,
        "sync.txt",
        "google_meet_txt",
        [
            "Alice Smith: Good morning everyone.",
            "Bob Jones: QA signed off on staging.",
            "Alice Smith: Great, we ship Friday.",
        ],
    ),
    "meet without markers": (
        "Weekly sync - Transcript\nAttendees\nAlice Smith, Bob Jones\nTranscript\n"
        "Alice Smith: We ship Friday.\nBob Jones: Agreed.\n"
        "This editable transcript was computer generated and might contain errors.\n",
        "sync.txt",
        "google_meet_txt",
        ["Alice Smith: We ship Friday.", "Bob Jones: Agreed."],
    ),
    "am/pm times": (
        "Call notes\n[10:02 AM] Alice Smith: Morning.\n[10:03 AM] Bob Jones: Hi.\n"
        "[10:04 AM] Alice Smith: We ship Friday.\n[10:05 AM] Bob Jones: Agreed.\n",
        "call.txt",
        "timestamped_txt",
        [
            "Call notes",
            "Alice Smith: Morning.",
            "Bob Jones: Hi.",
            "Alice Smith: We ship Friday.",
            "Bob Jones: Agreed.",
        ],
    ),
    "teams timings without padding, names alone on a line": (
        "0:0:0.0 --> 0:0:5.230\nAlice Smith\nGood morning.\n\n"
        "0:0:5.230 --> 0:0:9.0\nBob Jones\nThe budget is approved.\n\n"
        "0:0:9.0 --> 0:0:14.500\nCarol Wu\nI'll send the PO.\n",
        "call.txt",
        "webvtt",
        [
            "Alice Smith: Good morning.",
            "Bob Jones: The budget is approved.",
            "Carol Wu: I'll send the PO.",
        ],
    ),
    "zoom names of any shape": (
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n\U0001f3a7 Priya Shah: Can you hear me?\n\n"
        "2\n00:00:02.500 --> 00:00:04.000\n+44 20 7946 0958: Yes, loud and clear.\n\n"
        "3\n00:00:04.500 --> 00:00:06.000\njb lefevre: Me too.\n",
        "call.vtt",
        "zoom_vtt",
        [
            "\U0001f3a7 Priya Shah: Can you hear me?",
            "+44 20 7946 0958: Yes, loud and clear.",
            "jb lefevre: Me too.",
        ],
    ),
    "rolling captions": (
        "WEBVTT\nKind: captions\n\n00:00:00.000 --> 00:00:02.350 align:start position:0%\n \n"
        "welcome<00:00:00.520><c> back</c>\n\n"
        "00:00:02.350 --> 00:00:02.360 align:start position:0%\nwelcome back\n \n\n"
        "00:00:02.360 --> 00:00:05.000 align:start position:0%\nwelcome back\n"
        "we're<00:00:02.800><c> going</c>\n",
        "talk.vtt",
        "webvtt",
        ["welcome back", "we're going"],  # said once each; nobody named, a line a cue
    ),
    "sounds in brackets": (
        "1\n00:00:01,000 --> 00:00:02,000\n[Jane Doe] Revenue is up.\n\n"
        "2\n00:00:02,500 --> 00:00:03,000\n[PHONE RINGING]\n\n"
        "3\n00:00:03,500 --> 00:00:05,000\n[Speaking Spanish] hola\n\n"
        "4\n00:00:05,500 --> 00:00:07,000\nAnd costs are down.\n",
        "call.srt",
        "srt",
        ["Jane Doe: Revenue is up. [PHONE RINGING] [Speaking Spanish] hola And costs are down."],
    ),
    "zoom closed captions": (
        "[Alice Smith] 10:02:15\nGood morning.\n[Bob Jones] 10:02:21\nLoud and clear.\n",
        "closed_caption.txt",
        "zoom_cc_txt",
        ["Alice Smith: Good morning.", "Bob Jones: Loud and clear."],
    ),
    "one otter turn": (
        "Speaker 1  0:00\nJust testing the recorder.\n",
        "memo.txt",
        "otter_txt",
        ["Speaker 1: Just testing the recorder."],
    ),
    "one chat message": (
        "10:01:00 From Alice Smith to Everyone:\n\tthe deck is in the channel\n",
        "chat.txt",
        "zoom_chat",
        ["Alice Smith: the deck is in the channel"],
    ),
    "one cue saved as .txt": (
        "1\n00:00:01,000 --> 00:00:03,000\nAlice: We ship Friday.\n",
        "clip.txt",
        "srt",
        ["Alice: We ship Friday."],
    ),
    "speech that sounds like a notice": (
        "Sarah Chen  0:04\nSorry, Dan just left the call.\n\n"
        "Tom Okafor  0:09\nAgreed. And I stopped recording.\n",
        "sync.txt",
        "otter_txt",
        [
            "Sarah Chen: Sorry, Dan just left the call.",
            "Tom Okafor: Agreed. And I stopped recording.",
        ],
    ),
    "named cues": (
        "WEBVTT\n\nintro\n00:00:01.000 --> 00:00:02.000\n<v Mary Jones>Welcome.</v>\n\n"
        "chapter-2\n00:00:03.000 --> 00:00:04.000\n<v Tom Baker>Thanks.</v>\n",
        "board.vtt",
        "teams_vtt",
        ["Mary Jones: Welcome.", "Tom Baker: Thanks."],
    ),
    "titles and companies after a name": (
        "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Alice Smith, CFO>Welcome.</v>\n\n"
        "00:00:03.000 --> 00:00:04.000\n<v Priya Shah | Acme.ai>Thanks.</v>\n\n"
        "00:00:05.000 --> 00:00:06.000\n<v Executive Assistant>Booked.</v>\n",
        "board.vtt",
        "teams_vtt",
        ["Alice Smith: Welcome.", "Priya Shah: Thanks.", "Executive Assistant: Booked."],
    ),
}


@pytest.mark.parametrize("case", sorted(READS))
def test_real_export_shapes_read_as_people_would(case: str) -> None:
    text, name, fmt, lines = READS[case]
    transcript = parse(text, name, name.rsplit(".", 1)[1])
    assert (transcript.source_format, transcript.lines) == (fmt, lines)
    assert_no_scaffolding(transcript)


def test_gemini_notes_above_a_transcript_are_counted_not_stored() -> None:
    transcript = parse(GEMINI, "sync.txt", "txt")
    assert transcript.title == "Weekly product sync"
    assert transcript.skipped == {"outside_turn": 7}  # the notes tab, its headings included


NOTES = {
    "a shift log": "Shift handover - 4 March\n\n07:00 From night shift to day shift: two pallets "
    "in bay 3.\nForklift 2 is out of service.\nAlice to call the vendor before 10.\n",
    "a log with times": "Incident 4471\nRoot cause: a bad deploy.\n09:02 alerts fired\n"
    "09:05 rollback started\n09:20 recovered\n09:45 all clear\nOwner for postmortem: Bob\n",
    "a schedule": "Tuesday plan\n9:00 -> 10:00 standup and triage\n10:00 -> 12:00 design review\n"
    "13:00 -> 15:00 customer calls\n",
    "a schedule in markdown": "# Workshop day\n\n9:00 --> 10:30 Intro\n10:30 --> 12:00 "
    "Breakouts: teams of four\n13:00 --> 14:00 Readouts\n",
    "quoting two chat lines": "Retro notes\n\nGood: the chat worked.\n10:01 From Ana to "
    "Everyone: link here\n10:02 From Bob to Everyone: thanks\nBad: audio.\nAction: Carol fixes "
    "the mic.\n",
    "a transcript's notes": "Customer call - notes from the transcript\nAcme, with Jane (CTO)\n\n"
    "10:00\nIntro, they use our API.\n10:15\nPain point: rate limits.\n",
}


@pytest.mark.parametrize("case", sorted(NOTES))
def test_notes_are_stored_as_written(case: str) -> None:
    text = NOTES[case]
    name = "notes.md" if "markdown" in case else "notes.txt"
    transcript = parse(text, name, name.rsplit(".", 1)[1])
    assert transcript.as_written and transcript.text == transcript.raw_text == text
    assert transcript.skipped == {}


def test_a_direct_reply_pasted_into_notes_is_withheld_to_its_end() -> None:
    text = (
        "Retro notes - 4 March\n\nFrom the call's chat:\n"
        "10:04:00 From Bob Jones to Alice Smith (Direct Message):\n"
        '\tReplying to "can you cover for me"\n\t\n\tyes, but Carol is leaving in May\n'
        "\nAction: Alice books the retro room.\n"
    )
    transcript = parse(text, "retro.txt", "txt")
    assert "Carol is leaving" not in transcript.raw_text and "Carol" not in transcript.text
    assert "Action: Alice books the retro room." in transcript.text
    assert transcript.skipped == {"direct_message": 1}


def test_utf16_without_a_bom_is_read() -> None:
    text = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Zo\u00eb Brannigan>Hello.</v>\n"
    for codec in ("utf-16-le", "utf-16-be"):
        assert parse(decode(text.encode(codec), "a.vtt"), "a.vtt", "vtt").lines == [
            "Zo\u00eb Brannigan: Hello."
        ]


def test_zoom_cloud_downloads_pair_the_chat_with_the_transcript_not_its_captions(
    tmp_path: Path, store: Store, service: CaptureService
) -> None:
    stamp = "GMT20260310-100012_Recording"
    meeting = shutil.copy(FIXTURES / "zoom.vtt", tmp_path / f"{stamp}.transcript.vtt")
    shutil.copy(FIXTURES / "teams.vtt", tmp_path / f"{stamp}.cc.vtt")
    chat = shutil.copy(FIXTURES / "zoom_chat.txt", tmp_path / f"{stamp}newChat.txt")
    results = {Path(r.path).name: r for r in service.capture_paths([tmp_path])}
    assert results[Path(meeting).name].title == "Zoom meeting 10:00 GMT"
    stored = store.captures.get(results[Path(chat).name].capture_id or 0)
    assert stored is not None and stored.channel_of == results[Path(meeting).name].capture_id
