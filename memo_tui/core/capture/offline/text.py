"""Sentences, clean-up of spoken text, and names: the offline extractor's vocabulary."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=\S)")
_ANNOTATION = re.compile(
    r"\{[^}]{0,200}\}|\[(?:inaudible|crosstalk|laughter|laughs|pause)[^\]]{0,100}\]", re.I
)
_ACRONYM = re.compile(r"\b(?:[A-Za-z]_){2,}")
_FILLER = re.compile(
    r"(?<![\w'])(?:um+|uh+|er+m?|mm+(?:-hmm)?|hmm+|mhm|uh-huh|you know,?|i mean,?|sort of|"
    r"kind of|like,)(?![\w'])[,.]?\s*",
    re.I,
)
_LEAD = re.compile(
    r"^(?:(?:so|okay|ok|well|yeah|yes(?!\s+to\b)|right|alright|and|but|also|anyway|now|then|oh|"
    r"great|good|cool|fine|sure|actually|basically|i think|i guess)\b[,.!]?\s*)+",
    re.I,
)
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_MARK = re.compile(r"\s+([,.;:!?])")
_REPEAT = re.compile(r"\b(\w+)(?:\s+\1\b)+", re.I)

STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing done down during each
    few for from further get gets getting go going gonna got had has have having he her here
    hers him his how i if in into is it its itself just let lets like make me more most my
    no nor not now of off on once one only or other our ours out over own really right said
    same say see she should so some such than that the their them then there these they
    thing things think this those through to too under until up us very was we well were
    what when where which while who whom why will with would yeah yes you your yours okay ok
    um uh mm hmm actually maybe probably sure want need gonna wanna know mean kind sort
    lot bit little something anything everything someone anyone everyone way also still
    even ever much many
    """.split()
)


@dataclass(frozen=True)
class Sentence:
    """A sentence of one turn, with where it sits in the turn's text."""

    text: str
    start: int


def sentences(text: str) -> list[Sentence]:
    """Split a turn into sentences, keeping each one's exact wording."""
    found: list[Sentence] = []
    position = 0
    for match in _SENTENCE_END.finditer(text):
        chunk = text[position : match.start()].strip()
        if chunk:
            found.append(Sentence(chunk, text.index(chunk, position)))
        position = match.end()
    tail = text[position:].strip()
    if tail:
        found.append(Sentence(tail, text.index(tail, position)))
    return found


def clean_spoken(text: str) -> str:
    """Spoken words made readable: no fillers, stutters or transcriber annotations."""
    text = _ANNOTATION.sub(" ", text)
    text = _ACRONYM.sub(lambda m: m.group(0).replace("_", ""), text)
    text = _FILLER.sub("", text)
    text = _REPEAT.sub(r"\1", text)
    text = _SPACE_BEFORE_MARK.sub(r"\1", _SPACES.sub(" ", text)).strip(" ,;-")
    text = _LEAD.sub("", text).strip(" ,;-")
    return text


def as_sentence(text: str) -> str:
    """Capitalized, with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def content_words(text: str) -> set[str]:
    """Lower-cased words that carry a topic (for overlap between statements)."""
    words = re.findall(r"[a-z][a-z0-9'\-]+", clean_spoken(text).lower())
    return {stem(w) for w in words if len(w) > 2 and w not in STOPWORDS}


def content_words_and_parts(text: str) -> set[str]:
    """Content words, and the parts of hyphenated ones ("self-check-in": check; "on-call":
    call), so a question's "on call" meets a line's "on-call"."""
    found = content_words(text)
    return found | {stem(part) for w in found for part in w.split("-") if len(part) > 2}


# The past forms of common verbs that no suffix rule brings home: "who ran the soak?" asks
# about "run the soak".
IRREGULAR = {
    past: verb
    for verb, forms in {
        "run": "ran",
        "take": "took taken",
        "give": "gave given",
        "send": "sent",
        "buy": "bought",
        "bring": "brought",
        "choose": "chose chosen",
        "write": "wrote written",
        "build": "built",
        "pay": "paid",
        "sell": "sold",
        "tell": "told",
        "find": "found",
        "speak": "spoke spoken",
        "drive": "drove driven",
        "break": "broke broken",
        "begin": "began begun",
        "win": "won",
        "lose": "lost",
        "hold": "held",
        "keep": "kept",
        "spend": "spent",
        "teach": "taught",
        "catch": "caught",
        "fall": "fell fallen",
    }.items()
    for past in forms.split()
}


# Plurals in -ies whose singular ends -ie, or that are their own singular.
_IE_PLURALS = frozenset("series species cookies movies calories selfies rookies zombies".split())


def stem(word: str) -> str:
    """A crude stem, enough for "building" and "build", "invoices" and "invoice", "batteries"
    and "battery", "shipped" and "ship", "ran" and "run" to meet."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4 and word not in _IE_PLURALS:
        return word[:-3] + "y"  # "batteries", "deliveries"
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            base = word[: -len(suffix)]
            # "shipped", "shipping": "ship" (not "called" or "passed": "call", "pass")
            doubled = base[-1] == base[-2] and base[-1] not in "aeioulsfz"
            return base[:-1] if doubled else base
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        return word[:-1]
    return word


def word_count(text: str) -> int:
    return len(re.findall(r"\w+", text))
