"""Dates said in words: any words and shapes of dates, and due dates said as people do."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from hypothesis import strategies as st

from support.fuzzing.text import ODD

DATE_WORDS = """by before on until due next this the of in within give me end of eod cob eow eom
today tonight tomorrow week weeks month day days done completed no later than w/c a couple of
an a about st nd rd th monday tue wed thursday fri sat sunday january feb mar april may jun
july aug sept september oct nov december first second twenty-first thirty-first thirtieth
""".split()
date_shapes = st.one_of(
    st.integers(-5, 10**25).map(str),
    st.builds(
        lambda y, m, d: f"{y:04}-{m:02}-{d:02}",
        st.integers(0, 9999),
        st.integers(0, 99),
        st.integers(0, 99),
    ),
    st.builds(lambda a, b: f"{a}/{b}", st.integers(0, 99), st.integers(0, 99)),
    st.builds(
        lambda a, b, y: f"{a}/{b}/{y}",
        st.integers(0, 99),
        st.integers(0, 99),
        st.integers(0, 99999),
    ),
    st.builds(
        lambda n, s: f"{n}{s}", st.integers(0, 99), st.sampled_from(["st", "nd", "rd", "th"])
    ),
)
date_texts = st.lists(
    st.one_of(
        st.sampled_from(DATE_WORDS),
        date_shapes,
        st.sampled_from([",", ".", "—", "-", "\n", "("]),
        st.sampled_from(ODD),
    ),
    max_size=12,
).flatmap(lambda parts: st.sampled_from([" ", ""]).map(lambda glue: glue.join(parts)))
any_dates = st.one_of(st.none(), st.dates(), st.sampled_from([dt.date.min, dt.date.max]))


WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
ordinary_days = st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2200, 12, 31))
_ASKED = ["Tom will send it", "Priya to review the draft", "ok so", ""]
_AFTER = ["", ".", " please", " thanks!"]


def said(phrase: str) -> st.SearchStrategy[str]:
    """The phrase in an action item, as people say it."""
    return st.builds(
        lambda before, case, after: f"{before} {case(phrase)}{after}".strip(),
        st.sampled_from(_ASKED),
        st.sampled_from([str, str.title, str.upper]),
        st.sampled_from(_AFTER),
    )


@st.composite
def due_phrases(draw: st.DrawFn) -> tuple[str, dt.date, Callable[[dt.date], bool]]:
    """A due date said one way or another, the meeting's date, and what the due date must be."""
    meeting = draw(ordinary_days)
    weekday = draw(st.integers(0, 6))
    name = draw(st.sampled_from([WEEKDAYS[weekday], WEEKDAYS[weekday][:3]]))
    count = draw(st.integers(1, 9999))
    on = draw(st.dates(min_value=dt.date(1000, 1, 1)))
    cases: list[tuple[str, Callable[[dt.date], bool]]] = [
        ("tomorrow", lambda d: d == meeting + dt.timedelta(days=1)),
        (f"by {name}", lambda d: d.weekday() == weekday and 1 <= (d - meeting).days <= 7),
        (f"next {name}", lambda d: d.weekday() == weekday and 1 <= (d - meeting).days <= 13),
        (f"in {count} days", lambda d: d == meeting + dt.timedelta(days=count)),
        (f"in {count} weeks", lambda d: d == meeting + dt.timedelta(weeks=count)),
        (f"by {on:%B} {on.day}, {on.year}", lambda d: d == on),
        (f"by {on.isoformat()}", lambda d: d == on),
        (
            "by the end of the month",
            lambda d: d.month == meeting.month and (d + dt.timedelta(1)).day == 1,
        ),
    ]
    phrase, expected = draw(st.sampled_from(cases))
    return draw(said(phrase)), meeting, expected
