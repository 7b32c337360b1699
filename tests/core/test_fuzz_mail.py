"""Fuzzing the mail readers with hypothesis: HTML to text, a message's bytes (or any bytes)
to a message, and an mbox archive to messages, threads and the transcripts memo captures of
them. No input may make a reader raise anything but MalformedMail (a message is read or
skipped), run unbounded, or hand back what breaks its promises (real addresses, one-line
headers, a body without controls, turns' lines inside the text).

MEMO_FUZZ_PROFILE picks the run (support/fuzzing/profile.py): "ci" by default, "long" for
scripts/fuzz.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.fuzzing.checks import check_html_text, read_mail_source, read_or_refused, written
from support.fuzzing.html import html_texts
from support.fuzzing.mail import mboxes, messages
from support.fuzzing.profile import HARD_LIMIT, fuzzed
from support.timing import deadline

from memo_tui.core.email.html import html_to_text


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where examples are written as files (one folder for all: hypothesis runs a test's
    examples in one call, so a function-scoped tmp_path would be shared anyway)."""
    return tmp_path_factory.mktemp("fuzz")


@fuzzed(150)
@given(markup=st.one_of(html_texts, st.lists(html_texts, max_size=5).map("".join)))
def test_html_is_read_as_text(markup: str) -> None:
    with deadline(HARD_LIMIT):
        check_html_text(html_to_text(markup))


@fuzzed(250)
@given(data=messages())
def test_message_is_read_or_refused(data: bytes) -> None:
    with deadline(HARD_LIMIT):
        read_or_refused(data)


@fuzzed(200)
@given(
    data=st.binary(max_size=2000),
    prefix=st.sampled_from([b"", b"From: a@b.c\n", b"From: a@b.c\n\n"]),
)
def test_any_bytes_are_a_message_or_refused(data: bytes, prefix: bytes) -> None:
    with deadline(HARD_LIMIT):
        read_or_refused(prefix + data)


@fuzzed(80)
@given(data=mboxes())
def test_mbox_is_read_and_threaded(folder: Path, data: bytes) -> None:
    with deadline(HARD_LIMIT):
        read_mail_source(written(folder, "archive", "mbox", data))
