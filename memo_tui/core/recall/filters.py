"""Filters from a question, by rules (the offline router): dates and fact types.

"last month", "in March", "since 2026-03-01", "Q2", "this week"; "why ... decide" asks for
decisions, "who owns ... todo" for action items. The words that only steer the search
(question words, "decide") are not searched for themselves.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from memo_tui.core.capture.dates import MONTHS, find_absolute_date

QUESTION_WORDS = frozenset(
    """why what who whom whose when where which how did does do was were is are decide decided
    decision decisions chose choose chosen pick picked owns own owner owes todo todos action
    actions items item tell show list anything everything recently last month week quarter
    since until before after ago year""".split()
)


@dataclass(frozen=True)
class QuestionFilters:
    since: str | None = None
    until: str | None = None
    fact_types: tuple[str, ...] = ()

    def describe(self) -> dict[str, object]:
        return {"since": self.since, "until": self.until, "fact_types": list(self.fact_types)}


def _month_range(year: int, month: int) -> tuple[dt.date, dt.date]:
    return dt.date(year, month, 1), dt.date(year, month, calendar.monthrange(year, month)[1])


def _dates(question: str, today: dt.date) -> tuple[dt.date | None, dt.date | None]:
    q = question.lower()
    week_start = today - dt.timedelta(days=today.weekday())
    if "last week" in q:
        return week_start - dt.timedelta(days=7), week_start - dt.timedelta(days=1)
    if "this week" in q:
        return week_start, week_start + dt.timedelta(days=6)
    if "last month" in q:
        previous = today.replace(day=1) - dt.timedelta(days=1)
        return _month_range(previous.year, previous.month)
    if "this month" in q:
        return _month_range(today.year, today.month)
    quarter = re.search(r"\bq([1-4])(?:\s+(\d{4}))?\b", q)
    if quarter:
        year = int(quarter.group(2) or today.year)
        first = 3 * (int(quarter.group(1)) - 1) + 1
        return dt.date(year, first, 1), _month_range(year, first + 2)[1]
    since = re.search(r"\b(?:since|after)\s+(.{3,25})", q)
    if since:
        found = find_absolute_date(since.group(1), today) or _month_start(since.group(1), today)
        if found:
            return found, None
    before = re.search(r"\b(?:before|until)\s+(.{3,25})", q)
    if before:
        found = find_absolute_date(before.group(1), today) or _month_start(before.group(1), today)
        if found:
            return None, found
    month = re.search(r"\bin\s+(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b", q)
    if month:
        number = MONTHS[month.group(1)]
        year = today.year if number <= today.month else today.year - 1
        return _month_range(year, number)
    return None, None


def _month_start(text: str, today: dt.date) -> dt.date | None:
    word = re.match(r"([a-z]+)", text.strip())
    if word and word.group(1) in MONTHS:
        number = MONTHS[word.group(1)]
        return dt.date(today.year if number <= today.month else today.year - 1, number, 1)
    return None


def parse_question(question: str, today: dt.date) -> QuestionFilters:
    since, until = _dates(question, today)
    q = question.lower()
    types: tuple[str, ...] = ()
    if re.search(r"\b(?:who owns|who owes|to-?dos?|action items?|who is doing|assigned)\b", q):
        types = ("action_item",)
    elif re.search(r"\b(?:why|decid\w*|decision\w*|chose|choose|picked?)\b", q):
        types = ("decision",)
    return QuestionFilters(
        since.isoformat() if since else None, until.isoformat() if until else None, types
    )
