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
            "record_no_change",
        ),
        required=tuple(
            requirement
            for key in PROJECT_SECTIONS
            for requirement in (
                Requirement("write_section", {"key": key}, any_of=key),
                Requirement("record_no_change", {"key": key}, any_of=key),
            )
        ),
        model=model,
        context_limit=context_limit,
    )


def brief(spec: RunSpec) -> str:
    """The run's first user message."""
    return f"Compile the living document for the project {spec.entity_name!r}."


AGENTS = {"project_compile": project_compile}
