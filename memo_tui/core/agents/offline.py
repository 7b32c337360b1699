"""Offline agent policies: deterministic, scripted turns that call the same tools a model
would and write plain template prose from the evidence they loaded. Named as such in what
they write ("offline agent"), so nobody mistakes them for a model's reading.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from memo_tui.core.agents.sourced import sourced_answer
from memo_tui.core.llm.types import Completion, Request, ToolCall, Usage
from memo_tui.core.recall.extractive import MOST
from memo_tui.core.words import plural

Policy = Callable[[Request], Completion]
_FRICTION = re.compile(
    r"\b(block\w*|risk\w*|issue\w*|delay\w*|problem\w*|concern\w*|rollback|roll back|"
    r"fail\w*|slip\w*|late|broke\w*|bug\w*|outage|wait\w*|stuck|postpone\w*)\b",
    re.I,
)


def _results(request: Request) -> dict[str, dict[str, Any]]:
    """Every tool result so far, by tool name (the latest of each)."""
    names = {call.id: call.name for message in request.messages for call in message.tool_calls}
    found: dict[str, dict[str, Any]] = {}
    for message in request.messages:
        for result in message.tool_results:
            found[names.get(result.call_id, "")] = json.loads(result.content)
    return found


def _turn(text: str, *calls: tuple[str, dict[str, Any]], step: int) -> Completion:
    made = tuple(
        ToolCall(f"offline-{step}-{n}", name, args) for n, (name, args) in enumerate(calls)
    )
    return Completion(text, made, Usage(), "tool_use" if made else "end_turn", "offline")


def _steps(request: Request) -> int:
    return sum(1 for m in request.messages if m.role == "assistant")


def project_compile(request: Request) -> Completion:
    step = _steps(request)
    if step == 0:
        return _turn(
            "Loading the project and its evidence.",
            ("get_project", {}),
            ("list_project_evidence", {"limit": 80}),
            step=step,
        )
    if step == 1:
        loaded = _results(request)
        project = loaded.get("get_project", {})
        facts = loaded.get("list_project_evidence", {}).get("facts", [])
        writes = _project_sections(project, facts)
        return _turn("Writing the sections from the evidence.", *writes, step=step)
    return _turn("Done: every section is written from the stored evidence.", step=step)


OFFLINE_NOTE = "\n\n(Written by the offline agent from the stored evidence; no model read it.)"


def _section(
    key: str, body: str, cited: list[int], noted: bool = False
) -> tuple[str, dict[str, Any]]:
    """A section to write; the document's first (`noted`) says once how it was written."""
    note = OFFLINE_NOTE if noted else ""
    return "write_section", {"key": key, "body": body + note, "cited_fact_ids": cited}


def _project_sections(
    project: dict[str, Any], facts: list[dict[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    name = project.get("name", "The project")
    meetings = sorted(project.get("meetings", []), key=lambda m: m["date"])
    decisions = [f for f in facts if f["type"] == "decision"]
    actions = [f for f in facts if f["type"] == "action_item"]
    client = f" for {project['client']}" if project.get("client") else ""
    if meetings:
        first, last = meetings[0]["date"], meetings[-1]["date"]
        span = f"{plural(len(meetings), 'meeting')} from {first} to {last}"
    else:
        span = "no linked meetings yet"
    summary = (
        f"{name}{client}: {span}, with {plural(len(decisions), 'decision')} and "
        f"{plural(len(actions), 'action item')} on record."
    )
    if decisions:
        summary += f" Most recent decision ({decisions[0]['date']}): {decisions[0]['text']}"
    by_month: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for fact in decisions:
        by_month[fact["date"][:7]].append(fact)
    phases = (
        "\n".join(
            f"- {month}:\n" + "\n".join(f"  - {f['text']}" for f in reversed(items[:3]))
            for month, items in sorted(by_month.items())
        )
        or "No decisions are recorded yet, so there are no phases to tell apart."
    )
    friction = [f for f in facts if _FRICTION.search(f["text"])][:6]
    friction_text = "\n".join(f"- {f['date']}: {f['text']}" for f in friction) or (
        "Nothing in the evidence reads as friction (no blockers, risks, delays or failures)."
    )
    latest = decisions[:3]
    open_items = actions[:5]
    understanding = (
        "\n".join(
            [f"- decided {f['date']}: {f['text']}" for f in latest]
            + [f"- to do: {f['text']}" for f in open_items]
        )
        or "Nothing is decided or assigned yet."
    )
    return [
        _section("summary", summary, [f["fact_id"] for f in decisions[:1]], noted=True),
        _section(
            "phases", phases, [f["fact_id"] for items in by_month.values() for f in items[:3]]
        ),
        _section("friction_points", friction_text, [f["fact_id"] for f in friction]),
        _section(
            "current_understanding",
            understanding,
            [f["fact_id"] for f in [*latest, *open_items]],
        ),
    ]


_PERIOD = re.compile(r"since=(?P<since>[\d-]+), until=(?P<until>[\d-]+)")


def digest(request: Request) -> Completion:
    step = _steps(request)
    period = _PERIOD.search(request.messages[0].text)
    since, until = (period["since"], period["until"]) if period else ("", "")
    window = {"since": since, "until": until, "limit": 100}
    if step == 0:
        return _turn(
            "Loading the week's decisions and action items.",
            ("list_decisions", window),
            ("list_action_items", window),
            step=step,
        )
    if step == 1:
        loaded = _results(request)
        decisions = loaded.get("list_decisions", {}).get("facts", [])
        actions = loaded.get("list_action_items", {}).get("facts", [])
        lines = [
            f"Week of {since} to {until}: {plural(len(decisions), 'decision')}, "
            f"{plural(len(actions), 'action item')}."
        ]
        if decisions:
            lines.append("\nDecided:")
            lines += [f"- {f['date']} ({f['meeting']}): {f['text']}" for f in reversed(decisions)]
        if actions:
            lines.append("\nTo do:")
            lines += [f"- {f['text']} [{f['meeting']}]" for f in reversed(actions)]
        if not decisions and not actions:
            lines.append("No meetings recorded a decision or an action item this week.")
        lines.append("\n(Written by the offline agent from the stored evidence.)")
        body = "\n".join(lines)
        args = {"period_start": since, "period_end": until, "body": body}
        return _turn("Writing the digest.", ("write_digest", args), step=step)
    return _turn("Done: the digest is written.", step=step)


def collector(request: Request) -> Completion:
    step = _steps(request)
    if step == 0:
        return _turn(
            "Looking for meetings that name the project but are not linked to it.",
            ("get_project", {}),
            ("find_unlinked_evidence", {}),
            step=step,
        )
    if step == 1:
        found = _results(request).get("find_unlinked_evidence", {})
        meetings = found.get("meetings", [])[:5]
        if not meetings:
            reason = f"every meeting that names {found.get('project', 'the project')} is linked"
            return _turn(
                reason, ("record_no_change", {"key": "backfill", "reason": reason}), step=step
            )
        reason = "; ".join(f"{m['title']} names it {m['mentions']}x" for m in meetings)
        args = {"capture_ids": [m["id"] for m in meetings], "reason": reason}
        return _turn("Proposing them.", ("propose_backfill", args), step=step)
    return _turn("Done.", step=step)


_WORD = re.compile(r"[A-Za-zÀ-ÿ][\w-]{3,}")
_COMMON = frozenset(
    "that this with from will have they their about before after into what when which "
    "there been were also just then than them more need needs next week today tomorrow "
    "owner reasoning decided going make sure send write call back done each".split()
) | frozenset(  # a date is no topic: "January (2)"
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


def person_enrich(request: Request) -> Completion:
    step = _steps(request)
    if step == 0:
        return _turn("Loading the person.", ("get_person", {}), step=step)
    if step == 1:
        person = _results(request).get("get_person", {})
        return _turn("Writing the facets and the profile.", *_person_writes(person), step=step)
    return _turn("Done.", step=step)


def _person_writes(person: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    name = person.get("name", "This person")
    owes, decided = person.get("owes", []), person.get("decided", [])
    meetings = person.get("meetings", [])
    titles: dict[str, int] = defaultdict(int)
    for meeting in meetings:
        titles[meeting["title"]] += 1
    usual = ", ".join(t for t, _ in sorted(titles.items(), key=lambda kv: -kv[1])[:3])
    role = (
        f"{name} attends {len(meetings)} recorded meetings (most often: {usual or 'none'}), "
        f"made {plural(len(decided), 'decision')} and owes {plural(len(owes), 'open action item')}."
    )
    own = {w.lower() for w in name.split()}
    counts: dict[str, int] = defaultdict(int)
    for item in [*decided, *owes]:
        for word in _WORD.findall(item["text"]):
            if word.lower() not in _COMMON and word.lower() not in own and word[0].isupper():
                counts[word] += 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:6]
    topics = ", ".join(f"{w} ({n})" for w, n in top) or "No recurring topics in the evidence."
    commitments = (
        "\n".join(f"- {a['text']}" + (f" (due {a['due']})" if a.get("due") else "") for a in owes)
        or "Nothing open."
    )
    profile = f"{role} Recurring topics: {topics}. " + (
        f"Latest decision: {decided[0]['text']}" if decided else "No decisions recorded."
    )
    note = OFFLINE_NOTE
    decided_ids = [d["fact_id"] for d in decided[:5]]
    owed_ids = [a["fact_id"] for a in owes]
    return [
        ("write_person_facet", {"facet": "role", "value": role, "cited_fact_ids": decided_ids}),
        ("write_person_facet", {"facet": "topics", "value": topics, "cited_fact_ids": []}),
        (
            "write_person_facet",
            {"facet": "commitments", "value": commitments, "cited_fact_ids": owed_ids},
        ),
        (
            "write_section",
            {"key": "profile", "body": profile + note, "cited_fact_ids": decided_ids[:3]},
        ),
    ]


_CONCEPT = re.compile(r"the concept (['\"])(?P<name>.+)\1")


def concept_compile(request: Request) -> Completion:
    """Search for the concept by name, then write its three sections from what came back:
    where it comes up, what was decided about it (what holds now), and how that changed over
    time (told by its decisions, tasks and notes, not excerpts or summaries, when there are
    enough of them)."""
    step = _steps(request)
    found = _CONCEPT.search(request.messages[0].text)
    name = found["name"] if found else request.messages[0].text
    if step == 0:
        return _turn("Searching the facts about it.", _search(name, 30), step=step)
    if step == 1:
        facts = _results(request).get("search_facts", {}).get("facts", [])
        return _turn("Writing the sections.", *_concept_sections(name, facts), step=step)
    return _turn("Done: every section is written from the stored evidence.", step=step)


def _concept_sections(name: str, facts: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    dated = sorted(facts, key=lambda f: f["date"] or "")
    meetings = sorted({f["meeting"] for f in facts if f.get("meeting")})
    if dated:
        scope = (
            f"'{name}' comes up in {plural(len(facts), 'stored fact')} across "
            f"{plural(len(meetings), 'meeting')} and threads, "
            f"from {dated[0]['date']} to {dated[-1]['date']}: " + ", ".join(meetings[:5]) + "."
        )
    else:
        scope = f"Nothing stored mentions '{name}' yet."
    decided = [f for f in dated if f["type"] == "decision" and not f.get("replaced_by")]
    insights = "\n".join(f"- {f['date']}: {_first(f['text'])}" for f in decided[-6:]) or (
        "No decision about it is on record."
    )
    said = [f for f in dated if f["type"] not in ("excerpt", "summary")]  # decided, owed, noted
    told = said if len(said) >= 3 else dated
    steps = [told[0], told[len(told) // 2], told[-1]] if len(told) >= 3 else told
    evolving = (
        "\n".join(
            f"- {f['date']} ({f['type'].replace('_', ' ')}): {_first(f['text'])}" for f in steps
        )
        or "Too little is stored to see it change."
    )
    return [
        _section("scope_summary", scope, [f["fact_id"] for f in dated[:3]], noted=True),
        _section("distilled_insights", insights, [f["fact_id"] for f in decided[-6:]]),
        _section("evolving_understanding", evolving, [f["fact_id"] for f in steps]),
    ]


def _first(text: str) -> str:
    return text.splitlines()[0] if text else ""


def chat(request: Request) -> Completion:
    """Search the stored facts for the question and quote the strongest, each cited by its
    label, as `memo ask` does (what holds now first; "No record of …" when none is about
    it). A follow-up ("and when is it due?": few words of its own, leaning on the question
    before) is searched together with that question, and so is one that finds nothing alone;
    "show all" quotes every fact the question before it matched."""
    from memo_tui.core.recall.answer import NO_FACTS

    asked = [n for n, m in enumerate(request.messages) if m.role == "user" and m.text]
    question = request.messages[asked[-1]].text
    earlier = [request.messages[n].text for n in asked[:-1]]
    since = request.messages[asked[-1] + 1 :]
    step = sum(1 for m in since if m.role == "assistant")
    if step == 0:
        asked_before = [q for q in earlier if not SHOW_ALL.match(q)]
        if asked_before and SHOW_ALL.match(question):
            return _turn("Listing every one.", _search(asked_before[-1], every=True), step=step)
        query = f"{earlier[-1]} {question}" if earlier and _follow_up(question) else question
        return _turn("Searching the stored facts.", _search(query), step=step)
    every = any(call.arguments.get("every") for m in since for call in m.tool_calls)
    names = {call.id: call.name for m in since for call in m.tool_calls}
    found = [
        json.loads(r.content)
        for m in since
        for r in m.tool_results
        if names.get(r.call_id) == "search_facts"
    ]
    facts = found[-1].get("facts", []) if found else []
    if (not facts or found[-1].get("no_record")) and step == 1 and earlier:
        return _turn(
            "Nothing alone; searching with the question before it.",
            _search(f"{earlier[-1]} {question}"),
            step=step,
        )
    if not facts:
        return _turn(NO_FACTS, step=step)
    return _turn(sourced_answer(found[-1], len(facts) if every else MOST), step=step)


_LEANING = re.compile(
    r"^\s*(and|also|so|then|what about|how about)\b|"
    r"\b(it|its|that|this|those|these|they|them|he|she|him|her)\b",
    re.I,
)


def _follow_up(question: str) -> bool:
    """Leans on the question before: a pronoun or "and ..." and at most three words of its
    own to search by (a heuristic)."""
    from memo_tui.core.recall.retrieve import search_words

    return bool(_LEANING.search(question)) and len(search_words(question).split()) <= 3


def _search(query: str, limit: int = 10, every: bool = False) -> tuple[str, dict[str, Any]]:
    return "search_facts", {"query": query, "limit": limit, **({"every": True} if every else {})}


# "show all", "list them all", "all of them", "show me the rest": the question before, with
# every fact it matched.
SHOW_ALL = re.compile(
    r"^\W*(?:(?:show|list|give|see)(?: me)?(?: them)? (?:all|every\w*|the rest|the others)"
    r"|all of them|(?:and )?the rest)\b",
    re.IGNORECASE,
)


POLICIES: dict[str, Policy] = {
    "chat": chat,
    "concept_compile": concept_compile,
    "person_enrich": person_enrich,
    "collector": collector,
    "digest": digest,
    "project_compile": project_compile,
}


def policy_for(request: Request) -> Policy | None:
    agent = request.trigger.removeprefix("agent:")
    return POLICIES.get(agent) if request.trigger.startswith("agent:") else None
