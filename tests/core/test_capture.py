"""The write path: guards, dedup, replace, and all-or-nothing captures."""

from __future__ import annotations

import codecs
import shutil
from pathlib import Path

import pytest
from support.db import dump
from support.paths import DEMO

from memo_tui.core.capture import CaptureOptions, CaptureService
from store import Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


def untouched(store: Store) -> bool:
    """Nothing written: no file made (SQLite), or no meeting stored (PostgreSQL)."""
    return store.stats().captures == 0 if store.on_postgres else not store.path.exists()


MEETING = (
    "Atlas kickoff\nDate: 2026-09-08\n\n"
    "Priya Natarajan: Final call: we're moving Atlas to Postgres, "
    "because JSONB covers the events.\n"
    "Tom Adeyemi: I'll set up a managed Postgres in staging by Friday.\n"
    "Elena Kowalski: Sounds good.\n"
)


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


BAD_INPUTS = {
    "empty": ("empty.txt", b"", "is empty"),
    "whitespace": ("blank.txt", b"  \n\t\n  ", "only whitespace"),
    "nul bytes": ("binary.txt", b"Priya: hi\x00\x00\x01 there", "binary"),
    "extension": ("slides.pdf", b"%PDF-1.7", ".pdf files are not captured"),
    "invalid utf-8": ("latin1.txt", "Priya: café\n".encode("latin-1"), "not valid UTF-8"),
    "bad utf-16": ("bad16.txt", codecs.BOM_UTF16_LE + b"\x00\xd8", "not valid UTF-16"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_refused_and_leaves_the_store_as_it_was(
    case: str, tmp_path: Path, service: CaptureService, store: Store
) -> None:
    service.capture_file(write(tmp_path / "ok.txt", MEETING))
    before = dump(store)
    name, content, message = BAD_INPUTS[case]
    result = service.capture_file(write(tmp_path / name, content))
    assert result.status == "rejected"
    assert message in (result.error or "")
    assert dump(store) == before


def test_over_the_size_cap_is_refused_with_what_to_do(tmp_path: Path, store: Store) -> None:
    small = CaptureService(store, CaptureOptions(max_chars=200))
    result = small.capture_file(write(tmp_path / "long.txt", MEETING * 3))
    assert result.status == "rejected"
    assert "over the 200-character limit" in (result.error or "")
    assert "MEMO_MAX_CAPTURE_CHARS" in (result.error or "")
    huge = small.capture_file(write(tmp_path / "huge.txt", "x" * 5000))
    assert huge.status == "rejected" and "bytes" in (huge.error or "")
    assert store.stats().captures == 0


def test_missing_path_and_folder_with_nothing_capturable(
    tmp_path: Path, service: CaptureService, store: Store
) -> None:
    (tmp_path / "empty_dir").mkdir()
    write(tmp_path / "empty_dir" / "notes.pdf", b"%PDF")
    results = service.capture_paths([tmp_path / "nope.txt", tmp_path / "empty_dir"])
    assert [r.status for r in results] == ["rejected", "rejected"]
    assert "no such file" in (results[0].error or "")
    assert "no .txt, .md, .vtt, .srt, .docx files" in (results[1].error or "")
    assert store.stats().captures == 0


def test_a_transcript_with_no_speakers_is_captured_as_notes(
    tmp_path: Path, service: CaptureService
) -> None:
    notes = "Steering notes\n\nThe pilot went well overall.\nAgreed: Tromsø waits until January.\n"
    result = service.capture_file(write(tmp_path / "notes.txt", notes))
    assert result.status == "captured"
    assert [d.description for d in result.decisions] == ["Tromsø waits until January."]


def test_folders_recurse_over_allowed_files_only(tmp_path: Path, service: CaptureService) -> None:
    folder = tmp_path / "meetings"
    shutil.copytree(DEMO, folder)
    write(folder / "README.pdf", b"%PDF")
    (folder / ".hidden").mkdir()
    write(folder / ".hidden" / "secret.txt", MEETING)
    results = service.capture_paths([folder])
    assert len(results) == len(list(DEMO.iterdir()))
    assert {r.status for r in results} == {"captured"}


def test_the_same_text_again_is_unchanged_even_with_other_newlines(
    tmp_path: Path, service: CaptureService, store: Store
) -> None:
    first = service.capture_file(write(tmp_path / "a.txt", MEETING))
    before = dump(store)
    again = service.capture_file(write(tmp_path / "b.txt", MEETING.replace("\n", "\r\n") + "\n\n"))
    assert again.status == "unchanged"
    assert again.capture_id == first.capture_id
    assert [d.id for d in again.decisions] == [d.id for d in first.decisions]
    assert dump(store) == before


def test_a_new_version_asks_then_replaces_in_place(
    tmp_path: Path, service: CaptureService, store: Store
) -> None:
    path = write(tmp_path / "kickoff.txt", MEETING)
    first = service.capture_file(path)
    write(path, MEETING.replace("by Friday", "by Monday"))
    before = dump(store)
    asked = service.capture_file(path)
    assert asked.status == "needs_replace"
    assert "--replace" in (asked.error or "")
    assert dump(store) == before
    replaced = service.capture_file(path, replace=True)
    assert replaced.status == "replaced"
    assert replaced.capture_id == first.capture_id
    assert store.stats().captures == 1
    assert [a.due_date for a in store.captures.action_items([first.capture_id])] == ["2026-09-14"]


def test_near_identical_text_from_another_file_is_a_version(
    tmp_path: Path, service: CaptureService
) -> None:
    long_meeting = MEETING + "".join(
        f"Sam Chen: point number {i} about the schema.\n" for i in range(30)
    )
    service.capture_file(write(tmp_path / "a.txt", long_meeting))
    edited = long_meeting.replace("point number 7 ", "point number seven ")
    result = service.capture_file(write(tmp_path / "copy.txt", edited))
    assert result.status == "needs_replace"


def test_recurring_meetings_with_the_same_header_are_different_meetings(
    service: CaptureService,
) -> None:
    first, second = sorted(DEMO.glob("*weekly-eng-sync.md"))
    assert first.read_text().splitlines()[0] == second.read_text().splitlines()[0]
    results = [service.capture_file(first), service.capture_file(second)]
    assert [r.status for r in results] == ["captured", "captured"]
    assert results[0].capture_id != results[1].capture_id


def test_a_capture_is_one_transaction(
    tmp_path: Path, service: CaptureService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from store import captures

    def fail(*args: object) -> list[object]:
        raise RuntimeError("disk full while writing action items")

    before = dump(store)
    monkeypatch.setattr(captures, "_insert_action_items", fail)
    with pytest.raises(RuntimeError):
        service.capture_file(write(tmp_path / "a.txt", MEETING))
    assert dump(store) == before


def test_evidence_is_verified_and_stored_as_line_ranges(
    tmp_path: Path, service: CaptureService
) -> None:
    result = service.capture_file(write(tmp_path / "a.txt", MEETING))
    lines = MEETING.split("\n")
    for item in [*result.decisions, *result.action_items]:
        assert item.verified and item.line_start is not None and item.line_end is not None
        span = " ".join(lines[item.line_start - 1 : item.line_end])
        assert (item.evidence_quote or "").lower() in span.lower()
    decision = result.decisions[0]
    assert decision.reasoning and "JSONB" in decision.reasoning
    assert decision.decided_by == "Priya Natarajan"
    assert result.extractor == "offline extractor"


def test_pipes_and_devices_are_refused_without_blocking(
    tmp_path: Path, service: CaptureService, store: Store
) -> None:
    import os

    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.txt"
    zero.symlink_to("/dev/zero")
    results = service.capture_paths([fifo, zero])
    assert [r.status for r in results] == ["rejected", "rejected"]
    assert all("not a regular file" in (r.error or "") for r in results)
    assert untouched(store)


def test_broken_and_looping_links_are_named_as_such(
    tmp_path: Path, service: CaptureService
) -> None:
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    dangling = tmp_path / "gone.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    results = service.capture_paths([loop, dangling])
    assert all("broken or looping symbolic link" in (r.error or "") for r in results)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("\x01\x02\x03\x04" * 40, "control characters"),
        ("\x01\x02\x03\x04", "no readable words"),
        ("\u200b\u200b\u200b", "no readable words"),
    ],
)
def test_text_with_nothing_readable_is_refused(
    content: str, message: str, tmp_path: Path, service: CaptureService, store: Store
) -> None:
    result = service.capture_file(write(tmp_path / "odd.txt", content))
    assert result.status == "rejected" and message in (result.error or "")
    assert untouched(store)  # nothing was written, so no store file either


def test_an_extractor_failure_rejects_that_file_and_the_batch_goes_on(
    tmp_path: Path, store: Store
) -> None:
    from memo_tui.core.capture.offline import extract

    def fragile(transcript):  # type: ignore[no-untyped-def]
        if "boom" in transcript.text:
            raise ValueError("cannot parse this")
        return extract(transcript)

    fragile_service = CaptureService(store, extractor=fragile)
    a = write(tmp_path / "a.txt", MEETING)
    b = write(tmp_path / "b.txt", "Priya: boom goes the parser, we decided nothing.\n")
    c = write(tmp_path / "c.txt", MEETING.replace("Atlas", "Beacon").replace("09-08", "09-09"))
    results = fragile_service.capture_paths([a, b, c])
    assert [r.status for r in results] == ["captured", "rejected", "captured"]
    assert "offline extractor failed" in (results[1].error or "")
    assert store.stats().captures == 2


def test_short_recurring_meetings_on_different_days_are_not_versions(
    tmp_path: Path, service: CaptureService
) -> None:
    agenda = "".join(f"- agenda item {i}: status of workstream {i}\n" for i in range(12))

    def standup(day: str, said: str) -> str:
        return f"Daily standup\nDate: 2026-10-{day}\nAttendees: Ana, Bo\n\n{agenda}Ana: {said}\n"

    first = service.capture_file(write(tmp_path / "s1.txt", standup("05", "We ship today.")))
    second = service.capture_file(write(tmp_path / "s2.txt", standup("06", "We slip a day.")))
    assert [first.status, second.status] == ["captured", "captured"]
    same_day = service.capture_file(write(tmp_path / "s3.txt", standup("06", "We slip 2 days.")))
    assert same_day.status == "needs_replace"


def test_a_subtitle_re_export_with_new_timestamps_is_unchanged(
    tmp_path: Path, service: CaptureService
) -> None:
    cue = "{n}\n00:00:0{n},000 --> 00:00:0{n},900\nPriya Natarajan: Point {n}, we go with Stripe.\n"
    first = "\n".join(cue.format(n=n) for n in range(1, 6))
    shifted = first.replace(",000 -->", ",250 -->")
    assert service.capture_file(write(tmp_path / "a.srt", first)).status == "captured"
    assert service.capture_file(write(tmp_path / "b.srt", shifted)).status == "unchanged"


def test_subtitle_captures_map_their_lines_back_to_the_file(
    service: CaptureService, store: Store
) -> None:
    import json as json_module

    from sqlalchemy import text

    service.capture_file(DEMO / "2026-10-06-cobalt-billing-design.srt")
    with store.reader.connect() as conn:
        meta = json_module.loads(conn.execute(text("SELECT meta_json FROM captures")).scalar_one())
    source_lines = meta["source_lines"]
    assert source_lines[0][0] == 3  # turn 1 is the first cue's text line in the file
    assert all(a <= b for a, b in source_lines)
