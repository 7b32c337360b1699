"""How alike a mention and a name are, by spelling (rapidfuzz), the way people shorten names.

Whole-string similarity is the wrong measure for names: "Sam Cheng" is 94% "Sam Chen" by
characters, yet a different surname is a different person far more often than a typo.
So names are compared part by part, and the weakest part decides:

- first and last name both given: the lower of the two part similarities ("Sam Chen" vs
  "Sam Cheng" is 0.80: close enough to ask, not to decide; "Priya Natarjan" vs "Priya
  Natarajan" is 0.89: a typo, resolved);
- one word against a full name (a first name, a surname): 0.9 x that part's similarity,
  so a unique first name resolves and two people who share it tie, and memo asks;
- initials ("SC", "S.C.", "Sam C."): an initial matches the part it abbreviates.
"""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz.distance import Levenshtein

PART_ONLY = 0.9  # a first name or surname alone says less than the whole name
INITIALS = 0.85  # "SC" for Sam Chen: enough when nobody else has those initials

# Speaker labels that name a role or a slot, not a person: never made into people.
ROLE_WORDS = frozenset(
    """manager designer marketing interface industrial project professor grad phd postdoc
    undergrad speaker host moderator chair chairman chairperson interviewer interviewee
    participant unknown narrator facilitator presenter member members everyone all team
    group user admin assistant bot system note notes recorder transcriber""".split()
)


def normalize(name: str) -> str:
    """Case-, accent- and punctuation-free, single-spaced. A possessive goes ("Priya's"),
    and apostrophes and hyphens join a name's pieces ("O'Brien", "Smith-Jones")."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    plain = re.sub(r"(?<=\w)['\u2019]s\b", "", plain)
    plain = re.sub(r"(?<=\w)['\u2019-](?=\w)", "", plain)
    return " ".join(re.sub(r"[^\w\s]|_", " ", plain).split())


def parts(name: str) -> list[str]:
    return normalize(name).split()


def _part(mention: str, name: str) -> float:
    """One name part against another: an initial matches the part it abbreviates."""
    if len(mention) == 1 or len(name) == 1:
        return PART_ONLY if mention[0] == name[0] else 0.0
    return Levenshtein.normalized_similarity(mention, name)


def _initials(raw: str, mention: list[str], name: list[str]) -> bool:
    """ "SC", "S.C." or "S C" for Sam Chen (a word such as "Sam" is never read as initials)."""
    letters = "".join(mention)
    written_as_initials = all(len(p) == 1 for p in mention) or re.sub(r"\W", "", raw).isupper()
    return (
        len(name) >= 2
        and 2 <= len(letters) <= 4
        and written_as_initials
        and letters == "".join(p[0] for p in name)
    )


def similarity(mention: str, name: str) -> float:
    """0..1, how likely `mention` names the person (project, client) called `name`."""
    m, n = parts(mention), parts(name)
    if not m or not n:
        return 0.0
    if m == n:
        return 1.0
    if _initials(mention, m, n):
        return INITIALS
    if len(m) == 1 and len(n) >= 2:
        return PART_ONLY * max(_part(m[0], n[0]), _part(m[0], n[-1]))
    if len(n) == 1 and len(m) >= 2:
        return PART_ONLY * max(_part(n[0], m[0]), _part(n[0], m[-1]))
    if len(m) >= 2:
        return min(_part(m[0], n[0]), _part(m[-1], n[-1]))
    return Levenshtein.normalized_similarity(m[0], n[0])


def looks_like_a_person(label: str) -> bool:
    """A speaker label that is a personal name ("Priya Natarajan"), not a role or a slot
    ("Project Manager", "Grad B", "Speaker 2"). A heuristic: letters only, one to four
    words, no role words, no one-letter tag at the end."""
    words = label.split()
    if not 1 <= len(words) <= 4 or any(not re.fullmatch(r"[^\W\d_][\w'.-]*", w) for w in words):
        return False
    if any(normalize(w) in ROLE_WORDS for w in words):
        return False
    return not (len(words) > 1 and len(words[-1].strip(".")) == 1)
