"""Who ends up with a task: whoever answers a request made to them by name and takes it on,
says they already did it, or is handed it instead."""

from __future__ import annotations

from memo_tui.core.capture.offline import cues
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.people import ACCEPTS
from memo_tui.core.capture.offline.task_references import objectless
from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.capture.sources import Turn
from memo_tui.core.entities.names import similarity
from memo_tui.core.entities.nicknames import same_first_name
from memo_tui.core.entities.resolve import AUTO_RESOLVE

ANSWER_REACH = 3  # turns after a request its taker may answer in ("Me or Jon?" "Our John.")


def answered(item: Item, kept: list[Item], turns: list[Turn]) -> Item | None:
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
    return request if not settled and may_be(asked, speaker) else None


def done_before(item: Item, kept: list[Item], turns: list[Turn]) -> Item | None:
    """The request an "Already did it." answers: asked of the speaker a turn or two before."""
    if item.kind != "action" or not item.done or item.from_notes:
        return None
    speaker = turns[item.turn_index].speaker or ""
    for earlier in reversed(kept):
        if earlier.kind != "action" or item.turn_index - earlier.turn_index > ANSWER_REACH:
            return None
        asker = turns[earlier.turn_index].speaker
        if asker != speaker and earlier.assignee and may_be(earlier.assignee, speaker):
            earlier.assignee = speaker
            return earlier
    return None


def taker(asked: str, index: int, turns: list[Turn]) -> str | None:
    """Who answers a request made to `asked` by name and takes it on, within a few turns
    ("Alex, send me the results." "Alex Rivera: Yes, I'll have both done by Friday.")."""
    asker = turns[index].speaker
    for later in turns[index + 1 : index + 1 + ANSWER_REACH]:
        speaker = later.speaker
        if speaker and speaker != asker and may_be(asked, speaker) and ACCEPTS.match(later.text):
            return speaker
    return None


def may_be(asked: str, speaker: str) -> bool:
    """Whether a name someone was asked by could be the speaker's ("John" for Jon Park)."""
    if not asked.split() or not speaker.split():
        return False  # a line with no speaker is nobody's answer
    first = same_first_name(asked.split()[0], speaker.split()[0])
    return first or similarity(asked, speaker) >= AUTO_RESOLVE


HANDOVER_REACH = 8  # turns back a task handed on ("take the soak instead") may have been given


def handed_over(item: Item, kept: list[Item]) -> Item | None:
    """The task this item hands to someone else: given to another owner a little before,
    about the same thing ("Marta, can you run the soak?" ... "Priya, take the soak
    instead?"), or, naming nothing itself, the request just turned down ("Hannah, can you
    redo the paperwork?" "I can't, I'm away." "JB, can your team take it?"). The task ends
    with its last owner."""
    if item.kind != "action" or not item.assignee or item.from_notes:
        return None
    pointing = objectless(item)
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
