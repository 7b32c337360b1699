"""Sources normalized to turns with stable line numbers; encodings; speakers kept."""

from __future__ import annotations

import codecs

import pytest

from memo_tui.core.capture.decode import decode
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.sources import parse, split_speaker

TXT = "Atlas sync\nDate: 2026-09-08\n\nPriya Natarajan: We go with Postgres.\nSam Chen: Agreed.\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_numbers_are_the_same_whatever_the_newlines(newline: str) -> None:
    text = decode(TXT.replace("\n", newline).encode(), "a.txt")
    transcript = parse(text, "a.txt", "txt")
    assert transcript.lines[3] == "Priya Natarajan: We go with Postgres."
    turn = next(t for t in transcript.turns if t.speaker == "Priya Natarajan")
    assert turn.line == 4 and turn.text == "We go with Postgres."
    assert transcript.title == "Atlas sync"
    assert transcript.occurred_at is not None and transcript.occurred_at.isoformat() == "2026-09-08"


@pytest.mark.parametrize(
    "data",
    [
        TXT.encode("utf-8"),
        codecs.BOM_UTF8 + TXT.encode("utf-8"),
        codecs.BOM_UTF16_LE + TXT.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + TXT.encode("utf-16-be"),
    ],
    ids=["utf8", "utf8-bom", "utf16-le-bom", "utf16-be-bom"],
)
def test_supported_encodings_decode_to_the_same_text(data: bytes) -> None:
    assert decode(data, "a.txt") == TXT


def test_invalid_utf8_and_nul_bytes_are_refused() -> None:
    with pytest.raises(CaptureRejected, match="not valid UTF-8"):
        decode(b"Priya: caf\xe9 time\n", "a.txt")
    with pytest.raises(CaptureRejected, match="binary"):
        decode(b"Priya: hi\x00\x01\x02", "a.txt")


def test_timestamped_and_bold_speakers() -> None:
    text = "[00:03:12] Elena Kowalski: Replication lag.\n**Tom Adeyemi:** It paged me.\n"
    turns = parse(text, "retro.md", "md").turns
    assert [(t.line, t.speaker, t.text) for t in turns] == [
        (1, "Elena Kowalski", "Replication lag."),
        (2, "Tom Adeyemi", "It paged me."),
    ]


def test_labels_are_not_speakers() -> None:
    text = "Date: 2026-09-08\nAttendees: Ana, Bo\nAgreed: ship it\nAna: fine by me\n"
    speakers = [t.speaker for t in parse(text, "n.txt", "txt").turns]
    assert speakers == [None, None, None, "Ana"]


def test_otter_export_is_a_turn_per_speaker_block() -> None:
    text = "Priya Natarajan  0:04\nOkay, let's start.\nSecond line.\n\nSam Cheng  1:02:11\nHello.\n"
    transcript = parse(text, "2026-11-03-planning.txt", "txt")
    assert transcript.source_format == "otter_txt"
    assert transcript.lines == [
        "Priya Natarajan: Okay, let's start. Second line.",
        "Sam Cheng: Hello.",
    ]
    assert [t.source_lines for t in transcript.turns] == [(2, 3), (6, 6)]
    assert transcript.title == "Planning"  # from the file name, not the speaker header


VTT = """WEBVTT

NOTE Beacon review

00:00:03.200 --> 00:00:07.600
<v Ingrid Halvorsen>Drivers lose signal in the tunnels,</v>

00:00:08.000 --> 00:00:09.000
<v Ingrid Halvorsen>so it has to work offline.</v>

00:00:10.000 --> 00:00:12.000
<v.loud Sam Chen>We&apos;ll go offline-first &amp; sync later.</v>
"""


def test_vtt_voices_merge_consecutive_cues_and_remember_file_lines() -> None:
    transcript = parse(VTT, "review.vtt", "vtt")
    assert transcript.title == "Beacon review"
    assert transcript.lines == [
        "Ingrid Halvorsen: Drivers lose signal in the tunnels, so it has to work offline.",
        "Sam Chen: We'll go offline-first & sync later.",
    ]
    assert [t.source_lines for t in transcript.turns] == [(6, 9), (12, 12)]


SRT = """1
00:00:01,000 --> 00:00:04,000
Priya Natarajan: We build invoicing ourselves.

2
00:00:04,500 --> 00:00:06,000
It is not that hard.

3
00:00:07,000 --> 00:00:09,000
Tom Adeyemi: Famous last words.
"""


def test_srt_unnamed_cues_continue_the_previous_speaker() -> None:
    transcript = parse(SRT, "2026-10-06-cobalt.srt", "srt")
    assert transcript.lines == [
        "Priya Natarajan: We build invoicing ourselves. It is not that hard.",
        "Tom Adeyemi: Famous last words.",
    ]
    assert transcript.occurred_at is not None and transcript.occurred_at.isoformat() == "2026-10-06"


def test_notes_without_speakers_are_turns_without_speakers() -> None:
    text = (
        "Steering notes\nDate: 2026-11-17\n\nIngrid opened the meeting.\n"
        "Atlas: on track.\nCobalt: blocked on tax.\nWe agreed to wait.\n"
        "Pilot numbers look good.\nNext steering in January.\n"
    )
    transcript = parse(text, "notes.txt", "txt")
    assert transcript.speakers == []
    assert [t.text for t in transcript.turns][3] == "Atlas: on track."


@pytest.mark.parametrize(
    ("line", "speaker", "said"),
    [
        ("PRIYA NATARAJAN: We ship Friday.", "PRIYA NATARAJAN", "We ship Friday."),
        ("Speaker 1: We ship Friday.", "Speaker 1", "We ship Friday."),
        ("Priya Natarajan (00:12:03): We ship Friday.", "Priya Natarajan", "We ship Friday."),
        ("00:12:03 Priya Natarajan: We ship Friday.", "Priya Natarajan", "We ship Friday."),
        ("(12:03) Dr. Okafor: We ship Friday.", "Dr. Okafor", "We ship Friday."),
        ("Jean-Luc Picard: Make it so.", "Jean-Luc Picard", "Make it so."),
        ("Note: the build is red.", None, "Note: the build is red."),
        ("Project Manager: Let's go.", "Project Manager", "Let's go."),
        ("Project: Atlas is on track.", None, "Project: Atlas is on track."),
        ("Next steps: Tom books it.", None, "Next steps: Tom books it."),
        ("https://example.com: a link", None, "https://example.com: a link"),
    ],
)
def test_speaker_line_styles(line: str, speaker: str | None, said: str) -> None:
    assert split_speaker(line) == (speaker, said)


def test_vtt_without_voice_tags_reads_names_from_the_cue_text() -> None:
    vtt = (
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nPriya Natarajan: We go with Stripe.\n\n"
        "2\n00:00:03.000 --> 00:00:04.000\n<i>Sam Chen:</i> Agreed.\n"
    )
    transcript = parse(vtt, "call.vtt", "vtt")
    assert [(t.speaker, t.text) for t in transcript.turns] == [
        ("Priya Natarajan", "We go with Stripe."),
        ("Sam Chen", "Agreed."),
    ]


def test_a_bare_speaker_label_on_the_first_line_is_no_title() -> None:
    transcript = parse(
        "Grad B: \nGrad D: How many batteries?\nGrad B: Thanks.\n", "Bed010.txt", "txt"
    )
    assert transcript.title == "Bed010"


WRAPPED = """Steering notes
Date: 2026-11-17

Ingrid asked whether Tromso could join in January, and we talked it through
at length. Sam Cheng would rather have four weeks of Bergen data first.
Priya agreed.

Agreed (Ingrid): no decision on Tromso until the January steering meeting,
because we want a full month of pilot data first.
Next steps:
- Tom will roll out the build with the duplicate-stop fix to all pilot devices
  by Tuesday.
- Sam will swap the cracked Zebra.
"""


def test_hard_wrapped_lines_carry_on_the_turn_above() -> None:
    transcript = parse(WRAPPED, "notes.txt", "txt")
    spans = [(t.line, t.end, t.speaker, t.text[:30]) for t in transcript.turns]
    assert spans[2:] == [
        (4, 5, None, "Ingrid asked whether Tromso co"),
        (6, 6, None, "Priya agreed."),  # the line above ends its sentence
        (8, 9, None, "Agreed (Ingrid): no decision o"),
        (10, 10, None, "Next steps:"),
        (11, 12, None, "- Tom will roll out the build "),
        (13, 13, None, "- Sam will swap the cracked Ze"),
    ]
    assert transcript.turns[6].text.endswith("pilot devices by Tuesday.")
    assert transcript.lines == WRAPPED.split("\n")  # line numbers still name the file's lines


def test_a_speaker_turn_wrapped_over_lines_stays_theirs() -> None:
    text = (
        "Priya Natarajan: Let's go.\n"
        "Sam Chen: I think the invoices should carry the PO number, because accounts\n"
        "payable rejects them otherwise.\n"
        "Priya Natarajan: Agreed.\n"
    )
    turns = parse(text, "t.txt", "txt").turns
    assert [(t.line, t.end, t.speaker) for t in turns] == [
        (1, 1, "Priya Natarajan"),
        (2, 3, "Sam Chen"),
        (4, 4, "Priya Natarajan"),
    ]
    assert turns[1].text.endswith("because accounts payable rejects them otherwise.")


@pytest.mark.parametrize(
    "text",
    [
        # separate sentences, each on its own long line
        "Decision: We go with Postgres for the main store this quarter.\n"
        "Tom will set up the staging database by Friday.\n",
        # separate items with no punctuation at all
        "Tom will send the revised contract to legal by Friday\n"
        "Priya will book the venue for the offsite next week\n",
        # a reply right under a quoted line
        "> Can we move the launch to March instead of February\n"
        "yes, we decided to move the launch to March.\n",
        # a speaker label the parser does not know, under a long line
        "Alice: I think that covers everything on the budget side\n"
        "Smith, John: I'll send the vendor renewal to legal by Friday.\n",
        # an unpunctuated speech-to-text export, one utterance a line
        "okay let's get started with the weekly review of the roadmap\n"
        "so we decided to push the mobile release by two weeks\n",
        # timestamped lines
        "[00:00:06] we need to talk about the budget because it needs more\n"
        "[00:00:12] time. Tom will handle it.\n",
    ],
)
def test_lines_that_do_not_carry_on_a_sentence_stay_turns_of_their_own(text: str) -> None:
    turns = parse(text, "t.txt", "txt").turns
    assert [(t.line, t.end) for t in turns] == [(1, 1), (2, 2)]
