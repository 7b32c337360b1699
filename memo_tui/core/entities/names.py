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
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from memo_tui.core.entities.nicknames import same_first_name, single_letters, sound, variants

PART_ONLY = 0.9  # a first name or surname alone says less than the whole name
INITIALS = 0.85  # "SC" for Sam Chen: enough when nobody else has those initials
SAME_FIRST = 0.97  # "Libby" for Elizabeth, "Jon" for John: the same name, not the same spelling
PREFIX = 0.95  # "Raj" for Rajesh, "Rob" for Roberto
SUFFIX = 0.95  # "Seun" for Oluwaseun, "Tina" for Christina: a first name's end, from four letters
TYPO = 0.9  # "Okafur" for Okafor: one letter misheard, inside a surname of five or more

# Speaker labels that name a role or a slot, not a person: never made into people.
ROLE_WORDS = frozenset(
    """manager designer marketing interface industrial project professor grad phd postdoc
    undergrad speaker host moderator chair chairman chairperson interviewer interviewee
    participant unknown narrator facilitator presenter member members everyone all team
    group user admin assistant bot system note notes recorder transcriber guest guests
    anonymous""".split()
)


# A name written as initials alone: "MT", "RTB", "AoNB".
INITIALS_ALONE = re.compile(r"[A-Z][A-Za-z]?[A-Z]{1,3}")
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s\b")
_JOINER = re.compile(r"(?<=\w)['\u2019-](?=\w)")
_PUNCTUATION = re.compile(r"[^\w\s]|_")


# Names are pure functions of their text, and a mailbox or a year of meetings names the same
# people again and again: each capture compares its names with the whole directory.
@lru_cache(maxsize=16_384)
def normalize(name: str) -> str:
    """Case-, accent- and punctuation-free, single-spaced. A possessive goes ("Priya's"),
    and apostrophes and hyphens join a name's pieces ("O'Brien", "Smith-Jones")."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    plain = _POSSESSIVE.sub("", plain)
    plain = _JOINER.sub("", plain)
    return " ".join(_PUNCTUATION.sub(" ", plain).split())


# What goes before or after a name without being part of it ("Dr David Blaney", "Angela
# Burns AM", "Mr Reckless"): set aside when names are compared. Generational suffixes (Jr,
# Sr, III) stay: they tell a father from a son.
TITLES = frozenset(
    "mr mrs ms miss mx dr prof professor sir dame lord lady rev revd fr hon cllr councillor "
    "chef captain coach nurse officer inspector sergeant judge mayor senator".split()
)
POSTNOMINALS = frozenset(
    "am mp ms msp mla mep td phd md dphil esq qc kc obe mbe cbe frs mba cpa "
    "external guest unverified".split()  # and what meeting tools write after a name
)


def parts(name: str) -> list[str]:
    """The words that name the person: titles and letters after the name set aside."""
    words = normalize(name).split()
    while len(words) > 1 and words[0] in TITLES:
        words = words[1:]
    while len(words) > 2 and words[-1] in POSTNOMINALS:
        words = words[:-1]
    return words


def _part(mention: str, name: str, first: bool = False) -> float:
    """One name part against another: an initial matches the part it abbreviates; a first
    name matches its diminutives, its sound-alikes and (from three letters) what it starts
    with; a surname a one-letter mishearing of it."""
    if len(mention) == 1 or len(name) == 1:
        return PART_ONLY if mention[0] == name[0] else 0.0
    if mention == name:
        return 1.0
    if first and same_first_name(mention, name):
        return SAME_FIRST
    short, full = sorted((mention, name), key=len)
    if first and len(short) >= 3 and _starts(full, short):
        return PREFIX
    if first and any(len(end) >= 4 and full.endswith(end) for end in {short, *variants(short)}):
        return SUFFIX  # "Seun" for Oluwaseun, "Tunde" for Babatunde; "Shaun", as Seun is said
    plain = Levenshtein.normalized_similarity(mention, name)
    if not first and _misheard(mention, name):
        return max(plain, TYPO)
    return plain


def _starts(full: str, short: str) -> bool:
    """Whether a first name starts with a shorter one, as written or as said ("Roz" for
    Rosalind: the z is the s said)."""
    said = sound(short)
    return full.startswith(short) or (len(said) >= 3 and sound(full).startswith(said))


def _misheard(mention: str, name: str) -> bool:
    """A long surname with one letter swapped for another, two letters side by side the
    wrong way round (Okonkow for Okonkwo), or a doubled letter written once (Hadad for
    Haddad); never its first letter, and no other letter added: Chen and Cheng, Park and
    Parks are other people's names."""
    if min(len(mention), len(name)) < 5 or mention[0] != name[0]:
        return False
    if len(mention) != len(name):
        return single_letters(mention) == single_letters(name)
    wrong = [i for i, (a, b) in enumerate(zip(mention, name, strict=True)) if a != b]
    swapped = (
        len(wrong) == 2
        and wrong[1] == wrong[0] + 1
        and mention[wrong[0]] == name[wrong[1]]
        and mention[wrong[1]] == name[wrong[0]]
    )
    return len(wrong) == 1 or swapped


def _hyphen_initials(raw: str) -> str:
    """The initials of a hyphenated first name ("Jean-Baptiste" -> "jb")."""
    first = raw.split()[0] if raw.split() else ""
    pieces = [p for p in re.split(r"[-\u2010\u2011]", first) if p]
    return "".join(normalize(p)[:1] for p in pieces) if len(pieces) > 1 else ""


def _camel(mention: str) -> str:
    """ "JohnP", "SamO": a first name and a surname's initial, as notes shorten them."""
    if len(mention.split()) != 1:
        return mention
    return re.sub(r"(?<=[a-z])(?=[A-Z]\b)", " ", mention)


def _initials(raw: str, mention: list[str], name: list[str], full: str) -> bool:
    """ "SC", "S.C." or "S C" for Sam Chen, "MOR" for Margaret Olufemi-Reid (each half of a
    hyphenated name has its letter); a word such as "Sam" is never read as initials."""
    letters = "".join(mention)
    written_as_initials = all(len(p) == 1 for p in mention) or re.sub(r"\W", "", raw).isupper()
    halves = parts(re.sub(r"[-\u2010\u2011]", " ", full))
    return (
        len(name) >= 2
        and 2 <= len(letters) <= 4
        and written_as_initials
        and letters in ("".join(p[0] for p in name), "".join(p[0] for p in halves))
    )


@lru_cache(maxsize=65_536)  # see normalize
def similarity(mention: str, name: str) -> float:
    """0..1, how likely `mention` names the person (project, client) called `name`."""
    mention = _camel(mention)
    m, n = parts(mention), parts(name)
    if not m or not n:
        return 0.0
    if m == n:
        return 1.0
    if _initials(mention, m, n, name):
        return INITIALS
    if len(m) == 1 and len(n) >= 2:
        if m[0] == _hyphen_initials(name) and mention.strip().isupper():  # "JB"
            return INITIALS
        return PART_ONLY * max(_part(m[0], n[0], first=True), _part(m[0], n[-1]))
    if len(n) == 1 and len(m) >= 2:
        return PART_ONLY * max(_part(n[0], m[0], first=True), _part(n[0], m[-1]))
    if len(m) >= 2:
        first = _part(m[0], n[0], first=True)
        if (m[0] == _hyphen_initials(name) and mention.split()[0].isupper()) or (
            n[0] == _hyphen_initials(mention) and name.split()[0].isupper()
        ):  # "JB Lefèvre" and "Jean-Baptiste Lefèvre"
            first = PREFIX
        return min(first, max(_part(m[-1], n[-1]), _barrel(mention, name)))
    return _part(m[0], n[0], first=True)


DOUBLE_BARREL = 0.9  # "Nakamura" for Nakamura-Hill: one half of a double-barrelled surname


def _barrel(mention: str, name: str) -> float:
    """One surname is a half of the other's double-barrelled one ("Theo Nakamura" for
    Theodore Nakamura-Hill)."""
    said, full = mention.split()[-1], name.split()[-1]
    for short, long_ in ((said, full), (full, said)):
        halves = [normalize(h) for h in re.split(r"-", long_) if h]
        if len(halves) > 1 and normalize(short) in halves:
            return DOUBLE_BARREL
    return 0.0


def looks_like_a_person(label: str) -> bool:
    """A speaker label that is a personal name ("Priya Natarajan"), not a role or a slot
    ("Project Manager", "Grad B", "Speaker 2"). A heuristic: letters only, one to four
    words, no role words, no one-letter tag at the end."""
    words = label.split()
    if words and normalize(words[0]) in TITLES:  # "Professor Okafor", not "Professor D"
        words = words[1:]
        if not words or (len(words) == 1 and len(words[0].strip(".")) == 1):
            return False
    if not 1 <= len(words) <= 4 or any(not re.fullmatch(r"[^\W\d_][\w'.-]*", w) for w in words):
        return False
    if any(normalize(w) in ROLE_WORDS for w in words):
        return False
    return not (len(words) > 1 and len(words[-1].strip(".")) == 1)
