"""`memo bench people`: who memo says decided and owes, against a labelled meeting set.

Every meeting truth.jsonl lists is captured, oldest first, into a scratch store (a copy of
the folder, so chat logs pair with their meetings). Then:
- name cases (people.jsonl): each mention resolved as its meeting would (or store-wide),
  against the person expected, "ambiguous" (memo should ask) or "none";
- owners and deciders linked to someone who was not at their meeting (there must be none);
- duplicates: one person of the cast stored as two people, or as a first name that is
  theirs alone;
- owners right, on the action items matched to truth by its keyword groups.

Store people are mapped to the cast by the spellings people.jsonl gives (full name, other
spellings, and nicknames that are one person's only); that mapping is the bench's judge.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memo_tui.core.benchmarks.labelled import Cast, capture_all, jsonl, match, meetings, require
from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.entities.service import EntityService
from store import ActionItemRecord, DecisionRecord, Store


@dataclass
class Case:
    id: str
    mention: str
    context: str | None
    expected: str
    got: str

    @property
    def right(self) -> bool:
        return self.expected == self.got


@dataclass
class PeopleBench:
    cases: list[Case] = field(default_factory=list)
    wrong_attendees: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    owners_right: int = 0
    owners_matched: int = 0
    owner_misses: list[str] = field(default_factory=list)
    deciders_right: int = 0
    deciders_matched: int = 0
    people: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "cases": [{**vars(c), "right": c.right} for c in self.cases],
            "cases_right": sum(c.right for c in self.cases),
            "wrong_attendees": self.wrong_attendees,
            "duplicates": self.duplicates,
            "owners_right": self.owners_right,
            "owners_matched": self.owners_matched,
            "owner_misses": self.owner_misses,
            "deciders_right": self.deciders_right,
            "deciders_matched": self.deciders_matched,
            "people": self.people,
            "seconds": round(self.seconds, 3),
        }


def _resolved(service: EntityService, mention: str, capture_id: int | None) -> str:
    found = service.resolve_in(mention, capture_id) if capture_id else service.resolve(mention)
    if found.status == "resolved":
        return found.candidates[0].name
    return "ambiguous" if found.status == "ambiguous" else "none"


def run(data: Path) -> PeopleBench:
    """Capture the set and score who it says was there, decided and owes."""
    require(data, "truth.jsonl", "people.jsonl")
    truth = meetings(data)
    people = jsonl(data / "people.jsonl")
    cast = Cast([p for p in people if p["kind"] == "person"])
    bench = PeopleBench()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        capture = CaptureService(store, CaptureOptions(max_chars=10_000_000, user="bench"))
        done = capture_all(capture, data, truth, Path(scratch))
        ids = {file: result.capture_id for file, result in done.items()}
        names = {p.id: p.name for p in store.people.directory().people}
        bench.people = len(names)
        _score_people(bench, store, truth, ids, names, cast)
        service = EntityService(store, "bench")
        for case in (p for p in people if p["kind"] == "case"):
            context = case["context_file"]
            got = _resolved(service, case["mention"], ids.get(context) if context else None)
            got = cast.member(got) or got
            bench.cases.append(Case(case["id"], case["mention"], context, case["expect"], got))
    bench.seconds = time.perf_counter() - started
    return bench


def _score_people(
    bench: PeopleBench,
    store: Store,
    truth: list[dict[str, Any]],
    ids: dict[str, int | None],
    names: dict[int, str],
    cast: Cast,
) -> None:
    by_member: dict[str, list[str]] = {}
    for name in names.values():
        member = cast.member(name)
        if member is not None:
            by_member.setdefault(member, []).append(name)
        elif cast.looks_like_one(name):
            bench.duplicates.append(f"{name} (a first name of the cast)")
    bench.duplicates += [
        f"{member}: {', '.join(stored)}" for member, stored in by_member.items() if len(stored) > 1
    ]
    for row in truth:
        capture_id = ids[row["file"]]
        if capture_id is None:
            continue
        decisions, actions = store.captures.items([capture_id])
        items: list[DecisionRecord | ActionItemRecord] = [*decisions, *actions]
        for item in items:
            member = cast.member(names.get(item.person_id or 0))
            if item.person_id is not None and member not in row["attendees"]:
                who = names.get(item.person_id, "?")
                bench.wrong_attendees.append(f"{row['file']}: {who} for {item.description[:50]}")
        for action, wanted in match(actions, row["actions"]):
            bench.owners_matched += 1
            got = cast.member(names.get(action.person_id or 0))
            if got == wanted["owner"]:
                bench.owners_right += 1
            else:
                said = names.get(action.person_id or 0) or action.assignee_raw
                pending = " (pending)" if action.pending else ""
                bench.owner_misses.append(
                    f"{row['file'][:30]}: {wanted['owner']} got {said}{pending}: "
                    f"{action.description[:50]}"
                )
        for decision, wanted in match(decisions, row["decisions"]):
            if wanted["decider"]:
                bench.deciders_matched += 1
                bench.deciders_right += (
                    cast.member(names.get(decision.person_id or 0)) == (wanted["decider"])
                )


def format_report(bench: PeopleBench) -> str:
    rows = [f"name cases {sum(c.right for c in bench.cases)}/{len(bench.cases)}"]
    rows += [
        f"  {c.id} {c.mention!r} in {(c.context or 'the store')[:40]}: expected {c.expected}, "
        f"got {c.got}"
        for c in bench.cases
        if not c.right
    ]
    rows.append(
        f"owners and deciders linked to someone not at the meeting: {len(bench.wrong_attendees)}"
    )
    rows += [f"  {w}" for w in bench.wrong_attendees]
    rows.append(f"duplicate people: {len(bench.duplicates)} (of {bench.people} people)")
    rows += [f"  {d}" for d in bench.duplicates]
    share = bench.owners_right / bench.owners_matched if bench.owners_matched else 0.0
    rows.append(
        f"owners right {bench.owners_right}/{bench.owners_matched} ({share:.0%}) of the action "
        f"items matched to truth; deciders right {bench.deciders_right}/{bench.deciders_matched}"
    )
    rows += [f"  {m}" for m in bench.owner_misses]
    rows.append(f"({bench.seconds:.1f} s)")
    return "\n".join(rows)
