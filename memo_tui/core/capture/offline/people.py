"""Who owns an action item, read from how it was said."""

from __future__ import annotations

import re

from memo_tui.core.capture.offline.cues import IMPERATIVE
from memo_tui.core.capture.sources import Turn

_GROUP = re.compile(r"^(?:we|everyone|everybody|all of us|the team|the group|all)$", re.I)
_NOT_NAMES = frozenset(
    """
    I We You He She It They This That There Here What Which Who Then So And But Or If When
    Also Okay Ok Yeah Yes No Right Well Now The A An Our Your Their My Let Let's Someone
    Somebody Anyone Everyone Everybody Nobody Great Good Sure Fine Thanks Please Maybe
    Actually Just Next Last Today Tomorrow Monday Tuesday Wednesday Thursday Friday Saturday
    Sunday Action Todo Decision Agreed Note Notes Honestly Basically Frankly Seriously
    Personally Obviously Clearly Ideally Really Luckily Sadly Unfortunately Hopefully
    Realistically Apparently Fair
    """.split()
)
_OWNER_PREFIX = re.compile(
    r"^(?P<name>(?:@?[A-Z][\w'\-]{1,30})(?:\s+[A-Z][\w'\-]{1,30}){0,2})\s*[:\u2014\u2013-]\s+"
)
_OWNER_SUFFIX = re.compile(
    r"\((?:owner|assignee|assigned to|@)?\s*:?\s*"
    r"(?P<name>[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?)\)\s*\.?$"
)
_SOMEONE = re.compile(
    r"(?:^|[,;:\u2014\u2013]\s*|\band\s+|\bso\s+)(?:the\s+)?(?P<name>@?[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30}){0,2})"
    r"(?:\s+over here)?\s+(?:will|'ll|is going to|'s going to|is gonna|'s gonna|to|can|should|"
    r"needs to|has to|is to|agreed to|volunteered to|offered to|promised to)\b"
)
_ACTION_FOR = re.compile(
    r"\baction(?: item)? for (?P<name>@?[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?)", re.I
)
_MENTION = re.compile(r"@(?P<name>[A-Za-z][\w.\-]+)")
_I_WILL = re.compile(
    r"\b[Ii](?:'ll| will| am going to|'m going to|'m gonna| can| shall| volunteer to)\b"
)  # "i'll" as speech to text often writes it
_YOU = re.compile(
    r"\b(?:can|could|would) you\b|\bI (?:want|need) you to\b|"
    r"\byour (?:task|job|homework|assignment|action)|"
    r"\byou(?:'ll| will| are going to|'re going to|'re gonna| need to| have to| should| own)\b",
    re.I,
)
_VOCATIVE = re.compile(
    r"^(?:\W*(?i:so|okay|and|ok|right|also|now|then)\W+)?"
    r"(?P<name>[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?),\s"
)
# A reply that takes a request on: "Yeah, I'll get the log over."
ACCEPTS = re.compile(
    r"^\W*(?:yeah|yes|yep|sure|ok|okay|will do|on it|no problem|of course|absolutely|fine)\b",
    re.I,
)


def _is_name(name: str) -> bool:
    words = name.lstrip("@").split()
    return bool(words) and words[0] not in _NOT_NAMES and not _GROUP.match(name)


def owner_in_text(text: str) -> str | None:
    """A name the text itself gives as the owner."""
    for pattern in (_ACTION_FOR, _OWNER_PREFIX, _OWNER_SUFFIX, _SOMEONE):
        match = pattern.search(text)
        if match and _is_name(match["name"]):
            return match["name"].lstrip("@")
    mention = _MENTION.search(text)
    return mention["name"] if mention else None


_FOR_ME = re.compile(r"\b(?:action(?: item)?|task) for me\b|\bassign(?:ed)? to me\b", re.I)
_REQUEST = re.compile(r"\bI(?:'d| would) like\b|\bplease\b", re.I)


def find_assignee(sentence: str, turn: Turn, following: list[Turn]) -> str | None:
    """The owner: named in the sentence, the speaker ("I'll"), or who was asked ("can you")."""
    if _FOR_ME.search(sentence):
        return turn.speaker
    named = owner_in_text(sentence)
    if named:
        return named
    vocative = _VOCATIVE.match(sentence)
    if (
        vocative
        and _is_name(vocative["name"])
        and (
            _YOU.search(sentence)
            or _REQUEST.search(sentence)
            or IMPERATIVE.match(sentence[vocative.end() :])  # "Alex, send me the results"
        )
    ):
        return vocative["name"]
    if _I_WILL.search(sentence):
        return turn.speaker
    if _YOU.search(sentence):
        reply = next((t for t in following if t.speaker and t.speaker != turn.speaker), None)
        return reply.speaker if reply else None
    return None
