"""Filters from a question, by rules (the offline router): dates, fact types, entities.

"last month", "in March", "since 2026-03-01", "Q2", "this week"; "why ... decide" asks for
decisions, "who owns ... todo" for action items; names of known people, projects and
clients. The words that only steer the search (question words, "decide") are not searched
for themselves. An entity filter applies only when its name resolves at 0.85 or better; a
name that could be several people is reported, not guessed.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, replace

from memo_tui.core.capture.dates import MONTHS, find_absolute_date
from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.entities.names import normalize
from memo_tui.core.entities.resolve import (
    AUTO_RESOLVE,
    ENTITY_TYPES,
    EntityType,
    NeedsDisambiguation,
    Resolved,
    resolve,
)
from store import Directory, FactFilter

QUESTION_WORDS = frozenset(
    """why what who whom whose when where which how did does do was were is are decide decided
    decision decisions chose choose chosen pick picked owns own owner owes todo todos action
    actions items item tell show list anything everything recently last month week quarter
    since until before after ago year""".split()
)


@dataclass(frozen=True)
class EntityFilter:
    entity_type: EntityType
    id: int
    name: str
    mention: str
    score: float


@dataclass(frozen=True)
class QuestionFilters:
    since: str | None = None
    until: str | None = None
    fact_types: tuple[str, ...] = ()
    entities: tuple[EntityFilter, ...] = ()
    unresolved: tuple[str, ...] = ()  # names in the question that could be several
    router: str = "rules"
    asks_who: bool = False  # a person named in a question asking who is context, not answer

    def named(self, entity_type: EntityType) -> list[EntityFilter]:
        return [e for e in self.entities if e.entity_type == entity_type]

    def fact_filter(self, with_types: bool = True) -> FactFilter:
        return FactFilter(
            self.fact_types if with_types else (),
            self.since,
            self.until,
            person_ids=tuple(e.id for e in self.named("person")),
            project_ids=tuple(e.id for e in self.named("project")),
            client_ids=tuple(e.id for e in self.named("client")),
            people_present=self.asks_who,
        )

    def describe(self) -> dict[str, object]:
        def first(entity_type: EntityType) -> str | None:
            found = self.named(entity_type)
            return found[0].name if found else None

        return {
            "since": self.since,
            "until": self.until,
            "fact_types": list(self.fact_types),
            "person": first("person"),
            "project": first("project"),
            "client": first("client"),
            "unresolved_names": list(self.unresolved),
            "router": self.router,
        }

    def readable(self) -> str:
        """What was searched, as a sentence: "decisions from 1 Mar 2026 to 31 Mar 2026,
        about Priya Natarajan" ("everything" with no filter)."""
        kinds = ", ".join(_PLURALS.get(t, t + "s") for t in self.fact_types) or "everything"
        parts = [kinds + _span(self.since, self.until)]
        parts += [f"about {e.name}" for e in self.entities]
        return ", ".join(parts)


_PLURALS = {"action_item": "action items", "summary": "summaries"}


def _span(since: str | None, until: str | None) -> str:
    def day(iso: str) -> str:
        date = dt.date.fromisoformat(iso)
        return f"{date.day} {date:%b %Y}"

    if since and until:
        return f" from {day(since)} to {day(until)}"
    if since:
        return f" since {day(since)}"
    return f" until {day(until)}" if until else ""


def _month_range(year: int, month: int) -> tuple[dt.date, dt.date]:
    return dt.date(year, month, 1), dt.date(year, month, calendar.monthrange(year, month)[1])


def _dates(question: str, today: dt.date) -> tuple[dt.date | None, dt.date | None]:
    # "the last week of August" is a week the question is about, not when it was said
    q = re.sub(r"\b(?:last|this|first|final) (?:week|month)s? of\b", " ", question.lower())
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
    names = "|".join(sorted(MONTHS, key=len, reverse=True))
    month = re.search(r"\bin\s+(" + names + r")\b(?:,?\s+(\d{4})\b)?", q)
    if month:
        number = MONTHS[month.group(1)]
        return _month_range(_year(month.group(2), number, today), number)
    return None, None


def _year(said: str | None, month: int, today: dt.date) -> int:
    """The year said with a month, else the latest year that month has begun in."""
    if said and 1900 <= int(said) <= 2999:  # (a year, not "0000")
        return int(said)
    return today.year if month <= today.month else today.year - 1


def _month_start(text: str, today: dt.date) -> dt.date | None:
    word = re.match(r"([a-z]+)(?:,?\s+(\d{4})\b)?", text.strip())
    if word and word.group(1) in MONTHS:
        number = MONTHS[word.group(1)]
        return dt.date(_year(word.group(2), number, today), number, 1)
    return None


# "Who ran the soak while Marta was away?", "Whose call was it?": the answer is a person.
ASKS_WHO = re.compile(r"^\W*(?:who|whom|whose)\b", re.IGNORECASE)
_ACTIONS = re.compile(
    r"\b(?:who owns|owes?|owed|to-?dos?|tasks?|open items?|action items?|who is doing|assigned)\b"
)


def parse_question(question: str, today: dt.date) -> QuestionFilters:
    since, until = _dates(question, today)
    q = question.lower()
    types: tuple[str, ...] = ()
    if _ACTIONS.search(q):
        types = ("action_item",)
    elif re.search(r"\b(?:why|decid\w*|decision\w*|chose|choose|picked?)\b", q):
        types = ("decision",)
    return QuestionFilters(
        since.isoformat() if since else None,
        until.isoformat() if until else None,
        types,
        asks_who=bool(ASKS_WHO.match(question)),
    )


def _name_like(word: str, question: str) -> bool:
    """A lone word reads as a name when capitalized, or when the whole question is lower
    case: "did we mark the invoices" never filters to Mark."""
    return word[:1].isupper() or question == question.lower()


def _known_words(directory: Directory) -> set[str]:
    names = [e.name for e in (*directory.people, *directory.projects, *directory.clients)]
    names += [a.alias for a in directory.aliases if a.entity_id is not None]
    return {word for name in names for word in normalize(name).split()}


def entities_in(
    question: str, directory: Directory
) -> tuple[tuple[EntityFilter, ...], tuple[str, ...]]:
    """Known people, projects and clients the question names (longest names first), and
    names that could be several. Only spans made of words some known name contains are
    tried, so ordinary words are never fuzzily read as names."""
    words = re.findall(r"[^\W_][\w'\u2019.-]*", question)
    known = _known_words(directory)
    used: set[int] = set()
    found: list[EntityFilter] = []
    unsure: list[str] = []
    for size in (4, 3, 2, 1):
        for start in range(len(words) - size + 1):
            span = range(start, start + size)
            keys = [normalize(words[i]) for i in span]
            if used & set(span) or not all(k in known for k in keys):
                continue
            common = keys[0] in STOPWORDS | QUESTION_WORDS
            if size == 1 and (common or not _name_like(words[start], question)):
                continue
            mention = " ".join(words[i] for i in span)
            for entity_type in ENTITY_TYPES:
                answer = resolve(mention, directory, entity_type)
                if isinstance(answer, Resolved) and answer.entity.score >= AUTO_RESOLVE:
                    e = answer.entity
                    found.append(EntityFilter(entity_type, e.id, e.name, mention, e.score))
                elif isinstance(answer, NeedsDisambiguation) and (
                    answer.candidates[0].score >= AUTO_RESOLVE
                ):
                    unsure.append(mention)
                else:
                    continue
                used |= set(span)
                break
    return tuple(found), tuple(dict.fromkeys(unsure))


def with_entities(filters: QuestionFilters, question: str, directory: Directory) -> QuestionFilters:
    found, unsure = entities_in(question, directory)
    return replace(filters, entities=found, unresolved=unsure)
