"""What a found task says: the task itself (its speaker, label and lead-in taken off), who
owns it and when it is due."""

from __future__ import annotations

import re

from memo_tui.core.capture.dates import find_due_date
from memo_tui.core.capture.offline.items import (
    DONE,
    I_WILL,
    LIST_MARK,
    PRONOUN_START,
    TASK_LEAD,
    VOCATIVE,
    Item,
)
from memo_tui.core.capture.offline.people import find_assignee, owner_in_text
from memo_tui.core.capture.offline.task_owners import taker
from memo_tui.core.capture.offline.text import as_sentence, clean_spoken, sentences
from memo_tui.core.capture.sources import Transcript, Turn

# "Action item for Tom: ...": the label names the owner; the task is what follows.
_ACTION_LABEL = re.compile(
    r"^\W*(?:action items?|todo|to-?do|next steps?|follow[- ]?up)"
    r"(?:\s+for\s+(?:me|you|us|[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?))?\s*:\s*",
    re.I,
)


# "Last one from me: I'll write this up": a few words of framing before the commitment.
_ASIDE = re.compile(r"^[^:\n]{1,40}:\s+(?=(?:[Ii]|we)(?:'ll| will)\b)")


_ASKED = re.compile(
    r"^\W*(?:[A-Z][\w'\-]+,\s*)?(?:did|have|has|could|can) (?:you|they|we) (?:already |also )?",
)


def _asked_before(item: Item, turns: list[Turn]) -> str | None:
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


def describe_action(item: Item, turns: list[Turn], meeting: Transcript) -> None:
    """Set a task's description, owner and due date."""
    turn = turns[item.turn_index]
    following = turns[item.turn_index + 1 : item.turn_index + 3]
    said = LIST_MARK.sub("", item.quote, count=1)
    if item.done and item.assignee:  # "Already did. I sent it.": the speaker did it
        asked = _asked_before(item, turns) if PRONOUN_START.match(said) else None
        item.description = as_sentence(asked or clean_spoken(said))
        return
    item.assignee = find_assignee(said, turn, following) if turn.speaker else owner_in_text(said)
    named = VOCATIVE.match(said)
    if item.assignee is None and named and turn.speaker:
        item.assignee = named["name"]  # "Marta, a 48-hour soak?": who takes it is settled below
    if item.assignee is None and turn.speaker:
        item.assignee = _owner_said_before(item, turn) or _owner_unmarked(said, turn, meeting)
    task = re.sub(
        r"^\s*@?[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30}){0,2}\s*[:\u2014\u2013]\s+",
        "",
        said,
    )
    task = DONE.sub("", task)
    task = _ACTION_LABEL.sub("", task, count=1)
    task = _ASIDE.sub("", task, count=1)
    task = clean_spoken(task)
    task = TASK_LEAD.sub("", task, count=1)
    if item.assignee:
        task = re.sub(rf"^{re.escape(item.assignee)},\s+", "", task)
        if turn.speaker and item.assignee != turn.speaker:
            item.assignee = taker(item.assignee, item.turn_index, turns) or item.assignee
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


def _owner_said_before(item: Item, turn: Turn) -> str | None:
    """A task that names no owner, said after its owner in the same turn: "I'll cancel the
    balance. And the Ardent PO today or tomorrow." (the speaker's); "Tomás, can you ...?
    Either way, forward it to IT security, please." (the one addressed)."""
    before = turn.text[: max(turn.text.find(item.quote), 0)]
    if I_WILL.search(before):
        return turn.speaker
    named = VOCATIVE.match(before)
    return named["name"] if named else None


# A task said in the first person as speech to text writes it: "Ill raise a job", "i'm
# running the load test", "Already did it i sent finance a heads up", "I need to send Quire
# the promo assets".
_FIRST_PERSON = re.compile(
    r"^\W*(?:(?:so|and|but|ok(?:ay)?|yeah|well|right|already(?: \w+)?(?: it)?)\W+){0,3}"
    r"(?:i|i'm|im|i've|ive|ill|i'll|i'd)\b",
    re.I,
)
_FIRST_WORDS = re.compile(r"^\W*(?P<name>[\w'\-]+)\s+(?P<next>[\w'\-]+)")


def _owner_unmarked(said: str, turn: Turn, meeting: Transcript) -> str | None:
    """The owner of a task speech to text wrote without the marks that name one: the speaker
    of one said in the first person; the one addressed by a first name with no comma after
    it ("Christine you take the insurers then", "danny put the twenty five days in the
    tracker", "Kwame have we dropped the dns ttls yet")."""
    if _FIRST_PERSON.match(said):
        return turn.speaker
    first = _FIRST_WORDS.match(said)
    if first is None:
        return None
    name = first["name"]
    own = (turn.speaker or "").split()[0].casefold()
    known = name.casefold() != own and name.casefold() in {
        s.split()[0].casefold() for s in meeting.speakers
    }
    if known or (name[0].isupper() and first["next"].casefold() == "you"):
        return name[0].upper() + name[1:]
    return None


def _due_context(item: Item, turns: list[Turn]) -> list[str]:
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
