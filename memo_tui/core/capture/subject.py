"""What a decision is about, and what it sets: the two things that tie a later decision to the
one it replaces.

A decision is often said in few words ("Let's bring it back to forty."), so its subject is
read from its own words and from the turn that led to it ("the sim for twenty aisles still says
forty robots"), less the names of the people talking and the words that only make a call.
Its values are what it sets: numbers (in digits, "forty" read as 40), dates and names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.offline.text import content_words, stem

# Words that make or report a call, or fill a sentence, and say nothing of its subject.
CALL_WORDS = frozenset(
    """agre agreed agree final answer decide decided decision call done okay fine yes yeah right
    good great sure well just really thing things going want need let that's think also then
    actually maybe stand stands still back again now anyway it's we're i'm let's don't won't
    can't what's there's mean lot bit able sort kind move moves moved moving change changes
    changed changing switch switched replace replaced stay stays keep keeps goes go decid
    reason reasoning because""".split()
)
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90, "hundred": 100,
}  # fmt: skip
# Ordinals set values too ("the twenty-third"), but "second" alone is a unit ("per second").
# Days and months say when, not what: they are values, never subject words.
CALENDAR = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs
    fri sat sun january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec today tomorrow tonight week weeks
    month months year years day days""".split()
)
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
VALUE_MARK = "#"  # a value said around a decision, kept among its subject words as "#24"


def subject_words(texts: Iterable[str], names: Iterable[str] = ()) -> set[str]:
    """The key words of `texts`, less people's names, call words and numbers."""
    named = {w.lower() for name in names for w in re.findall(r"\w+", name)}
    words = content_words(" ".join(texts))
    return {
        w
        for w in words
        if w not in CALL_WORDS
        and w not in CALENDAR
        and w not in named
        and not all(p in NUMBER_WORDS or p in ORDINALS for p in w.split("-"))
        and "'" not in w
        and not w[:1].isdigit()
    }


def decision_subject(
    turns: list[Turn], line: int | None, own: Iterable[str], names: Iterable[str]
) -> str:
    """A decision's subject words, space-separated: its own words (`own`: what was decided,
    the quote, the reason) and those of the turn before the one it was said in; then the
    values said in those turns, marked ("#24"), for a later call that moves from one."""
    texts = list(own)
    around: list[str] = []
    if line is not None:
        at = next((i for i, t in enumerate(turns) if t.line <= line <= t.end), None)
        if at is not None:
            around = [turns[at].text] + ([turns[at - 1].text] if at else [])
    words = sorted(subject_words([*texts, *around], names))
    said = sorted(VALUE_MARK + v for text in around for v in values(text))
    return " ".join(dict.fromkeys([*words, *said]))


def subject_of(subject: str) -> tuple[set[str], set[str]]:
    """A stored subject as (its words, the values said around it)."""
    tokens = subject.split()
    marked = {t[len(VALUE_MARK) :] for t in tokens if t.startswith(VALUE_MARK)}
    return {t for t in tokens if not t.startswith(VALUE_MARK)}, marked


MONTHS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec""".split()
)
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
DATE_MARK = "@"  # a value that says when ("@11", "@january"), not how many
_TOKEN = re.compile(r"\d{1,2}/\d{1,2}\b|\d+(?:\.\d+){2,}|\d+(?:\.\d+)?(?:st|nd|rd|th)?|[\w'\-]+")
_VERSION = re.compile(r"\d+(?:\.\d+){2,}")  # "3.1.4": one name, not 3.1 and 4


def _number(token: str) -> tuple[str, bool] | None:
    """A token's number and whether it reads as a day ("23rd", "twenty-third"); None if it is
    no number ("second" alone is a unit: "per second")."""
    low = token.lower()
    found = re.fullmatch(r"(\d+(?:\.\d+)?)(st|nd|rd|th)?", low)
    if found:
        n = found.group(1)
        return (str(float(n)) if "." in n else n.lstrip("0") or "0"), bool(found.group(2))
    pieces = low.split("-")
    if pieces == ["second"]:
        return None
    parts = [NUMBER_WORDS.get(p, ORDINALS.get(p)) for p in pieces]
    if parts and all(p is not None for p in parts):
        return str(sum(p for p in parts if p is not None)), pieces[-1] in ORDINALS
    return None


def values(text: str, opens: bool = True) -> set[str]:
    """What a statement sets: amounts ("forty" and "40" alike), dates (marked: "@11",
    "@january"; a number beside a month, an ordinal day, a year, "24/3") and names
    ("PagerDuty"): capitalised words, but not the first of a sentence (unless the text does
    not `opens` one: a piece cut from inside a sentence)."""
    return {
        value
        for n, sentence in enumerate(_SENTENCES.split(ungrouped(text)))
        for _, said in _valued(_TOKEN.findall(sentence), first=_first(sentence, opens or n > 0))
        for value in said
    }


_SENTENCES = re.compile(r"(?<=[.!?:;])\s+")
# "Fenwick it is.", "Ostara it'll be": the word a call opens with is the value it picks.
_PICKED_FIRST = re.compile(r"^\W*(?P<word>[A-Z][\w-]+) (?:it is|it's|it'll be|it will be)\b")


def _first(sentence: str, opens: bool) -> int:
    """The place of the first word that may be a name: the second of a sentence (its first
    is capitalised anyway), unless the text does not open one, or the sentence is a pick
    ("Fenwick it is", not "That it is")."""
    picked = _PICKED_FIRST.match(sentence)
    if picked and content_words(picked.group("word")):
        return 0
    return 1 if opens else 0


_GROUPED = re.compile(r"(?<=\d),(?=\d{3}\b)")  # "1,200" is one number


def ungrouped(text: str) -> str:
    """ "1,200" as "1200", and a number said in several words as its figure ("a hundred and
    twenty": 120, "three thousand five hundred": 3500): one number, not two. "twenty fourth"
    (as speech to text writes it) is "twenty-fourth"."""
    text = _TENS_APART.sub(r"\1-\2", _GROUPED.sub("", text))
    text = _HUNDREDS_APART.sub(_hundreds, text)
    return _SPELLED.sub(_figure, _POINT.sub(_decimal, text))


_NUMBER_WORDS = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_SMALL = rf"(?:(?:{_NUMBER_WORDS})(?:-(?:{_NUMBER_WORDS}))?)"  # "twenty", "twenty-five"
_SCALE = r"(?:hundred|thousand|million)"
# A run with a scale word in it: "a hundred and twenty", "two thousand five hundred",
# "twelve hundred". Ordinals ("twenty-third") end a run; they are days, read apart.
_SPELLED = re.compile(
    rf"(?i)\b(?:(?:a|{_SMALL})\s+)?{_SCALE}"
    rf"(?:(?:\s+and)?\s+(?:{_SMALL}\s+)?(?:{_SCALE}|{_SMALL}))*\b(?!-)"
)


_ONES = (
    "one two three four five six seven eight nine first second third fourth fifth sixth "
    "seventh eighth ninth"
).split()
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_FIGURE = "|".join(_ONES[:9])
_TENS_APART = re.compile(rf"(?i)\b({_TENS}) ({'|'.join(_ONES)})\b")


# "one thirty-nine", "two forty" (a price or a time as said): one figure, 139 and 240; not
# before an ordinal ("one twenty-third") or a scale word ("two twenty thousand").
_HUNDREDS_APART = re.compile(
    rf"(?i)\b({_FIGURE}) ((?:{_TENS})(?:-(?:{_FIGURE}))?)"
    rf"\b(?!-)(?!\s+(?:hundred|thousand|million)\b)"
)


def _hundreds(found: re.Match[str]) -> str:
    tens = sum(NUMBER_WORDS[w] for w in found.group(2).lower().split("-"))
    return str(NUMBER_WORDS[found.group(1).lower()] * 100 + tens)


_DIGIT_WORDS = "oh zero one two three four five six seven eight nine".split()
_DIGIT = rf"(?:{'|'.join(_DIGIT_WORDS)})"
# "two point four", "three point oh", "version ten point one two": a number with decimals.
_POINT = re.compile(
    rf"(?i)\b({'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))}|\d+)"
    rf" point ({_DIGIT}(?: {_DIGIT})*|\d+)\b"
)


def _decimal(found: re.Match[str]) -> str:
    whole = found.group(1).lower()
    number = whole if whole.isdigit() else str(NUMBER_WORDS[whole])
    places = found.group(2).lower().split()
    tail = "".join(p if p.isdigit() else str(max(_DIGIT_WORDS.index(p) - 1, 0)) for p in places)
    return f"{number}.{tail}"


def _figure(found: re.Match[str]) -> str:
    total = current = 0
    for word in re.split(r"[\s-]+", found.group().lower()):
        if word in ("a", "and"):
            current = current or (1 if word == "a" else 0)
        elif word in SCALES and SCALES[word] == 100:
            current = max(current, 1) * 100
        elif word in SCALES:
            total, current = total + max(current, 1) * SCALES[word], 0
        else:
            current += NUMBER_WORDS[word]
    return str(total + current)


SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}  # "twelve hundred": 1200


def _valued(tokens: list[str], first: int) -> list[tuple[int, set[str]]]:
    """Each token of a sentence that sets a value, by its place, with what it sets."""
    lows = [t.lower() for t in tokens]
    found: list[tuple[int, set[str]]] = []
    scaled = -1  # the place of a scale word read with the number before it
    for i, token in enumerate(tokens):
        low = lows[i]
        if i == scaled:
            continue
        if "/" in token:
            found.append((i, {DATE_MARK + p.lstrip("0") for p in token.split("/")}))
            continue
        if _VERSION.fullmatch(token):
            found.append((i, {token}))
            continue
        owner = low[:-2] if low.endswith("'s") else low  # "Monday's standup": Monday
        if owner[:-1] in WEEKDAYS:
            owner = owner[:-1]  # "Fridays": Friday
        if owner in MONTHS or owner in WEEKDAYS:
            found.append((i, {DATE_MARK + owner}))
            continue
        number = _number(token)
        if (
            number is None
            and low == "second"
            and lows[i + 1 : i + 2] == ["of"]
            and (set(lows[i + 2 : i + 3]) & MONTHS)
        ):
            number = ("2", True)  # "Friday the second of October": a day, not a unit
        if number is not None:
            value, ordinal = number
            near = {w for w in lows[max(0, i - 3) : i + 4] if w != low}
            year = len(value) == 4 and value[:2] in ("19", "20")
            spelled = ordinal and not low[:1].isdigit() and not near & (MONTHS | WEEKDAYS)
            if spelled and not _a_day(lows, i):
                continue  # a rank ("the first canning run"), not a value
            # (beside a month, a number over 31 is no day: "139 for March" is an amount)
            when = ordinal or year or (bool(near & MONTHS) and float(value) <= 31)
            scale = SCALES.get(lows[i + 1] if i + 1 < len(lows) else "")
            if scale and not when and "." not in value and low not in SCALES:
                value, scaled = str(int(value) * scale), i + 1  # "twelve hundred": 1200
            found.append((i, {DATE_MARK + value if when else value}))
        elif i >= first and token[0].isupper() and token != "I" and "'" not in token:
            found.append((i, {low}))
        elif i >= first and token[0].isupper() and owner != low and owner not in _NOT_OWNERS:
            found.append((i, {owner}))  # "Fenwick's no good to us": Fenwick
    return found


# Capitalised words with "'s" that own nothing: "It's", "Let's", "That's".
_NOT_OWNERS = frozenset(
    """it let that what there he she here who where how everyone everybody nobody somebody
    someone anyone one today tomorrow yesterday tonight""".split()
)
_AFTER_A_DAY = frozenset("of then it is and or for at so".split())


def _a_day(lows: list[str], i: int) -> bool:
    """Whether an ordinal in words, with no month or weekday near, is a day: "the
    twenty-third" or "the fifth, then" is; "the first canning run", "second phase" are
    ranks."""
    following = lows[i + 1] if i + 1 < len(lows) else ""
    ranks = following[:1].isalpha() and following not in _AFTER_A_DAY
    return i > 0 and lows[i - 1] == "the" and not ranks


# What an amount is counted in says nothing of what it is the amount of ("twelve pounds a
# ticket" and "eight pounds a car" set different things).
_UNITS = frozenset(
    stem(w)
    for w in """pound pounds quid grand euro euros dollar dollars pence penny percent per cent
    thousand hundred million k bn hour hours minute minutes metre metres meter meters mile
    miles kilo kilos kg km litre litres each head""".split()
)
SLOT_BEFORE = 5  # tokens before a value that say what it is the value of ("we open on")
SLOT_AFTER = 2  # and after it: its unit ("five thousand", "ten percent")


def slot_words(text: str, wanted: AbstractSet[str]) -> set[str]:
    """The words the `wanted` values are said with in `text`, in their sentence: what they
    are the amount or date of ("we open on Friday the 2nd": open; "five thousand on the
    first printing": thousand). Two calls that set the same slot share one of them."""
    found: set[str] = set()
    for sentence in _SENTENCES.split(text):
        tokens = _TOKEN.findall(sentence)
        valued = _valued(tokens, first=1)
        at = {i for i, said in valued}
        near = {
            j
            for i, said in valued
            if said & wanted
            for j in range(i - SLOT_BEFORE, i + SLOT_AFTER + 1)
            if 0 <= j < len(tokens) and j not in at
        }
        found |= subject_words([" ".join(tokens[j] for j in sorted(near))])
    return found - _UNITS


def is_number(value: str) -> bool:
    return value[:1].isdigit()


def is_date(value: str) -> bool:
    return value.startswith(DATE_MARK)


def changed(ours: AbstractSet[str], theirs: AbstractSet[str]) -> str | None:
    """How a value was set again differently ("1.2 → 0.8"): a number for a number, a name for
    a name; None when nothing of one kind was replaced by another of that kind."""
    found = changed_values(ours, theirs)
    if not found:
        return None
    new, old = (", ".join(sorted(v.lstrip(DATE_MARK) for v in side)) for side in found)
    return f"{old} → {new}"


def changed_values(
    ours: AbstractSet[str], theirs: AbstractSet[str]
) -> tuple[set[str], set[str]] | None:
    """(new values, old values) of the first kind, amounts, dates then names, where each side
    sets one the other does not ("Monday the 16th", then "Monday the 23rd": 16 → 23); an
    amount and a date are not one value changed ("eight robots", then "the 11th")."""
    kinds: tuple[Callable[[str], bool], ...] = (
        is_number,
        is_date,
        lambda v: not is_number(v) and not is_date(v),
    )
    for kind in kinds:
        now, before = {v for v in ours if kind(v)}, {v for v in theirs if kind(v)}
        if now - before and before - now:
            return now - before, before - now
    return None


def distinctive(value: str) -> bool:
    """A value that picks a thing out: a name, a decimal or an amount of two digits or more
    ("Voltaic", "3.2", "24"), not a small count or a day that many things share."""
    if is_date(value):
        return False
    return not is_number(value) or "." in value or len(value) >= 2
