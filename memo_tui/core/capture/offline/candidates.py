"""Every decision and task a meeting says or writes down, before it is worded or merged:
the sentences that score as one, a value changed after an objection, and the items written
in notes' `Decisions` / `Action items` sections."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from memo_tui.core.capture.offline import call_values as cv
from memo_tui.core.capture.offline import cues, notes, reversals
from memo_tui.core.capture.offline.decision_details import SHORT_CALL
from memo_tui.core.capture.offline.items import DONE, Item, personal, says_what
from memo_tui.core.capture.offline.judge import Said, Verdict
from memo_tui.core.capture.offline.sentence_scores import (
    ACTION_THRESHOLD,
    DECISION_THRESHOLD,
    Around,
    around_sentence,
    score_sentence,
)
from memo_tui.core.capture.offline.text import sentences, word_count
from memo_tui.core.capture.sources import Transcript, Turn
from memo_tui.core.capture.subject import NUMBER_WORDS, is_date, is_number, subject_words
from memo_tui.core.capture.untrusted import not_the_meetings, read_out

MAX_SENTENCE = 1_500


@dataclass(frozen=True)
class Heard:
    """A sentence of the meeting with what the rules need around it to make it an item."""

    said: Said
    number: int  # its place in its turn
    turn_said: tuple[str, ...]  # the turn's sentences
    around: Around


def heard(transcript: Transcript) -> list[Heard]:
    """Every sentence the meeting itself said (not a note-taker's, not read out, not a wall
    of text), scored by the rules, in order."""
    turns = transcript.turns
    # Any date will do for noticing that a due date was said; resolving it needs the real one.
    meeting = transcript.occurred_at or dt.date(2000, 1, 3)
    found: list[Heard] = []
    for index, turn in enumerate(turns):
        if not_the_meetings(transcript, index):
            continue
        spoken = sentences(turn.text)
        said = tuple(s.text for s in spoken)
        calls = [n for n, text in enumerate(said) if cues.CALL_PREAMBLE.search(text)]
        proposal = next((n for n, text in enumerate(said) if cues.PROPOSAL.match(text)), None)
        answers = index > 0 and turns[index - 1].text.rstrip().endswith("?")
        for number, sentence in enumerate(spoken):
            if len(sentence.text) > MAX_SENTENCE:
                continue  # a run-on wall of text is not a statement we can quote
            if read_out(said[number - 1] if number else "", sentence.text):
                continue  # "it says: Decision: …": someone else's words, read out
            around = around_sentence(list(said), number, calls, answers, proposal)
            decision, action = score_sentence(sentence.text, turns, index, meeting, around)
            one = Said(
                index,
                sentence.start,
                sentence.text,
                turn.speaker,
                decision,
                action,
                first=number == 0,
                last=number == len(spoken) - 1,
                position=index / max(len(turns), 1),
            )
            found.append(Heard(one, number, said, around))
    return found


def spoken_items(transcript: Transcript, verdicts: Verdicts | None = None) -> list[Item]:
    """Every sentence said in the meeting that scores as a decision or a task: by the judge's
    probabilities when given (`verdicts`, one per sentence of `heard`), else by the rules'
    thresholds."""
    turns = transcript.turns
    items: list[Item] = []
    objected: list[Item] = []
    last_turn = -1
    sentences_heard = heard(transcript) if verdicts is None else verdicts.heard
    for n, one in enumerate(sentences_heard):
        index, text, said, number = one.said.turn, one.said.text, one.turn_said, one.number
        if index != last_turn:
            objected, last_turn = _objected_calls(items, turns, index), index
        decision, action = one.said.decision, one.said.action
        if verdicts is not None:
            decision, action = verdicts.votes(n)
        changes = None
        if objected:
            changes = _given_another_value(
                text, index, objected, said[number - 1] if number else ""
            )
        if changes is not None:
            decision, objected = max(decision, DECISION_THRESHOLD), []
        position = (index, one.said.start)
        chance = verdicts.chances[n] if verdicts is not None else None
        if number and cues.ALREADY_DONE.match(said[number - 1]) and says_what(text):
            done = Item("action", position, index, text, done=True)
            done.assignee = turns[index].speaker
            done.confidence = chance.action if chance else None
            items.append(done)  # "Already did. I sent the summary to her on Monday."
        elif (
            changes is None  # giving a call another value is a call, whatever task it names
            and action >= ACTION_THRESHOLD
            and (action >= decision or personal(text))
            and not (decision >= DECISION_THRESHOLD and cues.CALL_IN_SENTENCE.search(text))
        ):
            reply = next(
                (t for t in turns[index + 1 : index + 3] if t.speaker != turns[index].speaker),
                None,
            )
            item = Item("action", position, index, text)
            item.dropped = (
                reply is not None and text.rstrip().endswith("?") and cues.turned_down(reply.text)
            )
            item.confidence = chance.action if chance else None
            items.append(item)
        elif decision >= DECISION_THRESHOLD and not reversals.denied(text, index, turns):
            quote = text
            after = one.around.after
            if after is not None and cues.CONFIRMS.match(after):
                # "Tuesdays at ten. Done.": the mark belongs in the quote, which it makes
                # the meeting's own (someone else said "Tuesdays at ten" first).
                turn_text = turns[index].text
                start = one.said.start
                quote = turn_text[start : turn_text.find(after, start) + len(after)]
            item = Item("decision", position, index, quote, changes=changes)
            item.confidence = chance.decision if chance else None
            items.append(item)
    return items


@dataclass(frozen=True)
class Verdicts:
    """The judge's probabilities for the sentences heard, and the probability of each kind
    (`decision_at`, `action_at`) at which a sentence counts as reaching the rules'
    threshold. With `decides`, they are the votes (the kind's `propose_at`). Without, the
    rules choose the items and the judge says how sure it is of each; it adds a sentence
    the rules took as neither when it is as sure as the kind's `add_at` (where sentences
    the rules passed over were 80% right, held out)."""

    heard: list[Heard]
    chances: list[Verdict]
    decision_at: float
    action_at: float
    decides: bool = False

    def votes(self, n: int) -> tuple[int, int]:
        said, chance = self.heard[n].said, self.chances[n]
        if not self.decides and (
            said.decision >= DECISION_THRESHOLD or said.action >= ACTION_THRESHOLD
        ):
            return said.decision, said.action
        decision = DECISION_THRESHOLD if chance.decision >= self.decision_at else 0
        action = ACTION_THRESHOLD if chance.action >= self.action_at else 0
        if decision and action:  # both: the likelier kind
            return (decision, 0) if chance.decision > chance.action else (0, action)
        return decision, action


# How a call's maker gives way: "ok, the twelfth then", "yeah ok fair, two years then",
# "god ok yeah, the twenty sixth then", "six then, six o'clock start", "Then the 10th.".
_GIVES_WAY = re.compile(
    r"^\W*(?:(?:yeah|yes|oh|god|well|no|so|and|right)\W+)*(?:ok(?:ay)?|fine|right|alright|fair|"
    r"then)\b|^\W*(?:[\w'\-]+\s+){0,4}?[\w'\-]+\s+then\b",
    re.I,
)
# What someone says against a call: "wait, no", "sorry, is that long enough?", "can I push
# back on that", "the old dairy backs onto the lab".
_DOUBT = re.compile(
    r"^\W*(?:wait|no|hang on|hold on|actually|sorry|but)\b|\?|\b(?:no|not|can't|cannot|won't|"
    r"wouldn't|isn't|doesn't|don't|but|problem|issue|clash|push back|wait|hang on|sorry)\b",
    re.I,
)
CONCEDE_REACH = 25  # turns after a call in which its maker may give way to an objection
NEAR_CONCESSION = 8  # within so many turns, a bare "the twelfth then" gives way to it


def _given_another_value(text: str, index: int, calls: list[Item], before: str) -> Item | None:
    """ "Then the 10th.", "ok twenty fifth of may then", "scrap the two weeks, four weeks
    parallel": of the `calls` objected to, the one this sentence puts a new amount or date
    in the place of (the one whose value it names, as in "not five. six then", else the
    latest it changes), when it is said as giving way, as a short fragment, or after
    taking the call back in the sentence `before` it; not any statement that holds a
    number."""
    ours = cv.amounts(text)
    if "?" in text or not ours:
        return None
    gives_way = _GIVES_WAY.match(text) or reversals.STRONG_REVERSAL.search(f"{before} {text}")
    if not gives_way and word_count(text) > SHORT_CALL:
        return None
    changing = [c for c in calls if _in_its_place(text, ours, c.quote, index - c.turn_index)]
    named = cv.amounts(f"{before} {text}")
    return next((c for c in changing if cv.amounts(c.quote) & named), None) or next(
        iter(changing), None
    )


def _in_its_place(text: str, ours: set[str], call: str, turns_after: int) -> bool:
    """Whether `text` sets another value of a kind `call` set (an amount for an amount, a
    date for a date) for the same thing: said with a word the call's value was said with
    ("six weeks of buffer stock" is no new value for "three units a month"), or, a few turns
    after the call, one of them said with none (a fragment: "the twelfth then")."""
    theirs = cv.amounts(call)
    for kind in (is_number, is_date):
        new = {v for v in ours - theirs if kind(v)}
        if new and any(kind(v) for v in theirs):
            slot, before = _said_with(text, new), _said_with(call, theirs)
            if slot & before or _units(text) & _units(call):
                return True
            return turns_after <= NEAR_CONCESSION and not (slot and before)
    return False


# Where a clause ends: "the twelfth of may then | omar, tell the printers".
_CLAUSE = re.compile(r"[,;:.!?]\s|\s(?:and|but|so|because)\s|(?<=\bthen)\s", re.I)


_COUNTED = re.compile(
    rf"\b(?:\d[\d,.]*|(?:{'|'.join(NUMBER_WORDS)})(?:-\w+)?)\s+(?P<unit>[a-z]{{3,}})\b", re.I
)
_NOT_UNITS = frozenset("for then and the that this with from per but not".split())


def _units(text: str) -> set[str]:
    """What a number counts, as said right after it ("two years", "sixteen covers"): two
    amounts of one unit are two values of one thing."""
    found = (m["unit"].lower().removesuffix("s") for m in _COUNTED.finditer(text))
    return {unit for unit in found if unit not in _NOT_UNITS}


def _said_with(text: str, wanted: set[str]) -> set[str]:
    """The key words of the clauses of `text` that say a `wanted` value."""
    return subject_words(c for c in _CLAUSE.split(text) if cv.amounts(c) & wanted)


def _objected_calls(items: list[Item], turns: list[Turn], index: int) -> list[Item]:
    """The calls this turn's speaker made in the last few turns that someone else has
    spoken against since ("Wait, no. The 3rd is the payroll freeze.", "sorry, is that long
    enough?"), the latest first: its maker may now name another value for one ("Then the
    10th.")."""
    speaker = turns[index].speaker
    found: list[Item] = []
    if index < 2 or not speaker:
        return found
    for item in reversed(items):
        if index - item.turn_index > CONCEDE_REACH:
            break
        if item.kind != "decision" or item.turn_index >= index:
            continue
        if turns[item.turn_index].speaker != speaker:
            continue
        between = turns[item.turn_index + 1 : index]
        if any(t.speaker != speaker and _DOUBT.search(t.text) for t in between):
            found.append(item)
    return found


def note_items(transcript: Transcript) -> tuple[list[Item], set[int]]:
    """The items written under a notes heading or label, and the turns they came from."""
    kinds = notes.section_kinds(transcript.lines)
    items: list[Item] = []
    used: set[int] = set()
    struck: list[tuple[Item, int | None]] = []  # struck-through calls, and the item they point to
    for index, turn in enumerate(transcript.turns):
        kind = kinds.get(turn.line) or notes.labelled(turn)
        if kind is None or not_the_meetings(transcript, index):
            continue
        used.add(index)
        text, checked = notes.strip_bullet(turn.text)
        label = (notes.DECISION_LABEL if kind == "decision" else notes.ACTION_LABEL).match(text)
        by = label.groupdict().get("by") if label else None
        text = text[label.end() :].strip() if label else text.strip()
        if word_count(text) < 2:
            continue
        crossed = notes.struck(text)
        item = Item(kind, (index, 0), index, crossed or text, decided_by=by, from_notes=True)
        item.done = bool(checked) or bool(DONE.search(text))
        item.dropped = crossed is not None and kind == "action"
        items.append(item)
        if crossed is not None and kind == "decision":
            struck.append((item, notes.see_also(text[text.index(crossed) + len(crossed) :])))
    calls = [i for i in items if i.kind == "decision" and all(i is not c for c, _ in struck)]
    for call, see in struck:
        instead = _written_instead(call, see, calls, transcript)
        if instead is not None:
            instead.changes = call
    return items, used


def _written_instead(
    call: Item, see: int | None, calls: list[Item], transcript: Transcript
) -> Item | None:
    """What a struck-through call gave way to, among the calls that stand: the list item it
    points to ("see 4"), else the next call written under it."""
    later = [i for i in calls if i.turn_index > call.turn_index and i.changes is None]
    if see is not None:
        return next(
            (i for i in later if notes.numbered(transcript.turns[i.turn_index].text) == see),
            None,
        )
    return next((i for i in later if i.turn_index == call.turn_index + 1), None)
