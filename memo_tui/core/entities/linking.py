"""Names in a new capture, linked to people before the capture's one transaction.

Speaker labels and attendee lists are the meeting's roster, and they are authoritative: a
label is the person the tool that made the transcript knew, so one that matches nobody
closely (or only in the ask band, as "Sam Cheng" does "Sam Chen") is a new person, and two
labels in one meeting are never the same person. Role labels ("Project Manager", "Grad B")
make nobody.

Owners and deciders ("Sam", "Tom", "Priya Natarajan") are read in the meeting's context
first: a first name that fits exactly one attendee is that attendee. One that fits several
(two Sams in the room) waits for the user unless the user already said who that name means;
one that fits no attendee is resolved store-wide. Ambiguous names stay pending, with the raw
name kept, until `confirm` back-fills them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from memo_tui.core.entities.names import looks_like_a_person, normalize, similarity
from memo_tui.core.entities.resolve import (
    AMBIGUOUS,
    AUTO_RESOLVE,
    NeedsDisambiguation,
    Resolved,
    Unresolved,
    decide,
    rank,
    resolve,
)
from store import Directory, NewAlias, NewCapture, PersonRef


@dataclass
class _Roster:
    directory: Directory
    refs: dict[str, PersonRef] = field(default_factory=dict)  # normalized label -> person
    names: dict[PersonRef, str] = field(default_factory=dict)
    new_people: list[str] = field(default_factory=list)
    aliases: list[NewAlias] = field(default_factory=list)

    def claim(self, label: str, ref: PersonRef, name: str) -> None:
        self.refs[normalize(label)] = ref
        self.names[ref] = name


def _roster(labels: Sequence[str], directory: Directory) -> _Roster:
    roster = _Roster(directory)
    people = [label.strip() for label in dict.fromkeys(labels) if looks_like_a_person(label)]
    # Exact names claim their person first, then the user's aliases: a label "Sam" that an
    # alias gives to Sam Chen must not take him from the label "Sam Chen".
    found = {label: resolve(label, directory) for label in people}
    for via in ("name", "alias"):
        for label in people:
            answer = found[label]
            if (
                isinstance(answer, Resolved)
                and answer.via == via
                and answer.entity.id not in roster.names
                and normalize(label) not in roster.refs
            ):
                roster.claim(label, answer.entity.id, answer.entity.name)
    unsettled = [label for label in people if normalize(label) not in roster.refs]
    for label in unsettled:
        if normalize(label) in roster.refs:
            continue
        free = [p.id for p in directory.people if p.id not in roster.names]
        # Nobody close, or a name the user said is nobody memo knows: a new person.
        close = not isinstance(found[label], Unresolved)
        typo = decide(label, rank(label, directory, among=free)) if close else None
        if isinstance(typo, Resolved):  # a typo of a known name
            roster.claim(label, typo.entity.id, typo.entity.name)
            roster.aliases.append(NewAlias(label, typo.entity.id, typo.entity.score, True))
        else:
            roster.new_people.append(label)
            roster.claim(label, label, label)
    return roster


def _link(mention: str | None, roster: _Roster) -> tuple[PersonRef | None, bool]:
    """(person, pending) for an owner or decider as the extractor named them."""
    if not mention or not normalize(mention):
        return None, False
    key = normalize(mention)
    if key in roster.refs:
        return roster.refs[key], False
    fits = sorted(
        ((similarity(mention, name), ref) for ref, name in roster.names.items()),
        key=lambda pair: -pair[0],
    )
    strong = [ref for score, ref in fits if score >= AUTO_RESOLVE]
    if len(strong) == 1 and (len(fits) == 1 or fits[1][0] < fits[0][0] - 0.05):
        return strong[0], False
    if strong:  # two Sams in the room: only the user's own word settles it
        said = resolve(mention, roster.directory)
        if isinstance(said, Resolved) and said.via == "alias" and said.entity.id in strong:
            return said.entity.id, False
        return None, True
    if any(score >= AMBIGUOUS for score, _ in fits):
        return None, True
    found = resolve(mention, roster.directory)
    if isinstance(found, Resolved):
        if found.via == "fuzzy":
            roster.aliases.append(NewAlias(mention, found.entity.id, found.entity.score, True))
        return found.entity.id, False
    return None, isinstance(found, NeedsDisambiguation)


def _stale_aliases(directory: Directory, new_people: list[str]) -> tuple[str, ...]:
    """Cached guesses a newcomer casts doubt on ("Sam" meant Sam Chen until Sam Cheng came)."""
    return tuple(
        alias.alias
        for alias in directory.aliases
        if alias.auto_resolved
        and alias.entity_type == "person"
        and any(similarity(alias.alias, name) >= AMBIGUOUS for name in new_people)
    )


def projects_named(new: NewCapture, directory: Directory) -> tuple[int, ...]:
    """Known projects a meeting is about: named in its title, or at least twice in its text
    (a heuristic; the collector agent proposes the links this misses)."""
    found = []
    for project in directory.projects:
        word = re.compile(rf"(?<!\w){re.escape(project.name)}(?!\w)", re.I)
        if word.search(new.title) or len(word.findall(new.text)) >= 2:
            found.append(project.id)
    return tuple(found)


def link_names(new: NewCapture, labels: Sequence[str], directory: Directory) -> NewCapture:
    """`new` with its roster, owners, deciders, new people and aliases filled in."""
    roster = _roster(labels, directory)
    decisions = []
    for decision in new.decisions:
        person, pending = _link(decision.decided_by, roster)
        decisions.append(replace(decision, person=person, pending=pending))
    actions = []
    for action in new.action_items:
        person, pending = _link(action.assignee_raw, roster)
        actions.append(replace(action, person=person, pending=pending))
    unique: dict[str, NewAlias] = {}
    for alias in roster.aliases:
        unique.setdefault(normalize(alias.alias), alias)
    return replace(
        new,
        decisions=decisions,
        action_items=actions,
        new_people=tuple(roster.new_people),
        attendees=tuple(dict.fromkeys(roster.refs.values())),
        aliases=tuple(unique.values()),
        stale_aliases=_stale_aliases(directory, roster.new_people),
        project_ids=projects_named(new, directory),
    )
