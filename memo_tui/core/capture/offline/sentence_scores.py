"""How much one sentence reads as a decision and as a task: its cues, what the same turn
says around it (a confirmation, "I'm making the call", a proposal) and the replies to it."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from memo_tui.core.capture.dates import find_due_date
from memo_tui.core.capture.offline import cues
from memo_tui.core.capture.offline.items import I_WILL, PRONOUN_START, VOCATIVE, says_what
from memo_tui.core.capture.offline.people import ACCEPTS
from memo_tui.core.capture.offline.task_owners import may_be
from memo_tui.core.capture.offline.text import content_words, word_count
from memo_tui.core.capture.sources import Turn

DECISION_THRESHOLD = 3
ACTION_THRESHOLD = 3
CLOSING_SHARE = 0.85


@dataclass(frozen=True)
class Around:
    """What the same turn says around a sentence."""

    before: str | None = None
    after: str | None = None
    called: int = 0  # sentences since "I'm making the call." (0: none said just before)
    answers: bool = False  # the turn answers a question ("Where's the bracket?" "Done.")
    proposed: bool = False  # said as a proposal ("Proposal. We geo-fence aisle six.")
    preamble: bool = False  # the sentence itself announces a call ("I've heard enough.")


CALL_REACH = 3  # sentences after "I'm making the call" that it covers


def around_sentence(
    said: list[str], position: int, calls: list[int], answers: bool, proposal: int | None
) -> Around:
    """`calls`: the turn's sentences that announce a call; `proposal`: its first sentence
    that puts something forward, if any."""
    since = [position - call for call in calls if 0 < position - call <= CALL_REACH]
    return Around(
        before=said[position - 1] if position else None,
        after=said[position + 1] if position + 1 < len(said) else None,
        called=min(since, default=0),
        answers=answers,
        proposed=proposal is not None and proposal <= position,
        preamble=position in calls,
    )


# "If we go with Brightline, the depot is far": a condition, never a call.
_CONDITIONAL = re.compile(
    r"^\W*(?:(?:and|but|so|well)\W+)?(?:if|unless|suppose|supposing|what if|hypothetically|"
    r"in case|assuming|say)\b",
    re.I,
)


# The reply that leaves the call to who just spoke: what they said first is the call.
_DEFERRED = re.compile(r"\byour call\b|\bit'?s your call\b", re.I)
_CONCLUDES = re.compile(r"^\W*(?:ok(?:ay)?|right|alright|fine)\W+(?:so|then)\W*$", re.I)


def _decision_context(text: str, around: Around, decision: int) -> tuple[int, bool]:
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
        and not PRONOUN_START.match(text)  # "I hate that you're right. Agreed."
    )
    if marked:
        decision += 3
    elif (
        statement
        and around.before is not None
        and cues.CONFIRMS.match(around.before)
        and not PRONOUN_START.match(text)
        and word_count(text) >= 4
    ):
        decision += 3  # "Agreed. Shadow week = w/c 13 Apr, not the 20th."
    if statement and around.called and not PRONOUN_START.match(text):
        if decision > 0:
            decision += 2
        elif around.called == 1 and says_what(text):
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


def score_sentence(
    text: str, turns: list[Turn], index: int, meeting: dt.date, around: Around
) -> tuple[int, int]:
    """How much the sentence reads as a decision and as a task (against the thresholds)."""
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


_CLAUSE = re.compile(
    r"^\W*(?:you|you're|we|we're|I|I'm|it|it's|that|this|there|is|are|do|does|did|can|could|"
    r"would|will|have|has|how|what|why|when|where|who|any|anything)\b",
    re.I,
)


_PERSONAL = re.compile(r"\b(?:you|you've|you're|we|we're|I|I'm|he|she|they|it's)\b", re.I)


def _taken_by_name(text: str, reply: Turn | None) -> bool:
    """A request by name with no verb, taken on by who was named ("Marta, burn-in test
    plan?" "Yep, by the 6th.")."""
    named = VOCATIVE.match(text)
    if named is None or reply is None or not reply.speaker or word_count(text) < 4:
        return False
    asked = text[named.end() :]
    if not may_be(named["name"], reply.speaker) or not says_what(asked):
        return False
    if _CLAUSE.match(asked) or _PERSONAL.search(asked):
        return False  # "Marcus, you're listening in today, right?" asks, it gives no task
    takes = I_WILL.search(reply.text)
    return bool(takes or (text.rstrip().endswith("?") and ACCEPTS.match(reply.text)))
