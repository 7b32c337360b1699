"""What an agent may cite on the page it writes: facts that exist, and on a project's page
only that project's facts (its meetings' and its notes), so a project's document never cites
another project's meetings unless they are linked to it."""

from __future__ import annotations

from memo_tui.core.agents.spec import RunSpec
from store import Store


def uncitable(store: Store, spec: RunSpec, keys: list[int]) -> str | None:
    """Why the run may not cite `keys` on its entity's page; None when it may."""
    known = store.facts.by_keys(keys)
    missing = [k for k in keys if k not in known]
    if missing:
        return f"no such fact ids: {missing}; cite ids the tools returned"
    if spec.entity_type != "project" or spec.entity_id is None:
        return None
    own = store.facts.of_project(spec.entity_id, keys)
    outside = [k for k in keys if k not in own]
    if outside:
        return (
            f"facts {outside} are not this project's (its meetings' or notes'): cite what "
            "list_project_evidence returns, or link their meeting to the project first"
        )
    return None
