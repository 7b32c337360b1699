"""Speaker labels: `Name: text` lines, and the labels that only look like speakers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from memo_tui.core.capture.formats.base import STAMP
from memo_tui.core.entities.names import normalize

_NAME_WORD = r"[A-Z\u00c0-\u024f][\w.'\u2019\-]{0,30}"
_PARTICLE = r"de|van|von|der|da|di|del|le|la|al|bin|ibn"
SPEAKER = (
    rf"(?:{_NAME_WORD}|Dr\.|Mr\.|Ms\.|Mrs\.)"
    rf"(?:[ \t](?:[A-Z0-9\u00c0-\u024f][\w.'\u2019\-]{{0,30}}|{_PARTICLE})){{0,4}}"
)
TS_PREFIX = re.compile(rf"^\s*[\[(]?{STAMP}(?:\s?[AaPp]\.?[Mm]\.?)?[\])]?\s*[-\u2013\u2014]?\s*")
NAME_LINE = re.compile(rf"^{SPEAKER}$")
# What a meeting app writes after a display name: "(Guest)", "(External)", "(chat)".
_MARK = r"(?:\s*[\[(](?i:guest|external|unverified|organi[sz]er|presenter|host|co-host|chat)[\])])?"
_SPEAKER_LINE = re.compile(
    rf"^(?:\*\*)?(?P<name>{SPEAKER})(?:\*\*)?{_MARK}(?:\s*[\[(]{STAMP}[\])])?"
    rf"\s*(?:\*\*)?:(?:\*\*)?\s+(?P<text>\S.*)$"
)

# Words that end in a colon at the start of a line but are labels, not people.
LABELS = frozenset(
    """
    date time when where location attendees attendee participants present absent apologies
    agenda title subject topic topics meeting note notes agreed agreement decision decisions
    decided action actions todo summary re fyi update updates status owner owners due project
    client q a question answer warning error example outcome outcomes risk risks blocker
    blockers goal goals context background problem solution result results purpose next
    follow followup followups reminder important tl;dr tldr ps p.s nb n.b step steps edit
    http https file link url parking lot open questions minutes chair facilitator scribe
    regrets recorded transcript recording duration length source language audio transcribed
    transcription
    """.split()
)

_MULTIWORD_LABELS = frozenset(
    [
        "action item",
        "action items",
        "next step",
        "next steps",
        "open questions",
        "parking lot",
        "follow up",
        "key decisions",
        "key points",
        "meeting notes",
        "to do",
        "due date",
        "recorded on",
        "auto transcript",
        "auto-transcript",
    ]
)


# A quarter, a half, a fiscal year, a version or a sprint: "Q3", "H2", "FY26", "V2", "S14".
_PERIOD = re.compile(r"[a-z]{1,3}\d{1,4}")


def is_label(name: str) -> bool:
    """ "Agenda:", "Next steps:", "Decision 2:", "Q3:", "FY26 plan:" are labels; "Project
    Manager:" and "Speaker 2:" are speakers."""
    words = name.lower().replace("*", "").split()
    if not words or _PERIOD.fullmatch(words[0]):
        return True
    if " ".join(w.strip() for w in words) in _MULTIWORD_LABELS:
        return True
    return words[0] in LABELS and all(w.isdigit() for w in words[1:])


def split_speaker(line: str) -> tuple[str | None, str]:
    """`Name: text` (optionally after a timestamp or in **bold**) → (name, text)."""
    stripped = TS_PREFIX.sub("", line, count=1) if TS_PREFIX.match(line) else line
    match = _SPEAKER_LINE.match(stripped.strip())
    if match and not is_label(match["name"]) and len(match["name"]) <= 40:
        return match["name"].strip(), match["text"].strip()
    return None, stripped.strip()


def recurring_names(lines: Iterable[str], least: int = 2) -> set[str]:
    """Names written before a colon at the start of `least` lines or more: the display
    names an export writes before every line, whatever their shape ("jb lefevre",
    "Priya Shah (she/her)"), which the strict speaker pattern would miss."""
    counts: Counter[str] = Counter()
    for line in lines:
        head, colon, _ = line.partition(":")
        head = head.strip()
        if (
            colon
            and 0 < len(head) <= 60
            and len(head.split()) <= 6
            and not is_label(head)
            and not re.search(r"[.!?,;\"]|\d{2}", head)
        ):
            counts[head] += 1
    return {name for name, count in counts.items() if count >= least}


def name_prefix(text: str, known: set[str]) -> tuple[str | None, str]:
    """`Name: text` where Name is a speaker by the strict pattern, or one of `known`
    (display names an export writes before every line, whatever their shape)."""
    head, colon, rest = text.partition(":")
    if colon and head.strip() in known and rest.strip():
        return head.strip(), rest.strip()
    return split_speaker(text)


_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_ROLE_AFTER = re.compile(r"\s[\u2014\u2013-]\s|[,:]")
_MAX_LISTED = 2_000  # characters of a roster line read (a hostile one can be any length)


def person(item: str) -> str:
    """A roster entry without the role written after it: "Zoë Brannigan — Finance",
    "Libby Harcourt (Kestrel, Eng)", "Sam Okafor, Field"; the name where the entry gives it
    beside a short form ("NA (Ngozi Adebayo)")."""
    given = short_form(item)
    if given is not None:
        return given[1]
    return _ROLE_AFTER.split(_BRACKETS.sub("", item[:_MAX_LISTED]), maxsplit=1)[0].strip(" .*_")


def people(listed: str) -> list[str]:
    """ "A, B and C" as names (bracketed roles dropped)."""
    names = [" ".join(person(part).split()) for part in listed_entries(listed)]
    return [name for name in names if name and len(name.split()) <= 5]


def listed_entries(listed: str) -> list[str]:
    """ "A (AA, notes), B and C": one entry a person, a comma in brackets kept in its entry."""
    return [
        part.strip()
        for part in re.split(r"(?:,|;|\band\b|&)(?![^()]*\))", listed[:_MAX_LISTED])
        if part.strip()
    ]


_QUOTED = re.compile(r"[\"\u201c][^\"\u201d]*[\"\u201d]")  # a nickname: Callum "Cal" Ferreday
_SHORT_FORM = re.compile(r"^\W*(?P<outer>[^()\[\]]+?)\s*\((?P<inner>[^()]+)\)")


def short_form(item: str) -> tuple[str, str] | None:
    """(short form, name) where a roster entry writes a person's initials or short name
    beside their name, either way round: "Maggie Thornton (MT) — chair", "NA (Ngozi
    Adebayo)", "Tadhg O'Rourke (TOR, notes)", "Lena Vogt (LenaV)". Notes then name them by
    it ("@MT"). A bracket that abbreviates nothing ("Libby Harcourt (Kestrel, Eng)") is
    not one."""
    found = _SHORT_FORM.match(item[:_MAX_LISTED])
    if found is None:
        return None
    outer, inner = (
        " ".join(_QUOTED.sub(" ", said).strip(' .*_"').split())
        for said in (found["outer"], found["inner"].split(",")[0])
    )
    for short, name in ((inner, outer), (outer, inner)):
        if len(short.split()) == 1 and len(name.split()) >= 2 and abbreviates(short, name):
            return short, name
    return None


def abbreviates(short: str, name: str) -> bool:
    """Whether `short` is made of the starts of `name`'s parts, in order, its first part's
    among them: "MT", "DRM" (Dewi Rhys-Morgan), "TOR" (Tadhg O'Rourke), "AoNB" (Aoife Ní
    Bhriain), "LenaV", "haru" (Haruto Sakamoto). Two letters at least."""
    letters = _plain(short)
    parts = [p for p in map(_plain, re.split(r"[\s'\u2019\-\"]+", name)) if p]
    if len(letters) < 2 or not letters.isalpha() or not parts:
        return False

    def fits(rest: str, start: int, last: int) -> bool:
        """`rest` is made of starts of the parts from `start` on (the first from `last`)."""
        return not rest or any(
            rest.startswith(parts[i][:n]) and fits(rest[n:], i + 1, len(parts))
            for i in range(start, last)
            for n in range(len(parts[i]), 0, -1)
        )

    return fits(letters, 0, 1)


def _plain(text: str) -> str:
    return normalize(text).replace(" ", "")
