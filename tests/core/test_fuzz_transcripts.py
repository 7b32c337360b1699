"""Fuzzing the transcript readers with hypothesis: a transcript file's bytes (an export's
text, any bytes, a Word document) or text handed over as it is, to turns and the offline
extractor over them. No input may make a reader raise anything but CaptureRejected, run
unbounded, or hand back what breaks its promises (turns' lines inside the text, real dates,
no NUL in what memo stores).

MEMO_FUZZ_PROFILE picks the run (support/fuzzing/profile.py): "ci" by default, "long" for
scripts/fuzz.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.fuzzing.checks import (
    MAX_CHARS,
    capture_checked,
    check_extraction,
    check_transcript,
    parsed,
    written,
)
from support.fuzzing.documents import damaged, damages, docx_of, docx_paragraphs, table_rows
from support.fuzzing.profile import HARD_LIMIT, fuzzed
from support.fuzzing.text import ODD, sprinkled
from support.fuzzing.transcripts import ENCODINGS, FILE_NAMES, encoded, mangled, transcript_texts
from support.timing import deadline

from memo_tui.core.capture.errors import CaptureRejected


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where examples are written as files (one folder for all: hypothesis runs a test's
    examples in one call, so a function-scoped tmp_path would be shared anyway)."""
    return tmp_path_factory.mktemp("fuzz")


@fuzzed(250)
@given(
    text=mangled(),
    encoding=st.sampled_from(ENCODINGS),
    suffix=st.sampled_from(["txt", "md", "vtt", "srt"]),
    stem=st.sampled_from(FILE_NAMES),
)
def test_transcript_file_is_read_or_refused(
    folder: Path, text: str, encoding: str, suffix: str, stem: str
) -> None:
    data = encoded(text, encoding)
    with deadline(HARD_LIMIT):
        capture_checked(written(folder, stem, suffix, data))


@fuzzed(200)
@given(
    prefix=st.sampled_from(
        [b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"PK\x03\x04", b"WEBVTT\n"]
    ),
    data=st.binary(max_size=3000),
    suffix=st.sampled_from(["txt", "md", "vtt", "srt", "docx"]),
    max_chars=st.sampled_from([MAX_CHARS, 40]),
)
def test_any_bytes_are_read_or_refused(
    folder: Path, prefix: bytes, data: bytes, suffix: str, max_chars: int
) -> None:
    with deadline(HARD_LIMIT):
        capture_checked(written(folder, "any", suffix, prefix + data), max_chars)


@fuzzed(150)
@given(text=st.one_of(mangled(), sprinkled(transcript_texts, [*ODD, "\x00"])))
def test_text_as_given_is_read_or_refused(text: str) -> None:
    """Text handed over as it is (`memo mcp`'s capture_text): no file, no decoding."""
    with deadline(HARD_LIMIT):
        try:
            transcript = parsed(text, "pasted.txt", "txt")
        except CaptureRejected:
            return
        check_transcript(transcript)
        check_extraction(transcript)


@fuzzed(80)
@given(
    paragraphs=docx_paragraphs,
    rows=table_rows,
    merged=st.booleans(),
    suffix=st.sampled_from(["docx", "docx", "txt"]),
    damage=damages,
)
def test_word_document_is_read_or_refused(
    folder: Path,
    paragraphs: list[str],
    rows: list[list[str]],
    merged: bool,
    suffix: str,
    damage: tuple[str, float, int, int],
) -> None:
    document = damaged(docx_of(paragraphs, rows, merged), damage)
    with deadline(HARD_LIMIT):
        capture_checked(written(folder, "2026-03-24 review", suffix, document))
