"""Names in a new capture, linked to people before the capture's one transaction.

The meeting's roster decides first. It is built from the speaker labels and the header's
attendee lists: a full name is one person (the one memo knows by that name, a spelling of
them such as "Libby Harcourt" for Elizabeth Harcourt, or someone new); a shorter label that
fits exactly one full name in the roster is that person ("Sam" beside "Sam Okafor"). Role
labels ("Project Manager", "Grad B") make nobody; a first name that fits several people memo
knows, none of them in the roster, makes nobody either (what it owns waits for the user).

Owners and deciders ("Sam", "Tom", "Priya Natarajan") are read against the roster first: a
name that fits exactly one member is that member, one that fits two ("Sam" with both Sams in
the room) waits, whatever any alias says. Only a name that fits no one in the room goes to
the store-wide resolver, where an alias is evidence, not a verdict: the user's confirmed
alias decides unless the roster says that person was not there; a cached guess decides only
while nobody else fits the name. "The other Sam" is the Sam who was not in the room.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from memo_tui.core.entities.names import (
    INITIALS_ALONE,
    looks_like_a_person,
    normalize,
    parts,
    similarity,
)
from memo_tui.core.entities.resolve import (
    AMBIGUOUS,
    AUTO_RESOLVE,
    MAX_CANDIDATES,
    TIE,
    Candidate,
    NeedsDisambiguation,
    Resolution,
    Resolved,
    Unresolved,
    decide,
    rank,
    resolve,
)
from store import Directory, NewAlias, NewCapture, PersonRef

_OTHER = re.compile(r"^(?:the\s+)?other\s+", re.I)  # "the other Sam"


@dataclass
class _Roster:
    directory: Directory
    refs: dict[str, PersonRef] = field(default_factory=dict)  # normalized label -> person
    names: dict[PersonRef, str] = field(default_factory=dict)
    new_people: list[str] = field(default_factory=list)
    aliases: list[NewAlias] = field(default_factory=list)
    renames: dict[int, str] = field(default_factory=dict)  # person -> their fuller name
    # how this meeting writes each member ("Femi Ogunleye" for Oluwafemi Ogunleye)
    labels: dict[PersonRef, set[str]] = field(default_factory=dict)

    def claim(self, label: str, ref: PersonRef, name: str) -> None:
        self.names[ref] = name
        self.call(label, ref)

    def call(self, label: str, ref: PersonRef) -> None:
        """`label` names `ref` here."""
        self.refs[normalize(label)] = ref
        self.labels.setdefault(ref, set()).add(label.strip())

    def member(self, mention: str) -> tuple[PersonRef | None, bool]:
        """The one member `mention` fits (the person, False); (None, True) when it fits
        several or only loosely; (None, False) when it fits nobody here."""
        scored = sorted(
            (
                (max(similarity(mention, n) for n in {name, *self.labels.get(ref, ())}), ref)
                for ref, name in self.names.items()
            ),
            key=lambda pair: -pair[0],
        )
        if not scored or scored[0][0] < AMBIGUOUS:
            return None, False
        top, ref = scored[0]
        clear = len(scored) == 1 or scored[1][0] < top - TIE
        return (ref, False) if top >= AUTO_RESOLVE and clear else (None, True)


def _fuller(label: str, name: str) -> bool:
    """Whether a label that spells a person memo knows is a fuller form of their name: more
    of it ("Hannah Osei" for "Hannah"), or the same surname under the first name "Libby",
    "Raj" or "JB" stand for. Teams shows the name a directory holds; memo takes it."""
    said, known = parts(label), parts(name)
    if len(said) > len(known):
        return True
    return len(said) == len(known) >= 2 and said[1:] == known[1:] and len(said[0]) > len(known[0])


def _confirmed(found: Resolved, mention: str, directory: Directory) -> bool:
    """The user said this name is this person (an alias they confirmed)."""
    return any(
        not a.auto_resolved and a.entity_id == found.entity.id
        for a in directory.aliases
        if normalize(a.alias) == normalize(mention)
    )


def _trusted(found: Resolution, label: str, directory: Directory) -> bool:
    """An alias answer a roster label may take: the user's word always, a cached guess only
    while nobody else fits the name."""
    if not isinstance(found, Resolved) or found.via != "alias":
        return False
    return _confirmed(found, label, directory) or len(rank(label, directory)) <= 1


def _claim_label(roster: _Roster, label: str, short: bool) -> None:
    """A roster label as a person: the one memo knows by that name or the user's alias, a
    spelling of one person memo knows, or someone new. A short label that fits several
    people memo knows makes nobody."""
    directory = roster.directory
    found = resolve(label, directory)
    if isinstance(found, Unresolved) and found.reason == "declined":
        roster.new_people.append(label.strip())  # the user said the name is nobody memo knows
        roster.claim(label, label.strip(), label.strip())
        return
    taken = {ref for ref in roster.names if isinstance(ref, int)}
    if (
        isinstance(found, Resolved)
        and found.entity.id not in taken
        and (found.via == "name" or _trusted(found, label, directory))
    ):
        roster.claim(label, found.entity.id, found.entity.name)
        return
    free = [p.id for p in directory.people if p.id not in taken]
    spelled = decide(label, rank(label, directory, among=free))
    if isinstance(spelled, Resolved):  # a spelling of someone memo knows
        person = spelled.entity
        roster.aliases.append(NewAlias(label, person.id, person.score, True))
        name = person.name
        if _fuller(label, person.name):
            roster.renames[person.id] = name = label.strip()
            roster.aliases.append(NewAlias(person.name, person.id, 1.0, True))
        roster.claim(label, person.id, name)
    elif short and isinstance(spelled, NeedsDisambiguation) and len(spelled.candidates) > 1:
        return  # "Sam" with two Sams memo knows, neither named here: nobody yet
    else:
        roster.new_people.append(label.strip())
        roster.claim(label, label.strip(), label.strip())


def _claim_initials(roster: _Roster, label: str) -> None:
    """Initials a header lists are the one person memo knows that they fit, else nobody:
    never a new person called "TB"."""
    found = decide(label, rank(label, roster.directory))
    if isinstance(found, Resolved) and found.entity.id not in roster.names:
        roster.claim(label, found.entity.id, found.entity.name)


def _roster(
    speakers: Sequence[str],
    attendees: Sequence[str],
    directory: Directory,
    taught: Mapping[str, str] | None = None,
) -> _Roster:
    """Full names first, then the shorter labels: one that fits exactly one full name the
    header lists is that person (two speaker labels are two people). `taught`: what the
    meeting itself says a label means ("Speaker 3" is Hannah: she was thanked for what
    Speaker 3 said)."""
    roster = _Roster(directory)
    said = [*speakers, *(taught or {}).values(), *attendees]
    people = [s for s in dict.fromkeys(label.strip() for label in said) if looks_like_a_person(s)]
    full = [label for label in people if len(parts(label)) >= 2]
    for label in full:
        same = [ref for ref, name in roster.names.items() if parts(name) == parts(label)]
        if normalize(label) in roster.refs:
            continue
        if same:  # "Dr. Priya Nair" in the header, "Priya Nair" speaking: one person
            roster.call(label, same[0])
        else:
            _claim_label(roster, label, short=False)
    voices = {roster.refs.get(normalize(s)) for s in speakers}
    listed = _Roster(directory)  # the header's people no speaker label names in full
    for ref, name in roster.names.items():
        if ref not in voices:
            listed.claim(name, ref, name)
    for label in (label for label in people if label not in full):
        member, unsure = listed.member(label)
        if member is not None:
            roster.call(label, member)
        elif not unsure and normalize(label) not in roster.refs:
            if label not in speakers and INITIALS_ALONE.fullmatch(label):  # "- MT (chair), DA, AK"
                _claim_initials(roster, label)
            else:
                _claim_label(roster, label, short=True)
    for label, meant in (taught or {}).items():
        person = roster.refs.get(normalize(meant))
        if person is not None:
            roster.refs.setdefault(normalize(label), person)
    return roster


def _elsewhere(mention: str, roster: _Roster) -> tuple[PersonRef | None, bool]:
    """ "The other Sam": the one person the name fits who was not in the room."""
    present = {ref for ref in roster.names if isinstance(ref, int)}
    ranked = [c for c in rank(mention, roster.directory) if c.id not in present]
    strong = [c for c in ranked if c.score >= AUTO_RESOLVE]
    if len(strong) == 1:
        return strong[0].id, False
    return None, bool(ranked)


def _link(mention: str | None, roster: _Roster) -> tuple[PersonRef | None, bool]:
    """(person, pending) for an owner or decider as the extractor named them."""
    if not mention or not normalize(mention):
        return None, False
    if _OTHER.match(mention):
        return _elsewhere(_OTHER.sub("", mention), roster)
    key = normalize(mention)
    if key in roster.refs:
        return roster.refs[key], False
    member, unsure = roster.member(mention)
    if member is not None or unsure:
        return member, unsure
    directory = roster.directory
    found = resolve(mention, directory)
    present = {ref for ref in roster.names if isinstance(ref, int)}
    if isinstance(found, Resolved) and found.via == "alias":
        # The user's word decides among people who could have been there; a cached guess
        # only while nobody else fits the name.
        absent = bool(present) and found.entity.id not in present
        if (absent and _confirmed(found, mention, directory)) or not _trusted(
            found, mention, directory
        ):
            found = decide(mention, rank(mention, directory))
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


def link_names(
    new: NewCapture,
    speakers: Sequence[str],
    attendees: Sequence[str],
    directory: Directory,
    taught: Mapping[str, str] | None = None,
) -> NewCapture:
    """`new` with its roster, owners, deciders, new people and aliases filled in."""
    roster = _roster(speakers, attendees, directory, taught)
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
        attendees=tuple(dict.fromkeys(roster.names)),
        aliases=tuple(unique.values()),
        stale_aliases=_stale_aliases(directory, roster.new_people),
        project_ids=projects_named(new, directory),
        renames=tuple(roster.renames.items()),
    )


def resolve_in_meeting(
    mention: str,
    attendees: Sequence[int],
    directory: Directory,
    taught: Mapping[str, str] | None = None,
) -> Resolution:
    """What `mention` means said in a meeting `attendees` were at, as a capture of that
    meeting links an owner or decider (`taught`: what the meeting said labels mean)."""
    roster = _Roster(directory)
    for person in directory.people:
        if person.id in attendees:
            roster.claim(person.name, person.id, person.name)
    for label, meant in (taught or {}).items():
        ref = roster.refs.get(normalize(meant)) or roster.member(meant)[0]
        if ref is not None:
            roster.refs[normalize(label)] = ref
    person_id, pending = _link(mention, roster)
    if isinstance(person_id, int):
        name = next(p.name for p in directory.people if p.id == person_id)
        return Resolved(mention, Candidate(person_id, name, 1.0), "meeting")
    if pending:
        fits = rank(_OTHER.sub("", mention), directory, among=attendees) or rank(
            _OTHER.sub("", mention), directory
        )
        return NeedsDisambiguation(mention, tuple(fits[:MAX_CANDIDATES]))
    return Unresolved(mention, "no_match")
