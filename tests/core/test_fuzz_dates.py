"""Fuzzing the date readers with hypothesis: dates in any words are real dates (or none),
and due dates said in words resolve against the meeting's date as people mean them.

MEMO_FUZZ_PROFILE picks the run (support/fuzzing/profile.py): "ci" by default, "long" for
scripts/fuzz.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from hypothesis import given
from support.fuzzing.checks import check_date
from support.fuzzing.dates import any_dates, date_texts, due_phrases
from support.fuzzing.profile import HARD_LIMIT, fuzzed
from support.timing import deadline

from memo_tui.core.capture.dates import find_absolute_date, find_due_date


@fuzzed(500)
@given(text=date_texts, meeting=any_dates)
def test_dates_in_any_words_are_real_dates(text: str, meeting: dt.date | None) -> None:
    with deadline(HARD_LIMIT):
        check_date(find_due_date(text, meeting))
        check_date(find_absolute_date(text, meeting))


@fuzzed(300)
@given(case=due_phrases())
def test_due_dates_said_in_words_resolve_against_the_meeting(
    case: tuple[str, dt.date, Callable[[dt.date], bool]],
) -> None:
    text, meeting, expected = case
    with deadline(HARD_LIMIT):
        due = find_due_date(text, meeting)
    assert due is not None and expected(due), (text, meeting, due)
