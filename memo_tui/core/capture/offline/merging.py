"""A meeting's found items merged into what it decided and who does what: restatements
dropped, replaced decisions marked, requests given to whoever takes them, follow-on steps
folded into their task."""

from __future__ import annotations

from rapidfuzz import fuzz

from memo_tui.core.capture.offline import call_values as cv
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.superseding import repeated, superseded
from memo_tui.core.capture.offline.task_owners import answered, done_before, handed_over
from memo_tui.core.capture.offline.task_references import follow_on, objectless, pointed_task
from memo_tui.core.capture.sources import Turn

RESTATEMENT = 90  # rapidfuzz ratio at which two items say the same thing


def _taken_in(items: list[Item]) -> set[tuple[int, int]]:
    """Where calls were said as part of a call beside them. When two took each other in
    ("Then it's the library. The lift settles it."), the later one, pointing back, stands."""
    at = {i.position: i for i in items}
    return {
        p
        for i in items
        for p in i.consumed
        if not (p in at and i.position in at[p].consumed and at[p].position > i.position)
    }


def merge(items: list[Item], turns: list[Turn]) -> list[Item]:
    """Drop restatements and decisions a later one reverses (the later statement wins), give
    a request to whoever answers it or is handed it, and fold a task's follow-on step into
    the task."""
    kept: list[Item] = []
    taken_in = _taken_in(items)
    for item in sorted(items, key=lambda i: i.position):
        if item.position in taken_in:
            continue
        if item.kind == "action" and objectless(item):
            pointed_task(item, turns)  # "I'll do that" after its task: it names the task
        earlier = handed_over(item, kept)
        if earlier is not None:
            earlier.assignee, earlier.due = item.assignee, item.due or earlier.due
            earlier.dropped = False  # turned down by one, taken by another
            continue
        asked = done_before(item, kept, turns)
        if asked is not None:
            asked.done, asked.due = True, None  # "Raj, can you chase?" "Already done. I emailed."
            continue
        request = answered(item, kept, turns)
        if request is not None:
            request.assignee = turns[item.turn_index].speaker
            request.due = request.due or item.due
            continue
        if kept and follow_on(item, kept[-1], turns):
            kept[-1].due = kept[-1].due or item.due
            continue
        if item.kind == "action" and objectless(item) and not pointed_task(item, turns):
            continue  # a task with nothing to do in it is no task
        if repeated(item, kept) is not None:
            continue  # said again (a recap): the earlier, fuller statement stands
        restated = cv.restated(item, kept, turns)
        if restated is not None:
            _stand_in(restated, item, kept)  # the same call, confirmed: the confirmation stands
        replaced = None if restated else superseded(item, kept, turns) or _given_way(item, kept)
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


def _given_way(item: Item, kept: list[Item]) -> Item | None:
    """The call this one gives another value to after an objection, while it still holds."""
    call = item.changes
    if call is None or call.superseded_by is not None or not any(k is call for k in kept):
        return None
    return call


def _stand_in(gone: Item, instead: Item, kept: list[Item]) -> None:
    """`gone` is said again as `instead`: it leaves, and a call it replaced now points at
    `instead` (a replaced call must always point at one that is kept)."""
    kept.remove(gone)
    for item in kept:
        if item.superseded_by is gone:
            item.superseded_by = instead
