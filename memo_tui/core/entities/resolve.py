"""Who (or which project, which client) a name means: resolved, ambiguous, or nobody known.

Three bands, as DESIGN.md sets them: below 0.5 nothing; at or above 0.85 resolved (and the
caller caches an alias); between, up to four candidates for the user to choose from. Two
candidates within TIE of each other are never decided by spelling: memo asks. Core never asks
the user itself; it returns `NeedsDisambiguation` and the UI or CLI does the asking.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from memo_tui.core.entities.names import normalize, similarity
from store import Directory, PersonRow

AMBIGUOUS = 0.5
AUTO_RESOLVE = 0.85
MAX_CANDIDATES = 4
TIE = 0.05

EntityType = Literal["person", "project", "client"]
ENTITY_TYPES: tuple[EntityType, ...] = ("person", "project", "client")


@dataclass(frozen=True)
class Candidate:
    id: int
    name: str
    score: float


@dataclass(frozen=True)
class Resolved:
    mention: str
    entity: Candidate
    via: Literal["name", "alias", "fuzzy", "meeting"]
    status: Literal["resolved"] = "resolved"

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        return (self.entity,)


@dataclass(frozen=True)
class NeedsDisambiguation:
    mention: str
    candidates: tuple[Candidate, ...]
    status: Literal["ambiguous"] = "ambiguous"


@dataclass(frozen=True)
class Unresolved:
    mention: str
    reason: Literal["no_match", "declined"]
    candidates: tuple[Candidate, ...] = ()
    status: Literal["none"] = "none"


Resolution = Resolved | NeedsDisambiguation | Unresolved


def entities(directory: Directory, entity_type: EntityType) -> list[PersonRow]:
    return {
        "person": directory.people,
        "project": directory.projects,
        "client": directory.clients,
    }[entity_type]


def rank(
    mention: str,
    directory: Directory,
    entity_type: EntityType = "person",
    among: Collection[int] | None = None,
) -> list[Candidate]:
    """Every entity scoring at least AMBIGUOUS, best first; each by its best name or alias."""
    names: dict[int, str] = {
        e.id: e.name for e in entities(directory, entity_type) if among is None or e.id in among
    }
    best: dict[int, float] = {i: similarity(mention, name) for i, name in names.items()}
    for alias in directory.aliases:
        if alias.entity_type == entity_type and alias.entity_id in best:
            score = similarity(mention, alias.alias) * alias.confidence
            best[alias.entity_id] = max(best[alias.entity_id], score)
    ranked = [Candidate(i, names[i], round(s, 3)) for i, s in best.items() if s >= AMBIGUOUS]
    return sorted(ranked, key=lambda c: (-c.score, c.name.casefold(), c.id))


def decide(mention: str, ranked: list[Candidate]) -> Resolution:
    """The bands and the tie rule over ranked candidates."""
    if not ranked:
        return Unresolved(mention, "no_match")
    top = ranked[0]
    clear = len(ranked) == 1 or ranked[1].score < top.score - TIE
    if top.score >= AUTO_RESOLVE and clear:
        return Resolved(mention, top, "name" if top.score == 1.0 else "fuzzy")
    return NeedsDisambiguation(mention, tuple(ranked[:MAX_CANDIDATES]))


def resolve(
    mention: str,
    directory: Directory,
    entity_type: EntityType = "person",
    among: Collection[int] | None = None,
) -> Resolution:
    """What `mention` means, store-wide or `among` some entities (a meeting's attendees).

    An alias the user confirmed (or declined) settles it; otherwise spelling decides.
    """
    key = normalize(mention)
    if not key:
        return Unresolved(mention, "no_match")
    if among is None:
        said = [
            a
            for a in directory.aliases
            if a.entity_type == entity_type and normalize(a.alias) == key
        ]
        # The user's word over a guess, and the newest word over older ones.
        said.sort(key=lambda a: not a.auto_resolved)
        for alias in reversed(said):
            if alias.entity_id is None:
                return Unresolved(mention, "declined")
            found = next(
                (e for e in entities(directory, entity_type) if e.id == alias.entity_id), None
            )
            if found is not None:
                return Resolved(mention, Candidate(found.id, found.name, alias.confidence), "alias")
    return decide(mention, rank(mention, directory, entity_type, among))
