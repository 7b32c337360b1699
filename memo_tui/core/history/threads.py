"""Decision threads across meetings: which earlier decision a new one replaces.

A later decision replaces an earlier one when both are about the same thing and the later one
sets it differently: another number or date, another name, yes where it was no. Both are read
from what was stored at capture: each decision's subject words (its own words and the turn
that led to it) and the values it sets. A heuristic, measured by `memo bench extract` against
the labelled sets' cross-meeting links:

- **strong**, proposed first (applied at once, with `memo changes undo`, only with
  `APPLY_STRONG`, off until a link makes no wrong one on new sets): an amount or a date
  differs and the new call says it is a change ("moves to", "instead of", "no longer", "back
  to", "is now", "we move it") while both say the changed value with the same word (its
  slot: "we open on the 18th", then "we move it, we open on the 2nd"); or what was ruled out
  is chosen now;
- **weak**, proposed for the user's review: a name differs and the old one was named just
  before the change; the new call names the old value as the one it moves from ("from the
  13th to the 11th of May"; both see VALIDATED); the two share a word of their own and
  rare subject words, and the value differs, but nothing says it is a change; or the new call
  names the old value in other words ("capacity 900, was 1,200" after "twelve hundred
  tickets"); or one call rules out what the other chose, by a name, a version or a rare
  word at the head of what is ruled out ("3.2 goes out with the pilot", then "we're not
  shipping 3.2"; "we're not doing chilled", then "chilled it is").

A date that had passed when the new call was made is not replaced by a call about another
thing that shares a word with it ("chilled go-live" after the pilot's go-live): what
happened is not moved. It is when every word the new call says its date with was said of
the old one ("the first canning run moves to the 29th"). Yes turned to no is only ever
proposed: measured, a negation on one side with a common word ("we're not stopping the
fleet" after "the fleet stays at 24") linked more unrelated calls than related ones, so the
word must be rare (`TURNED_RARITY`). Only current decisions are candidates,
so a chain (40 → 24 → 40) links each step to the one before it. Decisions of captures tied
to different projects are never linked.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.subject import (
    changed,
    changed_values,
    distinctive,
    is_date,
    is_number,
    slot_words,
    subject_of,
    subject_words,
    ungrouped,
    values,
)
from store import HistoryDecision

CHANGE_CUE = re.compile(
    r"\b(?:mov(?:e|es|ed|ing) (?:[\w'-]+ ){0,4}?(?:to|from|back|out)|instead of|no longer|back to|"
    r"replac\w*|switch\w* (?:to|over)|push(?:ed|ing)? (?:it |that |this )?(?:back|out)|"
    r"goes (?:down|up) to|mov(?:e|ed|ing) it(?! on| along)|"
    r"(?:chang|slipp?)\w* (?:to|from)|now (?:is|goes|moves)|brings? it back|revers\w*|"
    r"any ?more)\b",
    re.IGNORECASE,
)
# Where a call names the value it replaces: "from the 2nd to the 16th", "Parcelwise instead
# of Brightline", "w/c 13 Apr, not the 20th", "Ardent rather than Voltaic", "900 — was
# 1,200", "£8, up from £7.50".
_SAID = r"(?:[^.;]|\.(?=\d))"  # a clause's text: up to its end, but "3.2" and "7.50" are one
_MOVES = (
    re.compile(r"\bfrom\b(?P<old>.{1,60}?)\bto\b(?P<new>(?:[^.;(]|\.(?=\d)){1,40})", re.IGNORECASE),
    re.compile(
        rf"(?P<new>{_SAID}{{1,60}}?)\b(?:instead of|rather than)\b(?P<old>{_SAID}{{1,40}})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<new>{_SAID}{{1,60}}?),\s*not\b(?P<old>(?:[^.;,]|\.(?=\d)){{1,30}})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<new>{_SAID}{{1,60}}?)(?:[—–(,]\s*(?:was|previously|formerly)|\b(?:up|down) from)"
        r"\b(?P<old>(?:[^.;,)]|\.(?=\d)){1,30})",
        re.IGNORECASE,
    ),
)
# What a call rules out ("No webhooks.", "not the Voltaic packs", "without the kiosk"): the
# words after the negation, up to the clause's end.
_RULED_OUT = re.compile(
    r"\b(?:no|not|without)\s+(?P<what>(?:[^.;,!?]|\.(?=\d)){2,40})", re.IGNORECASE
)
# The head of what a call rules out: its first words ("not shipping 3.2 for go-live": shipping
# 3.2), not where or when ("no deploys to Daventry over Easter" rules out deploys).
_HEAD = re.compile(r"^\W*(?:\S+\s+){0,2}\S+")
WEAK_WEIGHT = 7.0  # rarity-weighted subject words shared, for a change proposed
WEAK_SHARE = 0.2  # and that share of the smaller subject's weight


# What linking reads from the store: how rare a word is among the calls' subjects, the words
# of people's names (neither what a call is about nor a value it sets), and whether the calls
# are commonly about a word (see COMMON_CALLS).
Context = tuple[Callable[[str], float], frozenset[str], Callable[[str], bool]]


@dataclass(frozen=True)
class Link:
    old: HistoryDecision
    strength: str
    reason: str
    weight: float


@lru_cache(maxsize=4096)
def _words_of(description: str, quote: str) -> frozenset[str]:
    return frozenset(subject_words([description, quote]))


def own_words(decision: HistoryDecision) -> frozenset[str]:
    """The decision's own words (not its context's)."""
    return _words_of(decision.description, decision.quote)


@lru_cache(maxsize=4096)
def said_values(text: str) -> frozenset[str]:
    return frozenset(values(text))


@lru_cache(maxsize=4096)
def subject_parts(subject: str) -> tuple[set[str], set[str]]:
    return subject_of(subject)


@lru_cache(maxsize=4096)
def _moves(quote: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """The (old, new) values of each place a call names what it moves from."""
    found = []
    quote = ungrouped(quote)
    for pattern in _MOVES:
        matched = pattern.search(quote)
        if matched is not None:
            old = frozenset(values(matched.group("old"), opens=False))
            found.append((old, frozenset(values(matched.group("new")))))
    return tuple(found)


def named_as_old(quote: str, theirs: frozenset[str]) -> str | None:
    """How a call moves from the old value when it names it ("from the 2nd to the 16th":
    2 → 16); None when it names none of the old call's values."""
    for old, new in _moves(quote):
        if old & theirs and new - theirs:
            was = ", ".join(sorted(v.lstrip("@") for v in old & theirs))
            return f"{was} → {', '.join(sorted(v.lstrip('@') for v in new - theirs))}"
    return None


def _picks_out(quote: str, theirs: frozenset[str]) -> bool:
    """Whether the old value a call names is one few calls share: a name, a version, or an
    amount of three digits or more ("was 1,200"), not "was 5"."""
    named = {v for old, _ in _moves(quote) for v in old & theirs}
    return any(distinctive(v) and not (is_number(v) and len(v) < 3) for v in named)


@lru_cache(maxsize=4096)
def _said_with(text: str, wanted: frozenset[str]) -> frozenset[str]:
    return frozenset(slot_words(text, wanted))


def _slots(
    said: str,
    before: str,
    ours: AbstractSet[str],
    theirs: AbstractSet[str],
    found: tuple[set[str], set[str]] | None,
) -> tuple[frozenset[str], frozenset[str]]:
    """The words each call says its changed amounts or dates with (all those of the kind
    that changed, so that "Good Friday, the third of April" is one date): what it sets ("we
    open on Friday the 2nd": open). Names are left out: a name is what is set, not a value
    of something. `found`: the changed values, as `changed_values` gives them."""
    if found is None:
        return frozenset(), frozenset()
    kind = next((k for k in (is_number, is_date) if all(k(v) for v in found[0] | found[1])), None)
    if kind is None:
        return frozenset(), frozenset()
    new = frozenset(v for v in ours if kind(v))
    return _said_with(said, new), _said_with(before, frozenset(v for v in theirs if kind(v)))


@lru_cache(maxsize=4096)
def _ruled_out(text: str) -> frozenset[str]:
    return frozenset(w for m in _RULED_OUT.finditer(text) for w in subject_words([m.group("what")]))


def _turned_to_yes(said: str, before: str, shared: AbstractSet[str]) -> str | None:
    """ "No webhooks." then "We move to webhooks.": the old call ruled out what the new one
    says it changes to. Only when the new call says the change and names the thing just after
    it ("move to webhooks", not "chilled go-live moves to January"): measured, a negation on
    one side alone links unrelated calls."""
    cue = CHANGE_CUE.search(said)
    if cue is None:
        return None
    to = subject_words([" ".join(said[cue.end() :].split()[:4])])  # "move to webhooks"
    turned = (_ruled_out(before) & shared & to) - _ruled_out(said)
    return ", ".join(sorted(turned)) if turned else None


TURNED_RARITY = 2.5  # a word turned yes or no: in fewer than about one subject in 12


@lru_cache(maxsize=4096)
def _ruled_out_values(text: str) -> frozenset[str]:
    return frozenset(v for m in _RULED_OUT.finditer(text) for v in values(m.group("what"), False))


@lru_cache(maxsize=4096)
def _ruled_out_heads(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words and the names (or versions) at the head of what a call rules out."""
    heads = [_HEAD.match(m.group("what")) for m in _RULED_OUT.finditer(text)]
    said = [head.group(0) for head in heads if head is not None]
    named = {v for part in said for v in values(part, False) if not v[:1].isdigit() or "." in v}
    return frozenset(subject_words(said)), frozenset(v for v in named if distinctive(v))


def _turned(
    new: HistoryDecision,
    old: HistoryDecision,
    rarity: Callable[[str], float],
    people: frozenset[str],
    weight: float,
) -> Link | None:
    """A weak link where one call rules out what the other chose: "3.2 goes out with the
    pilot", then "we're not shipping 3.2"; "we're not doing chilled", then "chilled it is".
    The thing must be at the head of what is ruled out, and a name or version the other call
    sets, or a rare word (`TURNED_RARITY`) of its own words; the call that chose it must not
    rule it out too (an amount alone is too common: 18 pickers are not 18 pounds). Proposed,
    never applied: a negation alone is weak evidence (see the module's note)."""
    said, before = stated(new), stated(old)

    def turned(ruled: str, chose: str, chosen: frozenset[str]) -> set[str]:
        words, named = _ruled_out_heads(ruled)
        gone = (named & said_values(chose)) - _ruled_out_values(chose)
        words = (words & chosen) - _ruled_out(chose)
        return set(gone - people) | {w for w in words - people if rarity(w) >= TURNED_RARITY}

    for what, how in (
        (turned(said, before, own_words(old)), "chosen before, ruled out now"),
        (turned(before, said, own_words(new)), "ruled out before, chosen now"),
    ):
        if what:
            return Link(old, "weak", f"{', '.join(sorted(what))}: {how}", weight)
    return None


def _already_past(old: HistoryDecision, said: str, day: str) -> bool:
    """Whether the date the old call set had passed by `day` (the new call's)."""
    when = find_absolute_date(said, dt.date.fromisoformat(old.day))
    return when is not None and when.isoformat() < day


# A slot word most calls are about (in COMMON_CALLS or more, a third or more) links no calls
# strongly: on the labelled sets the one such link was wrong ("both set site").
COMMON_CALLS = 5
COMMON_SHARE = 1 / 3
# APPLY_STRONG: whether a strong link applies by itself. VALIDATED on sets the rules were not
# written from (heldout-22 to 27; the unseen by counts): a name said just before and the old
# value named ("from the 2nd") applied only wrong links (now weak); a value set again in its
# slot with a change cue, 2 right and 1 wrong. A wrong link hides a call that holds: off.
APPLY_STRONG = False


_REASON_LABEL = re.compile(r"[\s.;(\u2013\u2014-]+(?:reason|why|rationale)\s*:", re.I)


def stated(decision: HistoryDecision) -> str:
    """A call's quote less a reason written after it ("Reason: fw freeze slipped")."""
    said = decision.quote or decision.description
    labelled = _REASON_LABEL.search(said)
    return said[: labelled.start()] if labelled else said


def same_project(new: HistoryDecision, old: HistoryDecision) -> bool:
    """Whether two calls may be linked: calls of captures tied to different projects never
    are."""
    return not (new.project_ids and old.project_ids) or bool(
        set(new.project_ids) & set(old.project_ids)
    )


def link(
    new: HistoryDecision,
    old: HistoryDecision,
    rarity: Callable[[str], float],
    people: frozenset[str] = frozenset(),
    common: Callable[[str], bool] = lambda word: False,
) -> Link | None:
    """Whether `new` replaces `old`, how surely, and why (for the review). `people`: the words
    of people's names, which are neither what a call is about nor a value it sets; `common`:
    whether the store's calls are commonly about a word (see COMMON_CALLS)."""
    if not same_project(new, old):
        return None
    said, before = stated(new), stated(old)
    ours, theirs = said_values(said) - people, said_values(before) - people
    moved, swapped = named_as_old(said, theirs), changed(ours, theirs)
    weight = sum(rarity(w) for w in subject_parts(new.subject)[0] & subject_parts(old.subject)[0])
    if moved or swapped:
        changing = _changing(new, old, moved, swapped, rarity, people, common)
        if changing is not None:
            return changing
    elif turned := _turned_to_yes(said, before, (own_words(new) & own_words(old)) - people):
        return Link(old, "strong", f"{turned}: ruled out before, chosen now", weight + 5)
    return _turned(new, old, rarity, people, weight)


def _changing(
    new: HistoryDecision,
    old: HistoryDecision,
    moved: str | None,
    swapped: str | None,
    rarity: Callable[[str], float],
    people: frozenset[str],
    common: Callable[[str], bool],
) -> Link | None:
    """A link where the new call sets a value the old one set differently: it names the old
    value as the one it moves from (`moved`), or sets another of its kind (`swapped`)."""
    said, before = stated(new), stated(old)
    ours, theirs = said_values(said) - people, said_values(before) - people
    shared_own = (own_words(new) & own_words(old)) - people
    new_words, said_around = subject_parts(new.subject)
    old_words = subject_parts(old.subject)[0]
    subject = new_words & old_words
    weight = sum(rarity(w) for w in subject)
    smaller = min(sum(rarity(w) for w in new_words), sum(rarity(w) for w in old_words))
    how = moved or swapped
    found = changed_values(ours, theirs)
    new_slot, old_slot = (words - people for words in _slots(said, before, ours, theirs, found))
    same_thing = bool(new_slot) and new_slot <= own_words(old) | old_words
    dated = found is not None and all(is_date(v) for v in found[0] | found[1])
    if dated and _already_past(old, before, new.day) and not same_thing:
        # What has happened is not moved, unless the new call says it of the very same
        # thing: "chilled go-live moves to January" does not move the pilot's go-live (held
        # in May), but "the first canning run moves to the 29th" moves the one set for the 1st.
        return None
    about = ", ".join(sorted(shared_own or subject, key=lambda w: -rarity(w))[:4])
    cue = CHANGE_CUE.search(said)
    if moved and shared_own:  # (proposed: see VALIDATED)
        return Link(old, "weak", f"both about {about}; moved {how}", weight + 10)
    if moved and (subject or _picks_out(said, theirs)):  # the old value named, other words
        return Link(old, "weak", f"moved {how}", weight + 5)
    slot = new_slot & old_slot
    if swapped and cue and slot and not all(common(w) for w in slot):
        return Link(old, "strong", f"both set {', '.join(sorted(slot))}; {how}", weight + 5)
    named = {v for v in (found[1] if found else set()) & said_around if distinctive(v)}
    if cue and subject and named:  # (proposed: see VALIDATED)
        return Link(old, "weak", f"{', '.join(sorted(named))} said before; {how}", weight + 5)
    if shared_own and weight >= WEAK_WEIGHT and smaller and weight / smaller >= WEAK_SHARE:
        return Link(old, "weak", f"both about {about}; {how}?", weight)
    return None
