"""Dates in meeting text: absolute ones, and due dates relative to the meeting date."""

from __future__ import annotations

import calendar
import datetime as dt
import re

MONTHS = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
MONTHS["sept"] = 9
WEEKDAYS = {calendar.day_name[i].lower(): i for i in range(7)}
WEEKDAYS.update({calendar.day_abbr[i].lower(): i for i in range(7)})
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "a": 1, "an": 1, "a couple of": 2}

_ORDINALS = {
    word: number
    for number, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
        "twentieth".split(),
        start=1,
    )
}
_ORDINALS.update({f"twenty-{w}": 20 + n for w, n in list(_ORDINALS.items())[:9]})
_ORDINALS.update({"thirtieth": 30, "thirty-first": 31})
_ORDINAL_WORDS = "|".join(sorted(_ORDINALS, key=len, reverse=True))

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = rf"(?P<day>\d{{1,2}}(?:st|nd|rd|th)?|{_ORDINAL_WORDS})"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
ISO_DATE = re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b")
# "May 2", not "may first" (ordinal words only after the day: "the first of May").
MONTH_DAY = re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR}", re.IGNORECASE)
DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b{_YEAR}", re.IGNORECASE)
# "20/3", "24/03/2026": day first as most of the world writes it, month first where the day
# cannot be a month (or the other reading has passed).
NUMERIC = re.compile(
    r"(?<![\d/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\d/])(?!\s*of\b)"
)
# A number pair is a date only where a date is expected: "by 24/3", "Fri 20/3", "due 2/5",
# "before go-live 1/3" (not "3/4 of the nodes", "24/7 paging"). A week commencing ("w/c
# 9/11") says when something happens, not when it is due.
_NUMERIC_SAID = re.compile(
    r"(?:\b(?:by|before|due|until|till|on|from|eod|mon|tue|wed|thu|fri|sat|sun)\w*\.?|"
    r"\b(?:by|before|until)\s+(?:the\s+)?(?!way\b)[a-z][\w-]*|[\u2014\u2013-])\s*$",
    re.I,
)


def _day_number(said: str) -> int:
    said = said.lower()
    return _ORDINALS[said] if said in _ORDINALS else int(re.sub(r"\D", "", said))


def _safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _month_day(match: re.Match[str], reference: dt.date | None) -> dt.date | None:
    month = MONTHS[match["month"].lower().rstrip(".")]
    day = _day_number(match["day"])
    if match["year"]:
        return _safe_date(int(match["year"]), month, day)
    if reference is None:
        return None
    found = _safe_date(reference.year, month, day)
    # "January 5" said in a December meeting means next year's.
    if found is not None and (reference - found).days > 60:
        found = _safe_date(reference.year + 1, month, day)
    return found


def find_absolute_date(text: str, reference: dt.date | None = None) -> dt.date | None:
    """The first absolute date written in `text` (ISO, "Oct 2", "2 October 2026")."""
    candidates = _absolute_dates(text, reference)
    return min(candidates)[2] if candidates else None


def _end_of_month(day: dt.date) -> dt.date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def _next_weekday(after: dt.date, weekday: int) -> dt.date:
    return after + dt.timedelta(days=(weekday - after.weekday() - 1) % 7 + 1)


def _day_of_month(after: dt.date, day: int) -> dt.date:
    """The next date (after the meeting) that falls on this day of a month; ValueError for
    a day no month has ("by the 45th")."""
    year, month = after.year, after.month
    for _ in range(3):
        found = _safe_date(year, month, day)
        if found is not None and found > after:
            return found
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    raise ValueError(f"no month has a day {day}")


def _week_start(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


_WEEKDAY_NAMES = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
# "the twentieth", "the twenty sixth" (speech to text leaves out the hyphen)
_SPOKEN_ORDINALS = _ORDINAL_WORDS.replace("twenty-", "twenty[- ]").replace("thirty-", "thirty[- ]")
_RELATIVE: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"\b(?:today|tonight|this (?:morning|afternoon|evening)|end of (?:the )?day|eod)\b",
            re.I,
        ),
        "today",
    ),
    (  # "EOD Thursday": the end of that day, not of today
        re.compile(
            rf"\b(?:eod|cob|end of (?:the )?day)\s+(?:on\s+)?(?P<wd>{_WEEKDAY_NAMES})\b", re.I
        ),
        "weekday",
    ),
    (  # "Monday the 4th": the date says which Monday
        re.compile(rf"\b(?:{_WEEKDAY_NAMES})\s+the\s+(?P<dom>\d{{1,2}})(?:st|nd|rd|th)\b", re.I),
        "day_of_month",
    ),
    (re.compile(r"\b(?:tomorrow|tmrw|tmw)\b", re.I), "tomorrow"),
    (re.compile(r"\bend of next week\b", re.I), "end_next_week"),
    (re.compile(r"\b(?:end of (?:the |this )?week|eow|this week)\b", re.I), "end_week"),
    (
        re.compile(
            rf"\b(?:by|before|on|until) the (?P<dom>\d{{1,2}}(?:st|nd|rd|th)|{_SPOKEN_ORDINALS})\b",
            re.I,
        ),
        "day_of_month",
    ),
    (re.compile(r"\bend of next month\b", re.I), "end_next_month"),
    (re.compile(r"\b(?:end of (?:the |this )?month|eom)\b", re.I), "end_month"),
    (re.compile(rf"\bend of (?P<month>{_MONTH_NAMES})\b\.?", re.I), "end_named_month"),
    (re.compile(rf"\bnext\s+(?P<wd>{_WEEKDAY_NAMES})\b", re.I), "next_weekday"),
    (
        re.compile(
            rf"\b(?:by|on|before|until|this|due|for|first thing)\s+(?P<wd>{_WEEKDAY_NAMES})\b",
            re.I,
        ),
        "weekday",
    ),
    (re.compile(r"\bnext week\b", re.I), "next_week"),
    (
        re.compile(
            r"\b(?:in|give me|within) (?P<n>\d+|one|two|three|four|a|an|a couple of) "
            r"(?:weeks?|wks?)\b",
            re.I,
        ),
        "weeks",
    ),
    (re.compile(r"\b(?:in|give me|within) (?:a|one) fortnight\b", re.I), "fortnight"),
    (  # "I'll write the doc. Two weeks.": a span said on its own
        re.compile(r"^\W*(?:about\s+)?(?P<n>\d+|one|two|three|four|a couple of) weeks?\W*$", re.I),
        "weeks",
    ),
    (
        re.compile(
            r"\b(?:in|give me|within) (?P<n>\d+|one|two|three|four|a|an|a couple of) days?\b", re.I
        ),
        "days",
    ),
]


def _relative_due(kind: str, match: re.Match[str], meeting: dt.date) -> dt.date:
    if kind == "today":
        return meeting
    if kind == "tomorrow":
        return meeting + dt.timedelta(days=1)
    if kind == "end_week":
        return _next_weekday(meeting - dt.timedelta(days=1), 4)
    if kind == "end_next_week":
        return _week_start(meeting) + dt.timedelta(days=11)
    if kind == "end_month":
        return _end_of_month(meeting)
    if kind == "end_next_month":
        return _end_of_month(_end_of_month(meeting) + dt.timedelta(days=1))
    if kind == "end_named_month":
        month = MONTHS[match["month"].lower()]
        year = meeting.year + (month < meeting.month)
        return _end_of_month(dt.date(year, month, 1))
    if kind == "fortnight":
        return meeting + dt.timedelta(days=14)
    if kind == "next_weekday":
        return _week_start(meeting) + dt.timedelta(days=7 + WEEKDAYS[match["wd"].lower()])
    if kind == "weekday":
        return _next_weekday(meeting, WEEKDAYS[match["wd"].lower()])
    if kind == "day_of_month":
        return _day_of_month(meeting, _day_number(match["dom"].replace(" ", "-")))
    if kind == "next_week":
        return _week_start(meeting) + dt.timedelta(days=11)
    count = match["n"].lower()
    number = int(count[:4]) if count.isdigit() else _NUMBERS[count]
    return meeting + dt.timedelta(days=number * (7 if kind == "weeks" else 1))


Found = tuple[int, int, dt.date]  # where a date was said (start, end), and the date


def _numeric(
    match: re.Match[str], reference: dt.date | None, weekday: int | None = None
) -> dt.date | None:
    """ "20/3" as a date; where both readings are dates, the one on the weekday said with it
    ("Fri 12/6" is the 12th of June when that is a Friday), else the one to come."""
    a, b = int(match["a"]), int(match["b"])
    year = match["y"]
    if year:
        full = int(year) + (2000 if len(year) == 2 else 0)
        return _safe_date(full, b, a) if a > 12 or b <= 12 else _safe_date(full, a, b)
    if reference is None:
        return None
    readings = [(b, a)] if a > 12 else [(a, b)] if b > 12 else [(b, a), (a, b)]
    dates = []
    for month, day in readings:
        found = _safe_date(reference.year, month, day)
        if found is not None and (reference - found).days > 60:
            found = _safe_date(reference.year + 1, month, day)
        if found is not None:
            dates.append(found)
    on_the_day = [d for d in dates if d.weekday() == weekday]
    if on_the_day:
        return on_the_day[0]
    upcoming = [d for d in dates if d >= reference]
    return (upcoming or dates)[0] if dates else None


def _absolute_dates(text: str, reference: dt.date | None, numeric: bool = False) -> list[Found]:
    """Dates written out; with `numeric`, "20/3" too (a due date in notes; a meeting's own
    date is never read from such a pair)."""
    found: list[Found] = []
    for match in ISO_DATE.finditer(text):
        day = _safe_date(int(match["year"]), int(match["month"]), int(match["day"]))
        if day:
            found.append((match.start(), match.end(), day))
    for pattern in (MONTH_DAY, DAY_MONTH):
        for match in pattern.finditer(text):
            day = _month_day(match, reference)
            if day:
                found.append((match.start(), match.end(), day))
    if numeric and not ISO_DATE.search(text):
        for match in NUMERIC.finditer(text):
            if not _NUMERIC_SAID.search(text[max(match.start() - 24, 0) : match.start()]):
                continue
            said = _weekday_before(text, match.start())
            day = _numeric(match, reference, WEEKDAYS[said[1]] if said else None)
            if day:
                found.append((match.start(), match.end(), day))
    return found


def find_due_date(text: str, meeting: dt.date | None) -> dt.date | None:
    """The first due date stated in `text`, resolved against the meeting date when relative.
    Where two readings overlap ("by the 13th" inside "by the 13th of March", "EOD" inside
    "EOD Thursday"), the longer one says more and wins."""
    written = [_with_weekday(text, f) for f in _absolute_dates(text, meeting, numeric=True)]
    found = [f for f in written if not _DONE_ON.search(text[max(f[0] - 16, 0) : f[0]])]
    if meeting is not None:
        for pattern, kind in _RELATIVE:
            match = pattern.search(text)
            if match and not any(
                match.start() < w[1] and w[0] <= match.end() + 1 for w in written
            ):  # "by Fri 31/7", "EOD Thu 28/5": the date written there says which day
                try:
                    found.append((match.start(), match.end(), _relative_due(kind, match, meeting)))
                except (OverflowError, ValueError):
                    continue  # "in 999999 weeks", or past the end of the calendar
    spans = found + [(start, end, dt.date.min) for start, end in _impossible(text, meeting)]
    kept = [
        f
        for f in found
        if not any(
            o is not f and o[0] < f[1] and f[0] < o[1] and o[1] - o[0] > f[1] - f[0] for o in spans
        )
    ]
    due = [
        f
        for f in kept
        if _DUE_BY.search(text[max(f[0] - 16, 0) : f[0]]) or _BY_FIRST.match(text[f[0] : f[1]])
    ]
    return min(due or kept)[2] if kept else None


def _with_weekday(text: str, found: Found) -> Found:
    """A written date with the weekday said before it ("Fri 31/7"), spanning both."""
    said = _weekday_before(text, found[0])
    return found if said is None else (said[0], found[1], found[2])


def _weekday_before(text: str, at: int) -> tuple[int, str] | None:
    """Where a weekday is said right before `at` ("Fri 31/7"), and which (lower case)."""
    start = max(at - 12, 0)
    said = _WEEKDAY_BEFORE.search(text[start:at])
    return None if said is None else (start + said.start(), said["wd"].lower())


def _impossible(text: str, reference: dt.date | None) -> list[tuple[int, int]]:
    """Where a date is written that no calendar has ("2026-02-30", "the 31st of February"):
    no shorter reading inside it ("the 31st") is taken for the date meant."""
    spans = [
        (m.start(), m.end())
        for m in ISO_DATE.finditer(text)
        if _safe_date(int(m["year"]), int(m["month"]), int(m["day"])) is None
    ]
    if reference is not None:
        spans += [
            (m.start(), m.end())
            for pattern in (MONTH_DAY, DAY_MONTH)
            for m in pattern.finditer(text)
            if _month_day(m, reference) is None
        ]
    return spans


# A date said as when something was done is not a due date ("done 29/1"); one said after
# "by" or "due" is the due date, whatever else the line dates ("for w/c 4/5 — by 24/3").
# Likewise one said as when it was sent, signed, paid or filed, or carried from ("(from 14/1)").
_DONE_ON = re.compile(
    r"\b(?:done|completed|finished|delivered|closed|sent|signed|paid|filed|submitted|"
    r"confirmed|circulated|received|rec'?d|opened|pinned|approved|agreed|out|since|from)"
    r"[\s,:\u2014\u2013-]+(?:on\s+|w/c\s+)?$",
    re.I,
)
_WEEKDAY_BEFORE = re.compile(rf"\b(?P<wd>{_WEEKDAY_NAMES})\.?,?\s+(?:the\s+)?$", re.I)
# ... and so is one a note writes after a dash ("@OH update the handbook for Sun work
# parties — Fri 22/5").
_DUE_BY = re.compile(
    r"\b(?:by|before|due|until|till|eod|no later than)\s+(?:the\s+)?$|\s[\u2014\u2013-]\s*$", re.I
)
_BY_FIRST = re.compile(r"(?:by|before|due|until|till|eod)\b", re.I)
