"""Whether a person is one of a group the record lists: "Is Hannah part of the on-call
rotation?" is answered by the line that names the rotation's people ("a weekly rotation:
Jon, Sam, Marta and Priya"), by whether it names her. A heuristic, said as one: the answer
tells which line it read and the names it found there, not that she was left out."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memo_tui.core.capture.offline.text import content_words_and_parts
from memo_tui.core.recall.filters import QuestionFilters
from memo_tui.core.recall.gate import WHO_LABELS, person_names
from store import Directory

# "is Hannah part of the rotation", "was Tom on the panel", "are Sam and Priya in the team"
ASKS_IF_MEMBER = re.compile(
    r"^\W*(?i:is|are|was|were)\s+(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+(?:still\s+)?"
    r"(?:(?:a\s+)?part of|one of|among|a member of|included in|in|on)\s+(?P<what>[^?]+)",
)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
_NAMES = re.compile(r"\b[A-Z][\w'\u2019-]+(?:\s+[A-Z][\w'\u2019-]+)*")  # "Sam Okafor", "Priya"
LISTED = 2  # other people a sentence must name to be a list of who is in


@dataclass(frozen=True)
class Membership:
    """The person a question asks about, the group, and the names of everyone known."""

    person: str
    own: frozenset[str]  # what names them: full name, first name, aliases
    group: frozenset[str]  # the group's words ("on-call", "rotation")
    known: frozenset[str]  # the first words of any known person's names

    def said(self, lines: list[tuple[int, str]]) -> str:
        """ "Hannah Osei is not among those [1] names: Jon, Sam, Marta and Priya." for the
        first line (with its citation number) that has a sentence about the group naming
        people; or "". A question ("Hannah, would you join?") lists no one."""
        for n, line in lines:
            stated = WHO_LABELS.sub("", _spoken(line))  # a decider is not listed
            for sentence in _SENTENCE.split(stated):
                about = self.group & content_words_and_parts(sentence)
                if sentence.rstrip().endswith("?") or 2 * len(about) < len(self.group):
                    continue
                named = [
                    run
                    for run in dict.fromkeys(_NAMES.findall(sentence))
                    if run.split()[0] in self.known
                ]
                if any(run in self.own for run in named):
                    return f"{self.person} is among those [{n}] names."
                if len(named) >= LISTED:
                    listed = ", ".join(named[:-1]) + f" and {named[-1]}"
                    return f"{self.person} is not among those [{n}] names: {listed}."
        return ""


def membership(question: str, filters: QuestionFilters, directory: Directory) -> Membership | None:
    """What the question asks, when it asks whether one known person is in a group."""
    asked = ASKS_IF_MEMBER.search(question)
    people = filters.named("person")
    if not asked or len(people) != 1:
        return None
    person = people[0]
    if person.mention.split()[0] not in asked.group("who").split():
        return None
    aliases_of = [
        a.alias for a in directory.aliases if a.entity_type == "person" and a.entity_id == person.id
    ]
    group = content_words_and_parts(asked.group("what"))
    if not group:
        return None
    names = [person.name, person.mention, *aliases_of]
    return Membership(
        person.name,
        frozenset(names + _first_words(names)),
        frozenset(group),
        frozenset(_first_words(person_names(directory))),
    )


def _first_words(names: list[str]) -> list[str]:
    return [name.split()[0] for name in names if name.strip()]


def _spoken(line: str) -> str:
    """A line without its speaker ("Libby: No. On-call moves …"): a speaker is not listed."""
    turn = re.match(r"^([^:\n]{2,40}):\s+", line)
    named = turn and all(word[0].isupper() for word in turn.group(1).split())
    return line[turn.end() :] if turn and named else line
