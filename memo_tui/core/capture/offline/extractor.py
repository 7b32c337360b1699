"""The offline extractor: deterministic rules over the whole transcript, no model.

It reads every turn (no slice), scores sentences by decision and action cues, keeps the
reasoning said nearby, lets a later reversal replace an earlier decision on the same topic,
and quotes each item verbatim so its lines can be verified.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from memo_tui.core.capture.dates import find_due_date
from memo_tui.core.capture.offline import call_values as cv
from memo_tui.core.capture.offline import cues, notes, reversals
from memo_tui.core.capture.offline.people import ACCEPTS, find_assignee, owner_in_text
from memo_tui.core.capture.offline.reasoning import nearby_reason, split_reason
from memo_tui.core.capture.offline.summary import summarize
from memo_tui.core.capture.offline.text import (
    Sentence,
    as_sentence,
    clean_spoken,
    content_words,
    sentences,
    word_count,
)
from memo_tui.core.capture.sources import Transcript, Turn
from memo_tui.core.capture.untrusted import addresses_a_model
from memo_tui.core.entities.names import similarity
from memo_tui.core.entities.nicknames import same_first_name
from memo_tui.core.entities.resolve import AUTO_RESOLVE
from memo_tui.core.llm.schemas import ExtractedActionItem, ExtractedDecision, Extraction

DECISION_THRESHOLD = 3
ACTION_THRESHOLD = 3
CLOSING_SHARE = 0.85
MAX_SENTENCE = 1_500
RESTATEMENT = 90  # rapidfuzz ratio at which two items say the same thing
_DECIDED_BY = re.compile(
    r"\(?\s*(?:decided|agreed|called|approved)\s+by\s+"
    r"(?P<name>[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?)(?:[^)]{0,80}\))?",
)
_DECISION_LEAD = re.compile(
    r"^(?:(?:final call|that'?s decided|decision|decided|agreed|so|okay|then|actually|"
    r"scratch that|on second thought|change of plan)\s*[:,\u2014-]?\s*)*"
    r"(?:(?:the plan is|going forward|i'?d call this decided)\s*[:,\u2014-]?\s*)?",
    re.I,
)
_DONE = re.compile(r"\(\s*done\s*\)|\bdone\b\s*$", re.I)
# "Action item for Tom: ...": the label names the owner; the task is what follows.
_ACTION_LABEL = re.compile(
    r"^\W*(?:action items?|todo|to-?do|next steps?|follow[- ]?up)"
    r"(?:\s+for\s+(?:me|you|us|[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?))?\s*:\s*",
    re.I,
)
# What a line of notes may start with before its words: a bullet, a box, a date.
_LIST_MARK = re.compile(
    r"^\s*(?:[-*+\u2022\u2013\u2014]\s+|[a-z0-9]{1,2}[.)]\s+|\[[ xX]?\]\s*|\d{4}-\d{2}-\d{2}:?\s+)+"
)
# "Last one from me: I'll write this up": a few words of framing before the commitment.
_ASIDE = re.compile(r"^[^:\n]{1,40}:\s+(?=(?:I|we)(?:'ll| will)\b)")
_TASK_LEAD = re.compile(
    r"^(?:[A-Z][\w\-]+,\s+)?(?:(?:[Cc]an|[Cc]ould|[Ww]ould) "
    r"(?:you|your (?:team|lot|people|folks|side)) (?:please )?|"
    r"I (?:want|need) you to |"
    r"(?:I|you|he|she|they|[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30}){0,2})\s*"
    r"(?:will|'ll|is going to|'s going to|are going to|'re going to|am going to|'m going to|"
    r"is gonna|'m gonna|'re gonna|to|can|should|needs to|has to|is to)\s+)(?:also\s+|just\s+)?",
)


@dataclass
class _Item:
    kind: str
    position: tuple[int, int]  # (turn, offset in the turn)
    turn_index: int
    quote: str
    reasoning: str | None = None
    decided_by: str | None = None
    assignee: str | None = None
    due: dt.date | None = None
    done: bool = False
    dropped: bool = False  # asked, and turned down
    from_notes: bool = False
    description: str = ""
    superseded_by: _Item | None = None  # a later decision of the meeting replaced it
    consumed: list[tuple[int, int]] = field(default_factory=list)  # sentences its quote took in


@dataclass(frozen=True)
class _Around:
    """What the same turn says around a sentence."""

    before: str | None = None
    after: str | None = None
    called: int = 0  # sentences since "I'm making the call." (0: none said just before)
    answers: bool = False  # the turn answers a question ("Where's the bracket?" "Done.")
    proposed: bool = False  # said as a proposal ("Proposal. We geo-fence aisle six.")
    preamble: bool = False  # the sentence itself announces a call ("I've heard enough.")


CALL_REACH = 3  # sentences after "I'm making the call" that it covers


def _around(
    said: list[str], position: int, calls: list[int], answers: bool, proposal: int | None
) -> _Around:
    """`calls`: the turn's sentences that announce a call; `proposal`: its first sentence
    that puts something forward, if any."""
    since = [position - call for call in calls if 0 < position - call <= CALL_REACH]
    return _Around(
        before=said[position - 1] if position else None,
        after=said[position + 1] if position + 1 < len(said) else None,
        called=min(since, default=0),
        answers=answers,
        proposed=proposal is not None and proposal <= position,
        preamble=position in calls,
    )


_PRONOUN_START = re.compile(r"^\W*(?:I|you|he|she|it|that|this|they|there)\b", re.I)


# "If we go with Brightline, the depot is far": a condition, never a call.
_CONDITIONAL = re.compile(
    r"^\W*(?:(?:and|but|so|well)\W+)?(?:if|unless|suppose|supposing|what if|hypothetically|"
    r"in case|assuming|say)\b",
    re.I,
)


# The reply that leaves the call to who just spoke: what they said first is the call.
_DEFERRED = re.compile(r"\byour call\b|\bit'?s your call\b", re.I)
_CONCLUDES = re.compile(r"^\W*(?:ok(?:ay)?|right|alright|fine)\W+(?:so|then)\W*$", re.I)


def _decision_context(text: str, around: _Around, decision: int) -> tuple[int, bool]:
    """The decision score with what the turn says around the sentence, and whether the
    turn marks it as a call (then even a few words are a decision: "Tuesdays at ten. Done.")."""
    statement = not text.rstrip().endswith("?")
    recounted = cues.RECOUNTED.search(text)
    if recounted and cues.REAFFIRMED.search(text):
        return max(decision, DECISION_THRESHOLD + 1), False  # "we agreed X in May, and that stands"
    if recounted or cues.NOT_DECIDED.search(text) or _CONDITIONAL.match(text) or around.proposed:
        return min(decision, 0), False
    marked = (
        statement
        and around.after is not None
        and bool(cues.CONFIRMS.match(around.after))
        and not (around.answers and "done" in around.after.lower())  # a status, answered
        and not _PRONOUN_START.match(text)  # "I hate that you're right. Agreed."
    )
    if marked:
        decision += 3
    elif (
        statement
        and around.before is not None
        and cues.CONFIRMS.match(around.before)
        and not _PRONOUN_START.match(text)
        and word_count(text) >= 4
    ):
        decision += 3  # "Agreed. Shadow week = w/c 13 Apr, not the 20th."
    if statement and around.called and not _PRONOUN_START.match(text):
        if decision > 0:
            decision += 2
        elif around.called == 1 and _says_what(text):
            decision += 3  # the statement right after "I'm making the call." is the call
    elif statement and (made := cues.CALL_IN_SENTENCE.search(text)):
        if word_count(text[made.end() :]) >= 4:  # "Scrap that, we'll do a weekly rotation."
            decision += 2 if decision > 0 else 3
    elif statement and around.preamble:
        return min(decision, 0), False  # "I've heard enough.", "Leonie's call.": the call is next
    concluded = re.match(r"^\W*(?:(?:ok(?:ay)?|right|fine)\W+)?(?:so|then)\b", text, re.I) or (
        around.before is not None and _CONCLUDES.match(around.before)
    )
    if decision > 0 and concluded:
        decision += 1  # a conclusion drawn: "So 3.2 goes out with the pilot.", "Okay then. X."
    return decision, marked


def _echoed(text: str, reply: str) -> bool:
    """A short reply that repeats what was settled and takes it ("Voltaic. Great.",
    "The 27th. Okay.")."""
    if reply.rstrip().endswith("?") or word_count(reply) > 8:
        return False
    if not _ECHO_TAKES.search(reply):
        return False
    return bool(content_words(text) & content_words(reply)) or bool(
        set(re.findall(r"\d+", text)) & set(re.findall(r"\d+", reply))
    )


_ECHO_TAKES = re.compile(
    r"\b(?:great|fine|ok(?:ay)?|works|agreed|noted|got it|good|yes|yeah|brilliant|perfect|done)\b",
    re.I,
)


def _score_sentence(
    text: str, turns: list[Turn], index: int, meeting: dt.date, around: _Around
) -> tuple[int, int]:
    if word_count(text) < 2:
        return 0, 0  # "Yeah.", "Okay.": no call and no task is one word long
    if cues.READ_ALOUD.search(text):
        return 0, 0  # "The email says we've agreed to waive the fees": read out, not decided
    decision = cues.score(text, cues.DECISION_CUES, cues.HEDGES)
    strong = decision >= 4
    decision, marked = _decision_context(text, around, decision)
    action = cues.score(text, cues.ACTION_CUES, cues.ACTION_HEDGES)
    if action and find_due_date(cues.unquoted(text), meeting) is not None:
        action += 1
    question = text.rstrip().endswith("?")
    if question:
        decision -= 3
    following = turns[index + 1 : index + 3]
    speaker = turns[index].speaker
    agreed = any(t.speaker != speaker and cues.AGREEMENT.match(t.text) for t in following)
    reply = next((t for t in following if t.speaker and t.speaker != speaker), None)
    if not agreed and reply is not None and around.after is None:
        agreed = _echoed(text, reply.text)
    deferred = reply is not None and _DEFERRED.search(reply.text)
    if deferred and around.before is None and not text.rstrip().endswith("?"):
        decision = max(decision, DECISION_THRESHOLD)  # "We hotfix the lock." "Your call, Dan."
    if agreed and 0 < decision < DECISION_THRESHOLD:
        decision += 2
    request = cues.REQUEST.search(text)
    if question and action < ACTION_THRESHOLD and _taken_by_name(text, reply):
        action = ACTION_THRESHOLD  # "Marta, a 48-hour soak on 3.1.4?" "Yep. Done by the 4th."
    if question and action > 0 and not request:
        action -= 3 if not _taken_by_name(text, reply) else 0
    elif question and reply is not None and cues.turned_down(reply.text):
        # A request turned down is still recorded (as dropped); anything else is no task.
        action -= 0 if request or cues.ADDRESSED.match(text) else 3
    elif question and agreed:
        action += 1
    elif action > 0 and reply and cues.ADDRESSED.match(text) and ACCEPTS.match(reply.text):
        action += 1  # asked by name, and taken on
    if index >= CLOSING_SHARE * len(turns):
        # Assignments and recaps of what was decided cluster where a meeting wraps up.
        action += 1 if action else 0
        decision += 1 if decision else 0
    if word_count(text) < 5:
        action = min(action, 0)
        decision = decision if (strong or marked) and word_count(text) >= 2 else min(decision, 0)
    return decision, action


_VOCATIVE = re.compile(r"^\W*(?:(?i:and|so|also|then|ok|okay)\W+)?(?P<name>[A-Z][\w'\-]+),\s")


_CLAUSE = re.compile(
    r"^\W*(?:you|you're|we|we're|I|I'm|it|it's|that|this|there|is|are|do|does|did|can|could|"
    r"would|will|have|has|how|what|why|when|where|who|any|anything)\b",
    re.I,
)


_PERSONAL = re.compile(r"\b(?:you|you've|you're|we|we're|I|I'm|he|she|they|it's)\b", re.I)


def _taken_by_name(text: str, reply: Turn | None) -> bool:
    """A request by name with no verb, taken on by who was named ("Marta, burn-in test
    plan?" "Yep, by the 6th.")."""
    named = _VOCATIVE.match(text)
    if named is None or reply is None or not reply.speaker or word_count(text) < 4:
        return False
    asked = text[named.end() :]
    if not _may_be(named["name"], reply.speaker) or not _says_what(asked):
        return False
    if _CLAUSE.match(asked) or _PERSONAL.search(asked):
        return False  # "Marcus, you're listening in today, right?" asks, it gives no task
    takes = re.search(r"\bI(?:'ll| will)\b", reply.text)
    return bool(takes or (text.rstrip().endswith("?") and ACCEPTS.match(reply.text)))


def _personal(sentence: str) -> bool:
    """A sentence that gives a task to someone in particular ("I'll", "Tom will")."""
    return owner_in_text(sentence) is not None or bool(re.search(r"\bI(?:'ll| will)\b", sentence))


def _spoken_items(transcript: Transcript) -> list[_Item]:
    turns = transcript.turns
    # Any date will do for noticing that a due date was said; resolving it needs the real one.
    meeting = transcript.occurred_at or dt.date(2000, 1, 3)
    items: list[_Item] = []
    for index, turn in enumerate(turns):
        if addresses_a_model(turn.text, turn.speaker):
            continue  # pasted or read-out instructions to an AI are not meeting content
        if turn.speaker in transcript.guests:
            continue  # a guest's word is no call or task of the meeting until someone takes it up
        spoken = sentences(turn.text)
        said = [s.text for s in spoken]
        changed = _changed_call(items, turns, index)
        calls = [n for n, text in enumerate(said) if cues.CALL_PREAMBLE.search(text)]
        proposal = next((n for n, text in enumerate(said) if cues.PROPOSAL.match(text)), None)
        answers = index > 0 and turns[index - 1].text.rstrip().endswith("?")
        for number, sentence in enumerate(spoken):
            if len(sentence.text) > MAX_SENTENCE:
                continue  # a run-on wall of text is not a statement we can quote
            around = _around(said, number, calls, answers, proposal)
            decision, action = _score_sentence(sentence.text, turns, index, meeting, around)
            if changed is not None and _names_another_value(sentence.text, changed):
                decision, changed = max(decision, DECISION_THRESHOLD), None
            position = (index, sentence.start)
            if number and cues.ALREADY_DONE.match(said[number - 1]) and _says_what(sentence.text):
                done = _Item("action", position, index, sentence.text, done=True)
                done.assignee = turn.speaker
                items.append(done)  # "Already did. I sent the summary to her on Monday."
            elif (
                action >= ACTION_THRESHOLD
                and (action >= decision or _personal(sentence.text))
                and not (
                    decision >= DECISION_THRESHOLD and cues.CALL_IN_SENTENCE.search(sentence.text)
                )
            ):
                reply = next(
                    (t for t in turns[index + 1 : index + 3] if t.speaker != turn.speaker), None
                )
                item = _Item("action", position, index, sentence.text)
                item.dropped = (
                    reply is not None
                    and sentence.text.rstrip().endswith("?")
                    and cues.turned_down(reply.text)
                )
                items.append(item)
            elif decision >= DECISION_THRESHOLD:
                quote = sentence.text
                if around.after is not None and cues.CONFIRMS.match(around.after):
                    # "Tuesdays at ten. Done.": the mark belongs in the quote, which it makes
                    # the meeting's own (someone else said "Tuesdays at ten" first).
                    quote = turn.text[
                        sentence.start : turn.text.find(around.after, sentence.start)
                        + len(around.after)
                    ]
                items.append(_Item("decision", position, index, quote))
    return items


_ANOTHER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|fine|right|alright)\W+)?(?:then|so|okay|ok|fine|right)\b", re.I
)


def _names_another_value(text: str, values: set[str]) -> bool:
    """ "Then the 10th.", "Fine, the Tuesday then.": a new value put in the call's place, said
    as a conclusion or as a short fragment; not any statement that holds a number."""
    if "?" in text or not cv.values(text) - values:
        return False
    return bool(_ANOTHER.match(text)) or word_count(text) <= SHORT_CALL


def _changed_call(items: list[_Item], turns: list[Turn], index: int) -> set[str] | None:
    """After an objection ("Wait, no. The 3rd is the payroll freeze."), the one whose call it
    was names another value ("Then the 10th."): the values of that call, which the first
    statement of this turn with other values changes. None when there is no such call."""
    if index < 2 or not reversals.OBJECTION.match(turns[index - 1].text):
        return None
    speaker = turns[index].speaker
    if not speaker or turns[index - 1].speaker == speaker:
        return None
    for item in reversed(items):
        if index - item.turn_index > ANSWER_REACH:
            return None
        if item.kind == "decision" and turns[item.turn_index].speaker == speaker:
            return cv.values(item.quote) or None
    return None


def _note_items(transcript: Transcript) -> tuple[list[_Item], set[int]]:
    kinds = notes.section_kinds(transcript.lines)
    items: list[_Item] = []
    used: set[int] = set()
    for index, turn in enumerate(transcript.turns):
        kind = kinds.get(turn.line) or notes.labelled(turn)
        if kind is None or addresses_a_model(turn.text, turn.speaker):
            continue
        if turn.speaker in transcript.guests:
            continue  # "Decision: …" typed by a guest decides nothing
        used.add(index)
        text, checked = notes.strip_bullet(turn.text)
        label = (notes.DECISION_LABEL if kind == "decision" else notes.ACTION_LABEL).match(text)
        by = label.groupdict().get("by") if label else None
        text = text[label.end() :].strip() if label else text.strip()
        if word_count(text) < 2:
            continue
        item = _Item(kind, (index, 0), index, text, decided_by=by, from_notes=True)
        item.done = bool(checked) or bool(_DONE.search(text))
        items.append(item)
    return items, used


_EMPTY_WORDS = frozenset(
    "way plan going thing idea then okay good fine thanks thank cheers bye everyone".split()
)


def _says_what(text: str) -> bool:
    """Whether a sentence names what it is about ("do it that way, then" does not)."""
    return bool({w for w in content_words(text) if "'" not in w} - _EMPTY_WORDS)


def _with_what(item: _Item, turns: list[Turn]) -> str:
    """ "We're going to do it that way, then." only says that something was decided: the
    statement after it in the same turn says what. That statement is the decision, and the
    quote reaches over both."""
    text = turns[item.turn_index].text
    start = text.find(item.quote)
    after = [s for s in sentences(text) if s.start > start]
    if not after or after[0].text.endswith("?") or not _says_what(after[0].text):
        return item.quote
    if _personal(after[0].text) or cues.score(after[0].text, cues.ACTION_CUES, cues.ACTION_HEDGES):
        return item.quote  # a task said next is not what was decided
    item.quote = text[start : after[0].start + len(after[0].text)]
    return after[0].text


POINTED_REACH = 2  # sentences a "That's final." may point back over


def _pointed_at(item: _Item, turns: list[Turn]) -> str | None:
    """ "For the pilot, the cap is 1.2 m/s. That's final for go-live.": the call says only
    that the statement before it is final. That statement is the decision, and the quote
    reaches over both."""
    if item.from_notes or not cues.POINTS_BACK.match(item.quote):
        return None
    text = turns[item.turn_index].text
    start = text.find(item.quote)
    before = [s for s in sentences(text) if s.start < start]
    said: list[Sentence] = []
    for sentence in reversed(before[-POINTED_REACH:]):  # back to the start of the statement
        if sentence.text.endswith("?") or cues.CALL_PREAMBLE.search(sentence.text):
            break
        if _says_what(sentence.text):
            said.insert(0, sentence)
    if not said:
        return None
    item.quote = text[said[0].start : start + len(item.quote)]
    item.consumed += [(item.turn_index, s.start) for s in said]
    return " ".join(s.text for s in said)


SHORT_CALL = 6  # words: a call this short is usually said more fully beside it


def _said_more(item: _Item, turns: list[Turn]) -> str | None:
    """ "Let's make it six weeks. Patients can book up to six weeks ahead.", "We're not doing a
    dashboard. They get read-only accounts.", "We poll every five seconds. No webhooks.": a short
    call, or one of what is not done, or one the next words set against the other way, and the
    statement beside it in the same turn say one decision, quoted over both (and no task)."""
    if item.from_notes:
        return None
    text = turns[item.turn_index].text
    start = text.find(item.quote)
    said = sentences(text)
    after = [s for s in said if s.start > start]
    before = [s for s in said if s.start + len(s.text) <= start]
    if after and (
        (word_count(item.quote) <= SHORT_CALL or cues.ruled_out(item.quote, after[0].text))
        and _elaborates(after[0].text)
        or cues.other_way_out(after[0].text)
    ):
        item.quote = text[start : after[0].start + len(after[0].text)]
        item.consumed.append((item.turn_index, after[0].start))
        return item.quote
    if before and _elaborates(before[-1].text, fragment=True):
        item.quote = text[before[-1].start : start + len(item.quote)]
        return item.quote
    return None


_ACKNOWLEDGED = re.compile(
    r"^\W*(?:fair|sorry|honestly|right|okay|ok|good|great|fine|cool|noted|thanks|brilliant|"
    r"lovely|perfect|oh|wait)\b",
    re.I,
)


def _elaborates(text: str, fragment: bool = False) -> bool:
    """A statement that can be part of a call: not a question, not about me or you, with
    something to say (before a call, only a short verbless fragment: "Web only for the pilot.")."""
    if text.endswith("?") or _PRONOUN_START.match(text) or not _says_what(text):
        return False
    if fragment:  # "Web only for the pilot.", not "Agreed.", "Fair enough." or "Scrap that."
        said = content_words(text) - cv.CALL_WORDS - _EMPTY_WORDS
        return (
            word_count(text) <= SHORT_CALL
            and len(said) >= 2
            and not re.search(r"\b(?:is|are|was|will|'s)\b", text)
            and not (cues.AGREEMENT.match(text) or cues.REVERSAL.search(text))
            and not _ACKNOWLEDGED.match(text)
        )
    return word_count(text) >= 4 and not cues.CONFIRMS.match(text)


def _describe_decision(item: _Item, turns: list[Turn]) -> None:
    vague = not item.from_notes and not _says_what(item.quote)
    quote = (
        _pointed_at(item, turns)
        or (_with_what(item, turns) if vague else None)
        or _said_more(item, turns)
        or (None if item.from_notes else cv.chosen_from(item.quote, item.turn_index, turns))
        or item.quote
    )
    by = _DECIDED_BY.search(quote)
    if by:
        item.decided_by = item.decided_by or by["name"]
        quote = (quote[: by.start()] + quote[by.end() :]).strip()
    made = cues.CALL_IN_SENTENCE.search(quote)
    if made is not None and word_count(quote[made.end() :]) >= 4:
        quote = quote[made.end() :]  # "I'm making the call - we put her line on the front."
    main, reason = split_reason(quote)
    main = _DECISION_LEAD.sub("", clean_spoken(main), count=1)
    item.description = as_sentence(main.rstrip(" ,;:-\u2014"))
    topic = content_words(main)
    item.reasoning = reason or nearby_reason(turns, item.turn_index, item.quote, topic)
    if item.reasoning:
        # Verbatim (only capitalized), so the evidence range can reach where it was said.
        item.reasoning = as_sentence(item.reasoning.strip())
    item.decided_by = item.decided_by or turns[item.turn_index].speaker


_ASKED = re.compile(
    r"^\W*(?:[A-Z][\w'\-]+,\s*)?(?:did|have|has|could|can) (?:you|they|we) (?:already |also )?",
)


def _asked_before(item: _Item, turns: list[Turn]) -> str | None:
    """ "Kwame, did you add the alert for duplicate slots?" "Already did it. It went in on
    Monday.": the task is what was asked."""
    if not item.turn_index:
        return None
    asked = turns[item.turn_index - 1]
    if asked.speaker == turns[item.turn_index].speaker:
        return None
    for sentence in sentences(asked.text):
        question = _ASKED.match(sentence.text)
        if question and sentence.text.endswith("?"):
            return sentence.text[question.end() :].rstrip(" ?")
    return None


def _describe_action(item: _Item, turns: list[Turn], meeting: Transcript) -> None:
    turn = turns[item.turn_index]
    following = turns[item.turn_index + 1 : item.turn_index + 3]
    said = _LIST_MARK.sub("", item.quote, count=1)
    if item.done and item.assignee:  # "Already did. I sent it.": the speaker did it
        asked = _asked_before(item, turns) if _PRONOUN_START.match(said) else None
        item.description = as_sentence(asked or clean_spoken(said))
        return
    item.assignee = find_assignee(said, turn, following) if turn.speaker else owner_in_text(said)
    named = _VOCATIVE.match(said)
    if item.assignee is None and named and turn.speaker:
        item.assignee = named["name"]  # "Marta, a 48-hour soak?": who takes it is settled below
    task = re.sub(
        r"^\s*@?[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30}){0,2}\s*[:\u2014\u2013]\s+",
        "",
        said,
    )
    task = _DONE.sub("", task)
    task = _ACTION_LABEL.sub("", task, count=1)
    task = _ASIDE.sub("", task, count=1)
    task = clean_spoken(task)
    task = _TASK_LEAD.sub("", task, count=1)
    if item.assignee:
        task = re.sub(rf"^{re.escape(item.assignee)},\s+", "", task)
        if turn.speaker and item.assignee != turn.speaker:
            item.assignee = _taker(item.assignee, item.turn_index, turns) or item.assignee
    item.description = as_sentence(task.rstrip(" ?"))
    if item.done and not item.from_notes:
        item.due = None  # "I sent it on Monday": when it was done, not when it is due
        return
    due = find_due_date(said, meeting.occurred_at)  # a log line's leading date is not one
    for later in [] if due else _due_context(item, turns):
        due = find_due_date(later, meeting.occurred_at)
        if due:
            break
    item.due = due


def _due_context(item: _Item, turns: list[Turn]) -> list[str]:
    """Where a due date for a task is often said: right after it, or in the owner's reply."""
    turn = turns[item.turn_index]
    rest = [s.text for s in sentences(turn.text) if s.start > turn.text.find(item.quote)][:2]
    reply = next(
        (
            t
            for t in turns[item.turn_index + 1 : item.turn_index + 3]
            if t.speaker and t.speaker != turn.speaker
        ),
        None,
    )
    if reply is not None and (
        item.assignee is None
        or reply.speaker == item.assignee
        or (reply.speaker or "").startswith(item.assignee)
    ):
        rest.append(reply.text)
    return rest


def _subject(item: _Item, turns: list[Turn]) -> set[str]:
    """What a decision is about: its words, and when it says little ("Let's do it, door
    seven."), the words of its turn and of the turn it answers."""
    words = _topic(item.quote)
    if len(words - cv.values(item.quote)) < 3:
        words |= _topic(turns[item.turn_index].text)
        if item.turn_index:
            words |= _topic(turns[item.turn_index - 1].text)
    return words


def _topic(text: str) -> set[str]:
    """The words of substance ("let's", "we'll" say nothing of what a call is about)."""
    return {w for w in content_words(text) if "'" not in w}


def _repeated(item: _Item, kept: list[_Item]) -> _Item | None:
    """An earlier call of the meeting this one only says again: every value it sets and
    every word it says beside them, the earlier said too ("We open on the 18th of June." in
    the recap, after "We open to the public on Thursday the 18th of June instead."); a bare
    "Fifteen it is." only echoes a call made a few turns before."""
    values, said = cv.values(item.quote), cv.said_words(item.quote)
    if item.from_notes or item.kind != "decision" or not values:
        return None
    for earlier in reversed(kept):
        if not said and item.turn_index - earlier.turn_index > cv.CHOICE_REACH:
            return None
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        if values <= cv.values(earlier.quote) and said <= content_words(earlier.quote):
            return earlier
    return None


def _superseded(item: _Item, kept: list[_Item], turns: list[Turn]) -> _Item | None:
    """The earlier decision of this meeting that this one replaces: the same subject (shared
    key words, not only nearness), and either the earlier call named where it was taken
    back ("scrap door seven") or a changed value ("freeze on the 20th", then "code freeze
    is the 27th", with more than one word of the subject shared)."""
    if item.from_notes or item.kind != "decision":
        return None
    trigger = reversals.taken_back(item.quote, item.turn_index, turns)
    if trigger and any(k.quote in trigger or trigger in k.quote for k in kept):
        trigger = (
            None  # a call of its own ("we're moving the launch to the 16th"), not a retraction
        )
    named = _topic(trigger) | cv.values(trigger) if trigger else set()
    subject = _subject(item, turns) | named
    values = cv.values(item.quote)
    best: tuple[int, tuple[int, int], _Item] | None = None
    for earlier in kept:
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        shared = len(cv.what(subject & _subject(earlier, turns)))
        theirs = cv.values(earlier.quote)
        changed = cv.changed(values, theirs)
        called_off = len(named & (_topic(earlier.quote) | theirs)) >= reversals.naming(trigger)
        same = (called_off and shared >= 1) or (shared >= 2 and changed)
        if same and (best is None or (shared, earlier.position) > best[:2]):
            best = (shared, earlier.position, earlier)
    if best is None and trigger and _BACK_TO_IT.search(trigger):
        return _just_called(item, kept, turns)  # "Scratch that, we go with Parcelwise instead."
    return best[2] if best else None


# A call taken back by pointing at it, not naming it: "scratch that", "X instead".
_BACK_TO_IT = re.compile(
    r"\b(?:scratch|forget|scrap|drop) (?:that|it|this)\b|\binstead\b(?! of\b)|change of plan|"
    r"on second thought",
    re.I,
)


def _just_called(item: _Item, kept: list[_Item], turns: list[Turn]) -> _Item | None:
    """The speaker's own call a moment before, when this one sets another value for it."""
    speaker = turns[item.turn_index].speaker
    values = cv.values(item.quote)
    for earlier in reversed(kept):
        if item.turn_index - earlier.turn_index > reversals.REVERSAL_REACH:
            return None
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        theirs = cv.values(earlier.quote)
        if turns[earlier.turn_index].speaker == speaker and cv.changed(values, theirs):
            return earlier
    return None


_BACK_REFERENCE = re.compile(r"\b(?:her|him|them|it|that|this|those|these|then)\b", re.I)
FOLLOW_ON_WORDS = 6


_WHEN = re.compile(
    r"^(?:today|tonight|tomorrow|week|month|end|next|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|morning|afternoon|evening)"
)


def _new_words(step: str, task: str) -> set[str]:
    """What a step names that the task does not, dates aside ("deploy", "prod")."""
    return {w for w in content_words(step) - content_words(task) if not _WHEN.match(w)}


def _follow_on(item: _Item, previous: _Item, turns: list[Turn]) -> bool:
    """A short step that only points back at the task just given, by its owner: in the same
    turn ("Ask our accountant whether ... I'll email her tomorrow.") or in the owner's reply
    ("Sam, you own the design doc." "I'll have a draft by then."). Part of that task."""
    if (
        not (item.kind == previous.kind == "action")
        or item.from_notes
        or word_count(item.description) > FOLLOW_ON_WORDS
        or not _BACK_REFERENCE.search(item.description)
        or len(_new_words(item.description, previous.description)) > 1
    ):
        return False
    if item.turn_index == previous.turn_index:
        return item.assignee == previous.assignee
    speaker = turns[item.turn_index].speaker or ""
    owner = previous.assignee or ""
    return (
        0 < item.turn_index - previous.turn_index <= 2
        and bool(owner)
        and speaker != turns[previous.turn_index].speaker
        and speaker.split()[:1] == owner.split()[:1]
    )


_GENERIC = frozenset(
    "do done doing have get got make made sort sorted fix fixed write finish finished ready "
    "working work complete completed something anything handle handled call look start started "
    "take care time first second third last early asap soon later back over pick instead "
    "cover grab".split()
)
_MONTHS = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$|^\d|^(?:eod|cob|eow)$|"
    r"^(?:\w+-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
    r"twelfth|\w+teenth|twentieth|thirtieth)$"
)


def _objectless(item: _Item) -> bool:
    """A task that names nothing to do: "Do that by Friday.", "Write it up.", "Have
    something by Thursday." (its words are a generic verb, a pronoun and a date)."""
    words = content_words(item.description)
    return (
        not {w for w in words if not (_WHEN.match(w) or _MONTHS.match(w) or w in _GENERIC)}
        and not item.from_notes
    )


def _pointed_task(item: _Item, turns: list[Turn]) -> bool:
    """Give an object-less commitment the task it points at: the statement just before it in
    the same turn ("I'll need to cancel the balance. I'll do that by Friday."), or the
    request made to its speaker in the turn before ("Marta, burn-in test plan?" "I'll have
    it by the sixth."). The quote reaches over both. False when there is none."""
    turn = turns[item.turn_index]
    start = turn.text.find(item.quote)
    before = [s for s in sentences(turn.text) if s.start < start]
    said: str | None = None
    if before and not before[-1].text.endswith("?") and _says_what(before[-1].text):
        said = before[-1].text
        item.quote = turn.text[before[-1].start : start + len(item.quote)]
    elif item.turn_index and not before:
        asked = turns[item.turn_index - 1]
        request = sentences(asked.text)[-1].text if asked.text.strip() else ""
        addressed = cues.ADDRESSED.match(request)
        if asked.speaker != turn.speaker and addressed and _says_what(request):
            said = request  # the quote stays the taker's own words
    if said is None:
        return False
    task = _TASK_LEAD.sub("", clean_spoken(_LIST_MARK.sub("", said, count=1)), count=1)
    task = re.sub(r"^[A-Z][\w'\-]+,\s+", "", task)
    item.description = as_sentence(task.rstrip(" ?"))
    return _says_what(item.description)


ANSWER_REACH = 3  # turns after a request its taker may answer in ("Me or Jon?" "Our John.")


def _answered(item: _Item, kept: list[_Item], turns: list[Turn]) -> _Item | None:
    """The request this item takes on: someone asked by a name that is theirs ("John, can
    you...") answers within a few turns, taking it ("Yeah, I'll do the channel today").
    The request is theirs then, whoever else the name could have meant."""
    speaker = turns[item.turn_index].speaker
    if item.kind != "action" or item.from_notes or not speaker or item.assignee != speaker:
        return None
    if not ACCEPTS.match(turns[item.turn_index].text):
        return None
    request = next(
        (k for k in reversed(kept) if k.kind == "action" and k.turn_index < item.turn_index),
        None,
    )
    if request is None or item.turn_index - request.turn_index > ANSWER_REACH:
        return None
    asked, asker = request.assignee or "", turns[request.turn_index].speaker
    if not asked or asker == speaker:
        return None
    if asked == speaker:  # the reply of the one it went to: the same task, taken on
        return request
    settled = asked in {t.speaker for t in turns}  # already someone else's, by their label
    return request if not settled and _may_be(asked, speaker) else None


def _done_before(item: _Item, kept: list[_Item], turns: list[Turn]) -> _Item | None:
    """The request an "Already did it." answers: asked of the speaker a turn or two before."""
    if item.kind != "action" or not item.done or item.from_notes:
        return None
    speaker = turns[item.turn_index].speaker or ""
    for earlier in reversed(kept):
        if earlier.kind != "action" or item.turn_index - earlier.turn_index > ANSWER_REACH:
            return None
        asker = turns[earlier.turn_index].speaker
        if asker != speaker and earlier.assignee and _may_be(earlier.assignee, speaker):
            earlier.assignee = speaker
            return earlier
    return None


def _taker(asked: str, index: int, turns: list[Turn]) -> str | None:
    """Who answers a request made to `asked` by name and takes it on, within a few turns
    ("Alex, send me the results." "Alex Rivera: Yes, I'll have both done by Friday.")."""
    asker = turns[index].speaker
    for later in turns[index + 1 : index + 1 + ANSWER_REACH]:
        speaker = later.speaker
        if speaker and speaker != asker and _may_be(asked, speaker) and ACCEPTS.match(later.text):
            return speaker
    return None


def _may_be(asked: str, speaker: str) -> bool:
    """Whether a name someone was asked by could be the speaker's ("John" for Jon Park)."""
    if not asked.split() or not speaker.split():
        return False  # a line with no speaker is nobody's answer
    first = same_first_name(asked.split()[0], speaker.split()[0])
    return first or similarity(asked, speaker) >= AUTO_RESOLVE


HANDOVER_REACH = 8  # turns back a task handed on ("take the soak instead") may have been given


def _handed_over(item: _Item, kept: list[_Item]) -> _Item | None:
    """The task this item hands to someone else: given to another owner a little before,
    about the same thing ("Marta, can you run the soak?" ... "Priya, take the soak
    instead?"), or, naming nothing itself, the request just turned down ("Hannah, can you
    redo the paperwork?" "I can't, I'm away." "JB, can your team take it?"). The task ends
    with its last owner."""
    if item.kind != "action" or not item.assignee or item.from_notes:
        return None
    pointing = _objectless(item)
    if not pointing and not cues.HANDOVER.search(item.quote):
        return None
    words = content_words(item.description) - {"instead", "take", "over"}
    for earlier in reversed(kept):
        if earlier.kind != "action":
            continue
        if item.turn_index - earlier.turn_index > HANDOVER_REACH:
            return None
        if pointing and earlier.assignee == item.assignee:
            return None  # "I'll do that" after one's own task: that task, not a handover
        if not earlier.assignee or earlier.assignee == item.assignee:
            continue
        if pointing:
            return earlier if earlier.dropped else None  # "it" is the last task turned down
        if words & content_words(earlier.description):
            return earlier
    return None


def _taken_in(items: list[_Item]) -> set[tuple[int, int]]:
    """Where calls were said as part of a call beside them. When two took each other in
    ("Then it's the library. The lift settles it."), the later one, pointing back, stands."""
    at = {i.position: i for i in items}
    return {
        p
        for i in items
        for p in i.consumed
        if not (p in at and i.position in at[p].consumed and at[p].position > i.position)
    }


def _merge(items: list[_Item], turns: list[Turn]) -> list[_Item]:
    """Drop restatements and decisions a later one reverses (the later statement wins), give
    a request to whoever answers it or is handed it, and fold a task's follow-on step into
    the task."""
    kept: list[_Item] = []
    taken_in = _taken_in(items)
    for item in sorted(items, key=lambda i: i.position):
        if item.position in taken_in:
            continue
        if item.kind == "action" and _objectless(item):
            _pointed_task(item, turns)  # "I'll do that" after its task: it names the task
        earlier = _handed_over(item, kept)
        if earlier is not None:
            earlier.assignee, earlier.due = item.assignee, item.due or earlier.due
            earlier.dropped = False  # turned down by one, taken by another
            continue
        asked = _done_before(item, kept, turns)
        if asked is not None:
            asked.done, asked.due = True, None  # "Raj, can you chase?" "Already done. I emailed."
            continue
        request = _answered(item, kept, turns)
        if request is not None:
            request.assignee = turns[item.turn_index].speaker
            request.due = request.due or item.due
            continue
        if kept and _follow_on(item, kept[-1], turns):
            kept[-1].due = kept[-1].due or item.due
            continue
        if item.kind == "action" and _objectless(item) and not _pointed_task(item, turns):
            continue  # a task with nothing to do in it is no task
        if _repeated(item, kept) is not None:
            continue  # said again (a recap): the earlier, fuller statement stands
        restated = cv.restated(item, kept, turns)
        if restated is not None:
            _stand_in(restated, item, kept)  # the same call, confirmed: the confirmation stands
        replaced = None if restated else _superseded(item, kept, turns)
        if replaced is not None:
            replaced.superseded_by = item  # kept as history, never as what holds
        duplicate = next(
            (
                k
                for k in kept
                if k.kind == item.kind
                and not k.superseded_by
                and fuzz.ratio(k.description.lower(), item.description.lower()) >= RESTATEMENT
            ),
            None,
        )
        if duplicate is not None:
            if item.kind == "action" and duplicate.assignee and not item.assignee:
                continue
            _stand_in(duplicate, item, kept)
        kept.append(item)
    return kept


def _stand_in(gone: _Item, instead: _Item, kept: list[_Item]) -> None:
    """`gone` is said again as `instead`: it leaves, and a call it replaced now points at
    `instead` (a replaced call must always point at one that is kept)."""
    kept.remove(gone)
    for item in kept:
        if item.superseded_by is gone:
            item.superseded_by = instead


def extract(transcript: Transcript) -> Extraction:
    """The structured record of a meeting, from rules alone."""
    turns = transcript.turns
    noted, used = _note_items(transcript)
    spoken = [i for i in _spoken_items(transcript) if i.turn_index not in used]
    items = noted + spoken
    for item in items:
        if item.kind == "decision":
            _describe_decision(item, turns)
        else:
            _describe_action(item, turns, transcript)
    items = _merge([i for i in items if word_count(i.description) >= 2], turns)
    said = [i for i in items if i.kind == "decision"]
    number = {id(item): n for n, item in enumerate(said, start=1)}
    decisions = [
        ExtractedDecision(
            description=i.description,
            reasoning=i.reasoning,
            decided_by=i.decided_by,
            evidence_quote=i.quote,
            status="superseded" if i.superseded_by else "current",
            superseded_by=_last(i, number),
        )
        for i in said
    ]
    actions = [
        ExtractedActionItem(
            description=i.description,
            assignee=i.assignee,
            due_date=i.due,
            status="done" if i.done else "dropped" if i.dropped else "open",
            evidence_quote=i.quote,
        )
        for i in items
        if i.kind == "action"
    ]
    return summarize(transcript, decisions, actions)


def _last(item: _Item, number: dict[int, int]) -> int | None:
    """For a replaced decision, the number of the one that holds after the replacements."""
    if item.superseded_by is None:
        return None
    while item.superseded_by is not None:
        item = item.superseded_by
    return number.get(id(item))
