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
from memo_tui.core.capture.offline import cues, notes
from memo_tui.core.capture.offline.people import ACCEPTS, find_assignee, owner_in_text
from memo_tui.core.capture.offline.summary import summarize
from memo_tui.core.capture.offline.text import (
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
ARGUMENT_REACH = 20  # turns before a decision searched for the argument behind it
_STRONG_REVERSAL = re.compile(
    r"scratch that|change of plan|on second thought|let'?s not|instead|rather than|"
    r"changed? (?:our|my) minds?|no longer|revers|overturn|walk(?:ing)? (?:that )?back",
    re.I,
)
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
    r"^(?:[A-Z][\w\-]+,\s+)?(?:(?:[Cc]an|[Cc]ould|[Ww]ould) you (?:please )?|"
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
    from_notes: bool = False
    description: str = ""
    replaces: list[str] = field(default_factory=list)


def _split_reason(sentence: str) -> tuple[str, str | None]:
    labelled = cues.REASON_LABEL.search(sentence)
    if labelled:
        return sentence[: labelled.start()], sentence[labelled.end() :].rstrip(" )")
    match = cues.REASON.search(sentence)
    if (
        match
        and word_count(sentence[: match.start()]) >= 4
        and word_count(sentence[match.end() :]) >= 3
    ):
        return sentence[: match.start()].rstrip(" ,;-\u2014"), sentence[match.start() :]
    return sentence, None


def _nearby_reason(turns: list[Turn], index: int, quote: str, topic: set[str]) -> str | None:
    """A "because" said in the same turn, or shortly before by anyone, on the same topic."""
    same_turn = [s.text for s in sentences(turns[index].text) if s.text not in quote]
    for text in same_turn:
        if cues.REASON.search(text) and word_count(text) >= 5:
            return text
    for back in range(index - 1, max(index - 4, -1), -1):
        for sentence in sentences(turns[back].text):
            text = sentence.text
            if cues.REASON.search(text) and "?" not in text and topic & content_words(text):
                return text
    # No "because" nearby: the argument made before the call, on the topic of its whole turn.
    return _argument_before(turns, index, topic | content_words(turns[index].text))


def _argument_before(turns: list[Turn], index: int, topic: set[str]) -> str | None:
    """The argument made shortly before a decision that shares most of its topic."""
    best: tuple[int, int, str] | None = None
    for back in range(max(index - ARGUMENT_REACH, 0), index):
        for sentence in sentences(turns[back].text):
            text = sentence.text
            if "?" in text or word_count(text) < 6 or not cues.ARGUMENT.search(text):
                continue
            shared = len(topic & content_words(text))
            if shared and (best is None or (shared, back) >= best[:2]):
                best = (shared, back, text)
    return best[2] if best else None


def _score_sentence(text: str, turns: list[Turn], index: int, meeting: dt.date) -> tuple[int, int]:
    decision = cues.score(text, cues.DECISION_CUES, cues.HEDGES)
    action = cues.score(text, cues.ACTION_CUES, cues.ACTION_HEDGES)
    if action and find_due_date(cues.unquoted(text), meeting) is not None:
        action += 1
    question = text.rstrip().endswith("?")
    if question:
        decision -= 3
    following = turns[index + 1 : index + 3]
    speaker = turns[index].speaker
    agreed = any(t.speaker != speaker and cues.AGREEMENT.match(t.text) for t in following)
    if agreed and 0 < decision < DECISION_THRESHOLD:
        decision += 2
    request = re.search(r"\b(?:can|could|would) you\b", text, re.I)
    reply = next((t for t in following if t.speaker and t.speaker != speaker), None)
    if question and action > 0 and not request:
        action -= 3
    elif (
        question
        and reply is not None
        and cues.REFUSAL.match(reply.text)
        and not cues.TAKEN_ON.search(reply.text)
    ):
        action -= 3  # the request was turned down
    elif question and agreed:
        action += 1
    elif action > 0 and reply and cues.ADDRESSED.match(text) and ACCEPTS.match(reply.text):
        action += 1  # asked by name, and taken on
    if index >= CLOSING_SHARE * len(turns):
        # Assignments and recaps of what was decided cluster where a meeting wraps up.
        action += 1 if action else 0
        decision += 1 if decision else 0
    if word_count(text) < 5:
        decision, action = min(decision, 0), min(action, 0)
    return decision, action


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
        for sentence in sentences(turn.text):
            if len(sentence.text) > MAX_SENTENCE:
                continue  # a run-on wall of text is not a statement we can quote
            decision, action = _score_sentence(sentence.text, turns, index, meeting)
            position = (index, sentence.start)
            if action >= ACTION_THRESHOLD and (action >= decision or _personal(sentence.text)):
                items.append(_Item("action", position, index, sentence.text))
            elif decision >= DECISION_THRESHOLD:
                items.append(_Item("decision", position, index, sentence.text))
    return items


def _note_items(transcript: Transcript) -> tuple[list[_Item], set[int]]:
    kinds = notes.section_kinds(transcript.lines)
    items: list[_Item] = []
    used: set[int] = set()
    for index, turn in enumerate(transcript.turns):
        kind = kinds.get(turn.line) or notes.labelled(turn)
        if kind is None or addresses_a_model(turn.text, turn.speaker):
            continue
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


_EMPTY_WORDS = frozenset({"way", "plan", "going", "thing", "idea", "then", "okay", "good", "fine"})


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


def _describe_decision(item: _Item, turns: list[Turn]) -> None:
    vague = not item.from_notes and not _says_what(item.quote)
    quote = _with_what(item, turns) if vague else item.quote
    by = _DECIDED_BY.search(quote)
    if by:
        item.decided_by = item.decided_by or by["name"]
        quote = (quote[: by.start()] + quote[by.end() :]).strip()
    main, reason = _split_reason(quote)
    main = _DECISION_LEAD.sub("", clean_spoken(main), count=1)
    item.description = as_sentence(main.rstrip(" ,;:-\u2014"))
    topic = content_words(main)
    item.reasoning = reason or _nearby_reason(turns, item.turn_index, item.quote, topic)
    if item.reasoning:
        # Verbatim (only capitalized), so the evidence range can reach where it was said.
        item.reasoning = as_sentence(item.reasoning.strip())
    item.decided_by = item.decided_by or turns[item.turn_index].speaker


def _describe_action(item: _Item, turns: list[Turn], meeting: Transcript) -> None:
    turn = turns[item.turn_index]
    following = turns[item.turn_index + 1 : item.turn_index + 3]
    said = _LIST_MARK.sub("", item.quote, count=1)
    item.assignee = find_assignee(said, turn, following) if turn.speaker else owner_in_text(said)
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


def _reversal_targets(item: _Item, kept: list[_Item], turns: list[Turn]) -> list[_Item]:
    if item.from_notes:
        return []
    start = max(item.turn_index - 1, 0)
    context = " ".join(t.text for t in turns[start : item.turn_index + 1])
    strong = bool(_STRONG_REVERSAL.search(context))
    if not (strong or cues.REVERSAL.search(item.quote)):
        return []
    topic = content_words(item.quote + " " + context)
    needed = 1 if strong else 2
    scored = [
        (len(topic & content_words(earlier.quote)), earlier.position, earlier)
        for earlier in kept
        if earlier.kind == "decision"
    ]
    best = max(scored, default=None, key=lambda s: s[:2])
    # A reversal replaces one decision: the earlier one that shares most of its topic.
    return [best[2]] if best and best[0] >= needed else []


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
    first = same_first_name(asked.split()[0], speaker.split()[0])
    return first or similarity(asked, speaker) >= AUTO_RESOLVE


HANDOVER_REACH = 8  # turns back a task handed on ("take the soak instead") may have been given


def _handed_over(item: _Item, kept: list[_Item]) -> _Item | None:
    """The task this item hands to someone else: given to another owner a little before,
    about the same thing ("Marta, can you run the soak?" ... "Priya, take the soak
    instead?"). The task ends with its last owner."""
    if item.kind != "action" or not cues.HANDOVER.search(item.quote) or not item.assignee:
        return None
    words = content_words(item.description) - {"instead", "take", "over"}
    for earlier in reversed(kept):
        if earlier.kind != "action":
            continue
        if item.turn_index - earlier.turn_index > HANDOVER_REACH:
            return None
        mine = earlier.assignee and earlier.assignee != item.assignee
        if mine and words & content_words(earlier.description):
            return earlier
    return None


def _merge(items: list[_Item], turns: list[Turn]) -> list[_Item]:
    """Drop restatements and decisions a later one reverses (the later statement wins), give
    a request to whoever answers it or is handed it, and fold a task's follow-on step into
    the task."""
    kept: list[_Item] = []
    for item in sorted(items, key=lambda i: i.position):
        earlier = _handed_over(item, kept)
        if earlier is not None:
            earlier.assignee, earlier.due = item.assignee, item.due or earlier.due
            continue
        request = _answered(item, kept, turns)
        if request is not None:
            request.assignee = turns[item.turn_index].speaker
            request.due = request.due or item.due
            continue
        if kept and _follow_on(item, kept[-1], turns):
            kept[-1].due = kept[-1].due or item.due
            continue
        if item.kind == "decision":
            for earlier in _reversal_targets(item, kept, turns):
                kept.remove(earlier)
                item.replaces.append(earlier.description)
        duplicate = next(
            (
                k
                for k in kept
                if k.kind == item.kind
                and fuzz.ratio(k.description.lower(), item.description.lower()) >= RESTATEMENT
            ),
            None,
        )
        if duplicate is not None:
            if item.kind == "action" and duplicate.assignee and not item.assignee:
                continue
            kept.remove(duplicate)
        kept.append(item)
    return kept


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
    items = [i for i in _merge(items, turns) if word_count(i.description) >= 2]
    decisions = [
        ExtractedDecision(
            description=i.description,
            reasoning=_with_replaced(i),
            decided_by=i.decided_by,
            evidence_quote=i.quote,
        )
        for i in items
        if i.kind == "decision"
    ]
    actions = [
        ExtractedActionItem(
            description=i.description,
            assignee=i.assignee,
            due_date=i.due,
            status="done" if i.done else "open",
            evidence_quote=i.quote,
        )
        for i in items
        if i.kind == "action"
    ]
    return summarize(transcript, decisions, actions)


def _with_replaced(item: _Item) -> str | None:
    if not item.replaces:
        return item.reasoning
    note = "Replaces an earlier decision in this meeting: " + "; ".join(item.replaces)
    return f"{item.reasoning} {note}" if item.reasoning else note
