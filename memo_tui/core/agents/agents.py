"""The agents: what each is for, its tools, and the writes it must make."""

from __future__ import annotations

from memo_tui.core.agents.spec import Requirement, RunSpec

PROJECT_SECTIONS = ("summary", "phases", "friction_points", "current_understanding")

PROJECT_COMPILE_SYSTEM = """You keep a project's living document for a team's memory tool.
Load the project and its evidence with the tools, then write each section with
write_section, citing the fact ids it rests on: summary (what the project is and where it
stands), phases (how it moved, dated), friction_points (what slowed it or went wrong), and
current_understanding (what is true now: latest decisions, open action items and owners).
Write only what the evidence says. A section the user edited is theirs: if write_section
answers skipped_user_edit, leave it. Use record_no_change for a section that is already
right. Stop when every section is written."""


def sections_written(keys: tuple[str, ...]) -> tuple[Requirement, ...]:
    """Each section written, or said to need no change (either one counts)."""
    return tuple(
        requirement
        for key in keys
        for requirement in (
            Requirement("write_section", {"key": key}, any_of=key),
            Requirement("record_no_change", {"key": key}, any_of=key),
        )
    )


def project_compile(
    project_id: int, name: str, model: str, context_limit: int = 128_000
) -> RunSpec:
    return RunSpec(
        agent="project_compile",
        entity_type="project",
        entity_id=project_id,
        entity_name=name,
        system=PROJECT_COMPILE_SYSTEM,
        tools=(
            "get_project",
            "list_project_evidence",
            "search_facts",
            "get_fact",
            "context_status",
            "write_section",
            "link_evidence",
            "record_no_change",
        ),
        required=sections_written(PROJECT_SECTIONS),
        model=model,
        context_limit=context_limit,
    )


DIGEST_SYSTEM = """You write a team's weekly digest. Load the week's decisions and action
items with the tools (since and until are the week's first and last day), then call
write_digest once: what was decided (and why, when the evidence says), and what is open,
with owners and due dates. Cite nothing you did not load; write only what the evidence says.
Stop after the digest is written."""


def digest(period_start: str, period_end: str, model: str, context_limit: int = 128_000) -> RunSpec:
    return RunSpec(
        agent="digest",
        entity_type=None,
        entity_id=None,
        entity_name=f"{period_start}..{period_end}",
        system=DIGEST_SYSTEM,
        tools=(
            "list_decisions",
            "list_action_items",
            "search_facts",
            "get_fact",
            "get_capture",
            "context_status",
            "write_digest",
        ),
        required=(Requirement("write_digest", {"period_start": period_start}),),
        model=model,
        context_limit=context_limit,
    )


COLLECTOR_SYSTEM = """You find evidence about a project that is not linked to it yet. Load the
project, then find_unlinked_evidence; read a meeting (get_capture) when its title does not
make clear it is about the project. Propose the meetings that really are about it with one
propose_backfill call, with the reason; the user accepts or rejects. If none are, call
record_no_change with key 'backfill' and say why. Then stop."""


def collector(project_id: int, name: str, model: str, context_limit: int = 128_000) -> RunSpec:
    return RunSpec(
        agent="collector",
        entity_type="project",
        entity_id=project_id,
        entity_name=name,
        system=COLLECTOR_SYSTEM,
        tools=(
            "get_project",
            "find_unlinked_evidence",
            "get_capture",
            "search_facts",
            "context_status",
            "propose_backfill",
            "record_no_change",
        ),
        required=(
            Requirement("propose_backfill", any_of="backfill"),
            Requirement("record_no_change", {"key": "backfill"}, any_of="backfill"),
        ),
        model=model,
        context_limit=context_limit,
    )


PERSON_ENRICH_SYSTEM = """You keep a person's page in a team's memory tool. Load the person
with get_person (and meetings with get_capture when you need more), then write their
facets with write_person_facet: role (what they do, as the meetings show it), topics (what
they work on) and commitments (what they owe, with due dates), and a short narrative with
write_section key 'profile'. Cite the fact ids each rests on; write only what the evidence
says. A section the user edited is theirs. Stop when all are written."""

PERSON_FACETS = ("role", "topics", "commitments")


def person_enrich(person_id: int, name: str, model: str, context_limit: int = 128_000) -> RunSpec:
    facets = tuple(
        requirement
        for facet in PERSON_FACETS
        for requirement in (
            Requirement("write_person_facet", {"facet": facet}, any_of=facet),
            Requirement("record_no_change", {"key": f"facet:{facet}"}, any_of=facet),
        )
    )
    return RunSpec(
        agent="person_enrich",
        entity_type="person",
        entity_id=person_id,
        entity_name=name,
        system=PERSON_ENRICH_SYSTEM,
        tools=(
            "get_person",
            "get_capture",
            "search_facts",
            "get_fact",
            "context_status",
            "write_person_facet",
            "write_section",
            "link_evidence",
            "record_no_change",
        ),
        required=(
            *facets,
            Requirement("write_section", {"key": "profile"}, any_of="profile"),
            Requirement("record_no_change", {"key": "profile"}, any_of="profile"),
        ),
        model=model,
        context_limit=context_limit,
    )


CONCEPT_SECTIONS = ("scope_summary", "distilled_insights", "evolving_understanding")

CONCEPT_COMPILE_SYSTEM = """You keep the living document of a concept (an idea the user
follows across meetings and email) in a team's memory tool. Find the facts about it with
search_facts (try the name and close wordings), read meetings or lines when you need more,
then write each section with write_section, citing the fact ids it rests on:
scope_summary (what the concept means here and where it comes up), distilled_insights (what
was learned or decided about it, with who and why), and evolving_understanding (how the
thinking about it changed, dated). Write only what the evidence says. A section the user
edited is theirs. Use record_no_change for a section already right. Stop when all are
written."""


def concept_compile(
    concept_id: int, name: str, model: str, context_limit: int = 128_000
) -> RunSpec:
    return RunSpec(
        agent="concept_compile",
        entity_type="concept",
        entity_id=concept_id,
        entity_name=name,
        system=CONCEPT_COMPILE_SYSTEM,
        tools=(
            "search_facts",
            "get_fact",
            "get_capture",
            "get_capture_lines",
            "context_status",
            "write_section",
            "link_evidence",
            "record_no_change",
        ),
        required=sections_written(CONCEPT_SECTIONS),
        model=model,
        context_limit=context_limit,
    )


CHAT_SYSTEM = """You answer questions about a team's meetings in a memory tool. Look things
up with the tools (search_facts first; then meetings, lines, people or projects as needed).
Every fact a tool returns carries a label like [3]: answer ONLY from facts the tools
returned, and cite each claim with its label, exactly as given. Never invent a label or a
fact. A fact with replaced_by was replaced by the fact it names: lead with the one that holds
now and mention the old one after it. When search_facts says no_record, or what you found
does not answer the question, begin with "No record of" and the topic, and name the closest
facts as not answering it. When search_facts gives listed.total and you cite fewer of them,
say how many more there are and that "show all" lists them (search again with every=true
when asked to). Earlier questions and answers in the conversation are context for follow-up
questions. Be brief."""

CHAT_TOOLS = (
    "search_facts",
    "get_fact",
    "get_capture",
    "get_capture_lines",
    "list_decisions",
    "list_action_items",
    "get_person",
    "get_project",
    "list_project_evidence",
    "context_status",
)


def chat(question: str, model: str, context_limit: int = 128_000) -> RunSpec:
    """The Ask pane's agent: read-only tools, no writes owed; its entity is the question."""
    return RunSpec(
        agent="chat",
        entity_type=None,
        entity_id=None,
        entity_name=question,
        system=CHAT_SYSTEM,
        tools=CHAT_TOOLS,
        model=model,
        max_steps=8,
        context_limit=context_limit,
    )


def brief(spec: RunSpec) -> str:
    """The run's first user message."""
    if spec.agent == "chat":
        return spec.entity_name
    if spec.agent == "digest":
        start, end = spec.entity_name.split("..")
        return f"Write the digest for the week {start} to {end} (since={start}, until={end})."
    if spec.agent == "person_enrich":
        return f"Bring the page of {spec.entity_name!r} up to date."
    if spec.agent == "concept_compile":
        return f"Compile the living document for the concept {spec.entity_name!r}."
    if spec.agent == "collector":
        return f"Find meetings about the project {spec.entity_name!r} that are not linked to it."
    return f"Compile the living document for the project {spec.entity_name!r}."


AGENTS = ("chat", "collector", "concept_compile", "digest", "person_enrich", "project_compile")
